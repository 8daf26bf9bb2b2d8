// The dynamic program over states and the memo protocol (room: owns no
// state of its own; calls the NodeBuilder for a state not solved before,
// and the last level for one solved from its rows): a split's two
// children, each found in the memo by its hash alone or written out and
// solved, and solved states stored in the memo.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/data/options.h"
#include "core/data/row_codes.h"
#include "core/fronts/node.h"
#include "core/runtime/runtime.h"
#include "core/search/context.h"
#include "core/search/guards.h"
#include "core/search/last_level.h"
#include "core/search/memo.h"
#include "core/search/workspace.h"
#include "core/splits/candidates.h"
#include "core/splits/partition.h"

namespace dpdt {

// A state's front with min_bucket 1 (NodeBuilder::front_with_min_bucket_one()):
// a lower bound of its own front at every complexity. `kept_min_bucket`:
// its points whose trees leave every leaf min_bucket rows or more (action
// kIncumbent), trees of the state's own search that lose no more than
// any, so its own optimum where they are; only with exact sums, as every
// incumbent (Search::incumbent_options()), and not with best_only (else
// empty).
struct FrontWithMinBucketOne {
  std::vector<FrontPoint> front;
  std::vector<FrontPoint> kept_min_bucket;
};

// Solves a state not in the memo (its front and splits): the search's
// conductor.
class NodeBuilder {
 public:
  virtual std::unique_ptr<Node> build_node(Workspace& ws, const Entry* block, int m, int depth,
                                           std::uint64_t hash, const NodeStats& total,
                                           double loss) = 0;
  // The same of a state given by its rows (StateSolver::solve_children_of_rows()).
  virtual std::unique_ptr<Node> build_node_of_rows(Workspace& ws, const int* rows, int m,
                                                   int depth, std::uint64_t hash,
                                                   const NodeStats& total, double loss) = 0;
  // The front of a state (two levels left) with min_bucket = 1, for the
  // bounds of a search with min_bucket > 1 (Node::relaxed), with its points
  // whose trees keep min_bucket rows in every leaf.
  virtual FrontWithMinBucketOne front_with_min_bucket_one(Workspace& ws, const Entry* block, int m,
                                                          int depth, std::uint64_t hash,
                                                          const NodeStats& total,
                                                          double loss) = 0;

 protected:
  ~NodeBuilder() = default;
};

// The children of a split a caller needs solved (StateSolver::solve_children()).
struct WantedSides {
  bool left = true, right = true;
};

class StateSolver {
 public:

  StateSolver(SearchContext& c, NodeBuilder& builder, LastLevel& last, const Guards& guards)
      : c_(c), d_(c.d), opt_(c.opt), builder_(builder), last_(last), guards_(guards) {}

  // NodeBuilder::front_with_min_bucket_one() of the conductor.
  FrontWithMinBucketOne front_with_min_bucket_one(Workspace& ws, const Entry* block, int m,
                                                  int depth, std::uint64_t hash,
                                                  const NodeStats& total, double loss) {
    return builder_.front_with_min_bucket_one(ws, block, m, depth, hash, total, loss);
  }

  // Whether a state at `depth` is kept in the memo: not with one level left.
  // Such a state is solved in one pass over its rows, about what writing
  // them out costs, and holds nearly all the states of a search (exhaustive
  // depth 3 on wilt: 64,102 of 64,496, found again for 12 % of the lookups;
  // depth 4 on bank, 1.18 of 1.20 million, 31 %): keeping them made the memo
  // 99 % of a search's memory (raisin, depth 4: 17.6 GB) and saved little
  // time (none at depth 3; bank at depth 4 took 1.13 times as long without
  // them). The states that refer to it own it (ChildRef::owning()).
  bool memoised(int depth) const { return depth < opt_.max_depth - 1; }

  // A state solved before (the same rows reached by splits in another order)
  // is found in the memo by its hash alone, before its rows are written out
  // or its statistics computed: only a state that can split is ever stored,
  // and a stored child needs no leaf loss.
  bool known_child(int m, int depth, std::uint64_t hash, ChildRef& ref) {
    if (depth >= opt_.max_depth || m - opt_.min_bucket < opt_.min_bucket) return false;
    if (!memoised(depth)) return false;
    const Node* known = c_.memo.find(StateKey{hash, depth, m});
    if (known) ref = {known, 0.0};
    return known != nullptr;
  }

