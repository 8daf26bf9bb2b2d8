// The last level of the search (room: reads the context; calls the split
// scans): a state with one test left, whose best split per feature group is
// found exactly in one sorted pass, and the best split of a state for its
// own loss (which a state of CART proposals adds to its candidates).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/data/options.h"
#include "core/fronts/node.h"
#include "core/fronts/pareto.h"
#include "core/search/context.h"
#include "core/search/workspace.h"
#include "core/splits/histogram_scan.h"
#include "core/splits/partition.h"
#include "core/splits/split_groups.h"
#include "core/splits/coded_classes_scan.h"
#include "core/splits/coded_scan.h"
#include "core/splits/split_scan.h"

namespace dpdt {

class LastLevel {
 public:
  explicit LastLevel(const SearchContext& c)
      : c_(c), d_(c.d), opt_(c.opt),
        relaxed_(opt_.min_bucket > 1 && bounds_split_states(c)),
        missing_bounds_(bounded_with_missing(c)),
        plain_classes_(plain_classes(c.d)),
        costs_(coded_costs(c.d)),
        running_costs_(d_.n_classes >= 3 && d_.n_classes <= kMaxRunningCostClasses &&
                       !d_.loss_matrix.empty() && losses_sum_exactly(d_)) {}

  // Passes over a state's rows per feature (WorkEstimate): the best split,
  // and the relaxed one's for the parent's bounds (at depth 1 there is none).
  int scans() const { return relaxed_ ? 2 : 1; }

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
    std::vector<FrontPoint> pts = leaf_point(loss);
    const bool per_feature = !one_test_cost();
    // Scans: every feature at once (only = -1), each apart (per-feature
    // costs), the one the depth-two solver named, or none.
    int first = -1, last = 0;
    if (best_feature >= 0) first = best_feature, last = best_feature + 1;
    else if (best_feature == kNoBetterSplit) last = first;
    else if (per_feature) first = 0, last = d_.p;
    for (int only = first; only < last; ++only) {
      const Split s = best_last_split(ws, block, m, total, only, true);
      if (!s.found()) continue;
      add_split(*node, pts, s, side_stats(block, m, s, &total), total, loss);
    }
    if ((relaxed_ || missing_bounds_) && best_feature == kEveryFeature) {
      double bound = loss;
      if (relaxed_) bound = relaxed_best(ws, block, m, total, loss, pts);
      else
        for (const FrontPoint& p : pts) bound = std::min(bound, p.loss);
      if (missing_bounds_) bound = std::min(bound, missing_vs_rest(block, m));
      node->relaxed = std::make_unique<const RelaxedBound>(RelaxedBound{bound, {}});
    }
    set_front(*node, std::move(pts));
    return node;
  }

  // The least loss of "missing vs the rest" on a feature with missing
  // values in the state (infinite: none): no candidate, but what a
  // threshold of a state holding these rows can become on them.
  // With it, the least loss of one split with min_bucket 1 bounds every
  // state holding the rows (Node::relaxed): restricted to them, that
  // state's best tree of one split keeps its test, or its test becomes
  // "missing vs the rest", or one side empties (a leaf).
  double missing_vs_rest(const Entry* block, int m) const {
    double least = std::numeric_limits<double>::infinity();
    for (int f = 0; f < d_.p; ++f) {
      const Entry* rows = block + static_cast<std::size_t>(f) * m;
      int present = present_rows(rows, m);
      if (present == m || present == 0) continue;
      c_.count_visits(m);
      least = std::min(least, leaf_loss(d_, stats_of(d_, rows, present)) +
                                  leaf_loss(d_, stats_of(d_, rows + present, m - present)));
    }
    return least;
  }

  // Whether a state at the last level is solved from its rows alone
  // (last_split_of_rows()): the data have row codes, one test costs the
  // same on every feature, and no relaxed bound is wanted.
  bool from_rows() const {
    return !c_.codes.empty() && !relaxed_ && one_test_cost();
  }

