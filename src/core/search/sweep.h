// The bounded sweep (room: reads the context; calls the state solver, the
// cut scoring and the assembly): a state that tries every split, with two
// or more levels left, solves a seed cut per feature, then bisects each
// feature's cuts and skips an interval whose cuts' points the bounds of
// two_level_bounds.h prove dominated, before their children are solved. A
// cut left open solves only the sides whose trees with a split the bounds
// leave open; the other is its leaf (exhaustive depth 3, "splits", a third
// of the cuts solved; paired CPU, median of 5: room 0.90, occupancy 0.92,
// raisin 0.95, wilt 0.96).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/data/options.h"
#include "core/fronts/node.h"
#include "core/fronts/pareto.h"
#include "core/search/assemble.h"
#include "core/search/context.h"
#include "core/search/cut_scoring.h"
#include "core/search/guards.h"
#include "core/search/states.h"
#include "core/search/sweep_state.h"
#include "core/search/two_level_bounds.h"
#include "core/search/workspace.h"
#include "core/splits/candidates.h"

namespace dpdt {

// What the bounded sweep needs of a cut's sides: which to solve, and the
// least loss its bounds gave each (what a side not solved bounds of its
// neighbours: SweepState::side()).
struct OpenSides {
  WantedSides wanted;
  double floor_left = 0.0, floor_right = 0.0;
};

class BoundedSweep {
 public:
  BoundedSweep(const SearchContext& c, const Guards& guards, StateSolver& states,
               CutScoring& scoring)
      : c_(c), d_(c.d), opt_(c.opt), guards_(guards), states_(states), scoring_(scoring) {}

  // Whether some state of the search may be bounded (bounded() at some
  // depth): what its estimate leaves out.
  bool may_bound() const {
    const bool every_split = opt_.candidates == Candidates::exhaustive || opt_.exact_levels >= 2;
    return every_split && opt_.max_depth >= 2 && settings_bound();
  }

  // A state that tries every split, with two or more levels left
  // (classification, exact complexities): after a seed cut per
  // feature, the cuts of a feature are searched by bisection, and an interval whose
  // inner cuts' points are all dominated by the points found so far (with
  // the bounds of two_level_bounds.h) is skipped before their children are
  // solved. The front and its trees are those of solving every split: a
  // skipped split's points could not enter it, nor win a tie (dominated()).
  // With missing values in the state only the superset bound holds
  // (complete()); with min_bucket > 1 the subset bound needs Node::relaxed
  // (subset_bounds()).
  bool bounded(int depth) const {
    const int left = opt_.max_depth - depth;
    const bool every_split = opt_.candidates == Candidates::exhaustive || left <= opt_.exact_levels;
    return every_split && left >= 2 && settings_bound();
  }

  // Whether a state's m rows hold no missing value. Only then does a
  // side's best loss bound that of the sides holding its rows: restricted
  // to a subset of the rows, a threshold can become "missing vs the rest",
  // which is no candidate, so a subset's best loss can exceed its
  // superset's (the core fuzzer found that). The superset bound holds
  // with missing values: a subset's test is a cut between two of its
  // values (or a level group), which some candidate of the superset makes
  // for the subset's rows, with the same side for their missing values.
  // Exhaustive depth 3, "splits", one thread, CPU, bank with 30 missing
  // values in one feature: no bound in such states (before), over 300 s;
  // the superset bound, 221 s; each feature's cuts as two runs, one for
  // each side of its missing values (feature_runs()), 30 s; the subset
  // bound of Node::relaxed (LastLevel::missing_vs_rest()), 4.9 s; its
  // last levels' scans of that feature from counts
  // (GroupScanner::counted_scan()), 1.8 s. wilt alike: over 16 min -> 71 s
  // (complete: 0.8 s; these states have neither the depth-two solver nor
  // coded columns). The rows without missing values, solved apart as a
  // bound of the state's, cost more than they saved (wilt 123 -> 142 s).
  bool complete(const Entry* block, int m) const { return !block_holds_missing(block, m, d_.p); }

  // A bounded state's record of its splits, for n candidates: the
  // depth-two solver scores and bounds its cuts only where it holds no
  // missing value (the solver reads none).
  void reset_state(SweepState& sw, std::size_t n, const Entry* block, int m, int depth) const {
    const bool whole = complete(block, m);
    sw.reset(n, whole && scoring_.may_score(depth, m), whole && scoring_.may_bound_stumps(depth), whole);
  }

  // Whether a side's best loss bounds that of every side holding its rows
  // (the interval bound), in a state holding no missing value. Not with
  // min_bucket > 1: the superset's best tree,
  // restricted to the subset, may leave a leaf too small, so the subset's
  // best may lose more. The superset bound holds for any min_bucket: a
  // tree applied to more rows keeps every leaf at least as large.
  static bool subset_bounds(const SweepState& sw, int min_bucket) { return sw.complete && min_bucket <= 1; }

  // What a side of a state bounds of every side at the same depth holding
  // its rows: with missing values in the state, its Node::relaxed where
  // set (one level left: its least loss of one split with min_bucket 1,
  // "missing vs the rest" included, LastLevel::missing_vs_rest(); a side
  // with no missing value: its best with min_bucket 1, as no test of a
  // superset restricted to it meets a missing value), else 0; else its best loss
  // (min_bucket 1); with min_bucket > 1, its best with
  // min_bucket 1 where known (Node::relaxed: every side holding its rows
  // loses at least that with min_bucket 1, so at least that with any), else
  // with one or two levels left and for a leaf child (pure, or too small to
  // split) 0; else nothing.
  double subset_bound(const ChildRef& c, int child_depth, const SweepState& sw) const {
    if (!sw.complete) return c.node && c.node->relaxed ? c.node->relaxed->best : 0.0;
    if (subset_bounds(sw, opt_.min_bucket)) return SearchContext::best_loss(c);
    if (c.node && c.node->relaxed) return c.node->relaxed->best;
    if (opt_.max_depth - child_depth <= 2) return 0.0;
    return -std::numeric_limits<double>::infinity();
  }