  // A child not in the memo: a leaf, or a state solved now.
  ChildRef new_child(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash) {
    const NodeStats s = stats_of(d_, block, m);
    const double loss = leaf_loss(d_, s);
    if (c_.terminal(depth, s, m)) return {nullptr, loss};
    return solve(ws, block, m, depth, hash, s, loss);
  }

  // Both children of a test; a child's rows are written into this depth's
  // buffers only when it is not in the memo already. A side not `wanted`
  // (its trees with a split can reach no front the caller keeps: the
  // bounded sweep) and not in the memo is only its leaf: a real tree, but
  // neither that side's front nor a bound of it. `total`: the state's
  // statistics.
  std::pair<ChildRef, ChildRef> solve_children(Workspace& ws, const Entry* block, int m,
                                               int depth, std::uint64_t hash,
                                               const NodeStats& total, const Candidate& c,
                                               WantedSides wanted = {}) {
    const bool last_children = depth + 2 == opt_.max_depth;
    const bool from_rows = last_children && m >= opt_.last_level_from_rows && last_.from_rows();
    if (last_children && !from_rows && last_.coded())
      return coded_children(ws, block, m, depth, c, wanted, total);
    const std::uint64_t left_hash = mark_sides(d_, block, m, c, ws.goes_left, c_.row_keys);
    const int lm = c.left_count, rm = m - c.left_count;
    ChildRef l, r;
    const bool l_known = known_child(lm, depth + 1, left_hash, l);
    const bool r_known = known_child(rm, depth + 1, hash - left_hash, r);
    c_.count_visits(m);  // the sides marked
    if (l_known && r_known) return {l, r};
    const bool l_solved = !l_known && wanted.left, r_solved = !r_known && wanted.right;
    if (from_rows) {
      c_.count_visits(m);
      // Children at the last level need only their rows: no blocks written.
      // Rows in index order: the children's codes are read in address order.
      const std::vector<int>& rows = ws.rows_in_order(block, m, hash);
      std::vector<int>& lr = ws.side_rows[0];
      std::vector<int>& rr = ws.side_rows[1];
      lr.resize(lm);
      rr.resize(rm);
      int a = 0, b = 0;
      for (int row : rows) {
        if (ws.goes_left[row]) lr[a++] = row;
        else rr[b++] = row;
      }
      if (!l_known) l = l_solved ? new_last_child(ws, lr.data(), lm, depth + 1, left_hash) : leaf_of_rows(lr.data(), lm);
      if (!r_known)
        r = r_solved ? new_last_child(ws, rr.data(), rm, depth + 1, hash - left_hash) : leaf_of_rows(rr.data(), rm);
      return {l, r};
    }
    Entry* const room = ws.buffer(depth + 1, m);
    Entry* const lb = room;
    Entry* const rb = room + static_cast<std::size_t>(lm) * d_.p + kPartitionSlack;
    // A side that is only its leaf first (the left child's search reuses
    // goes_left): its statistics in the order its block would hold them.
    if (!l_known && !l_solved) l = leaf_of_side(block, m, lm, true, ws.goes_left, lb);
    if (!r_known && !r_solved) r = leaf_of_side(block, m, rm, false, ws.goes_left, rb);
    c_.count_visits(static_cast<double>((l_solved ? lm : 0) + (r_solved ? rm : 0)) * d_.p);
    if (l_solved && r_solved) write_sides(d_, block, m, lm, ws.goes_left, lb, rb);
    else if (l_solved) write_side(d_, block, m, lm, true, ws.goes_left, lb);
    else if (r_solved) write_side(d_, block, m, rm, false, ws.goes_left, rb);
    // The left child's search reuses goes_left and deeper buffers only.
    if (l_solved) l = new_child(ws, lb, lm, depth + 1, left_hash);
    if (r_solved) r = new_child(ws, rb, rm, depth + 1, hash - left_hash);
    return {l, r};
  }

  // A child at the last level, given by its rows: a leaf, or solved now
  // from its rows (LastLevel::last_split_of_rows()) and stored as
  // new_child() does.
  ChildRef new_last_child(Workspace& ws, const int* rows, int m, int depth, std::uint64_t hash) {
    const NodeStats s = class_stats(d_, m, [rows](int i) { return rows[i]; });
    const double loss = leaf_loss(d_, s);
    if (c_.terminal(depth, s, m)) return {nullptr, loss};
    c_.check_abort();
    return store(StateKey{hash, depth, m}, last_.last_split_of_rows(ws, rows, m, s, loss), loss);
  }

