// The DPDT search, depth-first over states (rows, depth): the value of a
// state is the exact Pareto front of (loss, complexity) over every tree the
// candidate tests can build below it, with back-pointers to rebuild each
// tree. This file is the conductor: it owns the rooms (src/core/README.md)
// and decides, state by state, which of them solves it; the root's splits
// run as tasks on the workers.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/data/options.h"
#include "core/fronts/node.h"
#include "core/fronts/pareto.h"
#include "core/fronts/tree.h"
#include "core/runtime/parallel.h"
#include "core/runtime/runtime.h"
#include "core/runtime/work.h"
#include "core/search/assemble.h"
#include "core/search/context.h"
#include "core/search/cut_scoring.h"
#include "core/search/guards.h"
#include "core/search/last_level.h"
#include "core/search/projection.h"
#include "core/search/root_chunk.h"
#include "core/search/root_need.h"
#include "core/search/states.h"
#include "core/search/sweep.h"
#include "core/search/sweep_state.h"
#include "core/search/workspace.h"
#include "core/splits/candidates.h"
#include "core/splits/split_groups.h"

namespace dpdt {

class Search final : private NodeBuilder {
 public:
  // The search keeps references to both: temporaries are refused.
  Search(const Dataset&&, const SearchOptions&) = delete;
  Search(const Dataset&, const SearchOptions&&) = delete;
  Search(const Dataset& d, const SearchOptions& opt)
      : c_(d, opt), d_(d), opt_(opt), guards_(c_), last_(c_), states_(c_, *this, last_, guards_),
        scoring_(c_, states_, last_), sweep_(c_, guards_, states_, scoring_) {}

 private:
  // The search with min_bucket 1 within `outer` (relaxed_).
  Search(const Search& outer, const SearchOptions& opt)
      : c_(outer.c_, opt), d_(outer.d_), opt_(opt), guards_(c_), last_(c_),
        states_(c_, *this, last_, guards_), scoring_(c_, states_, last_),
        sweep_(c_, guards_, states_, scoring_) {}

 public:
  // `chunk`: only that part of the root (root_chunk.h); nullptr: all of it.
  void run(Runtime& runtime, const RootChunk* chunk = nullptr) {
    chunk_ = chunk;
    // A search of states given by rows may run without the presort.
    if (d_.sorted.empty() && d_.n > 0 && !states_of_rows())
      throw std::invalid_argument("this search needs the data's presort (presort_features())");
    // Settled first: whether the root is measured (bounded) depends on the
    // tolerances and the factors' levels settle() sets.
    const Entry* block = d_.sorted.empty() ? nullptr : d_.sorted.data();
    const NodeStats total =
        block ? stats_of(d_, block, d_.n) : class_stats(d_, d_.n, [](int i) { return i; });
    const double loss = leaf_loss(d_, total);
    c_.settle(total, loss);
    if (sweep_.wants_relaxed_fronts()) {
      relaxed_opt_ = opt_;
      relaxed_opt_.min_bucket = 1;
      relaxed_opt_.best_only = false;  // every point of its fronts bounds
      relaxed_ = std::unique_ptr<Search>(new Search(*this, relaxed_opt_));
      relaxed_->c_.settle(total, loss);
      c_.other_memo = &relaxed_->c_.memo;
      relaxed_->c_.other_memo = &c_.memo;
    }
    runtime.bounds(sweep_.may_bound());
    {
      WorkEstimate work(d_, opt_, &c_.codes, last_.scans());
      const bool measured = measured_root();
      if (measured) {  // its quick CART search first (incumbent_front())
        const bool swept = sweep_.bounded(0);
        const auto quick = incumbent_options(swept ? kFullCartDepth : kNeedsIncumbentCartDepth);
        if (quick) work.add_search(WorkEstimate(d_, *quick, &c_.codes));
      }
      guards_.check_work(work, measured);
      runtime.estimate(work.visits(), guards_.estimated_seconds(work), measured);
    }
    guards_.check_buffer_memory(states_of_rows(), relaxed_ != nullptr,
                                opt_.max_depth >= 2 && last_.coded());
    guards_.check_range(loss);
    if (chunk_ && chunk_->stage != RootChunk::Stage::plan && !chunkable())
      throw std::invalid_argument(
          "a search spread over processes needs exact sums of losses and complexities (whole "
          "weights, complexity other than \"cost\"): merged fronts could differ in ties");
    const std::uint64_t hash = c_.root_hash();

    if (c_.terminal(0, total, d_.n) || (chunk_ && opt_.max_depth == 1)) {
      root_ = leaf_node(loss);
      return;
    }
    if (states_of_rows()) {
      root_ = root_of_rows(runtime, hash, total, loss);
    } else {
      run_blocks(runtime, block, hash, total, loss);
    }
    guards_.check_front_range(root_->front);
    // Only the leaf and the least loss are exact (the other points' splits
    // may have been skipped): the front is the leaf and the most accurate tree.
    if (opt_.best_only && root_->front.size() > 2)
      root_->front.erase(root_->front.begin() + 1, root_->front.end() - 1);
  }

