// A tree as flat arrays (node 0 is the root, nodes in preorder), rebuilt from
// a front point's back-pointers, with training statistics per node. The one
// tree type of the engine: search results, pruning and routing all use it.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/fronts/node.h"
#include "core/splits/split_rule.h"

namespace dpdt {


struct FlatTree {
  std::vector<int> feature;      // -1 at a leaf
  std::vector<double> threshold; // numeric test: x[feature] <= threshold goes left
  // Categorical test: the level codes (sorted) that go left; empty for a
  // numeric test. A categorical test always sends some level left.
  std::vector<std::vector<int>> left_levels;
  std::vector<signed char> na_left;  // a missing x: 1 left, 0 right, kNaNoSide
  // 1 where the NA side was learned from training rows with a missing value
  // (rules then say so); 0 where it is a default (the heavier child).
  std::vector<signed char> na_learned;
  std::vector<int> left, right;  // -1 at a leaf
  std::vector<int> depth;
  // Training statistics, filled by fill_node_stats.
  std::vector<int> count;
  std::vector<double> weight, value, loss;
  std::vector<double> class_weight;  // nodes x n_classes, row-major

  int size() const { return static_cast<int>(feature.size()); }
  // The statistics sized for size() nodes of k classes, class weights zero.
  void resize_stats(int k) {
    const int m = size();
    count.resize(m);
    weight.resize(m);
    value.resize(m);
    loss.resize(m);
    class_weight.assign(static_cast<std::size_t>(m) * k, 0.0);
  }
  // Node v's statistics; cw holds its k class weights (none in regression).
  void set_stats(int v, int n, double w, double val, double leaf_loss, const double* cw, int k) {
    count[v] = n;
    weight[v] = w;
    value[v] = val;
    loss[v] = leaf_loss;
    for (int c = 0; c < k; ++c) class_weight[static_cast<std::size_t>(v) * k + c] = cw[c];
  }
  int add(int d) {
    feature.push_back(-1);
    threshold.push_back(NAN);
    left_levels.emplace_back();
    na_left.push_back(kNaNoSide);
    na_learned.push_back(0);
    left.push_back(-1);
    right.push_back(-1);
    depth.push_back(d);
    return size() - 1;
  }
};

namespace detail {
inline int extract(const Node* node, int point, int depth, FlatTree& t) {
  const int id = t.add(depth);
  if (node == nullptr) return id;
  const FrontPoint& fp = node->front[point];
  if (fp.action < 0) return id;
  const Action& a = node->actions[fp.action];
  t.feature[id] = a.feature;
  t.threshold[id] = a.levels.empty() ? a.threshold : NAN;
  t.left_levels[id] = a.levels;
  t.na_left[id] = a.na_left;
  t.na_learned[id] = a.na_left != kNaNoSide;
  const int l = extract(a.left.node, fp.left_point, depth + 1, t);
  t.left[id] = l;
  const int r = extract(a.right.node, fp.right_point, depth + 1, t);
  t.right[id] = r;
  return id;
}
}  // namespace detail

inline FlatTree extract_tree(const Node& root, int point) {
  FlatTree t;
  detail::extract(&root, point, 0, t);
  return t;
}

// The side value xv takes at internal node v: 1 left, 0 right, kNaNoSide
// for a missing value where the node has learned no side for it.
inline int side_of(const FlatTree& t, int v, double xv) {
  if (std::isnan(xv)) return t.na_left[v];
  const std::vector<int>& lev = t.left_levels[v];
  if (!lev.empty()) return std::binary_search(lev.begin(), lev.end(), static_cast<int>(xv)) ? 1 : 0;
  return xv <= t.threshold[v] ? 1 : 0;
}

// The leaf a row reaches, its value of feature f being value_of(f), or -1
// if a missing value on its path has no side.
template <class ValueOf>
int leaf_reached(const FlatTree& t, ValueOf&& value_of) {
  int v = 0;
  while (t.feature[v] >= 0) {
    const int side = side_of(t, v, value_of(t.feature[v]));
    if (side == kNaNoSide) return -1;
    v = side ? t.left[v] : t.right[v];
  }
  return v;
}

// leaf_reached() of a row of x (n_rows rows, column-major).
inline int route_row(const FlatTree& t, const double* x, std::size_t n_rows, int row) {
  return leaf_reached(t, [&](int f) { return x[static_cast<std::size_t>(f) * n_rows + row]; });
}

// A node whose training rows had no missing value on its feature learned
// no side for it: missing values there go to the child with the larger
// training weight (left on ties). Call after fill_node_stats.
inline void default_na_sides(FlatTree& t) {
  for (int v = 0; v < t.size(); ++v)
    if (t.feature[v] >= 0 && t.na_left[v] == kNaNoSide)
      t.na_left[v] = t.weight[t.left[v]] >= t.weight[t.right[v]] ? 1 : 0;
}

// The number of fewest significant decimal digits in [lo, hi], the one
// nearest `near` among those (lo <= near <= hi, all finite), as the double
// that decimal reads as; `near` itself if none of up to 17 digits is found.
inline double shortest_decimal(double lo, double hi, double near) {
  if (lo <= 0.0 && hi >= 0.0) return 0.0;
  const int e = static_cast<int>(std::floor(std::log10(std::fabs(near))));
  char buf[48];
  for (int digits = 1; digits <= 17; ++digits) {
    const int exp10 = e - digits + 1;  // the unit of the last digit: 10^exp10
    const double unit = std::pow(10.0, exp10);
    if (!(unit > 0.0) || !std::isfinite(unit)) continue;
    const double kmin = std::ceil(lo / unit), kmax = std::floor(hi / unit);
    if (!(kmin <= kmax) || std::fabs(kmax) > 1e17) continue;
    const double k = std::min(kmax, std::max(kmin, std::round(near / unit)));
    for (double kk : {k, k - 1.0, k + 1.0}) {  // the division above rounds
      std::snprintf(buf, sizeof buf, "%.0fe%d", kk, exp10);
      const double v = std::strtod(buf, nullptr);
      if (v >= lo && v <= hi) return v;
    }
  }
  return near;
}

// The threshold of a numeric test whose node's training rows go left up to
// value a and right from value b (a < b): a short decimal in the middle
// half of (a, b), so that printed rules show the threshold itself, exactly,
// in few digits (CART's midpoint 0.98376524... becomes 0.9838); the
// midpoint where no such decimal lies strictly between them.
inline double readable_threshold(double a, double b, double midpoint) {
  if (!(a < b) || !std::isfinite(a) || !std::isfinite(b)) return midpoint;
  const double lo = 0.75 * a + 0.25 * b, hi = 0.25 * a + 0.75 * b;
  const double t = shortest_decimal(lo, hi, 0.5 * a + 0.5 * b);
  return a <= t && t < b ? t : midpoint;
}

// The training values on either side of each numeric test of a tree: the
// largest that goes left, the smallest that goes right, seen a row's node
// at a time (fill_node_stats()).
class ThresholdGaps {
 public:
  explicit ThresholdGaps(int size) : below_(size, -INFINITY), above_(size, INFINITY) {}
  void see(const FlatTree& t, int v, double xv, int side) {
    if (!t.left_levels[v].empty() || std::isnan(xv)) return;
    if (side) below_[v] = std::max(below_[v], xv);
    else above_[v] = std::min(above_[v], xv);
  }
  // Every numeric threshold replaced by readable_threshold() of its gap:
  // each training row keeps its side.
  void apply(FlatTree& t) const {
    for (int v = 0; v < t.size(); ++v)
      if (t.feature[v] >= 0 && t.left_levels[v].empty() && std::isfinite(below_[v]) &&
          std::isfinite(above_[v]))
        t.threshold[v] = readable_threshold(below_[v], above_[v], t.threshold[v]);
  }