  // Whether a state below the root with two or more levels left computes
  // its front with min_bucket 1 (Node::relaxed) for its parent's bounds:
  // when min_bucket > 1 (without it the subset bound fails) and its parent
  // tries every split too (any weights, loss matrix or level groups: a
  // subset's best loss with min_bucket 1 never exceeds its superset's,
  // which is all the bound uses: exhaustive depth 3, min_bucket 5, in R,
  // CPU s, with class-balancing weights occupancy 405 -> 37, bidding 48 ->
  // 5.1, wilt 25 -> 5.2; with a loss matrix occupancy 102 -> 8.8, page 414
  // -> 82, segment 181 -> 103; identical fronts and trees). The front comes
  // from a search with min_bucket 1 (Search::front_with_min_bucket_one()),
  // at about what a search with min_bucket 1 spends on the same state.
  // Every child of a depth-3 root has it; in deeper searches only states
  // of at least kRelaxedRows min_bucket rows: on small ones the front with
  // min_bucket 1 lies far below the state's own and cost more than it
  // saved. Exhaustive, min_bucket 5, CPU s: depth 3, page 51 -> 7.8 (the
  // depth-two solver's pass over every cut of every pair of features,
  // which made these fronts before, cost more than they saved, so only
  // sets of few features and classes had them), wilt 9.4 -> 5.6, raisin
  // 3.6 (6.8 with the size limit); depth 4, bank more than 960 (killed at
  // 3.3 GB) -> 79 (64 for every state, 56 with 20 min_bucket rows, 410
  // with 100), MASS's Pima.tr 76 -> 73 (94 for every state, 93 with 20),
  // iris 0.90 -> 0.98 (1.56 for every state).
  static constexpr int kRelaxedRows = 50;
  bool wants_relaxed_front(int depth, int m) const {
    const int left = opt_.max_depth - depth;
    if (!wants_relaxed_fronts() || depth < 1 || left < 2) return false;
    return (depth == 1 && left == 2) || m / kRelaxedRows >= opt_.min_bucket;
  }
  // Whether any state does.
  bool wants_relaxed_fronts() const {
    return opt_.min_bucket > 1 && opt_.max_depth >= 3 &&
           opt_.candidates == Candidates::exhaustive && settings_bound();
  }

  // A numeric cut: a prefix of the feature's sorted rows goes left, with
  // the missing values, if any, on the side the cut names.
  static bool prefix_cut(const Candidate& c) { return c.levels.empty(); }

  // Ranges [first, last) of consecutive numeric cuts of one feature that
  // send its missing values to the same side, in ascending order (other
  // candidates are ranges of their own). Along such a run each left side
  // holds the one before it, missing values included, so the interval
  // bounds hold (PrefixLeaves::start_run()).
  static std::vector<std::pair<std::size_t, std::size_t>> feature_runs(
      const std::vector<Candidate>& cands) {
    std::vector<std::pair<std::size_t, std::size_t>> runs;
    for (std::size_t i = 0; i < cands.size();) {
      std::size_t j = i + 1;
      if (prefix_cut(cands[i]))
        while (j < cands.size() && cands[j].feature == cands[i].feature && prefix_cut(cands[j]) &&
               cands[j].na_left == cands[i].na_left && cands[j].cut > cands[j - 1].cut)
          ++j;
      runs.push_back({i, j});
      i = j;
    }
    return runs;
  }

  // The first splits solved in a run: for numeric cuts, the one whose two
  // leaves lose least, and where the sides' one-split losses are known
  // (three levels left), those whose trees of two and of three splits
  // (a leaf and a stump, two stumps) lose least: exact points of the
  // front's low complexities from the start. Ties: the first cut.
  std::vector<std::size_t> seed_cuts(Workspace& ws, const Entry* block, int m, int depth,
                                     const std::vector<Candidate>& cands,
                                     std::pair<std::size_t, std::size_t> run, SweepState& sw) {
    if (!prefix_cut(cands[run.first])) return {run.first};
    std::size_t by_leaves = run.first;
    if (!sw.stump.empty() && run.second - run.first > 2) {
      scoring_.one_split_losses(ws, block, m, cands, run, sw);
      std::size_t by_two = run.first, by_three = run.first;
      auto two = [&](std::size_t t) {
        const DepthTwoSolver::Sides& s = sw.stump[t];
        return std::min(s.leaf_left + s.best_right, s.best_left + s.leaf_right);
      };
      auto three = [&](std::size_t t) { return sw.stump[t].best_left + sw.stump[t].best_right; };
      auto leaves = [&](std::size_t t) { return sw.stump[t].leaf_left + sw.stump[t].leaf_right; };
      for (std::size_t t = run.first + 1; t < run.second; ++t) {
        if (leaves(t) < leaves(by_leaves)) by_leaves = t;
        if (two(t) < two(by_two)) by_two = t;
        if (three(t) < three(by_three)) by_three = t;
      }
      std::vector<std::size_t> seeds{by_leaves, by_two, by_three};
      std::sort(seeds.begin(), seeds.end());
      seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
      return seeds;
    }
    PrefixLeaves& pl = ws.prefix(depth);
    const int offset = start_run(pl, block, m, cands[run.first]);
    c_.count_visits(m);
    double best_loss = 0.0;
    for (std::size_t i = run.first; i < run.second; ++i) {
      const int at = cands[i].cut + offset;
      const double l = pl.leaf_left(at) + pl.leaf_right(at);
      if (i == run.first || l < best_loss) {
        by_leaves = i;
        best_loss = l;
      }
    }
    return {by_leaves};
  }