  // last_split() of a state given by its rows (from_rows()): the same node,
  // from the rows' codes instead of the state's sorted blocks.
  std::unique_ptr<Node> last_split_of_rows(Workspace& ws, const int* rows, int m,
                                           const NodeStats& total, double loss) {
    auto node = std::make_unique<Node>();
    std::vector<FrontPoint> pts = leaf_point(loss);
    c_.count_visits(static_cast<double>(m) * d_.p);
    const HistogramScan::Result r = ws.histogram.best(d_, c_.codes, rows, m, opt_.min_bucket, total);
    if (r.split.found()) add_split(*node, pts, r.split, {r.left, r.right}, total, loss);
    set_front(*node, std::move(pts));
    return node;
  }

  // Whether a state at the last level may be solved from coded columns
  // (last_split_coded()): 2 to kMaxCodedClasses classes, unit weights, 0/1
  // loss (or, with two classes, whole misclassification costs), numeric
  // features without missing values or bins (a rank then stands for one
  // value), one test costing the same on every feature.
  bool coded() const {
    return plain_classes_ && one_test_cost();
  }
  // The bits of a code that hold its row's class (below them, its rank).
  int class_bits() const { return d_.n_classes == 2 ? 1 : kManyClassBits; }

  // last_split() of a state given by its coded columns (CutPositions;
  // `total`: its statistics): the same split and node, from 4 bytes a row
  // with no class gathered, eight or sixteen cuts at a time; the threshold
  // from the ranks either side of the cut, each found in its feature's
  // sorted rows.
  std::unique_ptr<Node> last_split_coded(const std::uint32_t* codes, int m, const NodeStats& total,
                                         double loss) {
    auto node = std::make_unique<Node>();
    std::vector<FrontPoint> pts = leaf_point(loss);
    c_.count_visits(static_cast<double>(m) * d_.p);
    // Each feature's first least cut offered, in feature order: what
    // offering every cut in order leaves (ties go to the first).
    SplitTracker best(nullptr);
    const int k = d_.n_classes, bits = class_bits();
    int totals[kMaxCodedClasses] = {};
    for (int c = 0; c < k; ++c) totals[c] = static_cast<int>(total.class_weight[c]);
    for (int f = 0; f < d_.p; ++f) {
      const std::uint32_t* col = codes + static_cast<std::size_t>(f) * m;
      // Only cuts below the earlier features' least (the errors are whole
      // numbers), so that the scan may skip blocks of the others.
      const double bar = best.bar();
      const int below = std::isinf(bar) ? kNoCodedCut : static_cast<int>(std::ceil(bar));
      const CodedBest b = k == 2 ? first_least_two(col, m, opt_.min_bucket, totals, below)
                                 : first_least_coded_classes(col, m, opt_.min_bucket, k, totals, below);
      if (b.score != kNoCodedCut) best.offer(f, b.left, b.score);
    }
    const Split s = best.finish([&](Split& split) {
      if (split.placed()) return;
      const std::uint32_t* col = codes + static_cast<std::size_t>(split.feature) * m;
      split.threshold = midpoint(value_of_rank(split.feature, col[split.left_count - 1] >> bits),
                                 value_of_rank(split.feature, col[split.left_count] >> bits));
    });
    if (s.found()) {
      // The smaller side's rows counted, the other side's the rest.
      const std::uint32_t* col = codes + static_cast<std::size_t>(s.feature) * m;
      add_split(*node, pts, s, sides_from_smaller(total, m, s.left_count, [&](bool left) {
                  return left ? coded_stats(col, s.left_count)
                              : coded_stats(col + s.left_count, m - s.left_count);
                }),
                total, loss);
    }
    if (relaxed_)
      node->relaxed = std::make_unique<const RelaxedBound>(
          RelaxedBound{relaxed_best_coded(codes, m, totals, loss, pts), {}});
    set_front(*node, std::move(pts));
    return node;
  }
  // relaxed_best() from coded columns: the least errors of one split with
  // min_bucket = 1, or of the leaf, each feature's cuts sought below the
  // least so far (the errors are whole numbers).
  double relaxed_best_coded(const std::uint32_t* codes, int m, const int* totals, double loss,
                            const std::vector<FrontPoint>& found) const {
    double known = loss;
    for (const FrontPoint& p : found) known = std::min(known, p.loss);
    c_.count_visits(static_cast<double>(m) * d_.p);
    int least = static_cast<int>(known);
    for (int f = 0; f < d_.p; ++f) {
      const std::uint32_t* col = codes + static_cast<std::size_t>(f) * m;
      const CodedBest b = d_.n_classes == 2
                              ? first_least_two(col, m, 1, totals, least)
                              : first_least_coded_classes(col, m, 1, d_.n_classes, totals, least);
      if (b.score != kNoCodedCut) least = b.score;
    }
    return least;
  }
  // The statistics of m coded rows, as stats_of() gives them (unit
  // weights): with more than two classes, counted in four interleaved
  // tables (rows of one class in a row do not wait on each other).
  NodeStats coded_stats(const std::uint32_t* col, int m) const {
    if (d_.n_classes == 2) {
      int ones = 0;
      for (int i = 0; i < m; ++i) ones += static_cast<int>(col[i] & 1u);
      return two_class_counts(m, ones);
    }
    int counts[4][kMaxCodedClasses] = {};
    int i = 0;
    for (; i + 4 <= m; i += 4)
      for (int j = 0; j < 4; ++j) ++counts[j][col[i + j] & kManyClassMask];
    for (; i < m; ++i) ++counts[0][col[i] & kManyClassMask];
    NodeStats s(d_.n_classes);
    s.count = m;
    s.weight = m;
    for (int c = 0; c < d_.n_classes; ++c)
      s.class_weight[c] = counts[0][c] + counts[1][c] + counts[2][c] + counts[3][c];
    return s;
  }

