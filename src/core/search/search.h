// The DPDT search: depth-first over states (rows, depth); the value of a
// state is the exact Pareto front of (loss, complexity) over every tree the
// candidate tests can build below it, with back-pointers to rebuild each tree.
#pragma once
#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/data/options.h"
#include "core/fronts/pareto.h"
#include "core/runtime/parallel.h"
#include "core/runtime/runtime.h"
#include "core/runtime/work.h"
#include "core/search/depth_two.h"
#include "core/search/memo.h"
#include "core/search/two_level_bounds.h"
#include "core/splits/candidates.h"
#include "core/splits/partition.h"
#include "core/splits/split_groups.h"
#include "core/splits/split_scan.h"

namespace dpdt {

// Per-thread scratch: each depth has its own buffer for the two children of
// a state, so a state's rows stay intact while its children are solved.
// O(depth * n * p).
struct Workspace {
  Workspace(const Dataset& d, const SearchOptions& opt, HeuristicGroups* heuristic)
      : goes_left(d.n), generator(d, opt),
        miss(d.n_classes, d.loss_matrix.empty() ? nullptr : d.loss_matrix.data()), groups(d),
        depth_two(d), data(d) {
    generator.report_heuristics_to(heuristic);
    groups.report_heuristics_to(heuristic);
  }
  std::vector<std::vector<Entry>> children;  // by depth
  std::vector<char> goes_left;
  CandidateGenerator generator;
  MisclassificationScore miss;
  ManyClassMisclassification many;
  SquaredErrorScan sse;
  GroupScanner groups;
  DepthTwoSolver depth_two;
  const Dataset& data;
  // One per depth: a state's sums must outlive the search of its children.
  std::vector<std::unique_ptr<PrefixLeaves>> prefixes;

  PrefixLeaves& prefix(int depth) {
    while (prefixes.size() <= static_cast<std::size_t>(depth))
      prefixes.push_back(std::make_unique<PrefixLeaves>(data));
    return *prefixes[depth];
  }

  // Room for the blocks of children at `depth` of a state of m rows: the
  // left one first, then the right one, each followed by the slot of slack
  // write_sides() needs.
  Entry* buffer(int depth, int m) {
    if (children.size() <= static_cast<std::size_t>(depth)) children.resize(depth + 1);
    const std::size_t need = static_cast<std::size_t>(m) * data.p + 2;
    if (children[depth].size() < need) children[depth].resize(need);
    return children[depth].data();
  }
};

class Search {
 public:
  Search(const Dataset& d, const SearchOptions& opt)
      : d_(d), opt_(opt), row_keys_(d.n), heuristic_(d.p) {
    std::uint64_t s = 0x2545F4914F6CDD1DULL;  // fixed: results never depend on a seed
    for (auto& k : row_keys_) k = splitmix64(s);
  }

  void run(Runtime& runtime) {
    {
      const WorkEstimate work(d_, opt_);
      check_work(work);
      runtime.estimate(work.visits(), estimated_seconds(work));
    }
    check_buffer_memory();
    const Entry* block = d_.sorted.data();
    const NodeStats total = stats_of(d_, block, d_.n);
    const double loss = leaf_loss(d_, total);
    total_weight_ = total.weight;
    check_range(loss);
    // See LossTolerance. Complexity "tests" sums weights like a loss does;
    // "cost" sums weights times costs, inexact whenever costs are fractional.
    const double rounding = d_.n * 0x1p-50;
    if (d_.regression()) {
      tol_.rel = rounding;
      tol_.abs = rounding * rounding * loss;
    }
    else if (!d_.exact_weights || !d_.loss_matrix.empty()) tol_.abs = rounding * total.weight;
    double max_cost = 1.0;
    for (int f = 0; f < d_.p; ++f) max_cost = std::max(max_cost, d_.cost(f));
    if (!d_.loss_matrix.empty()) {
      double max_loss = 1.0;
      for (double v : d_.loss_matrix) max_loss = std::max(max_loss, v);
      tol_.abs *= max_loss;
    }
    complexity_tol_ = opt_.complexity == Complexity::cost ? rounding * total.weight * max_cost
                      : opt_.complexity == Complexity::tests && !d_.exact_weights
                          ? rounding * total.weight
                          : 0.0;
    uniform_cost_ = true;
    for (int levels : d_.n_levels) every_group_tried_ = every_group_tried_ && levels <= kMaxEnumLevels;
    for (int f = 1; f < d_.p; ++f) uniform_cost_ = uniform_cost_ && d_.cost(f) == d_.cost(0);
    counted_ = d_.unit_weights && d_.loss_matrix.empty() && opt_.complexity != Complexity::cost;
    for (int f = 0; f < d_.p; ++f) counted_ = counted_ && !d_.categorical(f);
    std::uint64_t hash = 0;
    for (auto k : row_keys_) hash += k;

    if (terminal(0, total, d_.n)) {
      root_ = std::make_unique<Node>();
      root_->front.push_back({loss, 0.0, -1, 0, 0});
      return;
    }
    Workspace main_ws(d_, opt_, &heuristic_);
    if (opt_.max_depth == 1) {
      root_ = build_node(main_ws, block, d_.n, 0, hash, total, loss);
      check_front_range();
      return;
    }
    const std::vector<Candidate> cands = candidates(main_ws, block, d_.n, 0, total);
    // One workspace per worker that can have a task (each holds O(n) scratch).
    const int workers = std::max(1, std::min(opt_.threads, static_cast<int>(2 * cands.size())));
    std::vector<std::unique_ptr<Workspace>> ws;
    for (int t = 0; t < workers; ++t) ws.push_back(std::make_unique<Workspace>(d_, opt_, &heuristic_));
    if (bounded(0, block, d_.n)) {
      // Tasks per feature, each bounded by the seeds' points and its own:
      // the splits skipped never depend on the number of threads.
      Sweep sw(cands.size(), may_score(0, d_.n));
      const std::vector<std::pair<std::size_t, std::size_t>> runs = feature_runs(cands);
      const int tasks = static_cast<int>(runs.size());
      std::vector<std::size_t> seeds(tasks);
      QuietRuntime quiet(runtime);  // progress is shown for the second phase only
      auto each_run = [&](Runtime& rt, auto&& work) {
        if (tasks > 0)
          run_tasks(tasks, std::min(workers, tasks), rt, abort_,
                    [&](int t, int worker) { work(t, *ws[worker]); });
      };
      each_run(quiet, [&](int t, Workspace& w) {
        seeds[t] = seed_cut(w, block, d_.n, 0, cands, runs[t]);
        solve_into(w, block, d_.n, 0, hash, cands, seeds[t], sw);
      });
      const std::vector<FrontPoint> seed_front = seeded(total, loss, cands, seeds, sw);
      each_run(runtime, [&](int t, Workspace& w) {
        sweep(w, block, d_.n, 0, hash, total, cands, &runs[t], &runs[t] + 1, seed_front, sw);
      });
      root_ = assemble_solved(main_ws, block, d_.n, 0, hash, total, loss, cands, sw);
      check_front_range();
      return;
    }
    // With several workers, one task per child of a root split (twice as
    // many tasks as splits balances the threads better; each task partitions
    // the root itself); with one, one task per split, partitioned once.
    std::vector<std::pair<ChildRef, ChildRef>> children(cands.size());
    const int per_split = workers > 1 ? 2 : 1;
    run_tasks(static_cast<int>(per_split * cands.size()), workers, runtime, abort_,
              [&](int t, int worker) {
                if (per_split == 1) {
                  children[t] = solve_children(*ws[worker], block, d_.n, 0, hash, cands[t]);
                  return;
                }
                const bool left = t % 2 == 0;
                const ChildRef c = solve_child(*ws[worker], block, d_.n, 0, hash, cands[t / 2], left);
                (left ? children[t / 2].first : children[t / 2].second) = c;
              });
    root_ = assemble(total, loss, cands, children);
    check_front_range();
  }