  // The numeric cuts of a state below the root that a CART tree of
  // kSeedCartLevels levels grown on its rows chooses: solved first, they
  // give the state's front points of one to three splits near their best
  // from the start, where a feature's own seeds (its best cut for two
  // leaves) leave the bounds of its deeper trees loose. Which cuts are
  // solved first changes what is skipped, never the front (bounded()).
  // Exhaustive depth 3, complexity "splits", CPU s: wilt 2.8 -> 1.5
  // (73,647 states -> 42,614), occupancy 1.96 -> 1.63; a tree of one level
  // gave wilt 1.7, of three or five the same as two.
  std::vector<std::size_t> cart_seeds(Workspace& ws, const Entry* block, int m,
                                      const NodeStats& total, const std::vector<Candidate>& cands,
                                      const std::vector<std::pair<std::size_t, std::size_t>>& runs) {
    std::vector<std::size_t> out;
    c_.count_visits(static_cast<double>(m) * d_.p * kSeedCartLevels);
    for (const Candidate& p : ws.generator.cart_proposals(block, m, kSeedCartLevels, total)) {
      if (!prefix_cut(p)) continue;
      for (const auto& [first, last] : runs) {
        if (!prefix_cut(cands[first]) || cands[first].feature != p.feature ||
            cands[first].na_left != p.na_left)
          continue;
        const auto end = cands.begin() + static_cast<std::ptrdiff_t>(last);
        const auto it = std::lower_bound(cands.begin() + static_cast<std::ptrdiff_t>(first), end,
                                         p.cut, [](const Candidate& c, int cut) { return c.cut < cut; });
        if (it != end && it->cut == p.cut) out.push_back(static_cast<std::size_t>(it - cands.begin()));
      }
    }
    return out;
  }

  // A run's seeds (seed_cuts()), solved.
  std::vector<std::size_t> solve_seeds(Workspace& ws, const Entry* block, int m, int depth,
                                       std::uint64_t hash, const NodeStats& total,
                                       const std::vector<Candidate>& cands,
                                       std::pair<std::size_t, std::size_t> run, SweepState& sw) {
    std::vector<std::size_t> seeds = seed_cuts(ws, block, m, depth, cands, run, sw);
    for (std::size_t seed : seeds) solve_into(ws, block, m, depth, hash, total, cands, seed, sw);
    return seeds;
  }

  void solve_into(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
                  const NodeStats& total, const std::vector<Candidate>& cands, std::size_t i,
                  SweepState& sw, const OpenSides& sides = {}) {
    if (sw.solved[i]) return;
    const auto& [l, r] = sw.children[i] =
        states_.solve_children(ws, block, m, depth, hash, total, cands[i], sides.wanted);
    sw.solved[i] = 1;
    const bool left_leaf = !sides.wanted.left && !l.node, right_leaf = !sides.wanted.right && !r.node;
    sw.leaf_only[i] = static_cast<char>((left_leaf ? 1 : 0) | (right_leaf ? 2 : 0));
    if (left_leaf) sw.floors[2 * i] = {nullptr, sides.floor_left};
    if (right_leaf) sw.floors[2 * i + 1] = {nullptr, sides.floor_right};
  }

  // The front of the leaf and the seeds' splits (in candidate order, so it
  // does not depend on which task solved what first).
  std::vector<FrontPoint> seeded(const NodeStats& total, double loss,
                                 const std::vector<Candidate>& cands,
                                 std::vector<std::size_t> seeds, const SweepState& sw) const {
    std::sort(seeds.begin(), seeds.end());
    seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
    std::vector<FrontPoint> pts{{loss, 0.0, -1, 0, 0}};
    for (std::size_t i : seeds) add_solved_points(c_, total, cands, i, sw, pts);
    keep_pareto(pts, c_.tol, c_.complexity_tol);
    return pts;
  }

