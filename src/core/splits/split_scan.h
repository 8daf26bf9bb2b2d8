// One sorted pass per feature over a state's rows finds the best split for a
// score; the scores differ only in how they weigh the two sides.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/splits/split_rule.h"
#include "core/splits/wide_lanes.h"

#if DPDT_WIDE_LANES
#include <immintrin.h>
#endif

namespace dpdt {

// A scored test. The fast scans below find numeric tests on features
// without missing values in the state (the first left_count rows of the
// feature's block go left); split_groups.h scores the others (level groups,
// missing-value sides) and fills levels / na_left / threshold itself.
struct Split : SplitRule {
  double score = std::numeric_limits<double>::infinity();
  bool found() const { return feature >= 0; }
  bool placed() const { return !levels.empty() || na_left != kNaNoSide; }
};

// Ties between values never separate: the threshold lies strictly below b.
inline double midpoint(double a, double b) {
  const double t = 0.5 * a + 0.5 * b;
  return t < b ? t : a;
}

// The lowest-scoring split offered so far; optionally also every split tied
// with it (scores within a relative 1e-12: equal counts summed in another
// order). Ties go to the first split offered: the first feature, then the
// lowest threshold, so the answer depends only on the set of rows.
class SplitTracker {
 public:
  explicit SplitTracker(std::vector<Split>* ties = nullptr) : ties_(ties) {
    if (ties_) ties_->clear();
  }
  // Called at every boundary of the hot scans: plain numbers only here, so
  // the scans keep their sums in registers.
  [[gnu::always_inline]] inline void offer(int feature, int left_count, double score) {
    if (score > bar_) return;
    if (!found_ || score < best_score_ - 1e-12 * std::fabs(best_score_)) {
      found_ = true;
      fast_ = true;
      best_score_ = score;
      best_feature_ = feature;
      best_left_ = left_count;
      if (ties_) restart_ties(feature, left_count, score);
    } else if (ties_) {
      add_tie(feature, left_count, score);
    }
    const double e = 1e-12 * std::fabs(best_score_);
    bar_ = ties_ ? best_score_ + e : best_score_ - e;
  }
  // A whole test (level group, missing-value side), threshold included.
  bool wants(double score) const { return score <= bar_; }
  // The least score offered (+inf: none), and how far above it a score is
  // still offered (with ties kept; bar() is the least plus that, rounded).
  double least() const { return found_ ? best_score_ : std::numeric_limits<double>::infinity(); }
  double tie_margin() const { return ties_ ? 2e-12 * std::fabs(best_score_) : 0.0; }

  // Tests whose rules are costly to build (level groups of many levels):
  // their scores are offered to a Deferred copy of the tracker's state in
  // order, and only the tests it still holds at the end are built and
  // offered here, in the same order. That leaves this tracker as offering
  // every test would: a test a later one beats would have been dropped.
  class Deferred {
   public:
    explicit Deferred(const SplitTracker& t)
        : ties_(t.ties_ != nullptr), found_(t.found_), best_(t.best_score_), bar_(t.bar_) {}
    void offer(int id, double score) {
      if (score > bar_) return;
      if (!found_ || score < best_ - 1e-12 * std::fabs(best_)) {
        found_ = true;
        best_ = score;
        kept_.assign(1, id);
      } else if (ties_) {
        kept_.push_back(id);
      }
      const double e = 1e-12 * std::fabs(best_);
      bar_ = ties_ ? best_ + e : best_ - e;
    }
    // The ids to build and offer, in the order they were offered.
    const std::vector<int>& kept() const { return kept_; }
    // Scores above it are ignored (so need not be offered).
    double bar() const { return bar_; }

   private:
    bool ties_, found_;
    double best_, bar_;
    std::vector<int> kept_;
  };
  // Scores above it are ignored: scans may skip offering them.
  double bar() const { return bar_; }
  void offer_rule(const SplitRule& rule, double score) {
    if (score > bar_) return;
    Split s;
    static_cast<SplitRule&>(s) = rule;
    s.score = score;
    if (!found_ || score < best_score_ - 1e-12 * std::fabs(best_score_)) {
      found_ = true;
      fast_ = false;
      best_score_ = score;
      rule_ = s;
      if (ties_) restart_ties(s);
    } else if (ties_) {
      ties_->push_back(s);
    }
    update_bar();
  }
  // Thresholds are midpoints between the two rows on either side of the cut.
  Split finish(const Dataset& d, const Entry* block, int m) {
    return finish([&](Split& s) {
      if (s.placed()) return;
      const Entry* rows = block + static_cast<std::size_t>(s.feature) * m;
      s.threshold = midpoint(d.value(s.feature, rows[s.left_count - 1].row),
                             d.value(s.feature, rows[s.left_count].row));
    });
  }
  // The best split and its ties, each given its threshold by place(split).
  template <class Place>
  Split finish(Place&& place) {
    Split best;
    if (found_) best = fast_ ? fast_split(best_feature_, best_left_, best_score_) : rule_;
    if (best.found()) place(best);
    if (ties_)
      for (Split& s : *ties_) place(s);
    return best;
  }

