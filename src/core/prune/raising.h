// Optimal pruning by subtree raising (PRUNING.md §4): a node is replaced by
// one of its children's subtrees, whose tests then see the rows that
// reached the node. Exact dynamic program over (node, box) pairs, memoised
// top-down on the pairs that occur:
//
//   Q[v, B, j] = least loss on the rows in box B of a tree obtained from T_v
//                by raising, with exactly j cuts pruned
//   leaf v:  Q[v, B, 0] = loss of v's label on E[B] (relabel: of the
//            majority / mean of E[B])
//   inner v: min( Q[u, B, j - c_w - 1]                 raise u
//                 Q[w, B, j - c_u - 1]                 raise w
//                 min_{a+b=j} Q[u, B_u, a] + Q[w, B_w, b] )   keep v
//
// A box restricts each tested feature: an interval (lo, hi] of numeric
// thresholds, a set of levels (categorical tests: levels kept / levels
// excluded), and whether rows missing the feature are still inside (they go
// to each test's learned NA side). The number of pairs can grow like
// 2^depth per node: count them first (count_states) and refuse above a limit.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/fronts/tree.h"
#include "core/prune/pruning.h"
#include "core/runtime/runtime.h"

namespace dpdt {

class RaisingFront {
 public:
  // x: column-major n x p feature matrix of the rows losses are counted on;
  // keep: the tree's own label of every node (used unless relabel).
  RaisingFront(const FlatTree& t, const double* x, const PruneRows& r, const std::vector<double>& keep,
               bool relabel)
      : t_(t), x_(x), r_(r), keep_(keep), relabel_(relabel), cuts_(subtree_cuts(t)) {
    setup_boxes();
  }

  // Number of distinct (node, box) pairs the program will visit, counted
  // without the rows; stops counting above `cap` (then returns > cap).
  // `host` (optional) may interrupt it, as run().
  double count_states(double cap, Runtime* host = nullptr) const {
    InterruptPoll poll(host);
    std::unordered_set<Key, KeyHash> seen;
    std::vector<Key> stack{root_key()};
    seen.insert(stack.back());
    while (!stack.empty()) {
      poll.tick();
      const Key k = stack.back();
      stack.pop_back();
      const int v = k[0];
      if (t_.feature[v] < 0) continue;
      const int u = t_.left[v], w = t_.right[v];
      for (const Key& c : {with_node(k, u), with_node(k, w), restrict(k, v, true), restrict(k, v, false)}) {
        if (seen.insert(c).second) {
          if (static_cast<double>(seen.size()) > cap) return static_cast<double>(seen.size());
          stack.push_back(c);
        }
      }
    }
    return static_cast<double>(seen.size());
  }

  // Runs the program (call count_states first to bound its size); `host`
  // (optional) is asked every fraction of a second whether to stop
  // (Interrupted is thrown then).
  void run(Runtime* host = nullptr) {
    InterruptPoll poll(host);
    poll_ = &poll;
    std::vector<int> rows(r_.n);
    for (int i = 0; i < r_.n; ++i) rows[i] = i;
    root_ = solve(root_key(), rows);
    poll_ = nullptr;
    loss_ = entries_[root_].q;
  }

  // Exact least loss for j = 0..cuts(root) pruned cuts (not monotone in j).
  const std::vector<double>& loss() const { return loss_; }
  std::size_t states() const { return entries_.size(); }

  // An optimal tree with exactly j cuts pruned; orig[i] = its source node.
  FlatTree tree_at(int j, std::vector<int>& orig) const {
    FlatTree out;
    orig.clear();
    build(root_key(), j, -1, true, 0, out, orig);
    return out;
  }

