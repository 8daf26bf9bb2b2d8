// The brute-force oracle of the search, shared by the core tests
// (core_tests.cpp) and the core fuzzer (tools/fuzz/core/): every tree of
// depth <= D on a tiny problem (missing values, a categorical feature 0,
// a loss matrix), with losses computed the plain way (two-pass squared
// error, class counts, the cheapest prediction's costs), and the Pareto
// front of their (complexity, loss) points.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "problems.h"

namespace dpdt_test {

struct Leafset { double loss, weight; };

// Loss and weight of one leaf holding `rows`.
inline Leafset leaf(const Problem& pr, const std::vector<int>& rows) {
  double wsum = 0;
  for (int r : rows) wsum += pr.w[r];
  if (pr.k > 0) {
    std::vector<double> cw(pr.k, 0.0);
    for (int r : rows) cw[static_cast<int>(pr.y[r])] += pr.w[r];
    if (pr.loss_matrix.empty()) {
      double top = 0;
      for (double v : cw) top = std::max(top, v);
      return {wsum - top, wsum};
    }
    // The prediction of least cost: sum over true classes a of the weight
    // of a times the cost of predicting b.
    double least = INFINITY;
    for (int b = 0; b < pr.k; ++b) {
      double cost = 0;
      for (int a = 0; a < pr.k; ++a) cost += cw[a] * pr.loss_matrix[a * pr.k + b];
      least = std::min(least, cost);
    }
    return {least, wsum};
  }
  double s = 0;
  for (int r : rows) s += pr.w[r] * pr.y[r];
  double sse = 0;
  for (int r : rows) sse += pr.w[r] * std::pow(pr.y[r] - s / wsum, 2);
  return {rows.empty() ? 0.0 : sse, wsum};
}

using Point = std::pair<double, double>;  // (complexity, loss)

// Every test of `rows` respecting min_bucket (issue 8's rules): a threshold
// between distinct non-missing values, or, on a categorical feature 0, any
// proper group of the levels present (the last level stays right); with
// missing values in the node, either side for them.
struct Split {
  int feature;
  std::vector<int> left, right;
};

// In order of feature, then of threshold (the first best feature is the
// search's tie rule).
inline std::vector<Split> splits(const Problem& pr, const std::vector<int>& rows, int min_bucket) {
  std::vector<Split> out;
  for (int f = 0; f < pr.p; ++f) {
    auto val = [&](int r) { return pr.x[f * pr.n + r]; };
    bool any_missing = false;
    std::set<double> values;
    for (int r : rows) {
      if (std::isnan(val(r))) any_missing = true;
      else values.insert(val(r));
    }
    if (values.size() < 2) continue;
    std::vector<double> v(values.begin(), values.end());
    std::vector<std::vector<char>> tests;  // goes-left per value of v
    if (f == 0 && pr.cat0) {
      for (unsigned g = 1; g < (1u << (v.size() - 1)); ++g) {
        std::vector<char> t(v.size(), 0);
        for (std::size_t i = 0; i + 1 < v.size(); ++i) t[i] = (g >> i) & 1u;
        tests.push_back(t);
      }
    } else {
      for (std::size_t c = 1; c < v.size(); ++c) {
        std::vector<char> t(v.size(), 0);
        for (std::size_t i = 0; i < c; ++i) t[i] = 1;
        tests.push_back(t);
      }
    }
    for (const auto& t : tests) {
      for (int na = 0; na < (any_missing ? 2 : 1); ++na) {
        std::vector<int> l, rr;
        for (int r : rows) {
          bool left;
          if (std::isnan(val(r))) left = na == 1;
          else left = t[std::lower_bound(v.begin(), v.end(), val(r)) - v.begin()];
          (left ? l : rr).push_back(r);
        }
        if (static_cast<int>(l.size()) >= min_bucket && static_cast<int>(rr.size()) >= min_bucket)
          out.push_back({f, l, rr});
      }
    }
  }
  return out;
}

// Complexities within tol are one complexity (fractional weights summed in
// another order); each keeps its least loss. tol = 0: the exact front.
inline std::vector<Point> pareto(std::vector<Point> pts, double tol) {
  std::sort(pts.begin(), pts.end());
  std::vector<Point> out;
  for (std::size_t i = 0; i < pts.size();) {
    Point best = pts[i];
    std::size_t j = i;
    for (; j < pts.size() && pts[j].first <= pts[i].first + tol; ++j)
      best.second = std::min(best.second, pts[j].second);
    if (out.empty() || best.second < out.back().second - tol) out.push_back(best);
    i = j;
  }
  return out;
}

// Deeper brute forces (depth 3 on 12 rows) enumerate too many trees to list:
// there the points of each subtree are first reduced to their exact Pareto
// front (no tolerance: a dominated subtree only makes dominated trees, as
// complexity and loss add up), memoised by (row set, depth left).
struct BruteMemo {
  std::map<std::pair<std::uint64_t, int>, std::vector<Point>> fronts;
};

// All (complexity, loss) of trees of depth <= depth on rows. With a memo,
// only each subtree's exact Pareto front.
inline std::vector<Point> all_trees(const Problem& pr, const std::vector<int>& rows, int depth,
                                    int min_bucket, bool tests, BruteMemo* memo = nullptr) {
  std::uint64_t mask = 0;
  if (memo) {
    for (int r : rows) mask |= std::uint64_t{1} << r;
    auto it = memo->fronts.find({mask, depth});
    if (it != memo->fronts.end()) return it->second;
  }
  const Leafset lf = leaf(pr, rows);
  std::vector<Point> out{{0.0, lf.loss}};
  if (depth == 0) return out;
  for (auto& s : splits(pr, rows, min_bucket)) {
    auto a = all_trees(pr, s.left, depth - 1, min_bucket, tests, memo);
    auto b = all_trees(pr, s.right, depth - 1, min_bucket, tests, memo);
    for (auto& pa : a)
      for (auto& pb : b)
        out.push_back({pa.first + pb.first + (tests ? lf.weight : 1.0), pa.second + pb.second});
    if (memo) out = pareto(out, 0.0);
  }
  if (memo) memo->fronts[{mask, depth}] = out;
  return out;
}

// The least loss of `rows` as a leaf or one split (min_bucket 1), and the
// first feature of a split with it (-1: the leaf).
inline double best_split(const Problem& pr, const std::vector<int>& rows, int& feature,
                         int min_bucket = 1) {
  double best = leaf(pr, rows).loss;
  feature = -1;
  for (const Split& s : splits(pr, rows, min_bucket)) {
    const double loss = leaf(pr, s.left).loss + leaf(pr, s.right).loss;
    if (loss < best) best = loss, feature = s.feature;
  }
  return best;
}

}  // namespace dpdt_test
