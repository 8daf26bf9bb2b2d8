// The depth-two solver's share of a bounded sweep (room: reads the context;
// calls the state solver and the last level): with two levels left and
// whole counts, once a feature's sweep has solved enough cuts the solver
// scores all its other cuts at once, and only the scored cuts whose points
// reach the front are solved.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/data/options.h"
#include "core/fronts/node.h"
#include "core/fronts/pareto.h"
#include "core/search/context.h"
#include "core/search/depth_two.h"
#include "core/search/last_level.h"
#include "core/search/memo.h"
#include "core/search/states.h"
#include "core/search/sweep_state.h"
#include "core/search/two_level_bounds.h"
#include "core/search/workspace.h"
#include "core/splits/candidates.h"
#include "core/splits/partition.h"

namespace dpdt {

class CutScoring {
 public:
  CutScoring(const SearchContext& c, StateSolver& states, LastLevel& last)
      : c_(c), d_(c.d), opt_(c.opt), states_(states), last_(last) {}

  // A bounded state with two levels left whose cuts the depth-two solver
  // can score: whole counts (unit weights, 0/1 loss), complexity "tests" or
  // "splits", numeric features only.
  bool may_score(int depth, int m) const {
    return c_.counted && opt_.max_depth - depth == 2 &&
           cuts_before_scoring(m) < std::numeric_limits<int>::max();
  }

  // Cuts of one feature the sweep solves one by one before the depth-two
  // solver scores all the others at once: about the cost of one solver run
  // (O(m log m k) per feature, against O(m) per cut and feature). First
  // calibrated on magic, eeg and bean at 2.5 log2(m) k; solved cuts have
  // since become cheaper (coded children, lane scans that skip), and at
  // 20 log2(m) k exhaustive depth 3 takes, single runs of the driver,
  // CPU: htru 85.8 s against 103.4, magic 43.3 against 53.2, rice 0.86
  // times (paired), eeg, bean, wilt, occupancy, page, room and bidding
  // within noise (0.96 to 1.02); best_only htru 21.3 s against 24.1,
  // magic 17.5 against 22.6; exact_levels = 2 unchanged. Below 2,048 rows
  // solved cuts are cheap and their sides shared through the memo: scoring
  // made exhaustive depth 3 on raisin (720 rows) slower, 29 s against 18 s.
  // Data in one-byte codes (every feature at most 256 values), whose
  // last-level children are solved from their rows: with few values on
  // every feature in the state (`groups`: each feature's values, when
  // given) the solver scores a run of `run_cuts` cuts from group counts
  // (DepthTwoSolver::counts_cheaper()), at about the cost of a solved cut
  // or two, so from the start: exhaustive depth 3 on skin (256 values,
  // 196,045 rows) 12.6 s -> 8.9 s.
  int cuts_before_scoring(int m, std::size_t run_cuts = 0,
                          const std::vector<int>* groups = nullptr) const {
    if (opt_.score_cuts_after >= 0) return opt_.score_cuts_after;
    if (m < 2048) return std::numeric_limits<int>::max();
    const int usual = static_cast<int>(20 * std::log2(m) * std::max(2, d_.n_classes));
    if (!groups || c_.codes.empty()) return usual;
    for (int g : *groups)
      if (!DepthTwoSolver::counts_cheaper(m, run_cuts, g, d_.n_classes)) return usual;
    return 0;
  }

  // Whether the depth-two solver gives the sides of a bounded state's cuts
  // their best one-split losses, for the seeds and the bounds: three
  // levels left (the sides have two: their fronts' one-split points are
  // those stumps), whole counts. best_only, which bounds best losses alone,
  // gains by the seeds (page, depth 3: 8.6 s to 3.8 s).
  bool may_bound_stumps(int depth) const {
    return c_.counted && opt_.max_depth - depth == 3;
  }

  // The sides of each numeric cut of a run, as leaves and with their best
  // split on any feature (every threshold, min_bucket kept: no one-split
  // tree the search can build on a side loses less), into sw.stump. Copied
  // out: the children's own scoring reuses the solver.
  void one_split_losses(Workspace& ws, const Entry* block, int m,
                        const std::vector<Candidate>& cands, std::pair<std::size_t, std::size_t> run,
                        SweepState& sw) {
    solve_run(ws, block, m, cands, run);
    std::copy(ws.depth_two.sides().begin(), ws.depth_two.sides().end(), sw.stump.begin() + run.first);
    std::fill(sw.stump_known.begin() + run.first, sw.stump_known.begin() + run.second, 1);
  }