  // A search of CART proposals on many rows with codes (RowCodes; the
  // last level from rows applies) holds each state as its rows, in index
  // order, not as every feature's sorted block: the CART trees grow from
  // histograms of codes and the children are the rows' codes split, so the
  // search needs O(n) memory per depth where blocks need O(n p) (1e7 rows
  // of 20 features: 40 MB against 1.6 GB for each buffer), with the same
  // fronts and trees (core test "states from rows").
  // It never reads the data's presorted blocks, which may be left unmade
  // (code_features(): 1.6 GB for 1e7 rows of 20 features).
  bool states_of_rows() const { return rows_layout_allowed(d_, opt_) && last_.from_rows(); }

  // The search over sorted blocks from the root's (d_.sorted).
  void run_blocks(Runtime& runtime, const Entry* block, std::uint64_t hash,
                  const NodeStats& total, double loss) {
    Workspace main_ws(d_, opt_, c_.codes, &c_.heuristic);
    if (opt_.max_depth == 1)
      root_ = build_node(main_ws, block, d_.n, 0, hash, total, loss);
    else
      root_ = split_or_sweep_root(runtime, main_ws, block, hash, total, loss);
  }

  const std::vector<FrontPoint>& front() const { return root_->front; }
  // Of a chunked search (run() with a chunk): the root's candidates, whether
  // its root is bounded (solved in two stages), the seeds' front (stage
  // seeds), and each front point's root candidate (-1: the leaf).
  std::size_t root_candidates() const { return root_candidates_; }
  bool root_bounded() const { return root_bounded_; }
  // Whether chunks' fronts merge into the root's: exact sums (no
  // tolerance), so that merging is associative. Known once run() started.
  bool chunkable() const { return exact_sums(); }
  const std::vector<FrontPoint>& chunk_seed_front() const { return chunk_seed_front_; }
  std::vector<long> root_splits() const {
    std::vector<long> out;
    for (const FrontPoint& p : root_->front)
      out.push_back(p.action < 0 ? -1L : static_cast<long>(root_split_[p.action]));
    return out;
  }
  const Node& root() const { return *root_; }
  // Features whose level groups were chosen by the heuristic in a state
  // that was to try every split (so the front is not proven optimal there).
  const HeuristicGroups& heuristic_groups() const { return c_.heuristic; }
  std::size_t states() const { return c_.memo.states() + 1; }
  // With those of the search with min_bucket 1 within it (relaxed_), which
  // can solve more states than the search itself (fit$n_states).
  std::size_t all_states() const { return states() + (relaxed_ ? relaxed_->c_.memo.states() : 0); }
  // Row visits the search made (SearchContext::count_visits()).
  double visits_made() const { return c_.visits_made(); }
  // Of those, the states kept in the memo (StateSolver::memoised()).
  std::size_t stored_states() { return c_.memo.stored(); }
  // Root splits' children solved for the root's need (root_need.h), not
  // stored in the memo (those kept to the end, and those freed before:
  // solve_for_root()).
  std::size_t children_for_need() const { return children_for_need_.load(); }
  // ... of which those freed as their split could not reach the front.
  std::size_t children_freed() const { return children_freed_.load(); }
  // Root candidates whose children were an earlier candidate's (twins()).
  std::size_t twin_candidates() const { return twin_candidates_; }
  // After a bounded root was stopped: a lower bound of the least loss of
  // every tree the search was to compare (NaN: none known).
  double stopped_lower_bound() const { return stopped_lower_bound_; }
  // ... and each root candidate's own bound, in the order of the candidates.
  const std::vector<Candidate>& stopped_cuts() const { return stopped_cuts_; }
  const std::vector<double>& stopped_cut_bounds() const { return stopped_cut_bounds_; }
  // ... and the front of the root splits it had solved (nullptr: none).
  const Node* partial_root() const { return partial_root_.get(); }

 private:
  using Workspaces = std::vector<std::unique_ptr<Workspace>>;

  // A root timed as it runs (RootProjection), not refused by the work
  // estimate's hour: a bounded one, and one whose candidates' children are
  // solved for its need (root_needs(): exact_levels = 2 at depth 3, whose
  // estimate counts every split the children's bounds skip).
  bool measured_root() const {
    return sweep_.bounded(0) || (!states_of_rows() && !d_.sorted.empty() && root_needs());
  }

