// The last level's best split from a state's rows alone (two classes, every
// sum of weights exact, RowCodes present): one pass over the rows fills each
// feature's histogram of codes (rows, and class-1 rows or weights), then
// each feature's bins are scanned in order. It finds the split the sorted
// scans of split_scan.h find on the state's blocks: the same scores (exact
// sums in any order), offered in the same order (the first feature, then
// the lowest cut), ties to the first. Its threshold is the midpoint of the
// largest value of the left side's last code and the smallest of the right
// side's first, over all rows: the sorted scans' own where a code is one
// value (RowCodes without bins), else a threshold between the same two
// sides' values, which routes every row of the state as theirs does.
// best_by() scores the same histograms by an impurity (a CART node of a
// state given by its rows: candidates.h).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/data/row_codes.h"
#include "core/splits/split_scan.h"

namespace dpdt {

class HistogramScan {
 public:
  struct Result {
    Split split;            // not found(): no admissible split
    NodeStats left, right;  // its sides' statistics
  };

  // Misclassified weight of the best split of `rows` (m of them, class
  // statistics `total`) with at least min_bucket rows on each side.
  Result best(const Dataset& d, const RowCodes& rc, const int* rows, int m, int min_bucket,
              const NodeStats& total) {
    fill(d, rc, rows, m);
    return best_filled(d, rc, m, min_bucket, total);
  }
  // best() of the m rows fill() counted last.
  Result best_filled(const Dataset& d, const RowCodes& rc, int m, int min_bucket,
                     const NodeStats& total) const {
    return d.unit_weights ? scan<true>(d, rc, m, min_bucket, total)
                          : scan<false>(d, rc, m, min_bucket, total);
  }

  // The histograms of `rows` (m of them), for best_by() and the counts.
  void fill(const Dataset& d, const RowCodes& rc, const int* rows, int m) {
    if (d.unit_weights) fill<true>(d, rc, rows, m);
    else fill<false>(d, rc, rows, m);
  }

  // After fill(): the lowest-scoring split by side(l0, l1) + side(r0, r1),
  // the class weights of its two sides, with min_bucket rows on each, and
  // (given `ties`) the splits tied with it. The same scores, offered in
  // the same order, as best_split_two_classes() (or, with unit weights and
  // EntropySide, best_split_two_classes_unit() with EntropyUnit: the same
  // arithmetic) on the state's sorted blocks: the same splits and ties.
  // Thresholds as code_threshold().
  template <class Side>
  Split best_by(const Dataset& d, const RowCodes& rc, int m, int min_bucket,
                const NodeStats& total, Side side, std::vector<Split>* ties) const {
    SplitTracker best(ties);
    const double t0 = total.class_weight[0], t1 = total.class_weight[1];
    for (int f = 0; f < d.p; ++f) {
      const std::size_t at = static_cast<std::size_t>(f) * kMaxRowCodes;
      int left = 0;
      double l0 = 0.0, l1 = 0.0;
      for (int b = 0; b < rc.ranks[f]; ++b) {
        const int c = count_[at + b];
        if (c == 0) continue;
        if (left > 0 && left >= min_bucket && m - left >= min_bucket)
          best.offer(f, left, side(l0, l1) + side(t0 - l0, t1 - l1));
        const double ones = d.unit_weights ? unit_ones_[at + b] : ones_[at + b];
        left += c;
        l1 += ones;
        l0 += (d.unit_weights ? c : weight_[at + b]) - ones;
      }
    }
    return best.finish([&](Split& s) { s.threshold = code_threshold(rc, s.feature, s.left_count); });
  }

  // After fill(): the rows of each code of feature f.
  const int* counts(int f) const { return count_.data() + static_cast<std::size_t>(f) * kMaxRowCodes; }

  // The codes on either side of the cut of feature f after its `left`
  // lowest rows (0 < left < m) among `counts` (a state's, as counts()):
  // the last code present on the left and the first on the right.
  static std::pair<int, int> codes_around(const int* counts, int left) {
    int below = 0, seen = 0;
    while (seen < left) seen += counts[below++];
    int above = below;
    while (counts[above] == 0) ++above;
    return {below - 1, above};
  }

  // A threshold between the largest value of code `below` and the smallest
  // of `above` over all rows: it routes every row of a state whose codes
  // up to `below` go left and from `above` go right, as the cut does.
  static double threshold_between(const RowCodes& rc, int f, int below, int above) {
    return midpoint(rc.highest(f, below), rc.lowest(f, above));
  }
  double code_threshold(const RowCodes& rc, int f, int left) const {
    const std::pair<int, int> c = codes_around(counts(f), left);
    return threshold_between(rc, f, c.first, c.second);
  }