  // The points of a cut the depth-two solver scored, in add_split_points()'
  // order: each side is a leaf, or its best split when that loses less
  // (LastLevel::last_split()'s front).
  void scored_points(const NodeStats& total, const std::vector<Candidate>& cands, std::size_t i,
                     const DepthTwoSolver::Sides& s, std::vector<FrontPoint>& pts) const {
    const bool tests = opt_.complexity == Complexity::tests;
    const double lm = cands[i].left_count, rm = total.weight - lm;
    const FrontPoint left[2] = {{static_cast<double>(s.leaf_left), 0.0, -1, 0, 0},
                                {static_cast<double>(s.best_left), tests ? lm : 1.0, 0, 0, 0}};
    const FrontPoint right[2] = {{static_cast<double>(s.leaf_right), 0.0, -1, 0, 0},
                                 {static_cast<double>(s.best_right), tests ? rm : 1.0, 0, 0, 0}};
    add_split_points(left, s.best_left < s.leaf_left ? 2 : 1, right,
                     s.best_right < s.leaf_right ? 2 : 1, c_.split_cost(cands[i].feature, total),
                     static_cast<std::int32_t>(i), pts);
  }

  // Scores every cut of a run not solved yet (the depth-two solver over
  // every feature) and adds their points to `now`.
  void score_run(Workspace& ws, const Entry* block, int m, const NodeStats& total,
                 const std::vector<Candidate>& cands, std::pair<std::size_t, std::size_t> run,
                 SweepState& sw, std::vector<FrontPoint>& now) {
    solve_run(ws, block, m, cands, run);
    std::size_t filter_above = 2 * now.size() + kFilterStep;
    for (std::size_t t = run.first; t < run.second; ++t) {
      if (sw.solved[t]) continue;
      sw.scored[t] = 1;
      sw.sides[t] = ws.depth_two.sides()[t - run.first];
      scored_points(total, cands, t, sw.sides[t], now);
      if (now.size() > filter_above) {
        keep_bounding_front(now, c_.tol, c_.complexity_tol);
        filter_above = 2 * now.size() + kFilterStep;
      }
    }
    keep_bounding_front(now, c_.tol, c_.complexity_tol);
  }

  // The front of the solved and scored cuts' points (candidate order), and
  // the scored cuts on it solved.
  std::vector<FrontPoint> solve_scored(Workspace& ws, const Entry* block, int m, int depth,
                                       std::uint64_t hash, const NodeStats& total, double loss,
                                       const std::vector<Candidate>& cands, SweepState& sw) {
    std::vector<FrontPoint> solved_front{{loss, 0.0, -1, 0, 0}};
    for (std::size_t i = 0; i < cands.size(); ++i)
      if (sw.solved[i]) add_solved_points(c_, total, cands, i, sw, solved_front);
    keep_pareto(solved_front, c_.tol, c_.complexity_tol);
    std::vector<FrontPoint> pts{{loss, 0.0, -1, 0, 0}}, scored;
    std::size_t filter_above = kFilterStep;
    for (std::size_t i = 0; i < cands.size(); ++i) {
      if (sw.solved[i]) add_solved_points(c_, total, cands, i, sw, pts);
      if (!sw.scored[i]) continue;
      scored.clear();
      scored_points(total, cands, i, sw.sides[i], scored);
      for (const FrontPoint& pt : scored)
        if (!dominated(solved_front, pt.complexity, pt.loss, c_.tol)) pts.push_back(pt);
      if (pts.size() > filter_above) {
        keep_pareto(pts, c_.tol, c_.complexity_tol);
        filter_above = 2 * pts.size() + kFilterStep;
      }
    }
    keep_pareto(pts, c_.tol, c_.complexity_tol);
    for (const FrontPoint& pt : pts)
      if (pt.action >= 0 && !sw.solved[pt.action])
        solve_scored_cut(ws, block, m, depth, hash, total, cands, static_cast<std::size_t>(pt.action),
                         sw);
    return pts;
  }