  // The least loss of one split of the state with min_bucket = 1, or of
  // its leaf (Node::relaxed). `found`: the state's points, whose least loss
  // bounds it from above (two classes, unit weights, numeric features: the
  // scan then starts from it; exhaustive depth 3 on wilt with min_bucket 5
  // spent a ninth of its time here without it).
  double relaxed_best(Workspace& ws, const Entry* block, int m, const NodeStats& total,
                      double loss, const std::vector<FrontPoint>& found) {
    if (d_.n_classes == 2 && d_.unit_weights && d_.loss_matrix.empty() && !any_special(block, m)) {
      double known = loss;
      for (const FrontPoint& p : found) known = std::min(known, p.loss);
      c_.count_visits(static_cast<double>(m) * d_.p);
      return fewest_split_errors_unit(d_, block, m, 1, total, static_cast<int>(known));
    }
    const Split s = best_last_split(ws, block, m, total, kEveryFeature, false, 1);
    if (!s.found()) return loss;
    const std::pair<NodeStats, NodeStats> sides = side_stats(block, m, s);
    return std::min(loss, leaf_loss(d_, sides.first) + leaf_loss(d_, sides.second));
  }

  // The state's best split for its own loss (over every feature, or only
  // feature `only`); `claim`: it is claimed to be the best (heuristic level
  // groups are then recorded).
  Split best_last_split(Workspace& ws, const Entry* block, int m, const NodeStats& total,
                        int only, bool claim, int min_bucket = -1) {
    const int mb = min_bucket < 0 ? opt_.min_bucket : min_bucket;
    c_.count_visits(static_cast<double>(m) * (only >= 0 ? 1 : d_.p));
    Split s;
    if (d_.regression()) {
      s = ws.sse.best(d_, block, m, mb, nullptr, only);
    } else if (d_.n_classes == 2) {
      if (d_.loss_matrix.empty() && d_.unit_weights) {
        s = best_split_two_classes_unit(d_, block, m, mb, total, MisclassifiedUnit{},
                                        nullptr, only);
      } else if (d_.loss_matrix.empty()) {
        s = best_split_two_classes(d_, block, m, mb, total, MisclassifiedSide{},
                                   nullptr, only);
      } else {
        const CostSide side{d_.loss_matrix[2], d_.loss_matrix[1]};
        s = best_split_two_classes(d_, block, m, mb, total, side, nullptr, only);
      }
    } else if (d_.loss_matrix.empty() && d_.exact_weights) {
      s = ws.many.best(d_, block, m, mb, total, only);
    } else if (running_costs_) {
      s = best_split_running_costs_for<3>(d_, block, m, mb, total, d_.loss_matrix.data(),
                                          nullptr, only);
    } else {
      s = best_split(d_, block, m, mb, total, ws.miss, nullptr, only);
    }
    const Split g = best_special_split(d_, ws.groups, block, m, mb, SideScore::loss,
                                       nullptr, only, claim);
    return better_split(s, nullptr, g, nullptr);
  }

