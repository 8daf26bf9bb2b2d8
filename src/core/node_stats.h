// Sufficient statistics of a set of rows and the losses derived from them.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "dataset.h"

namespace dpdt {

struct NodeStats {
  int count = 0;
  double weight = 0.0;
  std::vector<double> class_weight;  // classification
  double sum = 0.0;                  // regression, centred responses
  double sum_sq = 0.0;

  explicit NodeStats(int n_classes = 0) : class_weight(n_classes, 0.0) {}

  void add(const Dataset& d, int row) {
    const double w = d.weight[row];
    ++count;
    weight += w;
    if (d.regression()) {
      const double y = d.response[row];
      sum += w * y;
      sum_sq += w * y * y;
    } else {
      class_weight[d.label[row]] += w;
    }
  }
};

inline NodeStats stats_of(const Dataset& d, const Entry* block, int m) {
  NodeStats s(d.n_classes);
  for (int i = 0; i < m; ++i) s.add(d, block[i].row);
  return s;
}

// Ties go to the lowest class index, so results never depend on row order.
inline int majority_class(const double* class_weight, int k) {
  int best = 0;
  for (int c = 1; c < k; ++c)
    if (class_weight[c] > class_weight[best]) best = c;
  return best;
}

inline double misclassified(const double* class_weight, int k, double weight) {
  double top = 0.0;
  for (int c = 0; c < k; ++c) top = std::max(top, class_weight[c]);
  return std::max(0.0, weight - top);
}

inline double squared_error(double weight, double sum, double sum_sq) {
  return weight > 0 ? std::max(0.0, sum_sq - sum * sum / weight) : 0.0;
}

// Expected cost of each prediction j: sum_c cw[c] * L[c][j]; the leaf
// predicts the cheapest (the lowest index on ties).
inline int cheapest_class(const double* cw, int k, const double* L, double* cost_out = nullptr) {
  int best = 0;
  double best_cost = 0.0;
  for (int j = 0; j < k; ++j) {
    double c = 0.0;
    for (int t = 0; t < k; ++t) c += cw[t] * L[t * k + j];
    if (j == 0 || c < best_cost) {
      best = j;
      best_cost = c;
    }
  }
  if (cost_out) *cost_out = std::max(0.0, best_cost);
  return best;
}

// The loss of a leaf holding class weights cw: misclassified weight, or with
// a loss matrix the expected cost of its cheapest prediction.
inline double class_loss(const Dataset& d, const double* cw, double weight) {
  if (d.loss_matrix.empty()) return misclassified(cw, d.n_classes, weight);
  double c = 0.0;
  cheapest_class(cw, d.n_classes, d.loss_matrix.data(), &c);
  return c;
}

inline int predicted_class(const Dataset& d, const double* cw) {
  if (d.loss_matrix.empty()) return majority_class(cw, d.n_classes);
  return cheapest_class(cw, d.n_classes, d.loss_matrix.data());
}

inline double leaf_loss(const Dataset& d, const NodeStats& s) {
  if (d.regression()) return squared_error(s.weight, s.sum, s.sum_sq);
  return class_loss(d, s.class_weight.data(), s.weight);
}

inline double xlogx(double v) { return v > 0 ? v * std::log(v) : 0.0; }

}  // namespace dpdt