  // The root's candidates, solved on the workers: by a bounded sweep, or
  // every split.
  std::unique_ptr<Node> split_or_sweep_root(Runtime& runtime, Workspace& main_ws,
                                            const Entry* block, std::uint64_t hash,
                                            const NodeStats& total, double loss) {
    const std::vector<Candidate> cands = candidates(main_ws, block, d_.n, 0, total);
    root_candidates_ = cands.size();
    root_bounded_ = sweep_.bounded(0);
    if (chunk_ && chunk_->stage == RootChunk::Stage::plan) return leaf_node(loss);
    // One workspace per worker that can have a task (each holds O(n) scratch).
    const int workers = std::max(1, std::min(opt_.threads, static_cast<int>(2 * cands.size())));
    std::vector<std::unique_ptr<Workspace>> ws;
    for (int t = 0; t < workers; ++t)
      ws.push_back(std::make_unique<Workspace>(d_, opt_, c_.codes, &c_.heuristic));
    if (root_bounded_) return sweep_root(runtime, main_ws, ws, block, hash, total, loss, cands);
    if (!chunk_) return split_root(runtime, ws, block, hash, total, loss, cands);
    // A chunk of a root that solves every candidate: its own range of them.
    const std::size_t first = std::min(chunk_->first, cands.size());
    const std::size_t last = std::min(chunk_->last, cands.size());
    const std::vector<Candidate> part(cands.begin() + first, cands.begin() + last);
    std::unique_ptr<Node> node = split_root(runtime, ws, block, hash, total, loss, part,
                                            &root_split_);
    for (std::size_t& a : root_split_) a += first;
    return node;
  }

  // The root of a search of states given by their rows (states_of_rows()):
  // its candidates' children solved as tasks on the workers (a chunk: its
  // own range of them).
  std::unique_ptr<Node> root_of_rows(Runtime& runtime, std::uint64_t hash, const NodeStats& total,
                                     double loss) {
    std::vector<int> rows(d_.n);
    std::iota(rows.begin(), rows.end(), 0);
    std::vector<Candidate> cands;
    {
      Workspace main_ws(d_, opt_, c_.codes, &c_.heuristic);
      cands = candidates_of_rows(main_ws, rows.data(), d_.n, 0, total);
    }
    root_candidates_ = cands.size();
    if (chunk_ && chunk_->stage == RootChunk::Stage::plan) return leaf_node(loss);
    std::size_t first = 0;
    if (chunk_) {
      first = std::min(chunk_->first, cands.size());
      const std::size_t last = std::min(chunk_->last, cands.size());
      cands = std::vector<Candidate>(cands.begin() + first, cands.begin() + last);
    }
    const int workers = std::max(1, std::min(opt_.threads, static_cast<int>(cands.size())));
    Workspaces ws;
    for (int t = 0; t < workers; ++t)
      ws.push_back(std::make_unique<Workspace>(d_, opt_, c_.codes, &c_.heuristic));
    std::vector<std::pair<ChildRef, ChildRef>> children(cands.size());
    run_tasks(static_cast<int>(cands.size()), workers, runtime, c_.abort, [&](int t, int worker) {
      children[t] = states_.solve_children_of_rows(*ws[worker], rows.data(), d_.n, 0, hash, cands[t]);
    });
    std::unique_ptr<Node> node =
        assemble_front(c_, guards_, total, loss, cands, children, chunk_ ? &root_split_ : nullptr);
    for (std::size_t& a : root_split_) a += first;
    return node;
  }

  static std::unique_ptr<Node> leaf_node(double loss) {
    auto node = std::make_unique<Node>();
    node->front.push_back({loss, 0.0, -1, 0, 0});
    return node;
  }