  // Solves what it must of the runs [first_run, last_run) of feature_runs(),
  // starting from the front `now`.
  using Run = std::pair<std::size_t, std::size_t>;
  void sweep(Workspace& ws, const Entry* block, int m, int depth, std::uint64_t hash,
             const NodeStats& total, const std::vector<Candidate>& cands, const Run* first_run,
             const Run* last_run, std::vector<FrontPoint> now, SweepState& sw) {
    auto solve_one = [&](std::size_t i, const OpenSides& sides) {
      solve_into(ws, block, m, depth, hash, total, cands, i, sw, sides);
      add_solved_points(c_, total, cands, i, sw, now);
      keep_bounding_front(now, c_.tol, c_.complexity_tol);
    };
    // An interval of a run's cuts is bounded by a solved cut at each end,
    // or by the run's ends: before its first cut no row goes left, after
    // its last every row; of those sides only a least loss of 0 is known
    // (`unknown_side`), which bounds nothing but is never wrong. So a run's
    // first and last cuts are solved only when the bounds leave them open
    // (they were solved first: exhaustive depth 3, complexity "splits",
    // room 27,520 states -> 21,941, skin 4,641 -> 3,163, CPU 0.74 and 0.85).
    const std::size_t before_run = std::numeric_limits<std::size_t>::max() - 1;
    const std::size_t after_run = std::numeric_limits<std::size_t>::max();
    const ChildRef unknown_side{nullptr, 0.0};
    std::size_t run_first = 0, run_end = 0;  // the run being swept: [run_first, run_end)
    int offset = 0;  // its cuts' positions in its rows' order (PrefixLeaves::start_run())
    auto left_of = [&](std::size_t e) -> const ChildRef& {
      return e >= before_run ? unknown_side : sw.side(e, true);
    };
    auto right_of = [&](std::size_t e) -> const ChildRef& {
      return e >= before_run ? unknown_side : sw.side(e, false);
    };
    auto cut_of = [&](std::size_t e) {
      return e == before_run ? 0 : e == after_run ? m : cands[e].cut + offset;
    };
    // The cuts strictly between ends a and b that the bounds cannot rule
    // out, into `open_cuts`, and what the middle one needs of its sides
    // (`mid_sides`: a side whose every tree with a split is ruled out is
    // only its leaf when the cut is solved). Only the cuts in [first, last)
    // are examined when given: those the enclosing interval left open.
    std::vector<std::size_t> open_cuts;
    OpenSides mid_sides;
    std::vector<FrontPoint> left_lb, right_lb;
    std::vector<double> bound_at;
    const double unknown = std::numeric_limits<double>::quiet_NaN();
    auto not_dominated = [&](std::size_t a, std::size_t b, const std::size_t* first,
                             const std::size_t* last) {
      open_cuts.clear();
      PrefixLeaves& pl = ws.prefix(depth);
      const double left_a = subset_bound(left_of(a), depth + 1, sw);
      const double left_b = SearchContext::best_loss(left_of(b));
      const double right_a = SearchContext::best_loss(right_of(a));
      const double right_b = subset_bound(right_of(b), depth + 1, sw);
      const int cut_a = cut_of(a), cut_b = cut_of(b);
      const std::size_t from = a == before_run ? run_first : a + 1;
      const std::size_t to = b == after_run ? run_end : b;
      // With "splits" every cut's four corners have the same complexities
      // (a split and each side's least split cost 1): the front is looked
      // up once for each (the bounds' checks were a tenth of wilt's time).
      const bool same_costs = opt_.complexity == Complexity::splits && !opt_.best_only && from < to;
      const double unit = same_costs ? c_.split_cost(cands[from].feature, total) : 0.0;
      // With "tests" and whole counts, two corners' complexities are the
      // same for every cut of the run too: its leaves' (the state's weight
      // m) and its sides' least splits' (m + m, whole numbers, exact);
      // those are looked up once, the one-side corners' for each cut.
      const bool fixed_ends = opt_.complexity == Complexity::tests && !opt_.best_only && from < to &&
                              pl.whole_losses();
      const double weight = static_cast<double>(m);
      const DominatedAt leaves(now, fixed_ends ? weight : unit, c_.tol), one_side(now, unit + 1.0, c_.tol),
          both_sides(now, fixed_ends ? weight + weight : unit + 2.0, c_.tol);
      // Whole losses, tolerances 0: each corner's test is one comparison
      // (wilt, exhaustive depth 3: paired CPU 0.91 to 0.94).
      const bool whole_losses = pl.whole_losses() && c_.tol.abs == 0.0 && c_.tol.rel == 0.0;
      const bool whole = same_costs && whole_losses;
      const DominatedAt::Whole least_none(leaves), least_one(one_side), least_two(both_sides);
      // Whether cut t may put a point on the front; with `sides`, for a cut
      // that may, also which sides' trees with a split may be in it; with
      // `reach`, for a cut the whole losses rule out, the last row position
      // whose cuts they rule out too (ConTree's skip): a row moved across
      // the cut raises one side's leaf loss and bound by at most 1 and
      // lowers the other's by at most 1 (a side's leaf loss never falls as
      // it gains a row; the far terms of the bounds move by the row's 1),
      // so each corner moves by at most 1 a row, and a later split wins no
      // fewer ties (DominatedAt::Whole).
      auto open_cut = [&](std::size_t t, OpenSides* sides, int* reach = nullptr) {
        const int cut = cands[t].cut + offset;
        const double ll = pl.leaf_left(cut), lr = pl.leaf_right(cut);
        const double bl = side_least(ll, left_a, left_b - pl.removable(cut, cut_b));
        const double br = side_least(lr, right_b, right_a - pl.removable(cut_a, cut));
        const auto split = static_cast<std::int32_t>(t);
        // best_only: the split's least loss is at least bl + br (both sides).
        // (Its cuts are examined by examine_whole(); here only the middle one.)
        if (opt_.best_only && whole_losses) return bl + br < least_whole_ruled_out(now.back(), split);
        if (opt_.best_only) return may_be_most_accurate(bl + br, now.back(), c_.tol, split);
        if (!sides && whole) {
          const double none = least_none.least(split), one = least_one.least(split),
                       two = least_two.least(split);
          const bool all_four = (ll + lr >= none) & (bl + lr >= one) & (ll + br >= one) & (bl + br >= two);
          if (all_four) {
            if (reach)
              *reach = cut + static_cast<int>(std::min({ll + lr - none, bl + lr - one, ll + br - one, bl + br - two}));
            return false;
          }
          if (opt_.max_depth - depth < 3) return true;
        }
        const double cost = c_.split_cost(cands[t].feature, total);
        const double cl = c_.least_split_cost(pl.weight_left(cut));
        const double cr = c_.least_split_cost(pl.weight_right(cut));
        auto out = [&](double c, double l) { return dominated(now, c, l, c_.tol, split); };
        if (!sides && !whole) {
          const bool all_four =
              same_costs ? leaves(ll + lr, split) && one_side(bl + lr, split) && one_side(ll + br, split) &&
                               both_sides(bl + br, split)
              : fixed_ends ? leaves(ll + lr, split) && both_sides(bl + br, split) &&
                                 out(cost + cl, bl + lr) && out(cost + cr, ll + br)
                           : out(cost, ll + lr) && out(cost + cl, bl + lr) && out(cost + cr, ll + br) &&
                                 out(cost + cl + cr, bl + br);
          if (all_four) return false;
          if (opt_.max_depth - depth < 3) return true;
        }
        // With three or more levels left the children's fronts are long:
        // bound each side's whole front, not only its best loss.
        if (opt_.max_depth - depth >= 3) {
          const bool known = !sw.stump_known.empty() && sw.stump_known[t];
          const int side_levels = opt_.max_depth - depth - 1;
          const SideRows left_rows{
              pl.removable(cut, cut_b),
              complexity_change(pl.weight_left(cut_b) - pl.weight_left(cut), side_levels),
              complexity_change(pl.weight_left(cut) - pl.weight_left(cut_a), 1)};
          const SideRows right_rows{
              pl.removable(cut_a, cut),
              complexity_change(pl.weight_right(cut_a) - pl.weight_right(cut), side_levels),
              complexity_change(pl.weight_right(cut) - pl.weight_right(cut_b), 1)};
          side_bound(left_of(a), left_of(b), ll, cl, left_rows,
                     known ? sw.stump[t].best_left : unknown, sw, bound_at, left_lb);
          side_bound(right_of(b), right_of(a), lr, cr, right_rows,
                     known ? sw.stump[t].best_right : unknown, sw, bound_at, right_lb);
          const auto [open, wanted] = open_pairs(now, cost, split, left_lb, right_lb, sides != nullptr);
          if (sides) *sides = {wanted, left_lb.back().loss, right_lb.back().loss};
          return open;
        }
        // Two levels left: a side's trees with a split are bounded by its
        // corner bl or br.
        const bool both = !out(cost + cl + cr, bl + br);
        *sides = {{both || !out(cost + cl, bl + lr), both || !out(cost + cr, ll + br)}, bl, br};
        return true;
      };
      int reach = -1;  // cuts at or before it are ruled out unseen
      auto examine = [&](std::size_t t) {
        if (cands[t].cut + offset > reach && open_cut(t, nullptr, &reach)) open_cuts.push_back(t);
      };
      // With whole losses, two levels left (or best_only, at any depth):
      // open_cut()'s tests in ints, inline (through open_cut() each took
      // about 140 instructions: exhaustive depth 3, wilt, nine million
      // tests). A side's least loss is min(leaf, max(0, near, far)), its
      // far bound moving by one a row: far_left + cut on the left,
      // far_right - cut on the right.
      using Whole = DominatedAt::Whole;
      const int near_left = Whole::as_int(left_a), far_left = Whole::as_int(left_b) - cut_b;
      const int near_right = Whole::as_int(right_b), far_right = Whole::as_int(right_a) + cut_a;
      const Whole::Ints none_at = least_none.ints(), one_at = least_one.ints(), two_at = least_two.ints();
      const bool best_whole = opt_.best_only && whole_losses;
      const Whole::Ints best_at = best_whole ? whole_ruled_out(now.back()) : Whole::Ints{};
      // `best`: best_whole, as a type (decided once, not per cut).
      auto examine_whole = [&](std::size_t t, auto best) __attribute__((always_inline)) {
        const int cut = cands[t].cut + offset;
        if (cut <= reach) return;
        const int ll = pl.whole_leaf_left(cut), lr = pl.whole_leaf_right(cut);
        const int bl = std::min(ll, std::max({0, near_left, far_left + cut}));
        const int br = std::min(lr, std::max({0, near_right, far_right - cut}));
        const auto split = static_cast<std::int32_t>(t);
        int slack;
        if constexpr (decltype(best)::value) {
          slack = bl + br - best_at.at(split);
        } else {
          const int one = one_at.at(split);
          slack = std::min(std::min(ll + lr - none_at.at(split), bl + lr - one),
                           std::min(ll + br - one, bl + br - two_at.at(split)));
        }
        if (slack >= 0) reach = cut + slack;
        else open_cuts.push_back(t);
      };
      auto examine_each = [&](auto best) {
        if (first)
          for (const std::size_t* t = first; t != last; ++t) examine_whole(*t, best);
        else
          for (std::size_t t = from; t < to; ++t) examine_whole(t, best);
      };
      if (best_whole) {
        examine_each(std::true_type{});
      } else if (whole && opt_.max_depth - depth < 3) {
        examine_each(std::false_type{});
      } else if (first) {
        for (const std::size_t* t = first; t != last; ++t) examine(*t);
      } else {
        for (std::size_t t = from; t < to; ++t) examine(t);
      }
      mid_sides = {};
      if (!open_cuts.empty()) open_cut(open_cuts[open_cuts.size() / 2], &mid_sides);
    };
    // An interval still to search: its ends, and the cuts between them that
    // its enclosing interval left open (still_open[first, last)), or every
    // cut between them (first == last == kEvery).
    struct Interval {
      std::size_t a, b, first, last;
    };
    const std::size_t kEvery = std::numeric_limits<std::size_t>::max();
    std::vector<Interval> open;
    std::vector<std::size_t> still_open;
    std::vector<int> groups;  // each feature's values in the state (its cuts + 1)
    for (const Run* run_it = first_run; run_it != last_run; ++run_it) {
      const Run& run = *run_it;
      const std::size_t i = run.first, last = run.second - 1;
      if (!prefix_cut(cands[i])) {
        solve_one(i, {});
        continue;
      }
      offset = start_run(ws.prefix(depth), block, m, cands[i]);
      c_.count_visits(m);
      run_first = i;
      run_end = last + 1;
      // Seeds split the run from the start (the leftmost interval is
      // searched first).
      open.clear();
      still_open.clear();
      std::size_t upper = after_run;
      for (std::size_t t = last + 1; t-- > i;)
        if (sw.solved[t]) {
          add_solved_points(c_, total, cands, t, sw, now);
          open.push_back({t, upper, kEvery, kEvery});
          upper = t;
        }
      keep_bounding_front(now, c_.tol, c_.complexity_tol);
      open.push_back({before_run, upper, kEvery, kEvery});
      int solved_in_run = 0;
      for (std::size_t t = i; t <= last; ++t) solved_in_run += sw.solved[t];
      if (sw.scores && groups.empty()) {
        groups.assign(d_.p, 1);
        for (const Candidate& c : cands) ++groups[c.feature];
      }
      const int score_after = !sw.scores
                                  ? std::numeric_limits<int>::max()
                                  : scoring_.cuts_before_scoring(m, run.second - run.first, &groups);
      while (!open.empty()) {
        const Interval in = open.back();
        open.pop_back();
        const bool every = in.first == kEvery;
        not_dominated(in.a, in.b, every ? nullptr : still_open.data() + in.first,
                      every ? nullptr : still_open.data() + in.last);
        if (open_cuts.empty()) continue;
        if (solved_in_run >= score_after) {
          scoring_.score_run(ws, block, m, total, cands, run, sw, now);
          break;
        }
        // The middle one of the cuts still open is solved next. A cut ruled
        // out stays so: the points that dominate its bounds are real trees
        // (or strict bounds) that the front keeps or betters. So each half
        // examines only the cuts this interval left open (every cut of the
        // interval was examined again: wilt, exhaustive depth 3, spent a
        // tenth of its time there).
        const std::size_t at = open_cuts.size() / 2, mid = open_cuts[at];
        solve_one(mid, mid_sides);
        ++solved_in_run;
        const std::size_t above = still_open.size();
        still_open.insert(still_open.end(), open_cuts.begin() + static_cast<std::ptrdiff_t>(at) + 1,
                          open_cuts.end());
        const std::size_t below = still_open.size();
        still_open.insert(still_open.end(), open_cuts.begin(),
                          open_cuts.begin() + static_cast<std::ptrdiff_t>(at));
        open.push_back({mid, in.b, above, below});
        open.push_back({in.a, mid, below, still_open.size()});
      }
    }
  }