 private:
  static Split fast_split(int feature, int left_count, double score) {
    Split s;
    s.feature = feature;
    s.left_count = s.cut = left_count;
    s.score = score;
    return s;
  }
  void restart_ties(const Split& s) { ties_->assign(1, s); }
  [[gnu::noinline]] void restart_ties(int feature, int left_count, double score) {
    ties_->assign(1, fast_split(feature, left_count, score));
  }
  [[gnu::noinline]] void add_tie(int feature, int left_count, double score) {
    ties_->push_back(fast_split(feature, left_count, score));
  }
  void update_bar() {
    const double e = 1e-12 * std::fabs(best_score_);
    bar_ = ties_ ? best_score_ + e : best_score_ - e;
  }
  std::vector<Split>* ties_;
  bool found_ = false, fast_ = true;
  double best_score_ = std::numeric_limits<double>::infinity();
  int best_feature_ = -1, best_left_ = 0;
  Split rule_;
  double bar_ = std::numeric_limits<double>::infinity();
};

// A whole score that moves by at most 1 per row stays above `bar` for this
// many rows (at least 1, at most `room`): those boundaries cannot be
// offered, and a lower bar later only rules out more.
inline int rows_above_bar(double score, double bar, int room) {
  const double gap = score - std::floor(bar);
  return gap < 1.0 ? 1 : gap > room ? room : static_cast<int>(gap);
}

// The largest whole number at most `bar` (INT_MAX for larger bars: no
// score exceeds it).
inline int whole_bar(double bar) {
  return bar >= static_cast<double>(std::numeric_limits<int>::max())
             ? std::numeric_limits<int>::max()
             : static_cast<int>(std::floor(bar));
}

// Misclassified weight of both sides: the exact loss of a depth-one tree.
// With a loss matrix, each side's cost of its cheapest prediction, summed at
// each boundary (cheapest_class(), as a leaf's loss is; with exact sums the
// last level keeps the costs as rows move instead:
// best_split_running_costs_for()).
class MisclassificationScore {
 public:
  // loss_matrix: k x k row-major, or nullptr for the 0/1 loss.
  explicit MisclassificationScore(int k, const double* loss_matrix = nullptr)
      : k_(k), loss_(loss_matrix), left_(k), right_(k) {}
  void reset(const NodeStats& total) {
    std::fill(left_.begin(), left_.end(), 0.0);
    right_.assign(total.class_weight.begin(), total.class_weight.end());
    weight_ = total.weight;
    left_weight_ = 0.0;
    left_top_ = 0.0;
  }
  void move(const Dataset& d, int row) {
    const int c = d.label[row];
    const double w = d.weight[row];
    left_[c] += w;
    right_[c] -= w;
    left_weight_ += w;
    if (left_[c] > left_top_) left_top_ = left_[c];
  }
  double score() const {
    if (loss_) {
      double l = 0.0, r = 0.0;
      cheapest_class(left_.data(), k_, loss_, &l);
      cheapest_class(right_.data(), k_, loss_, &r);
      return l + r;
    }
    return (left_weight_ - left_top_) +
           misclassified(right_.data(), k_, weight_ - left_weight_);
  }

 private:
  int k_;
  const double* loss_;
  std::vector<double> left_, right_;
  double weight_ = 0.0, left_weight_ = 0.0, left_top_ = 0.0;
};

// The exact last-level loss (0/1 loss, misclassified weight) with three or
// more classes, when every sum of weights is exact (Dataset::exact_weights):
// each side's largest class weight is kept by a running maximum, the right
// side's in a backward pass whose results wait in a buffer, so a boundary
// costs O(1), not O(k). Exact sums make the scores those of
// MisclassificationScore bit for bit (the right side's class weights, summed
// from the end, equal the total's minus the left side's).
class ManyClassMisclassification {
 public:
  // The most rows whose class counts 16-bit lanes hold (in_lanes()).
  static constexpr int kMaxShortCount = 32767;
  // `allow_wide`: the lanes may use AVX2 where the CPU has it (the tests
  // compare both ways).
  explicit ManyClassMisclassification(bool allow_wide = true)
      : wide_(allow_wide && cpu_has_avx2()) {}
  Split best(const Dataset& d, const Entry* block, int m, int min_bucket,
             const NodeStats& total, int only = -1) {
    // Unit weights: the same whole numbers, counted in integers; with at
    // most 16 classes in lanes, one pass.
    if (d.unit_weights && d.n_classes <= 4) return in_lanes<4, int>(d, block, m, min_bucket, total, only);
    // With 5 to 8 classes and up to 32,767 rows the lanes hold 16-bit
    // counts, all 8 in one 128-bit register where 32-bit ones take two
    // (exhaustive depth 3, CPU: page 0.69, segment 0.73 times the 32-bit
    // lanes'). Not with 4 classes (32-bit lanes fill one register: room
    // 1.48 -> 1.86 s with 16-bit ones), nor with 9 to 16 (avila, 12
    // classes: 1.03 times).
    if (d.unit_weights && d.n_classes <= 8) {
      if (m <= kMaxShortCount) return in_lanes<8, std::int16_t>(d, block, m, min_bucket, total, only);
      return in_lanes<8, int>(d, block, m, min_bucket, total, only);
    }
    if (d.unit_weights && d.n_classes <= 16) return in_lanes<16, int>(d, block, m, min_bucket, total, only);
    if (d.unit_weights)
      return best_impl<true>(d, block, m, min_bucket, total, only, unit_counts_, unit_right_top_);
    return best_impl<false>(d, block, m, min_bucket, total, only, counts_, right_top_);
  }

