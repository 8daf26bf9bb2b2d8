// libFuzzer target for the C++ core (see tools/fuzz/README.md): the input
// bytes become a tiny dataset (n <= 12 rows, <= 9 at depth 3; p <= 3
// features, 1 to 8 classes or regression, weights; optionally missing
// values (NaN) anywhere in x, a categorical feature 0 with 2 to 4 level
// codes, and a loss matrix of whole or fractional costs) and search options (max_depth <= 3, both candidate
// generators, both complexity measures, both criteria, min_bucket, cart_depth
// vectors); the search runs with 1 and with 2 threads and is checked against
// the brute force of tools/core-tests/brute_force.h (compiled apart, in
// oracle.cpp, without instrumentation):
//  - the two runs give identical fronts and trees;
//  - the front starts with the single leaf and is strictly monotone
//    (complexity up, loss down), hence non-dominated;
//  - every front tree, routed row by row (missing values to the side the
//    tree learned; every row must reach a leaf) and evaluated with the
//    brute force's own leaf losses, has the front's loss and complexity,
//    depth <= max_depth and leaves of >= min_bucket rows; fill_node_stats
//    (unscaled) agrees with those leaf losses and weights;
//  - candidates "exhaustive", and any search at max_depth 1, give exactly
//    the brute-force Pareto front of all trees of depth <= max_depth;
//    candidates "cart" never beat it (each point is weakly dominated by it);
//  - with candidates "exhaustive", best_only gives the leaf and one tree
//    whose loss, routed by hand, is the brute force's least loss.
// The core keeps losses and weights in internal units (scaled by powers of
// two, src/core/fronts/scale.h): every comparison is made after unscaling.
// Complexity "cost" (feature costs) is not drawn: the brute force does not
// know it.
// A failed check prints the decoded case and aborts (libFuzzer saves the input).
#include <cstdint>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include <fuzzer/FuzzedDataProvider.h>

#include "core/data/twin_features.h"
#include "core/fronts/scale.h"
#include "core/search/search.h"
#include "oracle.h"
#include "core/fronts/tree.h"
#include "core/fronts/tree_stats.h"

