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
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
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
    if (d.unit_weights) {
      fill<true>(d, rc, rows, m);
      return scan<true>(d, rc, m, min_bucket, total);
    }
    fill<false>(d, rc, rows, m);
    return scan<false>(d, rc, m, min_bucket, total);
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
    r.split.threshold = midpoint(rc.highest(best_f, best_bin), rc.lowest(best_f, best_next));
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
    for (int f = 0; f < d.p; ++f) {
      const std::size_t at = static_cast<std::size_t>(f) * kMaxRowCodes;
      std::fill(count_.begin() + at, count_.begin() + at + rc.ranks[f], 0);
      if (Unit) std::fill(unit_ones_.begin() + at, unit_ones_.begin() + at + rc.ranks[f], 0);
      else std::fill(weight_.begin() + at, weight_.begin() + at + rc.ranks[f], 0.0);
      if (!Unit) std::fill(ones_.begin() + at, ones_.begin() + at + rc.ranks[f], 0.0);
    }
    const int* label = d.label.data();
    const double* w = d.weight.data();
    const int p = d.p;
    for (int i = 0; i < m; ++i) {
      const int row = rows[i];
      const std::uint8_t* code = rc.row(row);
      const int y = label[row];
      if (Unit) {
        for (int f = 0; f < p; ++f) {
          const std::size_t k = static_cast<std::size_t>(f) * kMaxRowCodes + code[f];
          ++count_[k];
          unit_ones_[k] += y;
        }
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
  }

  std::vector<int> count_, unit_ones_;
  std::vector<double> weight_, ones_;
};

}  // namespace dpdt