  // Both children of a test of a state given by its rows in index order
  // (a search of CART proposals on data with row codes: Search's
  // states_of_rows()); their rows, in index order, go to this depth's
  // buffer, the left ones first. A row goes left when its code's values do
  // (every value of the codes up to the cut is at most the threshold).
  std::pair<ChildRef, ChildRef> solve_children_of_rows(Workspace& ws, const int* rows, int m,
                                                       int depth, std::uint64_t hash,
                                                       const Candidate& c) {
    const RowCodes& rc = c_.codes;
    const int f = c.feature;
    char left_code[kMaxRowCodes];
    for (int k = 0; k < rc.ranks[f]; ++k) left_code[k] = rc.highest(f, k) <= c.threshold;
    const int lm = c.left_count, rm = m - c.left_count;
    int* const lr = ws.rows_buffer(depth + 1, m);
    int* const rr = lr + lm;
    int a = 0, b = 0;
    std::uint64_t left_hash = 0;
    for (int i = 0; i < m; ++i) {
      const int row = rows[i];
      if (left_code[rc.row(row)[f]]) {
        if (a == lm) break;
        lr[a++] = row;
        left_hash += c_.row_keys[row];
      } else {
        if (b == rm) break;
        rr[b++] = row;
      }
    }
    if (a != lm || b != rm)
      throw std::logic_error("a state's rows split unlike its test's count (engine error)");
    c_.count_visits(m);
    ChildRef l, r;
    if (!known_child(lm, depth + 1, left_hash, l)) l = new_child_of_rows(ws, lr, lm, depth + 1, left_hash);
    if (!known_child(rm, depth + 1, hash - left_hash, r))
      r = new_child_of_rows(ws, rr, rm, depth + 1, hash - left_hash);
    return {l, r};
  }

  // A child given by its rows: a leaf, the last level from its rows, or a
  // state solved now (NodeBuilder::build_node_of_rows()) and stored.
  ChildRef new_child_of_rows(Workspace& ws, const int* rows, int m, int depth, std::uint64_t hash) {
    if (depth + 1 == opt_.max_depth) return new_last_child(ws, rows, m, depth, hash);
    const NodeStats s = class_stats(d_, m, [rows](int i) { return rows[i]; });
    const double loss = leaf_loss(d_, s);
    if (c_.terminal(depth, s, m)) return {nullptr, loss};
    c_.check_abort();
    return store(StateKey{hash, depth, m}, builder_.build_node_of_rows(ws, rows, m, depth, hash, s, loss),
                 loss);
  }

  // Both children at the last level (LastLevel::coded()): the sides wanted
  // written as coded columns, no blocks, by the rows' positions in the
  // cut's feature (CutPositions, made once for the state and feature: a
  // cut of coded data is a prefix of its feature's rows, as they hold no
  // missing value, bin or factor). Each side's statistics: with two classes
  // from its rows of class 1; with more, from its first column when
  // written, else from the split's rows, and only the smaller side's: the
  // other's are the state's `total` less those (sides_from_smaller(); bean
  // with exact_levels = 2 spent 4 % counting both).
  // Such children are never in the memo (memoised()): no set hash.
  std::pair<ChildRef, ChildRef> coded_children(Workspace& ws, const Entry* block, int m, int depth,
                                               const Candidate& c, WantedSides wanted,
                                               const NodeStats& total) {
    const int lm = c.left_count, rm = m - c.left_count, bits = last_.class_bits();
    std::uint32_t* const room = ws.coded_buffer(m);
    std::uint32_t* const lc = room;
    std::uint32_t* const rc = room + static_cast<std::size_t>(lm) * d_.p + kCodedSlack;
    // Counted as when each split marked its m rows (the work estimate's
    // unit); the codes and positions made once per state and feature are
    // about as much.
    c_.count_visits(m + static_cast<double>((wanted.left ? lm : 0) + (wanted.right ? rm : 0)) * d_.p);
    const Entry* split_rows = block + static_cast<std::size_t>(c.feature) * m;
    if (d_.special(c.feature, split_rows, m))
      throw std::logic_error("a coded state's split is not a prefix of its rows (engine error)");
    CutPositions& by_position = ws.cut_positions;
    by_position.prepare(d_, block, m, ws.buffer_generation(depth), bits);
    int ones[2] = {0, 0};
    if (d_.n_classes == 2) {
      ones[0] = by_position.ones_before(c.feature, lm);
      ones[1] = by_position.ones_before(c.feature, m) - ones[0];
    }
    if (wanted.left && wanted.right) by_position.write_sides(c.feature, lm, lc, rc);
    else if (wanted.left) by_position.write_side(c.feature, lm, true, lm, lc);
    else if (wanted.right) by_position.write_side(c.feature, lm, false, rm, rc);
    const auto side_stats = [&](bool written, const std::uint32_t* codes, const Entry* rows,
                                int count, int side_ones) {
      if (d_.n_classes == 2) return two_class_counts(count, side_ones);
      return written ? last_.coded_stats(codes, count) : stats_of(d_, rows, count);
    };
    const std::pair<NodeStats, NodeStats> sides = sides_from_smaller(total, m, lm, [&](bool left) {
      return left ? side_stats(wanted.left, lc, split_rows, lm, ones[0])
                  : side_stats(wanted.right, rc, split_rows + lm, rm, ones[1]);
    });
    return {new_coded_child(lc, sides.first, depth + 1, wanted.left),
            new_coded_child(rc, sides.second, depth + 1, wanted.right)};
  }