 private:
  // Unit weights, at most L classes: the left side's class counts in L
  // lanes that each row adds 1 to (its class's) or 0, with no chain of
  // loads and stores through one class's count (rows of one class in a
  // row waited on each other: room, 4 classes, spent 63 % of exhaustive
  // depth 3 in best_impl()); both sides' largest counts are taken only at
  // the boundaries scored, the right side's as the totals less the left
  // side's, so no backward pass. The same whole-number scores as
  // best_impl<true>(), offered in the same order with the same skips.
  // Built for the baseline CPU, as R builds the package, and once more for
  // AVX2 (run where the CPU has it): sixteen 32-bit lanes take two
  // registers instead of four, and the largest count is one instruction
  // (SSE2 has no 32-bit max). Exhaustive depth 3, paired CPU: avila (12
  // classes) 23.4 -> 11.0 s; with 4 to 8 classes (one register already)
  // 0.91 to 0.96 times.
  template <int L, class Count>
  Split in_lanes(const Dataset& d, const Entry* block, int m, int min_bucket,
                 const NodeStats& total, int only) const {
#if DPDT_WIDE_LANES
    if (wide_) return in_lanes_wide<L, Count>(d, block, m, min_bucket, total, only);
#endif
    return in_lanes_body<L, Count>(d, block, m, min_bucket, total, only);
  }
#if DPDT_WIDE_LANES
  template <int L, class Count>
  DPDT_TARGET_AVX2 static Split in_lanes_wide(const Dataset& d, const Entry* block, int m,
                                              int min_bucket, const NodeStats& total, int only) {
    return in_lanes_body<L, Count>(d, block, m, min_bucket, total, only);
  }
#endif
  template <int L, class Count>
  [[gnu::always_inline]] static inline Split in_lanes_body(const Dataset& d, const Entry* block,
                                                           int m, int min_bucket,
                                                           const NodeStats& total, int only) {
    SplitTracker best;
    const int k = d.n_classes;
    const int* label = d.label.data();
    Count totals[L] = {};
    for (int c = 0; c < k; ++c) totals[c] = static_cast<Count>(total.class_weight[c]);
    // With at most 8 lanes, each class's row of ones: a row's counts added
    // by one load and one add, not compared lane by lane with its class
    // (exhaustive depth 3, paired CPU: page 0.90, room 0.99). Not with 16:
    // avila (12 classes) took 1.63 times as long.
    constexpr bool by_rows_of_ones = L <= 8;
    alignas(64) Count one_hot[by_rows_of_ones ? L : 1][L] = {};
    if constexpr (by_rows_of_ones)
      for (int c = 0; c < L; ++c) one_hot[c][c] = 1;
    const int last = m - min_bucket;  // the largest left count
    for (int f = 0; f < d.p; ++f) {
      const Entry* rows = block + static_cast<std::size_t>(f) * m;
      if (d.special(f, rows, m) || (only >= 0 && f != only)) continue;
      Count counts[L] = {};
      double bar = best.bar();
      int next = 1;
      for (int left = 1; left <= last; ++left) {
        const int y = label[rows[left - 1].row];
        if constexpr (by_rows_of_ones)
          for (int c = 0; c < L; ++c) counts[c] = static_cast<Count>(counts[c] + one_hot[y][c]);
        else
          for (int c = 0; c < L; ++c) counts[c] = static_cast<Count>(counts[c] + (c == y));
        if (left < next || left < min_bucket || rows[left - 1].rank == rows[left].rank) continue;
        Count top = 0, right_top = 0;
        for (int c = 0; c < L; ++c) {
          top = std::max(top, counts[c]);
          right_top = std::max(right_top, static_cast<Count>(totals[c] - counts[c]));
        }
        const double score = static_cast<double>((left - top) + std::max(0, (m - left) - right_top));
        if (score <= bar) {
          best.offer(f, left, score);
          bar = best.bar();
        } else {
          next = left + rows_above_bar(score, bar, m - left);
        }
      }
    }
    return best.finish(d, block, m);
  }

  template <bool Unit, class Count>
  static Split best_impl(const Dataset& d, const Entry* block, int m, int min_bucket,
                         const NodeStats& total, int only, std::vector<Count>& counts,
                         std::vector<Count>& right_tops) {
    SplitTracker best;
    const std::size_t k = static_cast<std::size_t>(d.n_classes);
    if (counts.size() < k) counts.resize(k);
    if (right_tops.size() < static_cast<std::size_t>(m) + 1) right_tops.resize(static_cast<std::size_t>(m) + 1);
    const double* wt = d.weight.data();
    const int* label = d.label.data();
    Count* cw = counts.data();
    Count* right_top = right_tops.data();
    const Count weight = static_cast<Count>(total.weight);
    const int last = m - min_bucket;  // the largest left count
    for (int f = 0; f < d.p; ++f) {
      const Entry* rows = block + static_cast<std::size_t>(f) * m;
      if (d.special(f, rows, m) || (only >= 0 && f != only)) continue;
      std::fill(cw, cw + k, Count(0));
      Count top = 0;
      for (int i = m - 1; i >= std::max(1, min_bucket); --i) {
        const int row = rows[i].row;
        const Count v = cw[label[row]] += Unit ? Count(1) : static_cast<Count>(wt[row]);
        top = v > top ? v : top;
        right_top[i] = top;
      }
      std::fill(cw, cw + k, Count(0));
      top = 0;
      Count lw = 0;
      double bar = best.bar();
      int next = 1;
      for (int left = 1; left <= last; ++left) {
        const int row = rows[left - 1].row;
        const Count w = Unit ? Count(1) : static_cast<Count>(wt[row]);
        const Count v = cw[label[row]] += w;
        lw += w;
        top = v > top ? v : top;
        if (left < next || left < min_bucket || rows[left - 1].rank == rows[left].rank) continue;
        const double score = static_cast<double>((lw - top) + std::max(Count(0), (weight - lw) - right_top[left]));
        if (score <= bar) {
          best.offer(f, left, score);
          bar = best.bar();
        } else if (Unit) {
          // A row moved adds at most 1 to the left error (its size grows by
          // 1, its top by 0 or 1) and takes 0 or 1 from the right one.
          next = left + rows_above_bar(score, bar, m - left);
        }
      }
    }
    return best.finish(d, block, m);
  }