  // A state below the root, swept on one worker: seed cuts per feature,
  // then every feature's bisection bounded by the seeds' front, and by
  // `need` when given (a root split's child: root_need.h; its corners bound
  // only, they are never on the state's front).
  std::unique_ptr<Node> solve_state(Workspace& ws, const Entry* block, int m, int depth,
                                    std::uint64_t hash, const NodeStats& total, double loss,
                                    const std::vector<Candidate>& cands,
                                    const std::vector<FrontPoint>* need = nullptr) {
    // Its front with min_bucket 1 first: the points whose trees keep
    // min_bucket rows in every leaf are the state's own optimum, and bound
    // its sweep from the start as incumbents (real trees that win no tie).
    std::unique_ptr<RelaxedBound> relaxed;
    std::vector<FrontPoint> incumbents;
    if (wants_relaxed_front(depth, m) && complete(block, m)) {
      FrontWithMinBucketOne got = states_.front_with_min_bucket_one(ws, block, m, depth, hash, total, loss);
      relaxed = std::make_unique<RelaxedBound>();
      relaxed->front = std::move(got.front);
      relaxed->best = relaxed->front.back().loss;
      incumbents = std::move(got.kept_min_bucket);
    }
    SweepState& sw = ws.sweep_state(depth);
    reset_state(sw, cands.size(), block, m, depth);
    std::vector<std::size_t> seeds;
    const auto runs = feature_runs(cands);
    for (const auto& run : runs) {
      const std::vector<std::size_t> run_seeds = solve_seeds(ws, block, m, depth, hash, total, cands, run, sw);
      seeds.insert(seeds.end(), run_seeds.begin(), run_seeds.end());
    }
    if (depth > 0)
      for (std::size_t i : cart_seeds(ws, block, m, total, cands, runs)) {
        solve_into(ws, block, m, depth, hash, total, cands, i, sw);
        seeds.push_back(i);
      }
    std::vector<FrontPoint> seed_front = seeded(total, loss, cands, seeds, sw);
    if (need) seed_front.insert(seed_front.end(), need->begin(), need->end());
    seed_front.insert(seed_front.end(), incumbents.begin(), incumbents.end());
    if (need || !incumbents.empty()) keep_bounding_front(seed_front, c_.tol, c_.complexity_tol);
    sweep(ws, block, m, depth, hash, total, cands, runs.data(), runs.data() + runs.size(), seed_front, sw);
    std::unique_ptr<Node> node = assemble_solved(ws, block, m, depth, hash, total, loss, cands, sw);
    sw.release();
    node->relaxed = std::move(relaxed);
    return node;
  }