 private:
  // The depth-two solver over every feature for the cuts of one run: its
  // sides() then hold each cut's sides, in run order.
  void solve_run(Workspace& ws, const Entry* block, int m, const std::vector<Candidate>& cands,
                 std::pair<std::size_t, std::size_t> run) {
    const std::vector<Candidate> cuts(cands.begin() + run.first, cands.begin() + run.second);
    ws.depth_two.start(block, m, cuts, opt_.min_bucket);
    for (int f = 0; f < d_.p; ++f) {
      c_.check_abort();
      ws.depth_two.scan(f);
    }
    c_.count_visits(ws.depth_two.work());
  }

  // A scored cut's children, as StateSolver::solve_children() would find them. The
  // solver knows each side's best split loss and its first feature, the one
  // LastLevel::last_split() would choose: only that feature's rows are
  // written out and scanned (bean: one feature of 16). A scored cut is
  // numeric without missing values, so its left side is a prefix of its
  // feature's rows: the sides' hashes are summed over the smaller side, and
  // the rows' sides marked only for a side that is written (skin, whose
  // states hold 100,000 rows: marking every row of every such cut was 15 %
  // of exact_levels = 2).
  void solve_scored_cut(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
                        const NodeStats& total, const std::vector<Candidate>& cands, std::size_t i,
                        SweepState& sw) {
    const Candidate& c = cands[i];
    const Entry* cut_rows = block + static_cast<std::size_t>(c.feature) * m;
    const std::uint64_t left_hash = prefix_hash(cut_rows, m, c.left_count, hash, c_.row_keys);
    const DepthTwoSolver::Sides& s = sw.sides[i];
    bool marked = false;
    CutSides sides{d_, total, cut_rows, m, c.left_count};
    sw.children[i] = {
        scored_side(ws, block, m, depth, left_hash, c, true, s.feature_left, marked, sides),
        scored_side(ws, block, m, depth, hash - left_hash, c, false, s.feature_right, marked, sides)};
    sw.solved[i] = 1;
  }

  // A scored cut's sides' statistics (whole counts: the solver scores only
  // those), made when a side missing from the memo first needs them, from
  // the smaller side's rows (sides_from_smaller()). Counting each side's
  // rows was a sixth of skin's exact_levels = 2 fit.
  struct CutSides {
    const Dataset& d;
    const NodeStats& total;
    const Entry* cut_rows;  // a numeric cut: the left side a prefix
    int m, left_count;
    std::optional<std::pair<NodeStats, NodeStats>> both = std::nullopt;

    const NodeStats& of(bool left) {
      if (!both)
        both = sides_from_smaller(total, m, left_count, [&](bool l) {
          return l ? stats_of(d, cut_rows, left_count)
                   : stats_of(d, cut_rows + left_count, m - left_count);
        });
      return left ? both->first : both->second;
    }
  };

  // `marked`: whether ws.goes_left holds the cut's sides (set here when
  // this side is written).
  ChildRef scored_side(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t side_hash,
                       const Candidate& c, bool left, int best_feature, bool& marked,
                       CutSides& sides) {
    const int count = left ? c.left_count : m - c.left_count;
    ChildRef ref;
    if (states_.known_child(count, depth + 1, side_hash, ref)) return ref;
    // A numeric cut: the side's rows are a prefix or suffix of its feature's.
    const Entry* cut_rows = block + static_cast<std::size_t>(c.feature) * m;
    const NodeStats stats = sides.of(left);
    const double loss = leaf_loss(d_, stats);
    if (c_.terminal(depth + 1, stats, count)) return {nullptr, loss};
    c_.check_abort();
    Entry* const room = ws.buffer(depth + 1, m);
    if (best_feature >= 0) {
      if (!marked) mark_prefix(cut_rows, m, c.left_count, ws.goes_left);
      marked = true;
      write_side_feature(block, m, count, left, ws.goes_left, best_feature, room);
    }
    const int only = best_feature >= 0 ? best_feature : LastLevel::kNoBetterSplit;
    return states_.store(StateKey{side_hash, depth + 1, count},
                         last_.last_split(ws, room, count, stats, loss, only), loss);
  }

  // Scored points pile up four per cut (a run of thousands): the front is
  // kept whenever they are more than twice it and this many. Exact: the
  // solver needs whole counts, so both tolerances are 0 and keeping the
  // front of a part first drops only points the whole's front drops too.
  // Sorting every cut's points at once was 4 % of exhaustive depth 3 on htru.
  static constexpr std::size_t kFilterStep = 64;

  const SearchContext& c_;
  const Dataset& d_;
  const SearchOptions& opt_;
  StateSolver& states_;
  LastLevel& last_;
};

}  // namespace dpdt