 private:
  // Each feature's codes in order; a boundary before every code present
  // but the first. With unit weights the counts are the weights.
  template <bool Unit>
  Result scan(const Dataset& d, const RowCodes& rc, int m, int min_bucket, const NodeStats& total) const {
    const double t0 = total.class_weight[0], t1 = total.class_weight[1];
    bool found = false;
    double best_score = std::numeric_limits<double>::infinity();
    int best_f = -1, best_bin = -1, best_next = -1, best_left = 0;
    double best_l0 = 0.0, best_l1 = 0.0;
    for (int f = 0; f < d.p; ++f) {
      const std::size_t at = static_cast<std::size_t>(f) * kMaxRowCodes;
      int left = 0, below = -1;  // rows in the codes below b; the last of them
      double l0 = 0.0, l1 = 0.0;
      for (int b = 0; b < rc.ranks[f]; ++b) {
        const int c = count_[at + b];
        if (c == 0) continue;
        // A boundary between the codes below b and code b.
        if (left >= min_bucket && m - left >= min_bucket) {
          const double score = std::min(l0, l1) + std::min(t0 - l0, t1 - l1);
          if (!found || score < best_score - 1e-12 * std::fabs(best_score)) {
            found = true;
            best_score = score;
            best_f = f;
            best_left = left;
            best_bin = below;
            best_next = b;
            best_l0 = l0;
            best_l1 = l1;
          }
        }
        const double ones = Unit ? unit_ones_[at + b] : ones_[at + b];
        left += c;
        l1 += ones;
        l0 += (Unit ? c : weight_[at + b]) - ones;
        below = b;
      }
    }
    Result r{Split{}, NodeStats(2), NodeStats(2)};
    if (!found) return r;
    r.split.feature = best_f;
    r.split.left_count = r.split.cut = best_left;
    r.split.score = best_score;
    r.split.threshold = threshold_between(rc, best_f, best_bin, best_next);
    r.left.count = best_left;
    r.left.weight = best_l0 + best_l1;
    r.left.class_weight[0] = best_l0;
    r.left.class_weight[1] = best_l1;
    r.right.count = m - best_left;
    r.right.weight = total.weight - r.left.weight;
    r.right.class_weight[0] = t0 - best_l0;
    r.right.class_weight[1] = t1 - best_l1;
    return r;
  }

  // Each feature's histogram of the rows' codes (only its codes cleared):
  // rows, and weight and class-1 weight (with unit weights, the class-1
  // count only).
  template <bool Unit>
  void fill(const Dataset& d, const RowCodes& rc, const int* rows, int m) {
    const std::size_t size = static_cast<std::size_t>(d.p) * kMaxRowCodes;
    if (count_.size() < size) {
      count_.assign(size, 0);
      weight_.assign(size, 0.0);
      ones_.assign(size, 0.0);
      unit_ones_.assign(size, 0);
    }
    if (Unit && packed_.size() < size) packed_.assign(size, 0);
    for (int f = 0; f < d.p; ++f) {
      const std::size_t at = static_cast<std::size_t>(f) * kMaxRowCodes;
      if (Unit) {
        std::fill(packed_.begin() + at, packed_.begin() + at + rc.ranks[f], 0);
        continue;
      }
      std::fill(count_.begin() + at, count_.begin() + at + rc.ranks[f], 0);
      std::fill(weight_.begin() + at, weight_.begin() + at + rc.ranks[f], 0.0);
      std::fill(ones_.begin() + at, ones_.begin() + at + rc.ranks[f], 0.0);
    }
    const int* label = d.label.data();
    const double* w = d.weight.data();
    const int p = d.p;
    for (int i = 0; i < m; ++i) {
      const int row = rows[i];
      const std::uint8_t* code = rc.row(row);
      const int y = label[row];
      if (Unit) {
        // One add per row and feature: the count in the low 32 bits, the
        // class-1 count in the high ones (m < 2^31), unpacked below.
        const std::uint64_t add = 1 + (static_cast<std::uint64_t>(y) << 32);
        for (int f = 0; f < p; ++f) packed_[static_cast<std::size_t>(f) * kMaxRowCodes + code[f]] += add;
      } else {
        const double wr = w[row], w1 = y * wr;
        for (int f = 0; f < p; ++f) {
          const std::size_t k = static_cast<std::size_t>(f) * kMaxRowCodes + code[f];
          ++count_[k];
          weight_[k] += wr;
          ones_[k] += w1;
        }
      }
    }
    if (Unit)
      for (int f = 0; f < d.p; ++f) {
        const std::size_t at = static_cast<std::size_t>(f) * kMaxRowCodes;
        for (int b = 0; b < rc.ranks[f]; ++b) {
          count_[at + b] = static_cast<int>(packed_[at + b] & 0xFFFFFFFFu);
          unit_ones_[at + b] = static_cast<int>(packed_[at + b] >> 32);
        }
      }
  }

  std::vector<int> count_, unit_ones_;
  std::vector<std::uint64_t> packed_;  // unit weights: count + (class-1 count << 32)
  std::vector<double> weight_, ones_;
};

}  // namespace dpdt