 private:
  // Split s of a state joins its node and front points, if its loss
  // recomputed from its sides' statistics (the scans' running sums only
  // choose it) is lower than the leaf's by more than rounding.
  void add_split(Node& node, std::vector<FrontPoint>& pts, const Split& s,
                 const std::pair<NodeStats, NodeStats>& sides, const NodeStats& total,
                 double loss) const {
    const ChildRef lc{nullptr, leaf_loss(d_, sides.first)}, rc{nullptr, leaf_loss(d_, sides.second)};
    if (!c_.tol.below(lc.leaf_loss + rc.leaf_loss, loss)) return;
    node.actions.push_back({s.feature, s.threshold, lc, rc, s.levels.to_vector(), s.na_left});
    pts.push_back({lc.leaf_loss + rc.leaf_loss, c_.split_cost(s.feature, total),
                   static_cast<std::int32_t>(node.actions.size() - 1), 0, 0});
  }

  // A state's points to start from: its leaf, with room for its best split
  // (each allocation of a last-level state counts: there are most states).
  static std::vector<FrontPoint> leaf_point(double loss) {
    std::vector<FrontPoint> pts;
    pts.reserve(2);
    pts.push_back({loss, 0.0, -1, 0, 0});
    return pts;
  }

  // The node's front from its points (the leaf first): the leaf alone when
  // no split joined.
  void set_front(Node& node, std::vector<FrontPoint>&& pts) const {
    if (node.actions.empty()) {
      pts.resize(1);
      node.front = std::move(pts);
      return;
    }
    keep_pareto(pts, c_.tol, c_.complexity_tol);
    node.front = std::move(pts);
    keep_front_actions(node);
  }

  // Whether one test costs the same on every feature (a state's best split
  // is then one point, as the scans from rows and codes find it).
  bool one_test_cost() const { return !(opt_.complexity == Complexity::cost && !c_.uniform_cost); }

  // Two classes' first least cut of a coded column, with the costs when
  // there are.
  CodedBest first_least_two(const std::uint32_t* col, int m, int min_bucket, const int* totals,
                            int below) const {
    return d_.loss_matrix.empty()
               ? first_least_coded(col, m, min_bucket, totals[0], totals[1], below)
               : first_least_costed(col, m, min_bucket, totals[0], totals[1], costs_, below);
  }

  // Whether the data suit coded columns (coded()): 2 to kMaxCodedClasses
  // classes, unit weights, 0/1 loss or two classes' whole costs (every
  // loss then a whole number that fits an int), every feature numeric,
  // without missing values or bins, and sorted (value_of_rank()); every
  // rank shifted up by the class bits fits in a code.
  static bool plain_classes(const Dataset& d) {
    const bool costed = d.n_classes == 2 && d.unit_weights && losses_sum_exactly(d) &&
                        d.n * largest_cost(d) < (1 << 30);
    if (d.n_classes < 2 || d.n_classes > kMaxCodedClasses || !d.unit_weights ||
        (!d.loss_matrix.empty() && !costed) || d.n < 2 || d.n >= (1 << (32 - kManyClassBits)) ||
        d.sorted.size() < static_cast<std::size_t>(d.p) * d.n)  // searched from rows only
      return false;
    for (int f = 0; f < d.p; ++f)
      if (d.categorical(f) || d.is_binned(f) ||
          holds_missing(d.sorted.data() + static_cast<std::size_t>(f) * d.n, d.n))
        return false;
    return true;
  }
  // Two classes' costs (plain_classes()): loss_matrix[1] of a row of
  // class 0 predicted 1, loss_matrix[2] of one of class 1 predicted 0.
  static CodedCosts coded_costs(const Dataset& d) {
    if (d.n_classes != 2 || d.loss_matrix.empty()) return {};
    return {static_cast<int>(d.loss_matrix[1]), static_cast<int>(d.loss_matrix[2])};
  }
  // The value of feature f's rows of rank r (one value: plain_classes()).
  double value_of_rank(int f, std::uint32_t r) const {
    const auto first = d_.sorted.begin() + static_cast<std::ptrdiff_t>(f) * d_.n;
    const auto it = std::lower_bound(first, first + d_.n, static_cast<int>(r),
                                     [](const Entry& e, int rank) { return e.rank < rank; });
    return d_.value(f, it->row);
  }