  bool wide_;
  std::vector<double> counts_, right_top_;
  std::vector<int> unit_counts_, unit_right_top_;
};

// Weighted entropy (W log W - sum W_c log W_c) or Gini (W - sum W_c^2 / W) of
// both sides, kept up to date in O(1) per row moved.
class ImpurityScore {
 public:
  ImpurityScore(int k, bool entropy, const std::vector<double>& xlogx_table)
      : entropy_(entropy), table_(xlogx_table), left_(k), right_(k) {}
  void reset(const NodeStats& total) {
    std::fill(left_.begin(), left_.end(), 0.0);
    right_.assign(total.class_weight.begin(), total.class_weight.end());
    weight_ = total.weight;
    left_weight_ = 0.0;
    left_terms_ = 0.0;
    right_terms_ = 0.0;
    for (double v : right_) right_terms_ += term(v);
  }
  void move(const Dataset& d, int row) {
    const int c = d.label[row];
    const double w = d.weight[row];
    left_terms_ -= term(left_[c]);
    right_terms_ -= term(right_[c]);
    left_[c] += w;
    right_[c] -= w;
    if (right_[c] < 0) right_[c] = 0;
    left_terms_ += term(left_[c]);
    right_terms_ += term(right_[c]);
    left_weight_ += w;
  }
  double score() const {
    return side(left_weight_, left_terms_) + side(weight_ - left_weight_, right_terms_);
  }
  double impurity(const NodeStats& s) const {
    double terms = 0.0;
    for (double v : s.class_weight) terms += term(v);
    return side(s.weight, terms);
  }

 private:
  double term(double v) const {
    if (!entropy_) return v * v;
    return table_.empty() ? xlogx(v) : table_[static_cast<std::size_t>(v)];
  }
  double side(double w, double terms) const {
    if (w <= 0) return 0.0;
    return entropy_ ? std::max(0.0, term(w) - terms) : std::max(0.0, w - terms / w);
  }
  bool entropy_;
  const std::vector<double>& table_;
  std::vector<double> left_, right_;
  double weight_ = 0.0, left_weight_ = 0.0, left_terms_ = 0.0, right_terms_ = 0.0;
};

// best_split() with ImpurityScore (entropy, table of v log v) when every
// weight is 1: class counts in integers and the running sums in locals, the
// same operations on the same numbers as ImpurityScore::move() and score(),
// so the same scores, splits and ties.
inline Split best_entropy_split_unit(const Dataset& d, const Entry* block, int m, int min_bucket,
                                     const NodeStats& total, std::vector<int>& counts,
                                     std::vector<Split>* ties = nullptr) {
  SplitTracker best(ties);
  const std::size_t k = static_cast<std::size_t>(d.n_classes);
  counts.resize(2 * k);
  int* left = counts.data();
  int* right = left + k;
  const double* t = d.xlogx_table.data();
  const int* label = d.label.data();
  const int weight = m;
  for (int f = 0; f < d.p; ++f) {
    const Entry* rows = block + static_cast<std::size_t>(f) * m;
    if (d.special(f, rows, m)) continue;
    double left_terms = 0.0, right_terms = 0.0;
    for (std::size_t c = 0; c < k; ++c) {
      left[c] = 0;
      right[c] = static_cast<int>(total.class_weight[c]);
      right_terms += t[right[c]];
    }
    double bar = best.bar();
    for (int lw = 1; lw <= m - min_bucket; ++lw) {
      const int c = label[rows[lw - 1].row];
      left_terms -= t[left[c]];
      right_terms -= t[right[c]];
      ++left[c];
      --right[c];
      left_terms += t[left[c]];
      right_terms += t[right[c]];
      if (lw < min_bucket || rows[lw - 1].rank == rows[lw].rank) continue;
      const double score = std::max(0.0, t[lw] - left_terms) +
                           std::max(0.0, t[weight - lw] - right_terms);
      if (score <= bar) {
        best.offer(f, lw, score);
        bar = best.bar();
      }
    }
  }
  return best.finish(d, block, m);
}

// squared_error() of n sides at once, from their weights, sums and sums of
// squares: out[i] = squared_error(w[i], s[i], ss[i]), plus out[i] when
// `add`. The divisions are independent, so they run in vector lanes (four
// to an instruction with AVX2): one by one, each boundary's two divisions
// were most of a regression scan (see SquaredErrorScan).
inline void squared_errors_scalar(const double* w, const double* s, const double* ss, int n,
                                  double* out, bool add) {
  for (int i = 0; i < n; ++i) {
    const double e = squared_error(w[i], s[i], ss[i]);
    out[i] = add ? e + out[i] : e;
  }
}
#if DPDT_WIDE_LANES
// The same values, bit for bit: every operation rounds as its scalar twin
// (no fused multiply-add: the target is AVX2 alone), max(q, 0) is
// std::max(0.0, q) (0 when q is not above 0, NaN included), and a side of no
// weight gets 0.
[[gnu::noinline]] DPDT_TARGET_AVX2 inline void squared_errors_wide(const double* w, const double* s,
                                                                   const double* ss, int n,
                                                                   double* out, bool add) {
  const __m256d zero = _mm256_setzero_pd();
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256d wv = _mm256_loadu_pd(w + i), sv = _mm256_loadu_pd(s + i);
    const __m256d q = _mm256_sub_pd(_mm256_loadu_pd(ss + i),
                                    _mm256_div_pd(_mm256_mul_pd(sv, sv), wv));
    __m256d e = _mm256_and_pd(_mm256_max_pd(q, zero), _mm256_cmp_pd(wv, zero, _CMP_GT_OQ));
    if (add) e = _mm256_add_pd(e, _mm256_loadu_pd(out + i));
    _mm256_storeu_pd(out + i, e);
  }
  squared_errors_scalar(w + i, s + i, ss + i, n - i, out + i, add);
}
#endif