  // A bounded root: tasks per feature, each bounded by the seeds' points and
  // its own, so the splits skipped never depend on the number of threads.
  std::unique_ptr<Node> sweep_root(Runtime& runtime, Workspace& main_ws, Workspaces& ws,
                                   const Entry* block, std::uint64_t hash,
                                   const NodeStats& total, double loss,
                                   const std::vector<Candidate>& cands) {
    const int workers = static_cast<int>(ws.size());
    SweepState sw;
    sweep_.reset_state(sw, cands.size(), block, d_.n, 0);
    const std::vector<std::pair<std::size_t, std::size_t>> runs =
        chunk_ ? chunk_->clip(BoundedSweep::feature_runs(cands)) : BoundedSweep::feature_runs(cands);
    const int tasks = static_cast<int>(runs.size());
    std::vector<std::vector<std::size_t>> seeds(tasks);
    const double none = std::numeric_limits<double>::infinity();
    const bool measured = measured_root();
    RootProjection projection(measured ? opt_.max_seconds : none, RootProjection::steady_seconds,
                              measured ? opt_.max_work : none, [this] { return c_.visits_made(); });
    projection.count(chunk_ ? RootRuns::groups : root_runs(runs, cands));
    ProjectingRuntime projecting(runtime, projection);
    QuietRuntime quiet(projecting);  // progress is shown for the second phase only
    auto each_run = [&](Runtime& rt, auto&& work) {
      if (tasks > 0)
        run_tasks(tasks, std::min(workers, tasks), rt, c_.abort,
                  [&](int t, int worker) { work(t, *ws[worker]); });
    };
    try {
      // Spread over chunks, the first chunk's seeds carry the incumbent to
      // every chunk's sweep (the merged seed front): one CART search, not
      // one per chunk.
      std::vector<FrontPoint> incumbent;
      if (!chunk_ || (chunk_->stage == RootChunk::Stage::seeds && chunk_->first == 0))
        incumbent = incumbent_front(quiet);
      each_run(quiet, [&](int t, Workspace& w) {
        seeds[t] = sweep_.solve_seeds(w, block, d_.n, 0, hash, total, cands, runs[t], sw);
      });
      projection.seeds_done();
      if (projection.beyond()) guards_.projection_error(projection);
      std::vector<std::size_t> all_seeds;
      for (const auto& run_seeds : seeds)
        all_seeds.insert(all_seeds.end(), run_seeds.begin(), run_seeds.end());
      std::vector<FrontPoint> seed_front = sweep_.seeded(total, loss, cands, all_seeds, sw);
      seed_front.insert(seed_front.end(), incumbent.begin(), incumbent.end());
      keep_bounding_front(seed_front, c_.tol, c_.complexity_tol);
      if (chunk_ && chunk_->stage == RootChunk::Stage::seeds) {
        chunk_seed_front_ = std::move(seed_front);
        return leaf_node(loss);
      }
      // A chunk's sweep is bounded by every chunk's seeds, as in one process.
      if (chunk_) seed_front = chunk_->seed_front;
      each_run(projecting, [&](int t, Workspace& w) {
        sweep_.sweep(w, block, d_.n, 0, hash, total, cands, &runs[t], &runs[t] + 1, seed_front, sw);
      });
    } catch (const Interrupted&) {
      if (projection.beyond()) guards_.projection_error(projection);
      // Stopped (a time limit, or the user): what the splits solved so far
      // prove about the optimum. The workers have all returned.
      stopped_cuts_ = cands;
      stopped_lower_bound_ = sweep_.stopped_lower_bound(main_ws, block, d_.n, 0, loss, cands, sw,
                                                        stopped_cut_bounds_);
      partial_root_ = solved_so_far(total, loss, cands, sw);
      throw;
    }
    return sweep_.assemble_solved(main_ws, block, d_.n, 0, hash, total, loss, cands, sw,
                                  &root_split_);
  }

  // What a bounded root's runs (BoundedSweep::feature_runs()) are to the
  // user: its features when no feature's candidate splits make two runs
  // (missing values, level groups), else groups of candidate splits.
  static RootRuns root_runs(const std::vector<std::pair<std::size_t, std::size_t>>& runs,
                            const std::vector<Candidate>& cands) {
    std::vector<int> features;
    for (const auto& run : runs) features.push_back(cands[run.first].feature);
    std::sort(features.begin(), features.end());
    return std::adjacent_find(features.begin(), features.end()) == features.end() ? RootRuns::features
                                                                                  : RootRuns::groups;
  }

  // A stopped root's front of the splits it had solved (each child a
  // solved state): real trees with their exact losses, not proven optimal.
  // None when the pairs of their fronts would exceed the memory budget, or
  // a loss could not be reported.
  std::unique_ptr<Node> solved_so_far(const NodeStats& total, double loss,
                                      const std::vector<Candidate>& cands, const SweepState& sw) {
    std::vector<Candidate> kept;
    std::vector<std::pair<ChildRef, ChildRef>> children;
    for (std::size_t i = 0; i < cands.size(); ++i)
      if (sw.solved[i]) {
        kept.push_back(cands[i]);
        children.push_back(sw.children[i]);
      }
    try {
      std::unique_ptr<Node> node = assemble_front(c_, guards_, total, loss, kept, children);
      if (opt_.best_only && node->front.size() > 2)
        node->front.erase(node->front.begin() + 1, node->front.end() - 1);
      guards_.check_front_range(node->front);
      return node;
    } catch (const ResourceLimit&) {
      return nullptr;
    }
  }

