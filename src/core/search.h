// The DPDT search: depth-first over states (rows, depth); the value of a
// state is the exact Pareto front of (loss, complexity) over every tree the
// candidate tests can build below it, with back-pointers to rebuild each tree.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "candidates.h"
#include "dataset.h"
#include "memo.h"
#include "node_stats.h"
#include "options.h"
#include "parallel.h"
#include "pareto.h"
#include "partition.h"
#include "runtime.h"
#include "split_scan.h"

namespace dpdt {

// Per-thread scratch: each depth has its own pair of child buffers, so a
// state's rows stay intact while its children are solved. O(depth * n * p).
struct Workspace {
  Workspace(const Dataset& d, const SearchOptions& opt)
      : goes_left(d.n), generator(d, opt), miss(d.n_classes) {}
  std::vector<std::vector<Entry>> left, right;
  std::vector<char> goes_left;
  CandidateGenerator generator;
  MisclassificationScore miss;
  SquaredErrorScore sse;

  Entry* buffer(std::vector<std::vector<Entry>>& v, int level, std::size_t need) {
    if (v.size() <= static_cast<std::size_t>(level)) v.resize(level + 1);
    if (v[level].size() < need) v[level].resize(need);
    return v[level].data();
  }
};

class Search {
 public:
  Search(const Dataset& d, const SearchOptions& opt) : d_(d), opt_(opt), row_keys_(d.n) {
    std::uint64_t s = 0x2545F4914F6CDD1DULL;  // fixed: results never depend on a seed
    for (auto& k : row_keys_) k = splitmix64(s);
  }

  void run(Runtime& runtime) {
    check_buffer_memory();
    const Entry* block = d_.sorted.data();
    const NodeStats total = stats_of(d_, block, d_.n);
    const double loss = leaf_loss(d_, total);
    tol_ = 1e-9 * (d_.regression() ? std::max(loss, 1e-300) : total.weight);
    complexity_tol_ = opt_.complexity == Complexity::tests ? 1e-9 * total.weight : 0.0;
    std::uint64_t hash = 0;
    for (auto k : row_keys_) hash += k;

    if (terminal(0, loss, d_.n)) {
      root_ = std::make_unique<Node>();
      root_->front.push_back({loss, 0.0, -1, 0, 0});
      return;
    }
    Workspace main_ws(d_, opt_);
    if (opt_.max_depth == 1) {
      root_ = build_node(main_ws, block, d_.n, 0, hash, total, loss);
      return;
    }
    const std::vector<Candidate> cands = main_ws.generator.generate(block, d_.n, 0);
    // One workspace per worker that can have a task (each holds O(n) scratch).
    const int workers = std::max(1, std::min(opt_.threads, static_cast<int>(2 * cands.size())));
    std::vector<std::unique_ptr<Workspace>> ws;
    for (int t = 0; t < workers; ++t) ws.push_back(std::make_unique<Workspace>(d_, opt_));
    // One task per child of a root split (twice as many tasks as splits
    // balances the threads better); each task partitions the root itself.
    std::vector<std::pair<ChildRef, ChildRef>> children(cands.size());
    run_tasks(static_cast<int>(2 * cands.size()), workers, runtime, abort_,
              [&](int t, int worker) {
                const bool left = t % 2 == 0;
                const ChildRef c = solve_child(*ws[worker], block, d_.n, 0, hash, cands[t / 2], left);
                (left ? children[t / 2].first : children[t / 2].second) = c;
              });
    root_ = assemble(total, loss, cands, children);
  }

  const std::vector<FrontPoint>& front() const { return root_->front; }
  const Node& root() const { return *root_; }
  std::size_t states() const { return memo_.states() + 1; }