#if DPDT_WIDE_LANES
// Offers left count l, at the boundaries of `rows`, the score sse[l], from
// `first` on and in order, as a scalar loop would: four at a time, passed
// over when none is at or below the tracker's bar (which never rises, so
// none of them would be taken). Returns the first left count not yet
// offered (fewer than four remain up to `last`).
[[gnu::noinline]] DPDT_TARGET_AVX2 inline int offer_scores_wide(const Entry* rows, const double* sse,
                                                                int f, int first, int last,
                                                                SplitTracker& best) {
  int l = first;
  for (; l + 3 <= last; l += 4) {
    const __m256d score = _mm256_loadu_pd(sse + l);
    if (!_mm256_movemask_pd(_mm256_cmp_pd(score, _mm256_set1_pd(best.bar()), _CMP_LE_OQ))) continue;
    for (int i = l; i < l + 4; ++i)
      if (rows[i - 1].rank != rows[i].rank) best.offer(f, i, sse[i]);
  }
  return l;
}
#endif

// Sum of squared errors of both sides (regression: both the exact last-level
// loss and CART's criterion). Each side sums deviations from one of its own
// rows' responses (see squared_error): the left side from its first row, in a
// forward pass; the right side from its last row, in a backward pass. Taking
// the right side as the node's total minus the left would cancel
// catastrophically when the response's clusters are far apart.
// The two passes run in one loop, a row of each per step: each pass's sums
// are three chains of additions, one step each a row, and two passes' chains
// overlap where one pass's wait. Every chunk of sides' sums is kept and their
// squared errors taken at once (squared_errors_wide()), into one array by
// left count: the pass that reaches a left count second adds its side's to
// the first's. The same sums in the same order, so the same scores.
// Default search at depth 3 on 200,000 rows of 5 features: the scan, two
// divisions a row one by one, was 66 % of the CPU.
class SquaredErrorScan {
 public:
  // `allow_wide`: AVX2 where the CPU has it (the tests compare both ways).
  explicit SquaredErrorScan(bool allow_wide = true) : wide_(allow_wide && cpu_has_avx2()) {}

  Split best(const Dataset& d, const Entry* block, int m, int min_bucket,
             std::vector<Split>* ties = nullptr, int only = -1) {
    SplitTracker best(ties);
    if (sse_.size() < static_cast<std::size_t>(m) + 1) sse_.resize(static_cast<std::size_t>(m) + 1);
    const int first = std::max(1, min_bucket), last = m - min_bucket;  // left counts
    if (first > last) return best.finish(d, block, m);
    const double* sse = sse_.data();
    for (int f = 0; f < d.p; ++f) {
      const Entry* rows = block + static_cast<std::size_t>(f) * m;
      if (d.special(f, rows, m) || (only >= 0 && f != only)) continue;  // split_groups.h
      if (d.unit_weights)
        both_sides<true>(d, rows, m, first, last);
      else
        both_sides<false>(d, rows, m, first, last);
      // Offered after the passes: with the call to offer() inside, the sums
      // waited in memory (Boston, exhaustive depth 3 on 150 rows: 0.90 of
      // the CPU time, paired over 7 runs).
      int l = first;
#if DPDT_WIDE_LANES
      if (wide_) l = offer_scores_wide(rows, sse, f, first, last, best);
#endif
      for (; l <= last; ++l)
        if (rows[l - 1].rank != rows[l].rank) best.offer(f, l, sse[l]);
    }
    return best.finish(d, block, m);
  }

 private:
  static constexpr int kChunk = 256;  // sides whose sums wait: 12 KB
  struct Chunk {
    double w[kChunk], s[kChunk], ss[kChunk];
    void keep(int at, const DeviationSums& x) {
      w[at] = x.w;
      s[at] = x.s;
      ss[at] = x.ss;
    }
  };