 private:
  using Key = std::vector<int>;  // node, then per tested feature: lo, hi, kept set, excluded set, na
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      std::uint64_t h = 1469598103934665603ULL;
      for (int v : k) {
        h ^= static_cast<std::uint32_t>(v);
        h *= 1099511628211ULL;
      }
      return static_cast<std::size_t>(h);
    }
  };
  struct Entry {
    std::vector<double> q;
    std::vector<int> choice;  // keep: a >= 0 (left share); -1 raise left; -2 raise right
  };
  static constexpr int kAll = -1;  // no level restriction
  static constexpr int kFields = 5;

  const FlatTree& t_;
  const double* x_;
  PruneRows r_;
  std::vector<double> keep_;
  bool relabel_;
  std::vector<int> cuts_;
  std::vector<int> slot_;                       // feature -> slot or -1
  std::vector<std::vector<double>> thresholds_;  // per slot, sorted unique
  std::vector<int> thr_pos_;                    // per node: position of its threshold (1-based)
  mutable std::map<std::vector<int>, int> set_id_;
  mutable std::vector<std::vector<int>> sets_;
  std::unordered_map<Key, int, KeyHash> memo_;
  std::vector<Entry> entries_;
  int root_ = -1;
  std::vector<double> loss_;
  InterruptPoll* poll_ = nullptr;  // during run()

  void setup_boxes() {
    int p = 0;
    for (int v = 0; v < t_.size(); ++v) p = std::max(p, t_.feature[v] + 1);
    slot_.assign(p, -1);
    int slots = 0;
    for (int v = 0; v < t_.size(); ++v)
      if (t_.feature[v] >= 0 && slot_[t_.feature[v]] < 0) slot_[t_.feature[v]] = slots++;
    thresholds_.assign(slots, {});
    for (int v = 0; v < t_.size(); ++v)
      if (t_.feature[v] >= 0 && t_.left_levels[v].empty())
        thresholds_[slot_[t_.feature[v]]].push_back(t_.threshold[v]);
    for (auto& th : thresholds_) {
      std::sort(th.begin(), th.end());
      th.erase(std::unique(th.begin(), th.end()), th.end());
    }
    thr_pos_.assign(t_.size(), 0);
    for (int v = 0; v < t_.size(); ++v)
      if (t_.feature[v] >= 0 && t_.left_levels[v].empty()) {
        const auto& th = thresholds_[slot_[t_.feature[v]]];
        thr_pos_[v] = 1 + static_cast<int>(std::lower_bound(th.begin(), th.end(), t_.threshold[v]) - th.begin());
      }
  }

  Key root_key() const {
    Key k(1 + kFields * thresholds_.size());
    k[0] = 0;
    for (std::size_t s = 0; s < thresholds_.size(); ++s) {
      int* f = &k[1 + kFields * s];
      f[0] = 0;
      f[1] = static_cast<int>(thresholds_[s].size()) + 1;
      f[2] = kAll;
      f[3] = kAll;  // kAll as "excluded" means: nothing excluded
      f[4] = 1;
    }
    return k;
  }

  static Key with_node(Key k, int v) {
    k[0] = v;
    return k;
  }

  int intern(std::vector<int> s) const {
    auto it = set_id_.find(s);
    if (it != set_id_.end()) return it->second;
    const int id = static_cast<int>(sets_.size());
    set_id_.emplace(s, id);
    sets_.push_back(std::move(s));
    return id;
  }

  // The box of the child on `left` side of inner node v's test.
  Key restrict(Key k, int v, bool left) const {
    k[0] = left ? t_.left[v] : t_.right[v];
    int* f = &k[1 + kFields * slot_[t_.feature[v]]];
    const std::vector<int>& lev = t_.left_levels[v];
    if (lev.empty()) {
      if (left) f[1] = std::min(f[1], thr_pos_[v]);
      else f[0] = std::max(f[0], thr_pos_[v]);
    } else {
      std::vector<int> kept = f[2] == kAll ? std::vector<int>() : sets_[f[2]];
      std::vector<int> excl = f[3] == kAll ? std::vector<int>() : sets_[f[3]];
      std::vector<int> out;
      if (left) {
        if (f[2] == kAll) out = lev;
        else std::set_intersection(kept.begin(), kept.end(), lev.begin(), lev.end(), std::back_inserter(out));
        kept = out;
        out.clear();
        std::set_difference(kept.begin(), kept.end(), excl.begin(), excl.end(), std::back_inserter(out));
        f[2] = intern(out);
        f[3] = kAll;
      } else if (f[2] != kAll) {
        std::set_difference(kept.begin(), kept.end(), lev.begin(), lev.end(), std::back_inserter(out));
        f[2] = intern(out);
      } else {
        std::set_union(excl.begin(), excl.end(), lev.begin(), lev.end(), std::back_inserter(out));
        f[3] = intern(out);
      }
    }
    if (t_.na_left[v] != (left ? 1 : 0)) f[4] = 0;
    return k;
  }

  double leaf_loss(int v, const std::vector<int>& rows) const {
    double value = keep_[v];
    if (relabel_ && !rows.empty()) {
      if (r_.regression()) {
        double sw = 0;
        for (int i : rows) sw += r_.w[i];
        if (sw > 0) value = weighted_mean(r_.y, r_.w, rows);
      } else {
        std::vector<double> cw(r_.n_classes, 0.0);
        for (int i : rows) cw[static_cast<int>(r_.y[i])] += r_.w[i];
        value = majority_class(cw.data(), r_.n_classes);
      }
    }
    double loss = 0;
    for (int i : rows) loss += row_loss(r_, i, value);
    return loss;
  }

  int solve(const Key& key, const std::vector<int>& rows) {
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    if (poll_) poll_->tick();
    const int v = key[0];
    Entry e;
    if (t_.feature[v] < 0) {
      e.q = {leaf_loss(v, rows)};
      e.choice = {0};
    } else {
      const int u = t_.left[v], w = t_.right[v], cu = cuts_[u], cw = cuts_[w];
      std::vector<int> lrows, rrows;
      const int f = t_.feature[v];
      for (int i : rows) {
        const int side = side_of(t_, v, x_[static_cast<std::size_t>(f) * r_.n + i]);
        if (side == kNaNoSide) throw std::invalid_argument("a row has a missing value where the tree has no NA side");
        (side ? lrows : rrows).push_back(i);
      }
      const int iu = solve(with_node(key, u), rows);
      const int iw = solve(with_node(key, w), rows);
      const int ku = solve(restrict(key, v, true), lrows);
      const int kw = solve(restrict(key, v, false), rrows);
      e.q.assign(cuts_[v] + 1, std::numeric_limits<double>::infinity());
      e.choice.assign(cuts_[v] + 1, 0);
      const std::vector<double>& qu = entries_[ku].q;
      const std::vector<double>& qw = entries_[kw].q;
      for (int a = 0; a <= cu; ++a)
        for (int b = 0; b <= cw; ++b)
          if (qu[a] + qw[b] < e.q[a + b]) {
            e.q[a + b] = qu[a] + qw[b];
            e.choice[a + b] = a;
          }
      const std::vector<double>& ru = entries_[iu].q;
      for (int a = 0; a <= cu; ++a)
        if (ru[a] < e.q[a + cw + 1]) {
          e.q[a + cw + 1] = ru[a];
          e.choice[a + cw + 1] = -1;
        }
      const std::vector<double>& rw = entries_[iw].q;
      for (int b = 0; b <= cw; ++b)
        if (rw[b] < e.q[b + cu + 1]) {
          e.q[b + cu + 1] = rw[b];
          e.choice[b + cu + 1] = -2;
        }
    }
    const int id = static_cast<int>(entries_.size());
    entries_.push_back(std::move(e));
    memo_.emplace(key, id);
    return id;
  }

  int build(const Key& key, int j, int parent, bool left, int depth, FlatTree& out,
            std::vector<int>& orig) const {
    const int v = key[0];
    const Entry& e = entries_[memo_.at(key)];
    if (t_.feature[v] >= 0 && e.choice[j] < 0) {
      const bool up_left = e.choice[j] == -1;
      const int c = up_left ? t_.left[v] : t_.right[v];
      const int other = up_left ? t_.right[v] : t_.left[v];
      return build(with_node(key, c), j - cuts_[other] - 1, parent, left, depth, out, orig);
    }
    const int id = out.add(depth);
    orig.push_back(v);
    if (parent >= 0) (left ? out.left : out.right)[parent] = id;
    if (t_.feature[v] < 0) return id;
    out.feature[id] = t_.feature[v];
    out.threshold[id] = t_.threshold[v];
    out.left_levels[id] = t_.left_levels[v];
    out.na_left[id] = t_.na_left[v];
    out.na_learned[id] = t_.na_learned[v];
    const int a = e.choice[j];
    build(restrict(key, v, true), a, id, true, depth + 1, out, orig);
    build(restrict(key, v, false), j - a, id, false, depth + 1, out, orig);
    return id;
  }
};

}  // namespace dpdt