namespace {

using dpdt_test::Point;
using dpdt_test::Problem;

struct Case {
  Problem pr;
  dpdt::SearchOptions opt;
  int n_levels0 = 0;  // > 0: feature 0 categorical with these many levels
};

Case decode(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  Case c;
  Problem& pr = c.pr;
  pr.k = in.ConsumeIntegralInRange<int>(0, 3);  // 0: regression
  // Three classes or more: up to 8, the coded many-class last level's limit.
  if (pr.k == 3) pr.k = in.ConsumeIntegralInRange<int>(3, 8);
  pr.n = in.ConsumeIntegralInRange<int>(1, 12);
  pr.p = in.ConsumeIntegralInRange<int>(1, 3);
  dpdt::SearchOptions& o = c.opt;
  o.max_depth = in.ConsumeIntegralInRange<int>(1, 3);
  // At depth 3 the brute force's work grows fast with n: 9 rows at most there.
  if (o.max_depth == 3 && pr.n > 9) pr.n = 9;
  o.candidates = in.ConsumeBool() ? dpdt::Candidates::exhaustive : dpdt::Candidates::cart;
  o.complexity = in.ConsumeBool() ? dpdt::Complexity::splits : dpdt::Complexity::tests;
  o.criterion = in.ConsumeBool() ? dpdt::Criterion::gini : dpdt::Criterion::entropy;
  o.min_bucket = in.ConsumeIntegralInRange<int>(1, 3);
  o.cart_depth.clear();
  const int levels = in.ConsumeIntegralInRange<int>(1, 3);
  for (int i = 0; i < levels; ++i) o.cart_depth.push_back(in.ConsumeIntegralInRange<int>(1, 3));
  // Weights: unit, whole (1..4), or fractional (tenths plus 0.03, so that
  // distinct sums stay far apart compared with rounding). Weights spanning
  // many orders of magnitude are not drawn (the R fuzzer covers them).
  const int wmode = in.ConsumeIntegralInRange<int>(0, 2);
  const double xscale = in.ConsumeBool() ? 1.0 : 0.25;
  // Missing values: none, or each value missing with chance 1/missing_odds.
  const int missing_odds = in.ConsumeBool() ? 0 : in.ConsumeIntegralInRange<int>(2, 6);
  c.n_levels0 = in.ConsumeBool() ? in.ConsumeIntegralInRange<int>(2, 4) : 0;
  pr.cat0 = c.n_levels0 > 0;
  for (int i = 0; i < pr.n * pr.p; ++i) {
    if (i < pr.n && pr.cat0)
      pr.x.push_back(in.ConsumeIntegralInRange<int>(1, c.n_levels0));
    else
      pr.x.push_back(in.ConsumeIntegralInRange<int>(0, 5) * xscale);
  }
  for (int i = 0; i < pr.n * pr.p; ++i)
    if (missing_odds > 0 && in.ConsumeIntegralInRange<int>(1, missing_odds) == 1) pr.x[i] = NAN;
  for (int i = 0; i < pr.n; ++i) {
    pr.y.push_back(pr.k > 0 ? in.ConsumeIntegralInRange<int>(0, pr.k - 1)
                            : in.ConsumeIntegralInRange<int>(-4, 8) * 0.5);
    const int whole = in.ConsumeIntegralInRange<int>(1, 4);
    pr.w.push_back(wmode == 0 ? 1.0 : wmode == 1 ? whole : whole * 0.1 + 0.03);
  }
  // The depth-two solver scores cuts only in states of 2,048 rows or more
  // by default: here it may score every time.
  o.score_cuts_after = in.ConsumeBool() ? 0 : -1;
  // A loss matrix (classification): none, whole costs 0..3 (exact sums with
  // exact weights, SearchContext::exact_losses()) or quarters 0.25..2.5
  // (a loss tolerance).
  const int costs = pr.k >= 2 ? in.ConsumeIntegralInRange<int>(0, 2) : 0;
  if (costs > 0) {
    pr.loss_matrix.assign(static_cast<std::size_t>(pr.k) * pr.k, 0.0);
    for (int a = 0; a < pr.k; ++a)
      for (int b = 0; b < pr.k; ++b)
        if (a != b)
          pr.loss_matrix[a * pr.k + b] = costs == 1 ? in.ConsumeIntegralInRange<int>(0, 3)
                                                    : 0.25 * in.ConsumeIntegralInRange<int>(1, 10);
  }
  return c;
}

void print_case(const Case& c) {
  const Problem& pr = c.pr;
  std::fprintf(stderr, "case: n=%d p=%d k=%d levels of x0=%d max_depth=%d candidates=%s complexity=%s "
                       "criterion=%s min_bucket=%d score_cuts_after=%d cart_depth=",
               pr.n, pr.p, pr.k, c.n_levels0, c.opt.max_depth,
               c.opt.candidates == dpdt::Candidates::exhaustive ? "exhaustive" : "cart",
               c.opt.complexity == dpdt::Complexity::tests ? "tests" : "splits",
               c.opt.criterion == dpdt::Criterion::gini ? "gini" : "entropy", c.opt.min_bucket,
               c.opt.score_cuts_after);
  for (int d : c.opt.cart_depth) std::fprintf(stderr, "%d ", d);
  std::fprintf(stderr, "loss_matrix=");
  for (double v : pr.loss_matrix) std::fprintf(stderr, "%g ", v);
  std::fprintf(stderr, "\nrow: x[0..p) y w\n");
  for (int i = 0; i < pr.n; ++i) {
    for (int f = 0; f < pr.p; ++f) std::fprintf(stderr, "%g ", pr.x[f * pr.n + i]);
    std::fprintf(stderr, "| %g %g\n", pr.y[i], pr.w[i]);
  }
}

[[noreturn]] void fail(const Case& c, const char* what, int detail) {
  std::fprintf(stderr, "\nFUZZ CHECK FAILED: %s (%d)\n", what, detail);
  print_case(c);
  std::abort();
}

struct Result {
  std::vector<dpdt::FrontPoint> front;
  std::vector<dpdt::FlatTree> trees;
};

Result search(const Case& c, const dpdt::Dataset& d, int threads) {
  dpdt::SearchOptions o = c.opt;
  o.threads = threads;
  dpdt::Search s(d, o);
  dpdt::Runtime rt;
  s.run(rt);
  Result r{s.front(), {}};
  for (std::size_t i = 0; i < r.front.size(); ++i)
    r.trees.push_back(dpdt::extract_tree(s.root(), static_cast<int>(i)));
  return r;
}

bool same_tree(const dpdt::FlatTree& a, const dpdt::FlatTree& b) {
  if (a.feature != b.feature || a.left != b.left || a.right != b.right) return false;
  if (a.left_levels != b.left_levels || a.na_left != b.na_left) return false;
  for (int v = 0; v < a.size(); ++v)
    if (a.feature[v] >= 0 && a.left_levels[v].empty() && a.threshold[v] != b.threshold[v])
      return false;
  return true;
}

// The rows reaching each leaf of t, routed by hand: x <= threshold, or the
// level in the left group, goes left; a missing value goes to na_left (a
// training row with a missing value must find a learned side).
std::vector<std::vector<int>> leaf_rows(const Case& c, const dpdt::FlatTree& t, int which) {
  const Problem& pr = c.pr;
  std::vector<std::vector<int>> rows(t.size());
  for (int i = 0; i < pr.n; ++i) {
    int v = 0;
    while (t.feature[v] >= 0) {
      const double xv = pr.x[t.feature[v] * pr.n + i];
      bool left;
      if (std::isnan(xv)) {
        if (t.na_left[v] != 0 && t.na_left[v] != 1) fail(c, "a training NA has no side", which);
        left = t.na_left[v] == 1;
      } else if (!t.left_levels[v].empty()) {
        left = false;
        for (int l : t.left_levels[v]) left = left || l == static_cast<int>(xv);
      } else {
        if (t.feature[v] == 0 && pr.cat0) fail(c, "a numeric test on a categorical feature", which);
        left = xv <= t.threshold[v];
      }
      v = left ? t.left[v] : t.right[v];
    }
    rows[v].push_back(i);
  }
  return rows;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Case c = decode(data, size);
  const Problem& pr = c.pr;
  dpdt::Dataset d = dpdt::make_dataset(pr.x.data(), pr.n, pr.p, pr.y.data(), pr.w.data(), pr.k);
  if (c.n_levels0 > 0) {
    d.n_levels.assign(pr.p, 0);
    d.n_levels[0] = c.n_levels0;
  }
  d.loss_matrix = pr.loss_matrix;
  const Result one = search(c, d, 1);
  const Result two = search(c, d, 2);

  // ---- thread invariance ----
  if (one.front.size() != two.front.size()) fail(c, "front size differs with 2 threads", 0);
  for (std::size_t i = 0; i < one.front.size(); ++i) {
    const auto &a = one.front[i], &b = two.front[i];
    if (a.loss != b.loss || a.complexity != b.complexity || !same_tree(one.trees[i], two.trees[i]))
      fail(c, "point or tree differs with 2 threads", static_cast<int>(i));
  }

  // ---- the front itself, in the caller's units ----
  const bool tests = c.opt.complexity == dpdt::Complexity::tests;
  std::vector<dpdt::FrontPoint> front = one.front;
  for (auto& q : front) {
    q.loss = d.unscale_loss(q.loss);
    if (tests) q.complexity = d.unscale_weight(q.complexity);
  }
  if (front.empty() || front[0].complexity != 0.0 || front[0].action != -1 ||
      one.trees[0].size() != 1)
    fail(c, "the first point is not the single leaf", 0);
  for (std::size_t i = 1; i < front.size(); ++i) {
    if (!(front[i].complexity > front[i - 1].complexity)) fail(c, "complexity not increasing", static_cast<int>(i));
    if (!(front[i].loss < front[i - 1].loss)) fail(c, "loss not decreasing", static_cast<int>(i));
  }

  // ---- every tree, evaluated independently ----
  double total = 0;
  for (double w : pr.w) total += w;
  // Values here are O(10) and rounding ~1e-14; genuine steps can be as small
  // as 3e-8 (regression with fractional weights), so the tolerance is far
  // below that.
  const double tol = 1e-12 * (1.0 + total + 64.0);
  for (std::size_t i = 0; i < front.size(); ++i) {
    dpdt::FlatTree t = one.trees[i];
    const auto rows = leaf_rows(c, t, static_cast<int>(i));
    dpdt::fill_node_stats(t, d);
    dpdt::unscale_node_stats(t, d);
    double loss = 0, complexity = 0;
    for (int v = 0; v < t.size(); ++v) {
      if (t.depth[v] > c.opt.max_depth) fail(c, "tree deeper than max_depth", static_cast<int>(i));
      if (t.feature[v] >= 0) {
        if (!tests) complexity += 1;
        continue;
      }
      const dpdt_test::Leafset lf = dpdt_test::leaf(pr, rows[v]);
      loss += lf.loss;
      if (t.count[v] != static_cast<int>(rows[v].size()) || std::fabs(t.weight[v] - lf.weight) > tol ||
          std::fabs(t.loss[v] - lf.loss) > tol)
        fail(c, "fill_node_stats differs from the leaf's rows", static_cast<int>(i));
      if (tests) complexity += lf.weight * t.depth[v];
      if (t.size() > 1 && static_cast<int>(rows[v].size()) < c.opt.min_bucket)
        fail(c, "a leaf below min_bucket", static_cast<int>(i));
    }
    if (std::fabs(loss - front[i].loss) > tol) fail(c, "tree loss differs from its front point", static_cast<int>(i));
    if (std::fabs(complexity - front[i].complexity) > tol)
      fail(c, "tree complexity differs from its front point", static_cast<int>(i));
  }

  // ---- against the brute force ----
  const std::vector<Point> expect =
      dpdt_fuzz::brute_front(pr, c.opt.max_depth, c.opt.min_bucket, tests, tol);
  // The front is compared as it is: a step the brute force merges within
  // its tolerance (e.g. a rounding residue of a pure leaf beside a tree of
  // loss 0, which the search's loss floor now removes) is a failure.
  std::vector<Point> got;
  for (const auto& q : front) got.push_back({q.complexity, q.loss});
  got = dpdt_test::pareto(got, tol);
  if (c.opt.candidates == dpdt::Candidates::exhaustive || c.opt.max_depth == 1) {
    bool same = got.size() == expect.size() && got.size() == front.size();
    for (std::size_t i = 0; same && i < got.size(); ++i)
      same = std::fabs(got[i].first - expect[i].first) <= tol &&
             std::fabs(got[i].second - expect[i].second) <= tol;
    if (!same) {
      std::fprintf(stderr, "search front:");
      for (const auto& q : front) std::fprintf(stderr, " (%.17g, %.17g)", q.complexity, q.loss);
      std::fprintf(stderr, "\nbrute front: ");
      for (const auto& q : expect) std::fprintf(stderr, " (%.17g, %.17g)", q.first, q.second);
      std::fprintf(stderr, "\n");
      fail(c, "front differs from the brute force", static_cast<int>(expect.size()));
    }
  } else {
    for (std::size_t i = 0; i < front.size(); ++i) {
      bool dominated = false;
      for (const auto& q : expect)
        dominated = dominated || (q.first <= front[i].complexity + tol && q.second <= front[i].loss + tol);
      if (!dominated) fail(c, "a cart front point beats the brute force", static_cast<int>(i));
    }
  }

  // ---- exact_levels = 2 below a cart root (its children swept for the
  // root's need, root_need.h): as the same search without bounds ----
  if (c.opt.candidates == dpdt::Candidates::cart && c.opt.max_depth == 3) {
    Case e = c;
    e.opt.exact_levels = 2;
    const Result with = search(e, d, 1);
    e.opt.bound_two_levels = false;
    const Result without = search(e, d, 1);
    bool same = with.front.size() == without.front.size();
    for (std::size_t i = 0; same && i < with.front.size(); ++i)
      same = with.front[i].loss == without.front[i].loss &&
             with.front[i].complexity == without.front[i].complexity &&
             same_tree(with.trees[i], without.trees[i]);
    if (!same) fail(c, "exact_levels = 2: the bounds change the front or its trees", 0);
  }

  // ---- twin features (twin_features.h): the search without the features
  // whose every split is an earlier one's (those the data happen to hold,
  // and a stretched copy of the last feature, appended) finds the same
  // front and trees, their features mapped back ----
  {
    std::vector<double> x = pr.x;
    for (int i = 0; i < pr.n; ++i) x.push_back(3 * pr.x[static_cast<std::size_t>(pr.p - 1) * pr.n + i] - 1);
    auto dataset = [&] {
      dpdt::Dataset t = dpdt::make_dataset(x.data(), pr.n, pr.p + 1, pr.y.data(), pr.w.data(), pr.k);
      if (c.n_levels0 > 0) {
        t.n_levels.assign(pr.p + 1, 0);
        t.n_levels[0] = c.n_levels0;
      }
      t.loss_matrix = pr.loss_matrix;
      return t;
    };
    const dpdt::Dataset all = dataset();
    dpdt::Dataset fewer = dataset();
    const std::vector<int> kept = dpdt::drop_twin_features(fewer);
    const bool last_numeric = !(c.n_levels0 > 0 && pr.p == 1);  // a factor has no twins
    if (last_numeric && fewer.p > pr.p) fail(c, "twin features: the stretched copy was kept", fewer.p);
    const Result with = search(c, all, 1);
    Result without = search(c, fewer, 1);
    for (dpdt::FlatTree& t : without.trees)
      for (int& f : t.feature)
        if (f >= 0) f = kept[f];
    // Where every split is tried (no CART proposals anywhere) nothing may
    // change. CART keeps two of the splits tied for its best; a twin no
    // longer takes one of those places, so its proposals may only gain a
    // split: the front may only improve.
    const bool every_split = c.opt.candidates == dpdt::Candidates::exhaustive &&
                             c.n_levels0 <= dpdt::kMaxEnumLevels;
    bool same = with.front.size() == without.front.size();
    for (std::size_t i = 0; same && i < with.front.size(); ++i)
      same = with.front[i].loss == without.front[i].loss &&
             with.front[i].complexity == without.front[i].complexity &&
             same_tree(with.trees[i], without.trees[i]);
    if (!same && every_split) fail(c, "twin features: the search without them differs", 0);
    for (const dpdt::FrontPoint& q : with.front)
      if (dpdt::least_loss_within(without.front, q.complexity) > q.loss + 1e-9 * (1 + std::fabs(q.loss)))
        fail(c, "twin features: the search without them loses more", 0);
  }

  // ---- states held as rows (CART proposals on data coded without their
  // presort, row_codes.h): the same front and trees as the sorted blocks ----
  if (c.opt.candidates == dpdt::Candidates::cart && c.n_levels0 == 0 && pr.k == 2) {
    Case r = c;
    r.opt.last_level_from_rows = 0;
    r.opt.states_from_rows = 0;
    std::vector<const double*> columns(pr.p);
    for (int f = 0; f < pr.p; ++f) columns[f] = pr.x.data() + static_cast<std::size_t>(f) * pr.n;
    dpdt::Dataset coded = dpdt::make_dataset(columns, pr.n, pr.y.data(), pr.w.data(), pr.k, false);
    coded.loss_matrix = pr.loss_matrix;
    std::vector<int> bins;
    if (dpdt::rows_layout_allowed(coded, r.opt) && dpdt::code_features(coded, 0, bins)) {
      const Result rows = search(r, coded, 1);
      r.opt.states_from_rows = std::numeric_limits<int>::max();
      const Result blocks = search(r, d, 1);
      bool same = rows.front.size() == blocks.front.size();
      for (std::size_t i = 0; same && i < rows.front.size(); ++i)
        same = rows.front[i].loss == blocks.front[i].loss &&
               rows.front[i].complexity == blocks.front[i].complexity &&
               same_tree(rows.trees[i], blocks.trees[i]);
      if (!same) fail(c, "states held as rows change the front or its trees", 0);
    }
  }

  // ---- best_only: the leaf and the least loss of every tree ----
  if (c.opt.candidates == dpdt::Candidates::exhaustive) {
    Case b = c;
    b.opt.best_only = true;
    const Result best = search(b, d, 1);
    const double least = expect.back().second;
    if (best.front.empty() || best.front.size() > 2 || best.front[0].complexity != 0.0 ||
        best.trees[0].size() != 1)
      fail(c, "best_only: not the leaf and one tree", static_cast<int>(best.front.size()));
    if (std::fabs(d.unscale_loss(best.front.back().loss) - least) > tol)
      fail(c, "best_only: not the least loss of the brute force", 0);
    const dpdt::FlatTree& t = best.trees.back();
    const auto rows = leaf_rows(c, t, static_cast<int>(best.front.size()) - 1);
    double loss = 0;
    for (int v = 0; v < t.size(); ++v)
      if (t.feature[v] < 0) loss += dpdt_test::leaf(pr, rows[v]).loss;
    if (std::fabs(loss - least) > tol) fail(c, "best_only: its tree does not lose the least loss", 0);
  }
  return 0;
}