  // sse_[l] for every left count l in [first, last]: the SSE of rows 0..l-1
  // about the first row's response plus that of rows l..m-1 about the last
  // row's. Step j of the loop adds row first + j - 1 to the left side (left
  // count first + j) and row last - j to the right side (left count
  // last - j). At the end of chunk t, the forward pass's squared errors go
  // out first: into left counts the backward pass reached in earlier chunks
  // (above last - t K) they are added, elsewhere written; then the backward
  // pass's, added where the forward pass has been (below first + t K +
  // len), written elsewhere.
  template <bool Unit>
  void both_sides(const Dataset& d, const Entry* rows, int m, int first, int last) {
    const double* y = d.response.data();
    const double* wt = d.weight.data();
    double* const sse = sse_.data();
    const double kl = y[rows[0].row], kr = y[rows[m - 1].row];
    DeviationSums l, r;  // each side's, in the order of its pass
    for (int i = 0; i + 1 < first; ++i) l.add<Unit>(wt, rows[i].row, y[rows[i].row] - kl);
    for (int i = m - 1; i > last; --i) r.add<Unit>(wt, rows[i].row, y[rows[i].row] - kr);
    const int n = last - first + 1;
    for (int j0 = 0; j0 < n; j0 += kChunk) {
      const int len = std::min(kChunk, n - j0);
      const int low = last - j0 - len + 1;  // the right sides' first left count
      for (int j = 0; j < len; ++j) {
        const int li = first + j0 + j - 1, ri = last - j0 - j;  // the rows each pass adds
        l.add<Unit>(wt, rows[li].row, y[rows[li].row] - kl);
        r.add<Unit>(wt, rows[ri].row, y[rows[ri].row] - kr);
        left_chunk_.keep(j, l);
        right_chunk_.keep(ri - low, r);
      }
      // The forward chunk's left counts [first + j0, first + j0 + len): those
      // above last - j0 hold the backward pass's already.
      const int fresh_left = std::clamp(last - j0 - (first + j0) + 1, 0, len);
      errors(left_chunk_, 0, fresh_left, sse + first + j0, false);
      errors(left_chunk_, fresh_left, len, sse + first + j0, true);
      // The backward chunk's [low, low + len): those below first + j0 + len
      // hold the forward pass's.
      const int seen_right = std::clamp(first + j0 + len - low, 0, len);
      errors(right_chunk_, 0, seen_right, sse + low, true);
      errors(right_chunk_, seen_right, len, sse + low, false);
    }
  }
  // Chunk c's sides [from, to) into out[from, to).
  void errors(const Chunk& c, int from, int to, double* out, bool add) const {
    if (from >= to) return;
#if DPDT_WIDE_LANES
    if (wide_) return squared_errors_wide(c.w + from, c.s + from, c.ss + from, to - from, out + from, add);
#endif
    squared_errors_scalar(c.w + from, c.s + from, c.ss + from, to - from, out + from, add);
  }

  bool wide_;
  std::vector<double> sse_;  // by left count: both sides' SSE
  Chunk left_chunk_, right_chunk_;
};

// Two classes, the common case, with the counts in registers. `side(c0, c1)`
// is the loss or impurity of one side holding class weights c0 and c1. The
// right side's weights are clamped at 0 against rounding, unless every sum
// of weights is exact (Dataset::exact_weights: they never go below 0, and
// the clamp, a dependency carried from row to row, is left out).
template <bool Clamp, class Side>
Split best_split_two_classes_impl(const Dataset& d, const Entry* block, int m, int min_bucket,
                                  const NodeStats& total, Side side,
                                  std::vector<Split>* ties, int only) {
  SplitTracker best(ties);
  const double* w = d.weight.data();
  const int* label = d.label.data();
  for (int f = 0; f < d.p; ++f) {
    const Entry* rows = block + static_cast<std::size_t>(f) * m;
    if (d.special(f, rows, m) || (only >= 0 && f != only)) continue;
    double l0 = 0.0, l1 = 0.0, r0 = total.class_weight[0], r1 = total.class_weight[1];
    for (int left = 1; left <= m - min_bucket; ++left) {
      const int row = rows[left - 1].row;
      const double w1 = label[row] * w[row], w0 = w[row] - w1;
      l0 += w0;
      l1 += w1;
      if (Clamp) {
        r0 = std::max(0.0, r0 - w0);
        r1 = std::max(0.0, r1 - w1);
      } else {
        r0 -= w0;
        r1 -= w1;
      }
      if (left < min_bucket || rows[left - 1].rank == rows[left].rank) continue;
      best.offer(f, left, side(l0, l1) + side(r0, r1));
    }
  }
  return best.finish(d, block, m);
}

// One feature's scan of best_split_two_classes_unit() for whole scores
// that move by at most 1 per row (kStepsByOne), against the bar's whole
// part (a whole score is at most the bar exactly when it is at most its
// floor): the same offers as with doubles, without the conversions to and
// from doubles at each boundary evaluated. A function of its own, so that
// its few sums keep their registers (inlined in the last level's scan they
// were spilled). Exhaustive depth 3, complexity "splits", paired CPU
// (median of 7): wilt 0.85, raisin 0.87, occupancy 0.97 (its time is
// mostly writing the children's blocks).
template <class UnitSides>
[[gnu::noinline]] void scan_whole_scores(const std::uint8_t* label, const Entry* rows, int m,
                                         int min_bucket, int t0, int t1, int f, UnitSides sides,
                                         SplitTracker& best) {
  int bar = whole_bar(best.bar());
  int l1 = 0, next = 1;
  for (int left = 1; left <= m - min_bucket; ++left) {
    l1 += label[rows[left - 1].row];
    if (left < next || left < min_bucket || rows[left - 1].rank == rows[left].rank) continue;
    const int l0 = left - l1;
    const int score = sides.whole(l0, l1, t0 - l0, t1 - l1);
    if (score <= bar) {
      best.offer(f, left, score);
      bar = whole_bar(best.bar());
    } else {  // rows_above_bar() in whole numbers
      next = left + std::min(score - bar, m - left);
    }
  }
}