  // A child at the last level given by its coded columns and statistics:
  // its leaf when not `solved` (or when it cannot split), else solved from
  // them (LastLevel::last_split_coded()) and stored as new_child() does.
  ChildRef new_coded_child(const std::uint32_t* codes, const NodeStats& s, int depth,
                           bool solved) {
    const int m = s.count;
    const double loss = leaf_loss(d_, s);
    if (!solved || c_.terminal(depth, s, m)) return {nullptr, loss};
    c_.check_abort();
    return store(StateKey{0, depth, m}, last_.last_split_coded(codes, m, s, loss), loss);
  }

  // A side's leaf: its first feature's rows written where its block would
  // start, and their statistics, as new_child() would compute them.
  ChildRef leaf_of_side(const Entry* block, int m, int count, bool left,
                        const std::vector<char>& goes_left, Entry* out) {
    c_.count_visits(m);
    write_side_feature(block, m, count, left, goes_left, 0, out);
    return {nullptr, leaf_loss(d_, stats_of(d_, out, count))};
  }

  // A side's leaf from its rows, as new_last_child() would compute it.
  ChildRef leaf_of_rows(const int* rows, int count) const {
    return {nullptr, leaf_loss(d_, class_stats(d_, count, [rows](int i) { return rows[i]; }))};
  }

  // One child of a root split (a task of its own when several workers run).
  ChildRef solve_child(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
                       const Candidate& c, bool left) {
    const std::uint64_t left_hash = mark_sides(d_, block, m, c, ws.goes_left, c_.row_keys);
    const int count = left ? c.left_count : m - c.left_count;
    const std::uint64_t h = left ? left_hash : hash - left_hash;
    ChildRef ref;
    if (known_child(count, depth + 1, h, ref)) return ref;
    Entry* out = ws.buffer(depth + 1, count);
    c_.count_visits(m + static_cast<double>(count) * d_.p);
    write_side(d_, block, m, count, left, ws.goes_left, out);
    return new_child(ws, out, count, depth + 1, h);
  }

  ChildRef solve(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
                 const NodeStats& total, double loss) {
    c_.check_abort();
    // not in the memo: see known_child()
    return store(StateKey{hash, depth, m},
                 builder_.build_node(ws, block, m, depth, hash, total, loss), loss);
  }

  // A state solved (its leaf's `loss`), in the memo where memoised().
  ChildRef store(const StateKey& key, std::unique_ptr<Node> node, double loss) {
    if (!memoised(key.depth)) {
      c_.memo.count_unstored();
      return ChildRef::owning(std::move(node), loss);
    }
    const Node* stored = c_.memo.insert(key, std::move(node));
    if (c_.memo_bytes() > opt_.max_memory_bytes) throw SearchTooLarge(guards_.memory_message());
    return {stored, loss};
  }
 private:
  SearchContext& c_;
  const Dataset& d_;
  const SearchOptions& opt_;
  NodeBuilder& builder_;
  LastLevel& last_;
  const Guards& guards_;
};

}  // namespace dpdt