  // The state's node from the splits solved, in candidate order. Scored
  // cuts whose points reach the front are solved first; a scored point
  // dominated by the solved splits' front cannot change the front, so only
  // the others are compared. `kept_index` (when given): the candidate of
  // each of the node's actions.
  std::unique_ptr<Node> assemble_solved(Workspace& ws, const Entry* block, int m, int depth,
                                        std::uint64_t hash, const NodeStats& total, double loss,
                                        const std::vector<Candidate>& cands, SweepState& sw,
                                        std::vector<std::size_t>* kept_index = nullptr) {
    std::vector<FrontPoint> scored_front;
    if (std::find(sw.scored.begin(), sw.scored.end(), 1) != sw.scored.end())
      scored_front = scoring_.solve_scored(ws, block, m, depth, hash, total, loss, cands, sw);
    std::vector<Candidate> kept;
    std::vector<std::size_t> index;
    std::vector<std::pair<ChildRef, ChildRef>> children;
    for (std::size_t i = 0; i < cands.size(); ++i)
      if (sw.solved[i]) {
        kept.push_back(cands[i]);
        index.push_back(i);
        children.push_back(sw.children[i]);
      }
    std::vector<std::size_t> origin;
    std::unique_ptr<Node> node = assemble_front(c_, guards_, total, loss, kept, children, &origin);
    for (std::size_t& o : origin) o = index[o];  // the candidate of each action
    if (kept_index) *kept_index = origin;
    if (scored_front.empty()) return node;
    bool same = node->front.size() == scored_front.size();
    for (std::size_t j = 0; same && j < scored_front.size(); ++j) {
      const FrontPoint& a = node->front[j];
      const FrontPoint& b = scored_front[j];
      same = a.loss == b.loss && a.complexity == b.complexity &&
             (a.action < 0 ? b.action < 0 : origin[a.action] == static_cast<std::size_t>(b.action));
    }
    if (!same)
      throw std::logic_error("internal error: the depth-two solver's front differs from its "
                             "trees' front; please report it with the data");
    return node;
  }