  // Whether Node::relaxed bounds the last level's states for a bounded
  // sweep of a state holding missing values (BoundedSweep::subset_bound()):
  // the data hold some, and states that try every split are bounded.
  static bool bounded_with_missing(const SearchContext& c) {
    const Dataset& d = c.d;
    return bounds_split_states(c) && d.sorted.size() >= static_cast<std::size_t>(d.p) * d.n &&
           block_holds_missing(d.sorted.data(), d.n, d.p);
  }

  // Whether the search may bound states that try every split
  // (BoundedSweep::may_bound(), before the settings are settled): the
  // last level's states then give them Node::relaxed where asked.
  static bool bounds_split_states(const SearchContext& c) {
    const SearchOptions& o = c.opt;
    return o.bound_two_levels && !c.d.regression() && o.max_depth >= 2 &&
           (o.candidates == Candidates::exhaustive || o.exact_levels >= 2);
  }

  // Whether a feature of the state holds missing values or levels.
  bool any_special(const Entry* block, int m) const {
    for (int f = 0; f < d_.p; ++f)
      if (d_.special(f, block + static_cast<std::size_t>(f) * m, m)) return true;
    return false;
  }

  // The statistics of the two children of a test. `total`: the state's,
  // if known: with unit weights (whole counts) only the smaller side's rows
  // are counted, and the other side's are the state's less those, exactly
  // (skin with exact_levels = 2: a third of the time in stats_of()).
  std::pair<NodeStats, NodeStats> side_stats(const Entry* block, int m, const SplitRule& r,
                                             const NodeStats* total = nullptr) const {
    const Entry* rows = block + static_cast<std::size_t>(r.feature) * m;
    if (!d_.special(r.feature, rows, m)) {  // a prefix of the block goes left
      if (total && !d_.regression() && d_.unit_weights)
        return sides_from_smaller(*total, m, r.left_count, [&](bool left) {
          return left ? stats_of(d_, rows, r.left_count)
                      : stats_of(d_, rows + r.left_count, m - r.left_count);
        });
      return {stats_of(d_, rows, r.left_count), stats_of(d_, rows + r.left_count, m - r.left_count)};
    }
    if (!d_.regression() && d_.unit_weights) return counted_side_stats(rows, m, r);
    std::vector<Entry> l, rr;
    l.reserve(r.left_count);
    rr.reserve(m - r.left_count);
    for_each_side(d_, r, rows, m, [&](int i, bool left) { (left ? l : rr).push_back(rows[i]); });
    return {stats_of(d_, l.data(), static_cast<int>(l.size())),
            stats_of(d_, rr.data(), static_cast<int>(rr.size()))};
  }

  // side_stats() of a test of levels or with missing values, classes with
  // unit weights: each side's class counts, the whole sums stats_of()
  // makes of its rows, without writing them out (writing them was a tenth
  // of a default fit with two factors).
  std::pair<NodeStats, NodeStats> counted_side_stats(const Entry* rows, int m,
                                                     const SplitRule& r) const {
    const int k = d_.n_classes;
    std::vector<int> counts(2 * static_cast<std::size_t>(k), 0);
    const int* label = d_.label.data();
    for_each_side(d_, r, rows, m,
                  [&](int i, bool left) { ++counts[(left ? 0 : k) + label[rows[i].row]]; });
    std::pair<NodeStats, NodeStats> out{NodeStats(k), NodeStats(k)};
    for (int side = 0; side < 2; ++side) {
      NodeStats& s = side == 0 ? out.first : out.second;
      int n = 0;
      for (int c = 0; c < k; ++c) {
        s.class_weight[c] = counts[side * k + c];
        n += counts[side * k + c];
      }
      s.count = n;
      s.weight = n;
    }
    return out;
  }

  const SearchContext& c_;
  const Dataset& d_;
  const SearchOptions& opt_;
  // Node::relaxed is wanted: min_bucket > 1 in a search whose states
  // that try every split are bounded (BoundedSweep::subset_bound()).
  const bool relaxed_;
  // Node::relaxed is wanted for the bounds in states holding missing
  // values (bounded_with_missing()).
  const bool missing_bounds_;
  const bool plain_classes_;
  const CodedCosts costs_;
  // A loss matrix of 3 to kMaxRunningCostClasses classes with exact sums:
  // its costs kept as rows move (best_split_running_costs_for()).
  const bool running_costs_;
};

}  // namespace dpdt