 private:
  static std::uint64_t splitmix64(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  bool terminal(int depth, double loss, int m) const {
    return depth >= opt_.max_depth || loss <= tol_ || m < 2 * opt_.min_bucket;
  }

  double split_cost(const NodeStats& s) const {
    return opt_.complexity == Complexity::tests ? s.weight : 1.0;
  }

  ChildRef child(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash) {
    const NodeStats s = stats_of(d_, block, m);
    const double loss = leaf_loss(d_, s);
    if (terminal(depth, loss, m)) return {nullptr, loss};
    return {solve(ws, block, m, depth, hash, s, loss), loss};
  }

  std::pair<ChildRef, ChildRef> solve_children(Workspace& ws, const Entry* block, int m,
                                               int depth, std::uint64_t hash,
                                               const Candidate& c) {
    const std::uint64_t left_hash = partition(ws, block, m, depth, c);
    ChildRef l = child(ws, ws.left[depth + 1].data(), c.left_count, depth + 1, left_hash);
    ChildRef r = child(ws, ws.right[depth + 1].data(), m - c.left_count, depth + 1,
                       hash - left_hash);
    return {l, r};
  }

  ChildRef solve_child(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
                       const Candidate& c, bool left) {
    const std::uint64_t left_hash = partition(ws, block, m, depth, c);
    if (left) return child(ws, ws.left[depth + 1].data(), c.left_count, depth + 1, left_hash);
    return child(ws, ws.right[depth + 1].data(), m - c.left_count, depth + 1, hash - left_hash);
  }

  // Writes the children's blocks into this depth's buffers; returns the left hash.
  std::uint64_t partition(Workspace& ws, const Entry* block, int m, int depth,
                          const Candidate& c) {
    const std::size_t p = static_cast<std::size_t>(d_.p);
    Entry* lb = ws.buffer(ws.left, depth + 1, c.left_count * p + 1);
    Entry* rb = ws.buffer(ws.right, depth + 1, (m - c.left_count) * p + 1);
    return partition_rows(d_, block, m, c.feature, c.left_count, ws.goes_left, row_keys_, lb, rb);
  }

  const Node* solve(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
                    const NodeStats& total, double loss) {
    if (abort_.load(std::memory_order_relaxed)) throw Aborted();
    const StateKey key{hash, depth, m};
    if (const Node* known = memo_.find(key)) return known;
    const Node* stored = memo_.insert(key, build_node(ws, block, m, depth, hash, total, loss));
    if (memo_.bytes() > opt_.max_memory_bytes) throw ResourceLimit(memory_message());
    return stored;
  }

  std::unique_ptr<Node> build_node(Workspace& ws, const Entry* block, int m, int depth,
                                   std::uint64_t hash, const NodeStats& total, double loss) {
    if (opt_.max_depth - depth == 1) return last_split(ws, block, m, total, loss);
    const std::vector<Candidate> cands = ws.generator.generate(block, m, depth);
    std::vector<std::pair<ChildRef, ChildRef>> children;
    children.reserve(cands.size());
    for (const Candidate& c : cands)
      children.push_back(solve_children(ws, block, m, depth, hash, c));
    return assemble(total, loss, cands, children);
  }

  // One test left: the best split over every feature and threshold is found
  // exactly in one sorted pass per feature.
  std::unique_ptr<Node> last_split(Workspace& ws, const Entry* block, int m,
                                   const NodeStats& total, double loss) {
    auto node = std::make_unique<Node>();
    node->front.push_back({loss, 0.0, -1, 0, 0});
    const Split s = d_.regression()      ? best_split(d_, block, m, opt_.min_bucket, total, ws.sse)
                    : d_.n_classes == 2 ? best_split_two_classes(d_, block, m, opt_.min_bucket,
                                                                 total, MisclassifiedSide{})
                                        : best_split(d_, block, m, opt_.min_bucket, total, ws.miss);
    if (!s.found() || !(s.score < loss - tol_)) return node;
    const Entry* rows = block + static_cast<std::size_t>(s.feature) * m;
    const NodeStats l = stats_of(d_, rows, s.left_count);
    const NodeStats r = stats_of(d_, rows + s.left_count, m - s.left_count);
    const ChildRef lc{nullptr, leaf_loss(d_, l)}, rc{nullptr, leaf_loss(d_, r)};
    // The scan's running sums and the children's own sums round differently:
    // the split is kept only if its children's loss is lower too, so the
    // front stays strictly decreasing (a constant response gave a split
    // whose loss exceeded the leaf's by rounding).
    if (!(lc.leaf_loss + rc.leaf_loss < loss - tol_)) return node;
    node->actions.push_back({s.feature, s.threshold, lc, rc});
    node->front.push_back({lc.leaf_loss + rc.leaf_loss, split_cost(total), 0, 0, 0});
    return node;
  }

  std::unique_ptr<Node> assemble(const NodeStats& total, double loss,
                                 const std::vector<Candidate>& cands,
                                 const std::vector<std::pair<ChildRef, ChildRef>>& children) {
    auto node = std::make_unique<Node>();
    std::vector<FrontPoint> pts{{loss, 0.0, -1, 0, 0}};
    const double cost = split_cost(total);
    for (std::size_t a = 0; a < cands.size(); ++a) {
      const ChildRef& l = children[a].first;
      const ChildRef& r = children[a].second;
      node->actions.push_back({cands[a].feature, cands[a].threshold, l, r});
      const std::vector<FrontPoint> lf = front_of(l), rf = front_of(r);
      check_pair_count(static_cast<double>(lf.size()) * rf.size());
      add_split_points(lf, rf, cost, static_cast<std::int32_t>(a), pts);
      // Deep searches with complexity "tests" have long fronts: filter as we
      // go, so the pending points stay near one split's pairs.
      if (pts.size() > kFilterAbove) keep_pareto(pts, tol_, complexity_tol_);
    }
    keep_pareto(pts, tol_, complexity_tol_);
    node->front.assign(pts.begin(), pts.end());
    return node;
  }

  static std::vector<FrontPoint> front_of(const ChildRef& c) {
    if (c.node) return c.node->front;
    return {{c.leaf_loss, 0.0, -1, 0, 0}};
  }

  // Every pair of two children's front points is a candidate point: refuse
  // before one split's pairs alone would take a good part of the budget.
  void check_pair_count(double pairs) const {
    const double bytes = pairs * sizeof(FrontPoint) * std::max(1, opt_.threads);
    if (bytes <= opt_.max_memory_bytes / 4) return;
    std::ostringstream msg;
    msg << "combining the Pareto fronts of one split's children needs " << pairs
        << " points (about " << bytes / 1e9 << " GB with " << opt_.threads
        << " threads), more than a quarter of max_memory = " << opt_.max_memory_bytes / 1e9
        << " GB. Lower max_depth (now " << opt_.max_depth
        << "), use complexity = \"splits\" (shorter fronts), or raise max_memory.";
    throw ResourceLimit(msg.str());
  }

  void check_buffer_memory() const {
    const double per_thread = 2.0 * (opt_.max_depth + opt_.cart_depth_at(0) + 2) *
                              static_cast<double>(d_.n) * d_.p * sizeof(Entry);
    const double need = per_thread * std::max(1, opt_.threads) + d_.n * static_cast<double>(d_.p) * sizeof(Entry);
    if (need > opt_.max_memory_bytes) {
      std::ostringstream msg;
      msg << "the search's row buffers alone need about " << need / 1e9
          << " GB (" << d_.n << " rows x " << d_.p << " features, max_depth = "
          << opt_.max_depth << ", threads = " << opt_.threads
          << "), more than max_memory = " << opt_.max_memory_bytes / 1e9
          << " GB. Lower max_depth or threads, or raise max_memory.";
      throw ResourceLimit(msg.str());
    }
  }

  std::string memory_message() const {
    std::ostringstream msg;
    msg << "the search stopped after solving " << memo_.states()
        << " states: its memo of solved states reached max_memory = "
        << opt_.max_memory_bytes / 1e9 << " GB. Lower max_depth (now " << opt_.max_depth
        << ")";
    if (opt_.candidates == Candidates::cart)
      msg << " or cart_depth (now " << opt_.cart_depth_at(0) << " at the root)";
    else
      msg << ", or use candidates = \"cart\" instead of \"exhaustive\"";
    msg << ", or raise max_memory (in GB, an argument of dpdt_fit()).";
    return msg.str();
  }

  const Dataset& d_;
  const SearchOptions& opt_;
  std::vector<std::uint64_t> row_keys_;
  Memo memo_;
  std::unique_ptr<Node> root_;
  std::atomic<bool> abort_{false};
  double tol_ = 0.0;
  double complexity_tol_ = 0.0;
  static constexpr std::size_t kFilterAbove = 1 << 16;
};

}  // namespace dpdt