  // Every root split solved. With several workers, one task per child of a
  // root split (twice as many tasks as splits balances the threads better;
  // each task partitions the root itself); with one, one task per split,
  // partitioned once.
  // `origin`: as assemble_front()'s.
  std::unique_ptr<Node> split_root(Runtime& runtime, Workspaces& ws, const Entry* block,
                                   std::uint64_t hash, const NodeStats& total, double loss,
                                   const std::vector<Candidate>& cands,
                                   std::vector<std::size_t>* origin = nullptr) {
    const int workers = static_cast<int>(ws.size());
    std::vector<std::pair<ChildRef, ChildRef>> children(cands.size());
    if (root_needs()) {
      // Timed as it runs, as a bounded root: the quick search's phase, then
      // each candidate's children (measured_root()).
      RootProjection projection(opt_.max_seconds, RootProjection::steady_seconds, opt_.max_work,
                                [this] { return c_.visits_made(); });
      projection.count(RootRuns::splits);
      ProjectingRuntime projecting(runtime, projection);
      QuietRuntime quiet(projecting);
      try {
        KnownRootFront known(loss);
        known.add(incumbent_front(quiet, kNeedsIncumbentCartDepth));
        projection.seeds_done();
        needed_children_.resize(2 * cands.size());
        const std::vector<Twin> twin = twins(*ws[0], block, hash, total, cands);
        twin_candidates_ = static_cast<std::size_t>(
            std::count_if(twin.begin(), twin.end(), [](const Twin& w) { return w.of >= 0; }));
        run_tasks(static_cast<int>(cands.size()), workers, projecting, c_.abort,
                  [&](int t, int worker) {
                    if (twin[t].of >= 0) return;
                    children[t] = solve_for_root(*ws[worker], block, hash, total, cands[t], t, known);
                  });
        for (std::size_t t = 0; t < cands.size(); ++t) {
          if (twin[t].of < 0) continue;
          const auto& c = children[static_cast<std::size_t>(twin[t].of)];
          children[t] = twin[t].swapped ? std::make_pair(c.second, c.first) : c;
        }
      } catch (const Interrupted&) {
        if (projection.beyond()) guards_.projection_error(projection);
        throw;
      }
      return assemble_front(c_, guards_, total, loss, cands, children, origin);
    }
    const int per_split = workers > 1 ? 2 : 1;
    run_tasks(static_cast<int>(per_split * cands.size()), workers, runtime, c_.abort,
              [&](int t, int worker) {
                if (per_split == 1) {
                  children[t] =
                      states_.solve_children(*ws[worker], block, d_.n, 0, hash, total, cands[t]);
                  return;
                }
                const bool left = t % 2 == 0;
                const ChildRef c =
                    states_.solve_child(*ws[worker], block, d_.n, 0, hash, cands[t / 2], left);
                (left ? children[t / 2].first : children[t / 2].second) = c;
              });
    return assemble_front(c_, guards_, total, loss, cands, children, origin);
  }

  // The front of a quick search of CART proposals (exact_levels 1, the
  // same data, options and cart_depth) before a root that bounds its
  // splits by the points found so far (a bounded sweep, or children solved
  // for the root's need). Its trees are trees of this search's space: its
  // tests are splits of the data, which a state that tries every split
  // tries too, and a CART root's proposals are this root's. So its points
  // bound from the start what the root's own splits find only later (a
  // root feature's sweep sees its own splits and the seeds, not the other
  // features'). As kIncumbent points they rule out strictly dominated
  // points only, so the front and its trees are unchanged. Exact sums only
  // (a tree's loss summed in another order must not differ). Exhaustive
  // depth 3, complexity "splits": occupancy 59,102 states -> 45,810;
  // exact_levels = 2 (complexity "tests", min_bucket 5): 5 to 17% fewer
  // states on 8 sets. It costs one CART search (room: 0.4 s of 5 s).
  // `max_cart_depth`: a cap on its CART depths (below).
  std::vector<FrontPoint> incumbent_front(Runtime& runtime,
                                          int max_cart_depth = kFullCartDepth) const {
    const auto quick = incumbent_options(max_cart_depth);
    if (!quick) return {};
    Search search(d_, *quick);
    QuietRuntime quiet(runtime);
    search.run(quiet);
    c_.count_visits(search.visits_made());
    std::vector<FrontPoint> pts = search.front();
    for (FrontPoint& p : pts) p.action = kIncumbent;
    return pts;
  }

  // Whether losses and complexities sum exactly (tolerances 0), as a tree
  // found elsewhere must to bound a sweep: its point ties the same tree's
  // found by the sweep, never beats it by rounding.
  bool exact_sums() const {
    return c_.tol.abs == 0.0 && c_.tol.rel == 0.0 && c_.complexity_tol == 0.0;
  }

  // The quick search's options: CART proposals of at most max_cart_depth
  // levels, the whole front, no limit; none without exact sums.
  static constexpr int kFullCartDepth = std::numeric_limits<int>::max();
  std::optional<SearchOptions> incumbent_options(int max_cart_depth) const {
    if (!exact_sums()) return {};
    SearchOptions quick = opt_;
    quick.candidates = Candidates::cart;
    quick.exact_levels = 1;
    for (int& levels : quick.cart_depth) levels = std::min(levels, max_cart_depth);
    quick.best_only = false;
    quick.max_work = quick.max_seconds = std::numeric_limits<double>::infinity();
    return quick;
  }

