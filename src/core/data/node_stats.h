// Sufficient statistics of a set of rows and the losses derived from them.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/data/dataset.h"

namespace dpdt {

// Sum of squared errors from sums of weighted deviations from a shift K,
// s = sum w (y - K) and ss = sum w (y - K)^2. Its rounding error is about
// eps * (1 + W (mean - K)^2 / SSE) relative: small when K is close to the
// mean. With K one of the rows' own values, W (mean - K)^2 <= SSE * W / w_K,
// so unit weights lose at most log2(m) bits, however far the response's
// clusters are apart (the one-pass sum_sq - sum^2 / W, K = 0, loses them all).
inline double squared_error(double weight, double s, double ss) {
  return weight > 0 ? std::max(0.0, ss - s * s / weight) : 0.0;
}

// A node's weight per class, held in the statistics themselves up to
// kInline classes: statistics are made for every state and side the search
// meets (exhaustive depth 3 on bank: 34,500 of 157,000 allocations were
// their class weights on the heap).
class ClassWeights {
 public:
  explicit ClassWeights(int k = 0) : size_(static_cast<std::size_t>(k)) {
    if (size_ > kInline) heap_.assign(size_, 0.0);
    else std::fill(inline_, inline_ + size_, 0.0);
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  double* data() { return size_ > kInline ? heap_.data() : inline_; }
  const double* data() const { return size_ > kInline ? heap_.data() : inline_; }
  double& operator[](std::size_t c) { return data()[c]; }
  double operator[](std::size_t c) const { return data()[c]; }
  double* begin() { return data(); }
  double* end() { return data() + size_; }
  const double* begin() const { return data(); }
  const double* end() const { return data() + size_; }

 private:
  static constexpr std::size_t kInline = 8;
  std::size_t size_;
  double inline_[kInline];
  std::vector<double> heap_;  // more than kInline classes
};

struct NodeStats {
  int count = 0;
  double weight = 0.0;
  ClassWeights class_weight;  // classification
  // Regression: shift, dev, dev_sq: sums of w (y - shift) and
  // w (y - shift)^2 (see squared_error), the shift first the first row's
  // response, then (centre()) the mean; lo, hi: the least and greatest
  // response (a node is pure when they are equal). Nothing here sums w y
  // itself: that sum loses the detail of a response far from 0 (an offset
  // of 1e15 with unit spread), where differences between rows keep it.
  double shift = 0.0, dev = 0.0, dev_sq = 0.0;
  double lo = 0.0, hi = 0.0;

  explicit NodeStats(int n_classes = 0) : class_weight(n_classes) {}

  // Rows added one at a time: the shift is the first row's response.
  void add(const Dataset& d, int row) {
    const double w = d.weight[row];
    ++count;
    weight += w;
    if (d.regression()) {
      const double y = d.response[row];
      if (count == 1) shift = lo = hi = y;
      const double e = y - shift;
      dev += w * e;
      dev_sq += w * e * e;
      lo = std::min(lo, y);
      hi = std::max(hi, y);
    } else {
      class_weight[d.label[row]] += w;
    }
  }

  // Regression: the squared error about the mean; exactly 0 when every row
  // has one response (no rounding residue, whatever its magnitude).
  double sse() const { return lo == hi ? 0.0 : squared_error(weight, dev, dev_sq); }
  // The weighted mean of the responses: the shift corrected by the mean
  // deviation from it (exactly the response of a pure node).
  double mean() const {
    if (!(weight > 0)) return 0.0;
    return lo == hi ? lo : shift + dev / weight;
  }

  // The second pass of the two-pass sum: deviations again, from the mean
  // of the first pass (add_deviation for every row after centre()).
  void centre() {
    shift = mean();
    dev = dev_sq = 0.0;
  }
  void add_deviation(double w, double y) {
    const double e = y - shift;
    dev += w * e;
    dev_sq += w * e * e;
  }