  // A lower bound of the least loss of every tree of a state whose sweep
  // stopped before it finished (time_limit): the leaf's loss, a solved or
  // scored split's least loss, and for a numeric cut not solved, the bounds
  // the sweep applies, from the nearest solved cuts of its feature on
  // either side (a cut with none, or a level group not solved: 0).
  // `per_cut`: each candidate's bound (the core tests check them).
  double stopped_lower_bound(Workspace& ws, const Entry* block, int m, int depth, double loss,
                             const std::vector<Candidate>& cands, const SweepState& sw,
                             std::vector<double>& per_cut) const {
    per_cut.assign(cands.size(), 0.0);
    PrefixLeaves& pl = ws.prefix(depth);
    const double none = -std::numeric_limits<double>::infinity();
    for (const auto& run : feature_runs(cands)) {
      const int offset = prefix_cut(cands[run.first]) ? start_run(pl, block, m, cands[run.first]) : 0;
      // The nearest solved cuts below and above t (run.second: none).
      std::size_t below = run.second, above = run.first;
      for (std::size_t t = run.first; t < run.second; ++t) {
        if (sw.solved[t]) {
          per_cut[t] = SearchContext::best_loss(sw.side(t, true)) +
                       SearchContext::best_loss(sw.side(t, false));
          below = t;
          continue;
        }
        if (sw.scored[t]) {
          per_cut[t] = static_cast<double>(sw.sides[t].best_left + sw.sides[t].best_right);
          continue;
        }
        if (!prefix_cut(cands[t])) continue;
        if (above <= t)
          for (above = t + 1; above < run.second && !sw.solved[above];) ++above;
        const int cut = cands[t].cut + offset;
        double near_l = none, far_l = none, near_r = none, far_r = none;
        if (below < run.second) {
          near_l = subset_bound(sw.side(below, true), depth + 1, sw);
          far_r = SearchContext::best_loss(sw.side(below, false)) -
                  pl.removable(cands[below].cut + offset, cut);
        }
        if (above < run.second) {
          far_l = SearchContext::best_loss(sw.side(above, true)) -
                  pl.removable(cut, cands[above].cut + offset);
          near_r = subset_bound(sw.side(above, false), depth + 1, sw);
        }
        // Losses are never below 0, whatever neither neighbour proves.
        per_cut[t] = side_least(pl.leaf_left(cut), std::max(0.0, near_l), far_l) +
                     side_least(pl.leaf_right(cut), std::max(0.0, near_r), far_r);
      }
    }
    double lb = loss;
    for (double b : per_cut) lb = std::min(lb, b);
    return lb;
  }

 private:
  // Starts `pl` on the rows of the run that begins with numeric cut
  // `first`; returns what to add to a cut for its position there.
  static int start_run(PrefixLeaves& pl, const Entry* block, int m, const Candidate& first) {
    return pl.start_run(block + static_cast<std::size_t>(first.feature) * m, m, first.na_left);
  }

  // The settings under which the bounds hold (after SearchContext::settle()).
  bool settings_bound() const {
    return opt_.bound_two_levels && c_.every_group_tried && !d_.regression() &&
           c_.complexity_tol == 0.0;
  }