 private:
  std::vector<double> below_, above_;
};

// The fewest of a state's rows (`rows`: m entries) that a leaf of t
// receives, as the search splits them; -1 when a missing value on a row's
// path has no side.
inline int fewest_leaf_rows(const FlatTree& t, const Dataset& d, const Entry* rows, int m) {
  std::vector<int> count(static_cast<std::size_t>(t.size()), 0);
  for (int j = 0; j < m; ++j) {
    const int v = leaf_reached(t, [&](int f) { return d.value(f, rows[j].row); });
    if (v < 0) return -1;
    ++count[static_cast<std::size_t>(v)];
  }
  int fewest = m;
  for (int v = 0; v < t.size(); ++v)
    if (t.feature[v] < 0) fewest = std::min(fewest, count[static_cast<std::size_t>(v)]);
  return fewest;
}

// The training statistics of every node of t. With `readable`, each
// numeric threshold becomes readable_threshold() of the training values on
// either side of it in its node, found in the same pass over the rows (no
// row changes side, so the statistics hold for either threshold; a pass of
// its own was a tenth of a fit with a front of 3,402 trees on 10,888 rows).
// Call after the tree is extracted, before it is used.
inline void fill_node_stats(FlatTree& t, const Dataset& d, bool readable = false) {
  const int size = t.size();
  std::vector<NodeStats> s(size, NodeStats(d.n_classes));
  ThresholdGaps gaps(readable ? size : 0);
  // Calls visit(node) for every node on row i's path.
  auto route = [&](int i, auto&& visit) {
    for (int v = 0;;) {
      visit(v);
      if (t.feature[v] < 0) return;
      const double xv = d.value(t.feature[v], i);
      const int side = side_of(t, v, xv);
      if (side == kNaNoSide) return;  // counted down to here only
      if (readable) gaps.see(t, v, xv, side);
      v = side ? t.left[v] : t.right[v];
    }
  };
  for (int i = 0; i < d.n; ++i) route(i, [&](int v) { s[v].add(d, i); });
  if (d.regression()) {  // two passes, as stats_of (weights of many orders)
    for (auto& st : s) st.centre();
    for (int i = 0; i < d.n; ++i)
      route(i, [&](int v) { s[v].add_deviation(d.weight[i], d.response[i]); });
  }
  if (readable) gaps.apply(t);
  const int k = d.n_classes;
  t.resize_stats(k);
  for (int v = 0; v < size; ++v) {
    const double value = d.regression() ? s[v].mean() : predicted_class(d, s[v].class_weight.data());
    t.set_stats(v, s[v].count, s[v].weight, value, leaf_loss(d, s[v]), s[v].class_weight.data(), k);
  }
}

}  // namespace dpdt
