// A tree as flat arrays (node 0 is the root, nodes in preorder), rebuilt from
// a front point's back-pointers, with training statistics per node. The one
// tree type of the engine: search results, pruning and routing all use it.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
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

// The side value xv takes at a test: 1 left, 0 right, kNaNoSide for a
// missing value where the test has learned no side for it. A test is its
// NA side, left levels (categorical) and threshold (numeric).
inline int side_of_test(signed char na_left, const std::vector<int>& left_levels,
                        double threshold, double xv) {
  if (std::isnan(xv)) return na_left;
  if (!left_levels.empty())
    return std::binary_search(left_levels.begin(), left_levels.end(), static_cast<int>(xv)) ? 1 : 0;
  return xv <= threshold ? 1 : 0;
}
// side_of_test() of internal node v.
inline int side_of(const FlatTree& t, int v, double xv) {
  return side_of_test(t.na_left[v], t.left_levels[v], t.threshold[v], xv);
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

}  // namespace dpdt