  // A side's least loss by the interval bounds: at least a subset's bound
  // (`near`), a superset's less what the rows between can carry (`far`),
  // and 0 (no loss is negative: without a subset bound, min_bucket > 1 above
  // the last level, `far` alone fell below 0 and no split was ruled out), and
  // never above the side's own leaf.
  static double side_least(double leaf, double near, double far) {
    return std::min(leaf, std::max({0.0, near, far}));
  }

  // The lowest loss of a child's trees of complexity at most c.
  static double loss_within(const ChildRef& child, double c) {
    return child.node ? least_loss_within(child.node->front, c) : child.leaf_loss;
  }

  // How much a tree's complexity changes when `weight` of rows join or
  // leave the rows it is applied to, each passing `tests` of its tests (at
  // most, joining; at least, leaving): with "splits" not at all (the same
  // splits), with "tests" by the weight times the tests.
  double complexity_change(double weight, int tests) const {
    return opt_.complexity == Complexity::splits ? 0.0 : weight * tests;
  }

  // What a cut's side differs by from the same side of the two solved cuts
  // that bound it: the superset's extra rows carry at most `removable` of
  // loss and make a tree at most `growth` more complex; the subset lacks
  // rows that make a tree with a split at least `shrink` less complex
  // (each passes its first test).
  struct SideRows {
    double removable, growth, shrink;
  };

  // A lower bound of the front of one side of a cut t from the same side of
  // two solved cuts of its feature (`rows`: how they differ from it). Any
  // tree of the side with a split, of complexity c, restricted to the
  // subset's rows loses no more and has complexity at most c - shrink: the
  // subset's least loss within c - shrink bounds the side's within c.
  // Applied to the superset's rows it loses at most `removable` more and
  // has complexity at most c + growth: the superset's least loss within
  // c + growth, less `removable`, bounds it too. (With "splits" neither
  // shift; without them, "tests" kept only the superset's best loss:
  // exhaustive depth 3 with min_bucket 5 solved 133,548 states on bank,
  // 106,836 with the growth alone, 101,143 with both.)
  // The side's leaf (loss `leaf`, complexity 0) is exact, and a split costs
  // at least `least`. `stump`, when known (not NaN; unit weights): the
  // side's best one-split loss, exact for the trees of complexity `least`
  // to `least + 1`, which hold one split (with "splits" one costs 1, and
  // every tree of two splits at least 2; with "tests" a one-split tree costs
  // the side's weight, and one of two adds its split child's, at least 2).
  // Without the subset bound (min_bucket > 1), the subset's front with
  // min_bucket 1 (Node::relaxed), where known, bounds the side's instead.
  // Out: the bound's corners, complexity up, loss down (`at`: scratch).
  void side_bound(const ChildRef& subset, const ChildRef& superset, double leaf, double least,
                  const SideRows& rows, double stump, const SweepState& sw,
                  std::vector<double>& at, std::vector<FrontPoint>& out) const {
    at.assign(1, least);
    const bool known = !std::isnan(stump);
    if (known) at.push_back(least + 1.0);  // where trees of two splits start
    const bool subsets = subset_bounds(sw, opt_.min_bucket);
    const std::vector<FrontPoint>* subset_front =
        !subset.node || !sw.complete ? nullptr
        : subsets                    ? &subset.node->front
        : subset.node->relaxed && !subset.node->relaxed->front.empty()
            ? &subset.node->relaxed->front
            : nullptr;
    // Where the bounds fall.
    if (subset_front)
      for (const FrontPoint& p : *subset_front)
        if (p.complexity + rows.shrink > least) at.push_back(p.complexity + rows.shrink);
    if (superset.node)
      for (const FrontPoint& p : superset.node->front)
        if (p.complexity - rows.growth > least) at.push_back(p.complexity - rows.growth);
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    out.assign(1, {leaf, 0.0, -1, 0, 0});
    for (double c : at) {
      const double far = loss_within(superset, c + rows.growth) - rows.removable;
      const double near = subsets        ? loss_within(subset, c - rows.shrink)
                          : subset_front ? std::max(far, least_loss_within(*subset_front, c - rows.shrink))
                                         : far;
      const double lb = c == least && known ? std::min(leaf, stump) : side_least(leaf, near, far);
      if (lb < out.back().loss) out.push_back({lb, c, -1, 0, 0});
    }
  }

  // Whether some pair of the two sides' bound corners, with the split's
  // cost, is not dominated by `now` (else no point of the split can be on
  // it), and with `which`, which sides' trees with a split are in such a
  // pair (a side's first corner is its leaf).
  std::pair<bool, WantedSides> open_pairs(const std::vector<FrontPoint>& now, double cost,
                                          std::int32_t split, const std::vector<FrontPoint>& left,
                                          const std::vector<FrontPoint>& right, bool which) const {
    bool open = false;
    WantedSides wanted{false, false};
    for (std::size_t i = 0; i < left.size(); ++i)
      for (std::size_t j = 0; j < right.size(); ++j) {
        if (open && (i == 0 || wanted.left) && (j == 0 || wanted.right)) continue;
        if (dominated(now, cost + left[i].complexity + right[j].complexity, left[i].loss + right[j].loss,
                      c_.tol, split))
          continue;
        if (!which) return {true, wanted};
        open = true;
        wanted.left = wanted.left || i > 0;
        wanted.right = wanted.right || j > 0;
      }
    return {open, wanted};
  }

  const SearchContext& c_;
  const Dataset& d_;
  const SearchOptions& opt_;
  const Guards& guards_;
  StateSolver& states_;
  CutScoring& scoring_;
};

}  // namespace dpdt