  // One class, or one response value: no split can lower the loss.
  bool pure() const {
    if (class_weight.empty()) return count == 0 || lo == hi;
    int present = 0;
    for (double v : class_weight) present += v > 0;
    return present <= 1;
  }
};

// The weighted mean of y over `rows` (indices), as NodeStats::mean(): from
// the deviations from the first row's value, so exact when the rows share
// one value and free of the detail a sum of w y loses far from 0.
template <class Rows>
double weighted_mean(const double* y, const double* w, const Rows& rows) {
  double sw = 0.0, dev = 0.0, first = 0.0;
  bool pure = true, any = false;
  for (int i : rows) {
    if (!any) first = y[i];
    any = true;
    pure = pure && y[i] == first;
    sw += w[i];
    dev += w[i] * (y[i] - first);
  }
  if (!(sw > 0)) return 0.0;
  return pure ? first : first + dev / sw;
}

// The statistics of m rows of two classes with unit weights, `ones` of
// class 1: what NodeStats::add sums for them, exactly.
inline NodeStats two_class_counts(int m, int ones) {
  NodeStats s(2);
  s.count = m;
  s.weight = m;
  s.class_weight[0] = m - ones;
  s.class_weight[1] = ones;
  return s;
}

// The statistics of the rows of `total` outside `part` (classification,
// unit weights): whole counts, so the differences are the sums stats_of()
// makes of those rows, exactly.
inline NodeStats unit_counts_less(const NodeStats& total, const NodeStats& part) {
  NodeStats s(static_cast<int>(total.class_weight.size()));
  s.count = total.count - part.count;
  s.weight = total.weight - part.weight;
  for (std::size_t c = 0; c < s.class_weight.size(); ++c)
    s.class_weight[c] = total.class_weight[c] - part.class_weight[c];
  return s;
}

// Both sides' statistics of a split of a state's m rows, left_count of
// them going left (classification, unit weights): count_side(left) counts
// one side's rows, and only the smaller side is counted; the other's are
// the state's less those, exactly.
template <class CountSide>
std::pair<NodeStats, NodeStats> sides_from_smaller(const NodeStats& total, int m, int left_count,
                                                   CountSide&& count_side) {
  if (2 * left_count <= m) {
    NodeStats left = count_side(true);
    return {left, unit_counts_less(total, left)};
  }
  NodeStats right = count_side(false);
  return {unit_counts_less(total, right), right};
}

// Classification with unit weights: class counts, the exact sums
// NodeStats::add makes in any order. Two classes: the count of class 1 in a
// register; more: four interleaved tables of counts, so that rows of one
// class in a row do not wait on each other's increments.
template <class RowAt>
NodeStats class_counts(const Dataset& d, int m, RowAt row_at) {
  const int k = d.n_classes;
  if (k == 2) {
    const std::uint8_t* byte = d.label_byte.data();
    int ones = 0;
    for (int i = 0; i < m; ++i) ones += byte[row_at(i)];
    return two_class_counts(m, ones);
  }
  NodeStats s(k);
  const int* label = d.label.data();
  std::vector<int> counts(4 * static_cast<std::size_t>(k), 0);
  int i = 0;
  for (; i + 4 <= m; i += 4)
    for (int j = 0; j < 4; ++j) ++counts[j * k + label[row_at(i + j)]];
  for (; i < m; ++i) ++counts[label[row_at(i)]];
  for (int c = 0; c < k; ++c)
    s.class_weight[c] = counts[c] + counts[k + c] + counts[2 * k + c] + counts[3 * k + c];
  s.count = m;
  s.weight = m;
  return s;
}

// A block's statistics; for regression by two passes, the second about the
// mean the first found (the corrected two-pass algorithm: its error is a few
// eps relative to the SSE itself, whatever the weights and the mean).
// Classification: the class weights of the rows row_at(0 .. m - 1).
template <class RowAt>
NodeStats class_stats(const Dataset& d, int m, RowAt row_at) {
  if (d.unit_weights) return class_counts(d, m, row_at);
  NodeStats s(d.n_classes);  // NodeStats::add's sums, with the class weights in a local
  const double* w = d.weight.data();
  const int* label = d.label.data();
  double* cw = s.class_weight.data();
  double weight = 0.0;
  for (int i = 0; i < m; ++i) {
    const int row = row_at(i);
    weight += w[row];
    cw[label[row]] += w[row];
  }
  s.count = m;
  s.weight = weight;
  return s;
}

// Weighted sums of rows' deviations e from a shift: the weight, the sum of
// w e and of w e^2, summed in the order the rows are added. With unit
// weights the weights are not read (half a regression scan's random
// reads): w + 1, 1 * e and 1 * e * e are the same numbers.
struct DeviationSums {
  double w = 0.0, s = 0.0, ss = 0.0;
  template <bool Unit>
  void add(const double* weight, int row, double e) {
    const double wi = Unit ? 1.0 : weight[row];
    w += wi;
    s += Unit ? e : wi * e;
    ss += Unit ? e * e : wi * e * e;
  }
};

// Regression: NodeStats::add() for every row, then add_deviation(), without
// the loop's branches: the same sums, bit for bit.
template <bool Unit>
NodeStats response_stats(const Dataset& d, const Entry* block, int m) {
  NodeStats s(d.n_classes);
  if (m == 0) return s;
  const double* y = d.response.data();
  const double* wt = d.weight.data();
  const double shift = y[block[0].row];
  DeviationSums first;
  double lo = shift, hi = shift;
  for (int i = 0; i < m; ++i) {
    const int row = block[i].row;
    first.add<Unit>(wt, row, y[row] - shift);
    lo = std::min(lo, y[row]);
    hi = std::max(hi, y[row]);
  }
  s.count = m;
  s.weight = first.w;
  s.shift = shift;
  s.dev = first.s;
  s.dev_sq = first.ss;
  s.lo = lo;
  s.hi = hi;
  if (s.weight > 0) {
    s.centre();
    DeviationSums second;
    for (int i = 0; i < m; ++i) second.add<Unit>(wt, block[i].row, y[block[i].row] - s.shift);
    s.dev = second.s;
    s.dev_sq = second.ss;
  }
  return s;
}

inline NodeStats stats_of(const Dataset& d, const Entry* block, int m) {
  if (!d.regression()) return class_stats(d, m, [block](int i) { return block[i].row; });
  return d.unit_weights ? response_stats<true>(d, block, m) : response_stats<false>(d, block, m);
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
  if (d.regression()) return s.sse();
  return class_loss(d, s.class_weight.data(), s.weight);
}

inline double xlogx(double v) { return v > 0 ? v * std::log(v) : 0.0; }

}  // namespace dpdt