  // The CART depth of the quick search before a root whose children are
  // solved for its need (exact_levels = 2): its front bounds them nearly
  // as well as one of cart_depth 5 at a fraction of the cost (paired CPU,
  // depth 3, "tests": room 0.65, skin 0.87, fault 0.93, htru 0.94, bean
  // 1.01). A bounded root keeps the search's own depths (with 3,
  // exhaustive occupancy went from 37,192 states to 51,508).
  static constexpr int kNeedsIncumbentCartDepth = 3;

  // Whether the root's splits' children are solved for the root's need
  // (root_need.h): bounded children (two or more levels left, every split
  // tried, as with exact_levels = 2 at depth 3) and exact sums. One task
  // per split, so the right child is bounded by its sibling's front.
  bool root_needs() const {
    return opt_.max_depth >= 3 && sweep_.bounded(1) && c_.tol.abs == 0.0 &&
           c_.tol.rel == 0.0 && c_.complexity_tol == 0.0 && !opt_.best_only;
  }

  // A root split's children, each solved for what the root's front can
  // use: the smaller one first, for the root's known front and a bound of
  // its sibling (its leaf; any tree of the sibling with a split loses at
  // least 0), then the larger one for its sibling's front as solved (the
  // root's points pair with those, exact or not). Their points join the
  // known front. The larger child is the costlier search, so it gets the
  // tighter need: smaller first took exact_levels = 2 (depth 3, "tests",
  // one thread) from 12.6 to 8.8 s on bean, 5.7 to 4.0 s on htru, 1.25 to
  // 0.95 s on fault, the same trees.
  std::pair<ChildRef, ChildRef> solve_for_root(Workspace& ws, const Entry* block,
                                               std::uint64_t hash, const NodeStats& total,
                                               const Candidate& c, std::size_t index,
                                               KnownRootFront& known) {
    const std::uint64_t left_hash = mark_sides(d_, block, d_.n, c, ws.goes_left, c_.row_keys);
    const int lm = c.left_count, rm = d_.n - c.left_count;
    Entry* const room = ws.buffer(1, d_.n);
    Entry* const rows[2] = {room, room + static_cast<std::size_t>(lm) * d_.p + kPartitionSlack};
    c_.count_visits(d_.n * (1.0 + d_.p));
    write_sides(d_, block, d_.n, lm, ws.goes_left, rows[0], rows[1]);
    const int count[2] = {lm, rm};
    const std::uint64_t side_hash[2] = {left_hash, hash - left_hash};
    const NodeStats stats[2] = {stats_of(d_, rows[0], lm), stats_of(d_, rows[1], rm)};
    const double cost = c_.split_cost(c.feature, total);
    const int first = lm <= rm ? 0 : 1, second = 1 - first;
    std::vector<FrontPoint> bound{{leaf_loss(d_, stats[second]), 0.0, -1, 0, 0}};
    if (!c_.terminal(1, stats[second], count[second]))
      bound.push_back({0.0, c_.least_split_cost(stats[second].weight), -1, 0, 0});
    ChildRef sides[2];
    for (int side : {first, second}) {
      const std::vector<FrontPoint> need = child_need(known.snapshot(), bound, cost);
      sides[side] = needed_child(ws, rows[side], count[side], side_hash[side], stats[side], need,
                                 needed_children_[2 * index + side]);
      bound = SearchContext::front_of(sides[side]);
    }
    const std::vector<FrontPoint> pts = split_front(ChildFront(sides[0]), ChildFront(sides[1]), cost);
    if (dominated_by(known.snapshot(), pts))
      for (int side : {0, 1}) {
        std::unique_ptr<Node>& owned = needed_children_[2 * index + side];
        if (!owned) continue;
        sides[side] = {nullptr, leaf_loss(d_, stats[side])};
        owned.reset();
        ++children_freed_;
      }
    known.add(pts);
    return {sides[0], sides[1]};
  }

  // The front of a root split's points (exact sums: tolerances 0), a bound
  // only, filtered as the pairs pile up (written and sorted at once, bean's
  // with exact_levels = 2 were 39 MB: a peak of 120 MB, and a tenth of the
  // time in page faults).
  static std::vector<FrontPoint> split_front(const ChildFront& left, const ChildFront& right,
                                             double cost) {
    std::vector<FrontPoint> pts;
    add_split_points_filtered(left, right, cost, 0, LossTolerance{}, 0.0, pts);
    keep_pareto(pts, LossTolerance{}, 0.0);
    return pts;
  }

  // Whether every point of a root split's front loses strictly more than a
  // tree of the root's front known so far at no greater complexity (exact
  // sums: root_needs()). None of its points can then reach the root's front, nor
  // win a tie, whatever is found later: the split's children solved for
  // the root's need are freed, each left as its leaf, whose pairs are among
  // those points. Those children held most of the memory of exact_levels =
  // 2 at depth 3 (bean: fronts of hundreds of points, each action with its
  // two last-level children), and their pages were first touched anew for
  // every candidate (a tenth of bean's time went to page faults).
  static bool dominated_by(const std::vector<FrontPoint>& known,
                           const std::vector<FrontPoint>& pts) {
    for (const FrontPoint& p : pts)
      if (!(least_loss_within(known, p.complexity) < p.loss)) return false;
    return true;
  }