// Two classes, every weight 1: counts in integers, the left side's class-0
// count from its size. `side(l0, l1, r0, r1)` scores both sides from their
// class counts with the arithmetic of the double-valued Side of
// best_split_two_classes() (whose sums are then exact whole numbers): the
// same scores, offered in the same order, choose the same split and ties.
template <class UnitSides>
Split best_split_two_classes_unit(const Dataset& d, const Entry* block, int m, int min_bucket,
                                  const NodeStats& total, UnitSides sides,
                                  std::vector<Split>* ties = nullptr, int only = -1) {
  SplitTracker best(ties);
  const std::uint8_t* label = d.label_byte.data();
  const int t1 = static_cast<int>(total.class_weight[1]), t0 = m - t1;
  for (int f = 0; f < d.p; ++f) {
    const Entry* rows = block + static_cast<std::size_t>(f) * m;
    if (d.special(f, rows, m) || (only >= 0 && f != only)) continue;
    if constexpr (UnitSides::kStepsByOne) {
      scan_whole_scores(label, rows, m, min_bucket, t0, t1, f, sides, best);
      continue;
    }
    int l1 = 0;
    double bar = best.bar();
    for (int left = 1; left <= m - min_bucket; ++left) {
      l1 += label[rows[left - 1].row];
      if (left < min_bucket || rows[left - 1].rank == rows[left].rank) continue;
      const int l0 = left - l1;
      const double score = sides(l0, l1, t0 - l0, t1 - l1);
      if (score <= bar) {
        best.offer(f, left, score);
        bar = best.bar();
      }
    }
  }
  return best.finish(d, block, m);
}

// MisclassifiedSide on both sides, in counts: a row moved changes each
// side's error by at most 1, and their sum too (one side gains it, the
// other loses it).
struct MisclassifiedUnit {
  static constexpr bool kStepsByOne = true;
  int whole(int l0, int l1, int r0, int r1) const { return std::min(l0, l1) + std::min(r0, r1); }
  double operator()(int l0, int l1, int r0, int r1) const { return whole(l0, l1, r0, r1); }
};

// The fewest rows one split of numeric feature thresholds misclassifies
// (two classes, unit weights, min_bucket rows on each side), when fewer
// than `bound`; else `bound`. Only the value (a bound for other states,
// Node::relaxed), so the scan starts from a known split's errors and steps
// over the rows that cannot take a score below it: one row moved changes
// the errors by at most 1. Features with missing values or levels are
// the caller's (Dataset::special).
inline int fewest_split_errors_unit(const Dataset& d, const Entry* block, int m, int min_bucket,
                                    const NodeStats& total, int bound) {
  const std::uint8_t* label = d.label_byte.data();
  const int t1 = static_cast<int>(total.class_weight[1]), t0 = m - t1;
  for (int f = 0; f < d.p; ++f) {
    const Entry* rows = block + static_cast<std::size_t>(f) * m;
    int l1 = 0, next = min_bucket;
    for (int left = 1; left <= m - min_bucket; ++left) {
      l1 += label[rows[left - 1].row];
      if (left < next || rows[left - 1].rank == rows[left].rank) continue;
      const int l0 = left - l1;
      const int errors = static_cast<int>(MisclassifiedUnit{}(l0, l1, t0 - l0, t1 - l1));
      if (errors < bound) bound = errors;
      else next = left + errors - bound + 1;
    }
  }
  return bound;
}

// EntropySide on both sides, in counts (the table holds v log v for every
// count up to the total).
struct EntropyUnit {
  static constexpr bool kStepsByOne = false;
  const double* t;
  double operator()(int l0, int l1, int r0, int r1) const {
    return std::max(0.0, t[l0 + l1] - t[l0] - t[l1]) + std::max(0.0, t[r0 + r1] - t[r0] - t[r1]);
  }
};

template <class Side>
Split best_split_two_classes(const Dataset& d, const Entry* block, int m, int min_bucket,
                             const NodeStats& total, Side side,
                             std::vector<Split>* ties = nullptr, int only = -1) {
  if (d.exact_weights)
    return best_split_two_classes_impl<false>(d, block, m, min_bucket, total, side, ties, only);
  return best_split_two_classes_impl<true>(d, block, m, min_bucket, total, side, ties, only);
}

struct MisclassifiedSide {
  double operator()(double c0, double c1) const { return std::min(c0, c1); }
};

// With a loss matrix: predicting class 0 costs c1 * cost10, class 1 costs
// c0 * cost01.
struct CostSide {
  double cost10 = 1.0, cost01 = 1.0;
  double operator()(double c0, double c1) const { return std::min(c1 * cost10, c0 * cost01); }
};

struct EntropySide {
  const std::vector<double>& table;  // v log v at whole v; empty: compute
  double t(double v) const { return table.empty() ? xlogx(v) : table[static_cast<std::size_t>(v)]; }
  double operator()(double c0, double c1) const {
    return std::max(0.0, t(c0 + c1) - t(c0) - t(c1));
  }
};

struct GiniSide {
  double operator()(double c0, double c1) const {
    const double w = c0 + c1;
    return w > 0 ? std::max(0.0, w - (c0 * c0 + c1 * c1) / w) : 0.0;
  }
};

// Calls visit(feature, left_count, threshold) at every admissible boundary:
// between distinct consecutive values, with min_bucket rows on both sides
// (numeric features without missing values in the state only).
template <class Visit>
void for_each_boundary(const Dataset& d, const Entry* block, int m, int min_bucket,
                       Visit&& visit) {
  for (int f = 0; f < d.p; ++f) {
    const Entry* rows = block + static_cast<std::size_t>(f) * m;
    if (d.special(f, rows, m)) continue;  // see split_groups.h
    const double* col = d.column[f];
    const int last = m - min_bucket;
    for (int left = std::max(1, min_bucket); left <= last; ++left) {
      // The values lie at random rows; asked for ahead, their misses overlap
      // (bean with exact_levels = 2: 3 % of the fit, paired).
      if (left + 16 <= last) __builtin_prefetch(col + rows[left + 16].row);
      if (rows[left - 1].rank < rows[left].rank)
        visit(f, left, midpoint(col[rows[left - 1].row], col[rows[left].row]));
    }
  }
}