  const std::vector<FrontPoint>& front() const { return root_->front; }
  const Node& root() const { return *root_; }
  // Features whose level groups were chosen by the heuristic in a state
  // that was to try every split (so the front is not proven optimal there).
  const HeuristicGroups& heuristic_groups() const { return heuristic_; }
  std::size_t states() const { return memo_.states() + 1; }

 private:
  static std::uint64_t splitmix64(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // A leaf: at the maximum depth, pure, or too small for two buckets
  // (m < 2 min_bucket, written so that it cannot overflow).
  bool terminal(int depth, const NodeStats& s, int m) const {
    return depth >= opt_.max_depth || s.pure() || m - opt_.min_bucket < opt_.min_bucket;
  }

  // What a split on `feature` adds to the complexity of a state of weight
  // s.weight: its weight (each row passes one more test), the feature's
  // cost times its weight, or 1 (one more split).
  double split_cost(int feature, const NodeStats& s) const {
    switch (opt_.complexity) {
      case Complexity::tests: return s.weight;
      case Complexity::cost: return d_.cost(feature) * s.weight;
      case Complexity::splits: return 1.0;
    }
    return 1.0;
  }

  // A state solved before (the same rows reached by splits in another order)
  // is found in the memo by its hash alone, before its rows are written out
  // or its statistics computed: only a state that can split is ever stored,
  // and a stored child needs no leaf loss.
  bool known_child(int m, int depth, std::uint64_t hash, ChildRef& ref) {
    if (depth >= opt_.max_depth || m - opt_.min_bucket < opt_.min_bucket) return false;
    const Node* known = memo_.find(StateKey{hash, depth, m});
    if (known) ref = {known, 0.0};
    return known != nullptr;
  }

  // A child not in the memo: a leaf, or a state solved now.
  ChildRef new_child(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash) {
    const NodeStats s = stats_of(d_, block, m);
    const double loss = leaf_loss(d_, s);
    if (terminal(depth, s, m)) return {nullptr, loss};
    return {solve(ws, block, m, depth, hash, s, loss), loss};
  }

  // Both children of a test; a child's rows are written into this depth's
  // buffers only when it is not in the memo already.
  std::pair<ChildRef, ChildRef> solve_children(Workspace& ws, const Entry* block, int m,
                                               int depth, std::uint64_t hash,
                                               const Candidate& c) {
    const std::uint64_t left_hash = mark_sides(d_, block, m, c, ws.goes_left, row_keys_);
    const int lm = c.left_count, rm = m - c.left_count;
    ChildRef l, r;
    const bool l_known = known_child(lm, depth + 1, left_hash, l);
    const bool r_known = known_child(rm, depth + 1, hash - left_hash, r);
    if (l_known && r_known) return {l, r};
    Entry* const room = ws.buffer(depth + 1, m);
    Entry* lb = l_known ? nullptr : room;
    Entry* rb = r_known ? nullptr : room + static_cast<std::size_t>(lm) * d_.p + 1;
    if (lb && rb) write_sides(d_, block, m, lm, ws.goes_left, lb, rb);
    else if (lb) write_side(d_, block, m, lm, true, ws.goes_left, lb);
    else write_side(d_, block, m, rm, false, ws.goes_left, rb);
    // The left child's search reuses goes_left and deeper buffers only.
    if (!l_known) l = new_child(ws, lb, lm, depth + 1, left_hash);
    if (!r_known) r = new_child(ws, rb, rm, depth + 1, hash - left_hash);
    return {l, r};
  }

  // One child of a root split (a task of its own when several workers run).
  ChildRef solve_child(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
                       const Candidate& c, bool left) {
    const std::uint64_t left_hash = mark_sides(d_, block, m, c, ws.goes_left, row_keys_);
    const int count = left ? c.left_count : m - c.left_count;
    const std::uint64_t h = left ? left_hash : hash - left_hash;
    ChildRef ref;
    if (known_child(count, depth + 1, h, ref)) return ref;
    Entry* out = ws.buffer(depth + 1, count);
    write_side(d_, block, m, count, left, ws.goes_left, out);
    return new_child(ws, out, count, depth + 1, h);
  }

  const Node* solve(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
                    const NodeStats& total, double loss) {
    if (abort_.load(std::memory_order_relaxed)) throw Aborted();
    // not in the memo: see child()
    return store(StateKey{hash, depth, m}, build_node(ws, block, m, depth, hash, total, loss));
  }

  const Node* store(const StateKey& key, std::unique_ptr<Node> node) {
    const Node* stored = memo_.insert(key, std::move(node));
    if (memo_.bytes() > opt_.max_memory_bytes) throw ResourceLimit(memory_message());
    return stored;
  }

  std::unique_ptr<Node> build_node(Workspace& ws, const Entry* block, int m, int depth,
                                   std::uint64_t hash, const NodeStats& total, double loss) {
    if (opt_.max_depth - depth == 1) return last_split(ws, block, m, total, loss);
    const std::vector<Candidate> cands = candidates(ws, block, m, depth, total);
    if (bounded(depth, block, m)) {
      Sweep sw(cands.size(), may_score(depth, m));
      std::vector<std::size_t> seeds;
      const auto runs = feature_runs(cands);
      for (const auto& run : runs) {
        seeds.push_back(seed_cut(ws, block, m, depth, cands, run));
        solve_into(ws, block, m, depth, hash, cands, seeds.back(), sw);
      }
      const std::vector<FrontPoint> seed_front = seeded(total, loss, cands, seeds, sw);
      sweep(ws, block, m, depth, hash, total, cands, runs.data(), runs.data() + runs.size(),
            seed_front, sw);
      return assemble_solved(ws, block, m, depth, hash, total, loss, cands, sw);
    }
    std::vector<std::pair<ChildRef, ChildRef>> children;
    children.reserve(cands.size());
    for (const Candidate& c : cands)
      children.push_back(solve_children(ws, block, m, depth, hash, c));
    return assemble(total, loss, cands, children);
  }

  // A state that tries every split, with two or more levels left
  // (classification, min_bucket 1, exact complexities): after a seed cut per
  // feature, the cuts of a feature are searched by bisection, and an interval whose
  // inner cuts' points are all dominated by the points found so far (with
  // the bounds of two_level_bounds.h) is skipped before their children are
  // solved. The front and its trees are those of solving every split: a
  // skipped split's points could not enter it, nor win a tie (dominated()).
  // Not with missing values in the state: a test restricted to a subset of
  // the rows can become "missing vs the rest", which is no candidate, so a
  // subset's best loss could exceed its superset's.
  bool bounded(int depth, const Entry* block, int m) const {
    const int left = opt_.max_depth - depth;
    const bool every_split = opt_.candidates == Candidates::exhaustive || left <= opt_.exact_levels;
    if (!(opt_.bound_two_levels && every_split && left >= 2 && every_group_tried_ &&
          !d_.regression() && opt_.min_bucket == 1 && complexity_tol_ == 0.0))
      return false;
    for (int f = 0; f < d_.p; ++f)
      if (m > 0 && block[static_cast<std::size_t>(f) * m + m - 1].rank == kMissingRank) return false;
    return true;
  }

  // The splits of one state solved so far, by candidate index (tasks on
  // different features write different entries).
  struct Sweep {
    // `scoring`: room for the depth-two solver's scores.
    Sweep(std::size_t n, bool scoring)
        : solved(n, 0), scored(n, 0), children(n), sides(scoring ? n : 0) {}
    std::vector<char> solved;
    // Cuts scored by the depth-two solver, not solved: their sides' losses.
    std::vector<char> scored;
    std::vector<std::pair<ChildRef, ChildRef>> children;
    std::vector<DepthTwoSolver::Sides> sides;
  };

  // A bounded state with two levels left whose cuts the depth-two solver
  // can score: whole counts (unit weights, 0/1 loss), complexity "tests" or
  // "splits", numeric features only.
  bool may_score(int depth, int m) const {
    return counted_ && opt_.max_depth - depth == 2 &&
           cuts_before_scoring(m) < std::numeric_limits<int>::max();
  }

  // Cuts of one feature the sweep solves one by one before the depth-two
  // solver scores all the others at once: about the cost of one solver run
  // (O(m log m k) per feature, against O(m) per cut and feature; calibrated
  // on magic, eeg and bean). Below 2,048 rows solved cuts are cheap and
  // their sides shared through the memo: scoring made exhaustive depth 3 on
  // raisin (720 rows) slower, 29 s against 18 s.
  int cuts_before_scoring(int m) const {
    if (opt_.score_cuts_after >= 0) return opt_.score_cuts_after;
    if (m < 2048) return std::numeric_limits<int>::max();
    return static_cast<int>(2.5 * std::log2(m) * std::max(2, d_.n_classes));
  }

  // The points of a cut the depth-two solver scored, in add_split_points()'
  // order: each side is a leaf, or its best split when that loses less
  // (last_split()'s front).
  void scored_points(const NodeStats& total, const std::vector<Candidate>& cands, std::size_t i,
                     const DepthTwoSolver::Sides& s, std::vector<FrontPoint>& pts) const {
    const bool tests = opt_.complexity == Complexity::tests;
    const double lm = cands[i].left_count, rm = total.weight - lm;
    const FrontPoint left[2] = {{static_cast<double>(s.leaf_left), 0.0, -1, 0, 0},
                                {static_cast<double>(s.best_left), tests ? lm : 1.0, 0, 0, 0}};
    const FrontPoint right[2] = {{static_cast<double>(s.leaf_right), 0.0, -1, 0, 0},
                                 {static_cast<double>(s.best_right), tests ? rm : 1.0, 0, 0, 0}};
    add_split_points(left, s.best_left < s.leaf_left ? 2 : 1, right,
                     s.best_right < s.leaf_right ? 2 : 1, split_cost(cands[i].feature, total),
                     static_cast<std::int32_t>(i), pts);
  }

  // Scores every cut of a run not solved yet (the depth-two solver over
  // every feature) and adds their points to `now`.
  void score_run(Workspace& ws, const Entry* block, int m, const NodeStats& total,
                 const std::vector<Candidate>& cands, std::pair<std::size_t, std::size_t> run,
                 Sweep& sw, std::vector<FrontPoint>& now) {
    const std::vector<Candidate> cuts(cands.begin() + run.first, cands.begin() + run.second);
    ws.depth_two.start(block, m, cuts);
    for (int f = 0; f < d_.p; ++f) {
      if (abort_.load(std::memory_order_relaxed)) throw Aborted();
      ws.depth_two.scan(f);
    }
    for (std::size_t t = run.first; t < run.second; ++t) {
      if (sw.solved[t]) continue;
      sw.scored[t] = 1;
      sw.sides[t] = ws.depth_two.sides()[t - run.first];
      scored_points(total, cands, t, sw.sides[t], now);
    }
    keep_pareto(now, tol_, complexity_tol_);
  }

  // The least complexity a split of a child of weight w adds.
  double least_split_cost(double w) const {
    return opt_.complexity == Complexity::splits ? 1.0 : w;  // tests (cost: never bounded)
  }

  static double best_loss(const ChildRef& c) { return c.node ? c.node->front.back().loss : c.leaf_loss; }
  // A numeric cut: a prefix of the feature's sorted rows goes left.
  static bool prefix_cut(const Candidate& c) { return c.levels.empty() && c.na_left == kNaNoSide; }

  // Ranges [first, last) of consecutive numeric cuts of one feature, in
  // ascending order (other candidates are ranges of their own).
  static std::vector<std::pair<std::size_t, std::size_t>> feature_runs(
      const std::vector<Candidate>& cands) {
    std::vector<std::pair<std::size_t, std::size_t>> runs;
    for (std::size_t i = 0; i < cands.size();) {
      std::size_t j = i + 1;
      if (prefix_cut(cands[i]))
        while (j < cands.size() && cands[j].feature == cands[i].feature && prefix_cut(cands[j]) &&
               cands[j].cut > cands[j - 1].cut)
          ++j;
      runs.push_back({i, j});
      i = j;
    }
    return runs;
  }

  // The first split solved in a run: for numeric cuts, the one whose two
  // leaves lose least (its points start the front off well).
  std::size_t seed_cut(Workspace& ws, const Entry* block, int m, int depth,
                       const std::vector<Candidate>& cands,
                       std::pair<std::size_t, std::size_t> run) {
    if (!prefix_cut(cands[run.first])) return run.first;
    PrefixLeaves& pl = ws.prefix(depth);
    pl.start(block + static_cast<std::size_t>(cands[run.first].feature) * m, m);
    std::size_t best = run.first;
    double best_loss = 0.0;
    for (std::size_t i = run.first; i < run.second; ++i) {
      const double l = pl.leaf_left(cands[i].cut) + pl.leaf_right(cands[i].cut);
      if (i == run.first || l < best_loss) {
        best = i;
        best_loss = l;
      }
    }
    return best;
  }

  void solve_into(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
                  const std::vector<Candidate>& cands, std::size_t i, Sweep& sw) {
    if (sw.solved[i]) return;
    sw.children[i] = solve_children(ws, block, m, depth, hash, cands[i]);
    sw.solved[i] = 1;
  }

  void add_points(const NodeStats& total, const std::vector<Candidate>& cands, std::size_t i,
                  const Sweep& sw, std::vector<FrontPoint>& pts) const {
    add_split_points(front_of(sw.children[i].first), front_of(sw.children[i].second),
                     split_cost(cands[i].feature, total), static_cast<std::int32_t>(i), pts);
  }

  // The front of the leaf and the seeds' splits (in candidate order, so it
  // does not depend on which task solved what first).
  std::vector<FrontPoint> seeded(const NodeStats& total, double loss,
                                 const std::vector<Candidate>& cands,
                                 std::vector<std::size_t> seeds, const Sweep& sw) const {
    std::sort(seeds.begin(), seeds.end());
    std::vector<FrontPoint> pts{{loss, 0.0, -1, 0, 0}};
    for (std::size_t i : seeds) add_points(total, cands, i, sw, pts);
    keep_pareto(pts, tol_, complexity_tol_);
    return pts;
  }

  // Solves what it must of the runs [first_run, last_run) of feature_runs(),
  // starting from the front `now`.
  using Run = std::pair<std::size_t, std::size_t>;
  void sweep(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
             const NodeStats& total, const std::vector<Candidate>& cands, const Run* first_run,
             const Run* last_run, std::vector<FrontPoint> now, Sweep& sw) {
    auto solve_one = [&](std::size_t i) {
      solve_into(ws, block, m, depth, hash, cands, i, sw);
      add_points(total, cands, i, sw, now);
      keep_pareto(now, tol_, complexity_tol_);
    };
    // The cuts strictly between cands[a] and cands[b] (both solved) that
    // the bounds cannot rule out, into `open_cuts`.
    std::vector<std::size_t> open_cuts;
    std::vector<FrontPoint> left_lb, right_lb;
    std::vector<double> bound_at;
    auto not_dominated = [&](std::size_t a, std::size_t b) {
      open_cuts.clear();
      PrefixLeaves& pl = ws.prefix(depth);
      const double left_a = best_loss(sw.children[a].first);
      const double left_b = best_loss(sw.children[b].first);
      const double right_a = best_loss(sw.children[a].second);
      const double right_b = best_loss(sw.children[b].second);
      const int cut_a = cands[a].cut, cut_b = cands[b].cut;
      for (std::size_t t = a + 1; t < b; ++t) {
        const int cut = cands[t].cut;
        const double cost = split_cost(cands[t].feature, total);
        const double ll = pl.leaf_left(cut), lr = pl.leaf_right(cut);
        const double bl = std::min(ll, std::max(left_a, left_b - pl.removable(cut, cut_b)));
        const double br = std::min(lr, std::max(right_b, right_a - pl.removable(cut_a, cut)));
        const double cl = least_split_cost(pl.weight_left(cut));
        const double cr = least_split_cost(pl.weight_right(cut));
        if (!dominated(now, cost, ll + lr, tol_) || !dominated(now, cost + cl, bl + lr, tol_) ||
            !dominated(now, cost + cr, ll + br, tol_) ||
            !dominated(now, cost + cl + cr, bl + br, tol_)) {
          // With three or more levels left the children's fronts are long:
          // bound each side's whole front, not only its best loss.
          if (opt_.max_depth - depth >= 3) {
            side_bound(sw.children[a].first, sw.children[b].first, ll, cl,
                       pl.removable(cut, cut_b), bound_at, left_lb);
            side_bound(sw.children[b].second, sw.children[a].second, lr, cr,
                       pl.removable(cut_a, cut), bound_at, right_lb);
            if (all_dominated(now, cost, left_lb, right_lb)) continue;
          }
          open_cuts.push_back(t);
        }
      }
    };
    std::vector<std::pair<std::size_t, std::size_t>> open;
    for (const Run* run_it = first_run; run_it != last_run; ++run_it) {
      const Run& run = *run_it;
      const std::size_t i = run.first, last = run.second - 1;
      if (!prefix_cut(cands[i])) {
        solve_one(i);
        continue;
      }
      ws.prefix(depth).start(block + static_cast<std::size_t>(cands[i].feature) * m, m);
      solve_one(i);
      if (last > i) solve_one(last);
      // A seed inside the run splits it in two from the start.
      std::size_t seed = i;
      for (std::size_t t = i + 1; t < last; ++t)
        if (sw.solved[t]) seed = t;
      if (seed > i) {
        add_points(total, cands, seed, sw, now);
        keep_pareto(now, tol_, complexity_tol_);
        open = {{seed, last}, {i, seed}};
      } else {
        open = {{i, last}};
      }
      int solved_in_run = 0;
      for (std::size_t t = i; t <= last; ++t) solved_in_run += sw.solved[t];
      const int score_after = sw.sides.empty() ? std::numeric_limits<int>::max()
                                               : cuts_before_scoring(m);
      while (!open.empty()) {
        const auto [a, b] = open.back();
        open.pop_back();
        if (b - a < 2) continue;
        // Cuts ruled out stay so (the front only grows, the bounds of a
        // narrower interval only rise): the next cut solved is the middle
        // one of those still open.
        not_dominated(a, b);
        if (open_cuts.empty()) continue;
        if (solved_in_run >= score_after) {
          score_run(ws, block, m, total, cands, run, sw, now);
          break;
        }
        const std::size_t mid = open_cuts[open_cuts.size() / 2];
        solve_one(mid);
        ++solved_in_run;
        open.push_back({mid, b});
        open.push_back({a, mid});
      }
    }
  }

  // The lowest loss of a child's trees of complexity at most c.
  static double loss_within(const ChildRef& child, double c) {
    if (!child.node) return child.leaf_loss;
    const std::vector<FrontPoint>& f = child.node->front;
    auto it = std::upper_bound(f.begin(), f.end(), c,
                               [](double v, const FrontPoint& p) { return v < p.complexity; });
    return std::prev(it)->loss;  // f[0] is the leaf, complexity 0 <= c
  }

  // A lower bound of the front of one side of a cut t from the same side of
  // two solved cuts of its feature: `subset`'s rows are a subset of the
  // side's (any tree of the side, restricted to them, loses no more and is
  // no more complex: their front bounds the side's at every complexity),
  // `superset`'s rows a superset, less rows carrying at most `removable`
  // (with complexity "splits" a tree keeps its complexity on the superset:
  // its front, less `removable`, bounds the side's at every complexity;
  // with "tests" only its best loss, less `removable`, bounds the side's).
  // The side's leaf (loss `leaf`, complexity 0) is exact, and a split costs
  // at least `least`. Out: the bound's corners, complexity up, loss down
  // (`at`: scratch).
  void side_bound(const ChildRef& subset, const ChildRef& superset, double leaf, double least,
                  double removable, std::vector<double>& at, std::vector<FrontPoint>& out) const {
    const bool splits = opt_.complexity == Complexity::splits;
    at.assign(1, least);
    for (const ChildRef* c : {&subset, &superset}) {
      if (!c->node || (c == &superset && !splits)) continue;
      for (const FrontPoint& p : c->node->front)
        if (p.complexity > least) at.push_back(p.complexity);
    }
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    const double superset_best = best_loss(superset) - removable;
    out.assign(1, {leaf, 0.0, -1, 0, 0});
    for (double c : at) {
      const double far = splits ? loss_within(superset, c) - removable : superset_best;
      const double lb = std::min(leaf, std::max(loss_within(subset, c), far));
      if (lb < out.back().loss) out.push_back({lb, c, -1, 0, 0});
    }
  }

  // Whether every pair of the two sides' bound corners, with the split's
  // cost, is dominated by `now`: then no point of the split can be on it.
  bool all_dominated(const std::vector<FrontPoint>& now, double cost,
                     const std::vector<FrontPoint>& left, const std::vector<FrontPoint>& right) const {
    for (const FrontPoint& l : left)
      for (const FrontPoint& r : right)
        if (!dominated(now, cost + l.complexity + r.complexity, l.loss + r.loss, tol_)) return false;
    return true;
  }

  // The state's node from the splits solved, in candidate order. Scored
  // cuts whose points reach the front are solved first; a scored point
  // dominated by the solved splits' front cannot change the front, so only
  // the others are compared.
  std::unique_ptr<Node> assemble_solved(Workspace& ws, const Entry* block, int m, int depth,
                                        std::uint64_t hash, const NodeStats& total, double loss,
                                        const std::vector<Candidate>& cands, Sweep& sw) {
    std::vector<FrontPoint> scored_front;
    if (std::find(sw.scored.begin(), sw.scored.end(), 1) != sw.scored.end())
      scored_front = solve_scored(ws, block, m, depth, hash, total, loss, cands, sw);
    std::vector<Candidate> kept;
    std::vector<std::size_t> index;
    std::vector<std::pair<ChildRef, ChildRef>> children;
    for (std::size_t i = 0; i < cands.size(); ++i)
      if (sw.solved[i]) {
        kept.push_back(cands[i]);
        index.push_back(i);
        children.push_back(sw.children[i]);
      }
    std::unique_ptr<Node> node = assemble(total, loss, kept, children);
    if (scored_front.empty()) return node;
    bool same = node->front.size() == scored_front.size();
    for (std::size_t j = 0; same && j < scored_front.size(); ++j) {
      const FrontPoint& a = node->front[j];
      const FrontPoint& b = scored_front[j];
      same = a.loss == b.loss && a.complexity == b.complexity &&
             (a.action < 0 ? b.action < 0 : index[a.action] == static_cast<std::size_t>(b.action));
    }
    if (!same)
      throw std::logic_error("internal error: the depth-two solver's front differs from its "
                             "trees' front; please report it with the data");
    return node;
  }

  // The front of the solved and scored cuts' points (candidate order), and
  // the scored cuts on it solved.
  std::vector<FrontPoint> solve_scored(Workspace& ws, const Entry* block, int m, int depth,
                                       std::uint64_t hash, const NodeStats& total, double loss,
                                       const std::vector<Candidate>& cands, Sweep& sw) {
    std::vector<FrontPoint> solved_front{{loss, 0.0, -1, 0, 0}};
    for (std::size_t i = 0; i < cands.size(); ++i)
      if (sw.solved[i]) add_points(total, cands, i, sw, solved_front);
    keep_pareto(solved_front, tol_, complexity_tol_);
    std::vector<FrontPoint> pts{{loss, 0.0, -1, 0, 0}}, scored;
    for (std::size_t i = 0; i < cands.size(); ++i) {
      if (sw.solved[i]) add_points(total, cands, i, sw, pts);
      if (!sw.scored[i]) continue;
      scored.clear();
      scored_points(total, cands, i, sw.sides[i], scored);
      for (const FrontPoint& pt : scored)
        if (!dominated(solved_front, pt.complexity, pt.loss, tol_)) pts.push_back(pt);
    }
    keep_pareto(pts, tol_, complexity_tol_);
    for (const FrontPoint& pt : pts)
      if (pt.action >= 0 && !sw.solved[pt.action])
        solve_scored_cut(ws, block, m, depth, hash, cands, static_cast<std::size_t>(pt.action), sw);
    return pts;
  }

  // A scored cut's children, as solve_children() would find them. The
  // solver knows each side's best split loss and its first feature, the one
  // last_split() would choose: only that feature's rows are written out and
  // scanned (bean: one feature of 16).
  void solve_scored_cut(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
                        const std::vector<Candidate>& cands, std::size_t i, Sweep& sw) {
    const Candidate& c = cands[i];
    const std::uint64_t left_hash = mark_sides(d_, block, m, c, ws.goes_left, row_keys_);
    const DepthTwoSolver::Sides& s = sw.sides[i];
    sw.children[i] = {scored_side(ws, block, m, depth, left_hash, c, true, s.feature_left),
                      scored_side(ws, block, m, depth, hash - left_hash, c, false, s.feature_right)};
    sw.solved[i] = 1;
  }

  ChildRef scored_side(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t side_hash,
                       const Candidate& c, bool left, int best_feature) {
    const int count = left ? c.left_count : m - c.left_count;
    ChildRef ref;
    if (known_child(count, depth + 1, side_hash, ref)) return ref;
    // A numeric cut: the side's rows are a prefix or suffix of its feature's.
    const Entry* cut_rows = block + static_cast<std::size_t>(c.feature) * m + (left ? 0 : c.left_count);
    const NodeStats stats = stats_of(d_, cut_rows, count);
    const double loss = leaf_loss(d_, stats);
    if (terminal(depth + 1, stats, count)) return {nullptr, loss};
    if (abort_.load(std::memory_order_relaxed)) throw Aborted();
    Entry* const room = ws.buffer(depth + 1, m);
    if (best_feature >= 0)
      write_side_feature(block, m, count, left, ws.goes_left, best_feature, room);
    const int only = best_feature >= 0 ? best_feature : kNoBetterSplit;
    return {store(StateKey{side_hash, depth + 1, count}, last_split(ws, room, count, stats, loss, only)),
            loss};
  }

  // One test left: the best split over every feature and threshold (and
  // level group, and missing-value side) is found exactly in one sorted pass
  // per feature. With test costs that differ between features, the best
  // split of each feature is a front point (a cheaper, worse test may be
  // Pareto-optimal). `best_feature`: when the depth-two solver found the
  // state's best split before, the first feature of one (only its rows are
  // written out), or kNoBetterSplit.
  static constexpr int kEveryFeature = -1, kNoBetterSplit = -2;
  std::unique_ptr<Node> last_split(Workspace& ws, const Entry* block, int m,
                                   const NodeStats& total, double loss,
                                   int best_feature = kEveryFeature) {
    auto node = std::make_unique<Node>();
    std::vector<FrontPoint> pts{{loss, 0.0, -1, 0, 0}};
    const bool per_feature = opt_.complexity == Complexity::cost && !uniform_cost_;
    // Scans: every feature at once (only = -1), each apart (per-feature
    // costs), the one the depth-two solver named, or none.
    int first = -1, last = 0;
    if (best_feature >= 0) first = best_feature, last = best_feature + 1;
    else if (best_feature == kNoBetterSplit) last = first;
    else if (per_feature) first = 0, last = d_.p;
    for (int only = first; only < last; ++only) {
      const Split s = best_last_split(ws, block, m, total, only, true);
      if (!s.found()) continue;
      // The split's loss recomputed from its children (the scan's running
      // sums only choose it): it must be lower by more than rounding.
      const std::pair<NodeStats, NodeStats> sides = side_stats(block, m, s);
      const ChildRef lc{nullptr, leaf_loss(d_, sides.first)}, rc{nullptr, leaf_loss(d_, sides.second)};
      if (!tol_.below(lc.leaf_loss + rc.leaf_loss, loss)) continue;
      node->actions.push_back({s.feature, s.threshold, lc, rc, s.levels, s.na_left});
      pts.push_back({lc.leaf_loss + rc.leaf_loss, split_cost(s.feature, total),
                     static_cast<std::int32_t>(node->actions.size() - 1), 0, 0});
    }
    if (node->actions.empty()) {
      node->front.assign(1, pts[0]);
      return node;
    }
    keep_pareto(pts, tol_, complexity_tol_);
    node->front.assign(pts.begin(), pts.end());
    return node;
  }

  // The state's best split for its own loss (over every feature, or only
  // feature `only`); `claim`: it is claimed to be the best (heuristic level
  // groups are then recorded).
  Split best_last_split(Workspace& ws, const Entry* block, int m, const NodeStats& total,
                        int only, bool claim) {
    Split s;
    if (d_.regression()) {
      s = ws.sse.best(d_, block, m, opt_.min_bucket, nullptr, only);
    } else if (d_.n_classes == 2) {
      if (d_.loss_matrix.empty() && d_.unit_weights) {
        s = best_split_two_classes_unit(d_, block, m, opt_.min_bucket, total, MisclassifiedUnit{},
                                        nullptr, only);
      } else if (d_.loss_matrix.empty()) {
        s = best_split_two_classes(d_, block, m, opt_.min_bucket, total, MisclassifiedSide{},
                                   nullptr, only);
      } else {
        const CostSide side{d_.loss_matrix[2], d_.loss_matrix[1]};
        s = best_split_two_classes(d_, block, m, opt_.min_bucket, total, side, nullptr, only);
      }
    } else if (d_.loss_matrix.empty() && d_.exact_weights) {
      s = ws.many.best(d_, block, m, opt_.min_bucket, total, only);
    } else {
      s = best_split(d_, block, m, opt_.min_bucket, total, ws.miss, nullptr, only);
    }
    const Split g = best_special_split(d_, ws.groups, block, m, opt_.min_bucket, SideScore::loss,
                                       nullptr, only, claim);
    return better_split(s, nullptr, g, nullptr);
  }

  // A state's candidates: the generator's, and in a state of CART
  // proposals also the state's own best split for the training loss (one
  // exact scan, as the last level makes), so that every one-split subtree
  // on the front is the best one of its state.
  std::vector<Candidate> candidates(Workspace& ws, const Entry* block, int m, int depth,
                                    const NodeStats& total) {
    std::vector<Candidate> cands = ws.generator.generate(block, m, depth, total);
    if (opt_.candidates == Candidates::exhaustive || opt_.max_depth - depth <= opt_.exact_levels)
      return cands;
    const Split s = best_last_split(ws, block, m, total, kEveryFeature, false);
    if (!s.found()) return cands;
    const SplitRule& best = s;
    if (std::none_of(cands.begin(), cands.end(), [&](const Candidate& c) { return c.same_test(best); }))
      cands.push_back(best);
    return cands;
  }

  // The statistics of the two children of a test.
  std::pair<NodeStats, NodeStats> side_stats(const Entry* block, int m, const SplitRule& r) const {
    const Entry* rows = block + static_cast<std::size_t>(r.feature) * m;
    if (!d_.special(r.feature, rows, m))  // a prefix of the block goes left
      return {stats_of(d_, rows, r.left_count), stats_of(d_, rows + r.left_count, m - r.left_count)};
    std::vector<Entry> l, rr;
    l.reserve(r.left_count);
    rr.reserve(m - r.left_count);
    for (int i = 0; i < m; ++i) (goes_left(d_, r, i, rows[i]) ? l : rr).push_back(rows[i]);
    return {stats_of(d_, l.data(), static_cast<int>(l.size())),
            stats_of(d_, rr.data(), static_cast<int>(rr.size()))};
  }

  std::unique_ptr<Node> assemble(const NodeStats& total, double loss,
                                 const std::vector<Candidate>& cands,
                                 const std::vector<std::pair<ChildRef, ChildRef>>& children) {
    auto node = std::make_unique<Node>();
    std::vector<FrontPoint> pts{{loss, 0.0, -1, 0, 0}};
    for (std::size_t a = 0; a < cands.size(); ++a) {
      const ChildRef& l = children[a].first;
      const ChildRef& r = children[a].second;
      const double cost = split_cost(cands[a].feature, total);
      node->actions.push_back({cands[a].feature, cands[a].threshold, l, r, cands[a].levels,
                               cands[a].na_left});
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

  // Searches estimated to be far beyond reach are refused before they start.
  int search_threads() const { return opt_.max_depth == 1 ? 1 : std::max(1, opt_.threads); }
  double estimated_seconds(const WorkEstimate& work) const {
    return work.visits() / kVisitsPerSecond / search_threads();
  }

  void check_work(const WorkEstimate& work) const {
    const double seconds = estimated_seconds(work);
    const bool too_much = work.visits() > opt_.max_work;
    if (!too_much && !(seconds > opt_.max_seconds)) return;
    const int threads = search_threads();
    std::ostringstream msg;
    msg.precision(2);
    msg << "this search is estimated at " << work.visits() << " row visits ("
        << work.root_candidates() << " candidate splits at the root, max_depth = "
        << opt_.max_depth << ", candidates = \""
        << (opt_.candidates == Candidates::exhaustive ? "exhaustive" : "cart")
        << "\"): up to about " << duration(seconds) << " with " << threads << " thread(s), ";
    if (too_much) msg << "beyond max_work = " << opt_.max_work;
    else msg << "beyond an hour";
    msg << ". Lower max_depth";
    if (opt_.candidates == Candidates::exhaustive)
      msg << ", use candidates = \"cart\"";
    else
      msg << " or cart_depth (now " << opt_.cart_depth_at(0) << " at the root)";
    msg << ", or fit on fewer rows; or set time_limit (seconds: the widest search that "
           "finishes within it is kept), or raise max_work (Inf: no limit) to run it anyway.";
    throw ResourceLimit(msg.str());
  }

  static std::string duration(double seconds) {
    std::ostringstream out;
    out.precision(2);
    if (seconds < 120) out << seconds << " seconds";
    else if (seconds < 7200) out << seconds / 60 << " minutes";
    else if (seconds < 172800) out << seconds / 3600 << " hours";
    else if (seconds < 2 * 3.15e7) out << seconds / 86400 << " days";
    else out << seconds / 3.15e7 << " years";
    return out.str();
  }

  // Scaled losses are exact; reported ones must be representable doubles.
  double mean_loss(double loss) const {
    return std::ldexp(loss / total_weight_, d_.regression() ? 2 * d_.y_exp : 0);
  }
  bool reportable(double loss) const {
    if (loss == 0) return true;
    const double raw = d_.unscale_loss(loss), mean = mean_loss(loss);
    return std::isfinite(raw) && std::isfinite(mean) && raw >= DBL_MIN && mean >= DBL_MIN;
  }
  void range_error(double loss, const char* what) const {
    const double raw = d_.unscale_loss(loss), mean = mean_loss(loss);
    // The mean loss itself representable: only the weights' scale is at fault.
    const bool weights = std::isfinite(mean) && mean >= DBL_MIN;
    const bool big = weights ? !std::isfinite(raw) : !std::isfinite(mean);
    // log10 of the mean loss, computed from the scaled value (no overflow).
    const double log10_mean = std::log10(loss / total_weight_) +
                              (d_.regression() ? 2 * d_.y_exp : 0) * std::log10(2.0);
    std::ostringstream msg;
    msg << what << " " << (d_.regression() ? "mean squared error" : "misclassification rate")
        << " is about 1e" << std::lround(log10_mean) << " and its loss (in units of "
        << (d_.regression() ? "squared response times weight" : "weight") << ") is "
        << (big ? "beyond the largest" : "below the smallest normal")
        << " double: it cannot be reported exactly. " << (big ? "Divide" : "Multiply")
        << (weights ? " the weights by a constant (the trees stay the same)."
                    : " the response by a constant (the trees stay the same, the "
                      "losses scale by its square).");
    throw ResourceLimit(msg.str());
  }
  void check_range(double root_loss) const {
    if (!reportable(root_loss)) range_error(root_loss, "the single leaf's");
  }
  void check_front_range() const {
    for (const FrontPoint& pt : root_->front)
      if (!reportable(pt.loss)) range_error(pt.loss, "a front tree's");
  }

  // CART levels whose rows a workspace's generator writes out for states
  // at depths [first, last] (at most one buffer per level, reused).
  int cart_buffer_levels(int first, int last) const {
    int levels = 0;
    for (int depth = first; depth <= last; ++depth) {
      const int left = opt_.max_depth - depth;
      if (opt_.candidates == Candidates::cart && left >= 2 && left > opt_.exact_levels)
        levels = std::max(levels, opt_.cart_depth_at(depth) - 1);
    }
    return levels;
  }

  // Each buffer holds at most a state's rows in every feature's order: the
  // root's, the main workspace's CART levels for the root, and per worker
  // one buffer per depth below the root plus the CART levels of the states
  // it solves (one workspace only at depth 1).
  void check_buffer_memory() const {
    const double block = (static_cast<double>(d_.n) * d_.p + 2) * sizeof(Entry);
    double buffers = 1 + cart_buffer_levels(0, 0);
    if (opt_.max_depth > 1)
      buffers += std::max(1, opt_.threads) *
                 (opt_.max_depth - 1 + cart_buffer_levels(1, opt_.max_depth - 2));
    const double need = buffers * block;
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
  LossTolerance tol_;
  double complexity_tol_ = 0.0;
  bool uniform_cost_ = true;
  // Classes counted in whole numbers on numeric features: the depth-two
  // solver applies (may_score()).
  bool counted_ = false;
  // No factor has more levels than the exhaustive search enumerates the
  // groups of (split_groups.h): its fronts are then optimal.
  bool every_group_tried_ = true;
  HeuristicGroups heuristic_;
  double total_weight_ = 0.0;
  // Row visits per second and thread assumed by check_work()'s message.
  static constexpr double kVisitsPerSecond = 1e9;
  static constexpr std::size_t kFilterAbove = 1 << 16;
};

}  // namespace dpdt