  // A root candidate that splits the rows as an earlier one does, at the
  // same cost (twin features, dropped by the callers before the search:
  // 10 of bean's 42 candidates; beyond those, correlated features: 1 of
  // bean's 33, 3 of fault's 29, 1 of segment's 16), has the same
  // children. Its points tie with the earlier one's, and keep_pareto()
  // keeps the earlier point on a tie, so its children are the earlier
  // one's, not solved again. (Each earlier
  // child's points beyond its need are strictly dominated: so would those
  // of the same child solved for another need be.)
  struct Twin {
    int of = -1;           // the earlier candidate (-1: none)
    bool swapped = false;  // its left child is this one's right
  };
  std::vector<Twin> twins(Workspace& ws, const Entry* block, std::uint64_t hash,
                          const NodeStats& total, const std::vector<Candidate>& cands) const {
    std::vector<Twin> twin(cands.size());
    std::vector<std::uint64_t> left_hash(cands.size());
    for (std::size_t t = 0; t < cands.size(); ++t) {
      left_hash[t] = mark_sides(d_, block, d_.n, cands[t], ws.goes_left, c_.row_keys);
      const double cost = c_.split_cost(cands[t].feature, total);
      for (std::size_t i = 0; i < t && twin[t].of < 0; ++i) {
        if (twin[i].of >= 0 || c_.split_cost(cands[i].feature, total) != cost) continue;
        const bool same =
            left_hash[i] == left_hash[t] && cands[i].left_count == cands[t].left_count;
        const bool swapped = left_hash[i] == hash - left_hash[t] &&
                             cands[i].left_count == d_.n - cands[t].left_count;
        if (same || swapped) twin[t] = {static_cast<int>(i), !same};
      }
    }
    c_.count_visits(static_cast<double>(d_.n) * cands.size());
    return twin;
  }

  // One child of a root split: a leaf, a state solved before (exact), or
  // solved for its need (kept in `owned`, not in the memo).
  ChildRef needed_child(Workspace& ws, const Entry* rows, int m, std::uint64_t hash,
                        const NodeStats& stats, const std::vector<FrontPoint>& need,
                        std::unique_ptr<Node>& owned) {
    const double loss = leaf_loss(d_, stats);
    if (c_.terminal(1, stats, m)) return {nullptr, loss};
    ChildRef ref;
    if (states_.known_child(m, 1, hash, ref)) return ref;
    if (!sweep_.bounded(1)) return states_.solve(ws, rows, m, 1, hash, stats, loss);
    c_.check_abort();
    const std::vector<Candidate> cands = candidates(ws, rows, m, 1, stats);
    owned = sweep_.solve_state(ws, rows, m, 1, hash, stats, loss, cands, &need);
    ++children_for_need_;
    return {owned.get(), loss};
  }

  // A state below the root, not solved before: the last level, a bounded
  // sweep, or every candidate's children solved.
  std::unique_ptr<Node> build_node(Workspace& ws, const Entry* block, int m, int depth,
                                   std::uint64_t hash, const NodeStats& total,
                                   double loss) override {
    if (opt_.max_depth - depth == 1) return last_.last_split(ws, block, m, total, loss);
    const std::vector<Candidate> cands = candidates(ws, block, m, depth, total);
    if (sweep_.bounded(depth))
      return sweep_.solve_state(ws, block, m, depth, hash, total, loss, cands);
    return every_candidate(cands, total, loss, [&](const Candidate& c) {
      return states_.solve_children(ws, block, m, depth, hash, total, c);
    });
  }

  // A state's node from every candidate's children, each pair solved by
  // solve(candidate).
  template <class Solve>
  std::unique_ptr<Node> every_candidate(const std::vector<Candidate>& cands, const NodeStats& total,
                                        double loss, Solve&& solve) {
    std::vector<std::pair<ChildRef, ChildRef>> children;
    children.reserve(cands.size());
    for (const Candidate& c : cands) children.push_back(solve(c));
    return assemble_front(c_, guards_, total, loss, cands, children);
  }