// best_split() with a loss matrix L of K classes (3 to 16) and exact sums:
// each prediction's cost on each side kept as rows move, in K values
// unrolled at compile time (so that they stay in registers), O(K) a row
// and a boundary, where summing the costs at each boundary takes O(K^2):
// exhaustive depth 3 with costs 1 to 3 (complexity "splits", min_bucket 1,
// CPU) spent 85 % of page's 12.6 s in that, now 6.7 s; segment 23.5 ->
// 7.6 s, fault 121 -> 33 s, room 11.8 -> 8.1 s, avila (12 classes) 95.7
// -> 22.4 s. The same scores (exact sums, in any order), fronts and trees.
// Boundaries that cannot be offered are skipped, as the 0/1 scans skip
// them (single runs of the driver, another job beside: page 7.3 -> 5.2 s,
// segment 7.8 -> 5.1, fault 39.8 -> 25.8, avila 25.4 -> 18.2, room even).
template <std::size_t... J>
Split best_split_running_costs(const Dataset& d, const Entry* block, int m, int min_bucket,
                               const NodeStats& total, const double* L,
                               std::vector<Split>* ties, int only, std::index_sequence<J...>);

// The classes best_split_running_costs() is compiled for (3 to this many).
// With more than about seven, its 2K values no longer all fit the 16
// vector registers, and it still beats the sums at each boundary (avila,
// 12 classes: 95.7 -> 22.4 s).
constexpr int kMaxRunningCostClasses = 16;

// best_split_running_costs() compiled for d.n_classes classes, tried from
// K up (K <= d.n_classes <= kMaxRunningCostClasses).
template <int K>
Split best_split_running_costs_for(const Dataset& d, const Entry* block, int m, int min_bucket,
                                   const NodeStats& total, const double* L,
                                   std::vector<Split>* ties, int only) {
  if constexpr (K < kMaxRunningCostClasses) {
    if (d.n_classes > K)
      return best_split_running_costs_for<K + 1>(d, block, m, min_bucket, total, L, ties, only);
  }
  return best_split_running_costs(d, block, m, min_bucket, total, L, ties, only,
                                  std::make_index_sequence<K>{});
}

template <std::size_t... J>
Split best_split_running_costs(const Dataset& d, const Entry* block, int m, int min_bucket,
                               const NodeStats& total, const double* L,
                               std::vector<Split>* ties, int only, std::index_sequence<J...>) {
  constexpr int K = sizeof...(J);
  std::array<std::array<double, K>, K> costs;  // class t's cost of each prediction
  std::array<double, K> total_cost{}, row_bound{};
  for (int t = 0; t < K; ++t)
    for (int j = 0; j < K; ++j) {
      costs[t][j] = L[t * K + j];
      total_cost[j] += total.class_weight[t] * L[t * K + j];
      row_bound[t] = std::max(row_bound[t], L[t * K + j]);
    }
  SplitTracker best(ties);
  for (int f = 0; f < d.p; ++f) {
    const Entry* rows = block + static_cast<std::size_t>(f) * m;
    if (d.special(f, rows, m) || (only >= 0 && f != only)) continue;
    std::array<double, K> left{}, right = total_cost;
    // A boundary scoring `above` more than the least so far: a row moved
    // changes the score by at most its weight times its class's largest
    // cost, so the boundaries until those bounds add up to `above` (less
    // the ties' margin) cannot be offered, and are not scored. Exact sums:
    // `above` and what is taken from it are exact.
    double above = 0.0, margin = 0.0;
    for (int i = 1; i <= m - min_bucket; ++i) {
      const int row = rows[i - 1].row;
      const double w = d.weight[row];
      const int y = d.label[row];
      const std::array<double, K>& c = costs[y];
      ((left[J] += w * c[J]), ...);
      ((right[J] -= w * c[J]), ...);
      above -= w * row_bound[y];
      if (above > margin || i < min_bucket || rows[i - 1].rank == rows[i].rank) continue;
      const double l = std::min({left[J]...}), r = std::min({right[J]...});
      const double score = std::max(0.0, l) + std::max(0.0, r);
      best.offer(f, i, score);
      above = score - best.least();
      margin = best.tie_margin();
    }
  }
  return best.finish(d, block, m);
}

// The lowest-scoring split, with SplitTracker's tie rules.
template <class Score>
Split best_split(const Dataset& d, const Entry* block, int m, int min_bucket,
                 const NodeStats& total, Score& score, std::vector<Split>* ties = nullptr,
                 int only = -1) {
  SplitTracker best(ties);
  for (int f = 0; f < d.p; ++f) {
    const Entry* rows = block + static_cast<std::size_t>(f) * m;
    if (d.special(f, rows, m) || (only >= 0 && f != only)) continue;
    score.reset(total);
    for (int left = 1; left <= m - min_bucket; ++left) {
      score.move(d, rows[left - 1].row);
      if (left < min_bucket || rows[left - 1].rank == rows[left].rank) continue;
      best.offer(f, left, score.score());
    }
  }
  return best.finish(d, block, m);
}

}  // namespace dpdt