  // The exact front with min_bucket 1 of a state below the root, from the
  // search with min_bucket 1 (relaxed_): its bounded sweep, with the bounds
  // of a search with min_bucket 1 (BoundedSweep::wants_relaxed_front()).
  // That search's memo keeps its own states (two levels left or more), so
  // states it meets again below other states are solved once.
  FrontWithMinBucketOne front_with_min_bucket_one(Workspace& ws, const Entry* block, int m,
                                                  int depth, std::uint64_t hash,
                                                  const NodeStats& total, double loss) override {
    if (!ws.relaxed)
      ws.relaxed = std::make_unique<Workspace>(d_, relaxed_opt_, c_.codes, &relaxed_->c_.heuristic);
    const std::unique_ptr<Node> node =
        relaxed_->build_node(*ws.relaxed, block, m, depth, hash, total, loss);
    FrontWithMinBucketOne got{node->front, {}};
    // Not with best_only: its sweeps keep the first of tied best trees
    // they find, so bounds found elsewhere would change which one.
    if (exact_sums() && !opt_.best_only)
      for (std::size_t i = 0; i < node->front.size(); ++i)
        if (fewest_leaf_rows(extract_tree(*node, static_cast<int>(i)), d_, block, m) >=
            opt_.min_bucket) {
          got.kept_min_bucket.push_back(node->front[i]);
          got.kept_min_bucket.back().action = kIncumbent;
        }
    return got;
  }

  // build_node() of a state given by its rows (states_of_rows()), with
  // one level or more below its children.
  std::unique_ptr<Node> build_node_of_rows(Workspace& ws, const int* rows, int m, int depth,
                                           std::uint64_t hash, const NodeStats& total,
                                           double loss) override {
    return every_candidate(candidates_of_rows(ws, rows, m, depth, total), total, loss,
                           [&](const Candidate& c) {
                             return states_.solve_children_of_rows(ws, rows, m, depth, hash, c);
                           });
  }

  // candidates() of a state given by its rows: CART's proposals and the
  // state's own best split, from histograms of the rows' codes.
  std::vector<Candidate> candidates_of_rows(Workspace& ws, const int* rows, int m, int depth,
                                            const NodeStats& total) {
    // One fill of the state's histograms serves its own best split and its
    // CART tree's root.
    ws.histogram.fill(d_, c_.codes, rows, m);
    c_.count_visits(static_cast<double>(m) * d_.p * (1 + opt_.cart_depth_at(depth)));
    const HistogramScan::Result r = ws.histogram.best_filled(d_, c_.codes, m, opt_.min_bucket, total);
    std::vector<Candidate> cands = ws.generator.cart_proposals_of_rows(
        rows, m, opt_.cart_depth_at(depth), total, &ws.histogram);
    const SplitRule& best = r.split;
    if (r.split.found() &&
        std::none_of(cands.begin(), cands.end(), [&](const Candidate& c) { return c.same_test(best); }))
      cands.push_back(best);
    return cands;
  }

  // A state's candidates: the generator's, and in a state of CART
  // proposals also the state's own best split for the training loss (one
  // exact scan, as the last level makes), so that every one-split subtree
  // on the front is the best one of its state.
  std::vector<Candidate> candidates(Workspace& ws, const Entry* block, int m, int depth,
                                    const NodeStats& total) {
    std::vector<Candidate> cands = ws.generator.generate(block, m, depth, total);
    const bool every = opt_.candidates == Candidates::exhaustive ||
                       opt_.max_depth - depth <= opt_.exact_levels;
    // Every boundary is one pass; CART's proposals a pass per level.
    c_.count_visits(static_cast<double>(m) * d_.p * (every ? 1 : opt_.cart_depth_at(depth)));
    if (every) return cands;
    const Split s = last_.best_last_split(ws, block, m, total, LastLevel::kEveryFeature, false);
    if (!s.found()) return cands;
    const SplitRule& best = s;
    if (std::none_of(cands.begin(), cands.end(), [&](const Candidate& c) { return c.same_test(best); }))
      cands.push_back(best);
    return cands;
  }

  SearchContext c_;
  const Dataset& d_;
  const SearchOptions& opt_;
  Guards guards_;
  LastLevel last_;
  StateSolver states_;
  CutScoring scoring_;
  BoundedSweep sweep_;
  // With min_bucket > 1, the search with min_bucket 1 over the same data
  // that makes the fronts of Node::relaxed (BoundedSweep::wants_relaxed_front()).
  SearchOptions relaxed_opt_;
  std::unique_ptr<Search> relaxed_;
  std::unique_ptr<Node> root_;
  double stopped_lower_bound_ = std::numeric_limits<double>::quiet_NaN();
  std::vector<Candidate> stopped_cuts_;
  std::vector<double> stopped_cut_bounds_;
  std::unique_ptr<Node> partial_root_;
  const RootChunk* chunk_ = nullptr;
  std::size_t root_candidates_ = 0;
  bool root_bounded_ = false;
  std::vector<FrontPoint> chunk_seed_front_;
  // The root candidate of each of the root node's actions (chunks only).
  std::vector<std::size_t> root_split_;
  // Root splits' children solved for the root's need (two per split; freed
  // where the split cannot reach the front: solve_for_root()).
  std::vector<std::unique_ptr<Node>> needed_children_;
  std::atomic<std::size_t> children_for_need_{0}, children_freed_{0};
  std::size_t twin_candidates_ = 0;
};

}  // namespace dpdt
