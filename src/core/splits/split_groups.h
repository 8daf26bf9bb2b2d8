// Tests the fast scans of split_scan.h do not cover: level groups of
// categorical features, and numeric features with missing values in the
// state. Every such test also chooses the side of its missing rows.
//
// The state's rows of feature f are first gathered into units: one per
// distinct value (numeric) or level present (categorical), plus the missing
// rows. A numeric test sends a prefix of the value-ordered units left; a
// categorical test any group of levels:
//  - two classes and regression, no missing value in the state, every
//    level present holding >= min_bucket rows: the best group is a prefix
//    of the levels ordered by class-1 proportion / mean (Breiman et al.
//    1984, Thm 4.5; exact). A level below min_bucket makes some groups
//    inadmissible, and the best admissible one need not be a prefix (the
//    core fuzzer found a case): enumerated as below;
//  - otherwise, up to kMaxEnumLevels levels present: every group (the last
//    level present stays right, so each partition is seen once; for
//    classification in Gray-code order, one level moved per step). With
//    missing values on one side the ordering is not exact: the all-levels
//    split, which the search space excludes, may be the concave minimum;
//  - more levels: a stated heuristic, the prefixes of the levels ordered by
//    class-1 proportion / mean, or for more classes by the proportion of
//    each class in turn (K orderings).
// The exhaustive candidate set (enumerate) is every numeric boundary, and
// every group while kMaxEnumLevels or fewer levels are present, else the
// ordering prefixes above (by mean / class-1 proportion / each class), to
// which the candidate generator adds CART's own proposals (so that an
// exhaustive state never offers less than a CART state). Heuristic groups
// where every split was to be tried are recorded (HeuristicGroups).
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/splits/split_rule.h"
#include "core/splits/split_scan.h"

namespace dpdt {

constexpr int kMaxEnumLevels = 12;

// The features whose level groups were chosen by the heuristic (more than
// kMaxEnumLevels levels present) where every split was to be tried: the
// exact last level, exhaustive states and exact levels. There the search
// proves nothing optimal. Shared by the scanners of every thread.
class HeuristicGroups {
 public:
  explicit HeuristicGroups(int p) : used_(new std::atomic<bool>[std::max(p, 1)]), p_(p) {
    for (int f = 0; f < p_; ++f) used_[f].store(false);
  }
  void mark(int f) { used_[f].store(true, std::memory_order_relaxed); }
  bool used(int f) const { return used_[f].load(std::memory_order_relaxed); }
  bool any() const {
    for (int f = 0; f < p_; ++f)
      if (used(f)) return true;
    return false;
  }

 private:
  std::unique_ptr<std::atomic<bool>[]> used_;
  int p_;
};

// How a side of a test is scored: its exact loss (misclassified weight or
// expected cost; squared error) or CART's impurity. Regression is always
// squared error.
enum class SideScore { loss, entropy, gini };

// Rows of a group: count, weight, class weights or (mean, sum of squared
// deviations from it), merged by Chan et al.'s pairwise update (stable).
// A regression mean is of the responses less one row's (GroupScanner's
// reference), as NodeStats keeps its sums: responses far from 0 (y + 1e15)
// keep their detail, and y + c gives the same trees as y.
struct Agg {
  int count = 0;
  double w = 0.0, mean = 0.0, m2 = 0.0;
  std::vector<double> cw;

  void clear(int k) {
    count = 0;
    w = mean = m2 = 0.0;
    cw.assign(k, 0.0);
  }
  void add(const Agg& b, bool regression) {
    if (b.count == 0) return;
    if (regression) {
      const double tw = w + b.w;
      if (tw > 0) {
        const double delta = b.mean - mean;
        mean += delta * (b.w / tw);
        m2 += b.m2 + delta * delta * (w * b.w / tw);
      }
    } else {
      for (std::size_t c = 0; c < cw.size(); ++c) cw[c] += b.cw[c];
    }
    w += b.w;
    count += b.count;
  }
  // Classification only (regression never removes).
  void remove(const Agg& b) {
    for (std::size_t c = 0; c < cw.size(); ++c) cw[c] = std::max(0.0, cw[c] - b.cw[c]);
    w -= b.w;
    count -= b.count;
  }
};

class GroupScanner {
 public:
  explicit GroupScanner(const Dataset& d) : d_(d), k_(d.n_classes) {}

  // Where to record the use of heuristic groups (none: not recorded).
  void report_heuristics_to(HeuristicGroups* h) { heuristic_ = h; }

  // Offers every admissible test of feature f (rows: its block in the state,
  // m rows) scored by `score` to `best` (first the numeric cuts or groups in
  // a fixed order, so ties resolve as the rows alone decide).
  // `claim`: the scan's best split is claimed to be the state's best one
  // (the exact last level), so a heuristic is recorded.
  void scan(int f, const Entry* rows, int m, int min_bucket, SideScore score, SplitTracker& best,
            bool claim = false) {
    score_ = score;
    if (counted_cuts(f, score, rows, m)) return counted_scan(f, rows, m, min_bucket, best);
    build_units(f, rows, m);
    const int u = static_cast<int>(units_.size());
    if (u < 2) return;
    // Prefix tests are scored first and only those the tracker keeps are
    // built: a rule of many levels costs O(u), and an ordering's prefixes
    // can improve u / 2 times.
    SplitTracker::Deferred deferred(best);
    prefixes_.clear();
    orders_.clear();
    // Scans the prefixes of one ordering of the units (kept in orders_).
    auto scan_order = [&](std::vector<int> order) {
      orders_.push_back(std::move(order));
      const int o = static_cast<int>(orders_.size()) - 1;
      ordered_scan(orders_[o], min_bucket,
                   [&](const std::vector<int>&, int prefix, double sc, signed char na) {
                     deferred.offer(static_cast<int>(prefixes_.size()), sc);
                     prefixes_.push_back({o, prefix, na, sc});
                   });
    };
    auto offer_kept = [&]() {
      for (int id : deferred.kept()) {
        const Prefix& q = prefixes_[id];
        best.offer_rule(rule(f, orders_[q.order], q.prefix, q.na), q.score);
      }
    };
    const bool one_order = d_.regression() || k_ == 2;
    bool levels_admissible = true;
    for (const Agg& a : units_) levels_admissible = levels_admissible && a.count >= min_bucket;
    if (!d_.categorical(f) || (one_order && na_.count == 0 && levels_admissible)) {
      scan_order(key_order(f, -1));
      offer_kept();
    } else if (u <= kMaxEnumLevels) {
      auto emit = [&](double s, signed char na) {
        if (best.wants(s)) best.offer_rule(rule_from_mask(f, na), s);
      };
      if (d_.regression()) subset_scan(min_bucket, emit);
      else gray_scan(min_bucket, emit);
    } else {
      if (heuristic_ && claim) heuristic_->mark(f);
      if (one_order) {
        scan_order(key_order(f, -1));
      } else {
        for (int c = 0; c < k_; ++c) scan_order(key_order(f, c));
      }
      offer_kept();
    }
  }

  // Whether the last enumerate() gave only some of the level groups.
  bool partial() const { return partial_; }

  // Every test of feature f in the exhaustive candidate set (see the top).
  template <class Visit>
  void enumerate(int f, const Entry* rows, int m, int min_bucket, Visit&& visit) {
    build_units(f, rows, m);
    partial_ = false;
    const int u = static_cast<int>(units_.size());
    if (u < 2) return;
    std::vector<SplitRule> out;
    auto emit = [&](const Agg& l, const Agg& r, auto&& make) {
      for (signed char na : na_options())
        if (admissible(l, r, na, min_bucket)) out.push_back(make(na));
    };
    if (!d_.categorical(f) || u <= kMaxEnumLevels) {
      if (!d_.categorical(f)) {
        // Every cut with the missing values left, then every cut with them
        // right: two runs of ascending cuts, whose left sides each hold the
        // one before (the bounded sweep's interval bounds apply along them:
        // BoundedSweep::feature_runs()).
        const std::vector<int> order = identity();
        for (signed char na : na_options()) {
          Agg l;
          l.clear(k_);
          for (int p = 1; p < u; ++p) {
            l.add(units_[p - 1], d_.regression());
            if (admissible(l, rest(l), na, min_bucket)) out.push_back(rule(f, order, p, na));
          }
        }
      } else {
        mask_.assign(u, 0);
        const std::uint32_t total = 1u << (u - 1);
        for (std::uint32_t g = 1; g < total; ++g) {
          Agg l;
          l.clear(k_);
          for (int i = 0; i < u - 1; ++i) {
            mask_[i] = (g >> i) & 1u;
            if (mask_[i]) l.add(units_[i], d_.regression());
          }
          emit(l, rest(l), [&](signed char na) { return rule_from_mask(f, na); });
        }
      }
    } else {
      partial_ = true;
      if (heuristic_) heuristic_->mark(f);
      const int orders = d_.regression() || k_ == 2 ? 1 : k_;
      for (int c = 0; c < orders; ++c) {
        const std::vector<int> order = key_order(f, orders == 1 ? -1 : c);
        Agg l;
        l.clear(k_);
        for (int p = 1; p < u; ++p) {
          l.add(units_[order[p - 1]], d_.regression());
          emit(l, rest(l), [&](signed char na) { return rule(f, order, p, na); });
        }
      }
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end(),
                            [](const SplitRule& a, const SplitRule& b) { return a.same_test(b); }),
                out.end());
    }
    for (const SplitRule& r : out) visit(r);
  }

  // Scores of a state's children under a test: used by the exact last level.
  const Agg& missing() const { return na_; }

 private:
  // A numeric feature with missing values in the state, misclassifications
  // counted in whole numbers (0/1 loss, unit weights): counted_scan().
  bool counted_cuts(int f, SideScore score, const Entry* rows, int m) const {
    return !d_.categorical(f) && !d_.regression() && score == SideScore::loss &&
           d_.unit_weights && d_.loss_matrix.empty() && holds_missing(rows, m);
  }

  // scan() of such a feature from class counts, without its units: the
  // same tests offered in the same order with the same scores (whole
  // numbers, exact in any order), each built only if kept. The units' sums
  // (a vector of class weights per value) were about half of exhaustive
  // depth 3 on wilt with 30 missing values in one feature.
  void counted_scan(int f, const Entry* rows, int m, int min_bucket, SplitTracker& best) {
    const int k = k_;
    int present = present_rows(rows, m);
    counts_.assign(3 * static_cast<std::size_t>(k), 0);
    int* left = counts_.data();
    int* all = left + k;
    int* missing = all + k;
    for (int i = 0; i < present; ++i) ++all[d_.label[rows[i].row]];
    for (int i = present; i < m; ++i) ++missing[d_.label[rows[i].row]];
    SplitTracker::Deferred deferred(best);
    cuts_.clear();
    // Cuts scoring above the tracker's bar are not offered (it ignores
    // them), so not kept either.
    auto offer = [&](int nl, signed char na, double sc) {
      if (sc > deferred.bar()) return;
      deferred.offer(static_cast<int>(cuts_.size()), sc);
      cuts_.push_back({nl, na, sc});
    };
    const int nm = m - present;
    if (k == 2) {
      const std::uint8_t* label = d_.label_byte.data();
      int ones = 0;
      const int all1 = all[1], miss1 = missing[1];
      for (int i = 0; i + 1 < present; ++i) {
        ones += label[rows[i].row];
        if (rows[i].rank == rows[i + 1].rank) continue;
        const int nl = i + 1, nr = present - nl, r1 = all1 - ones;
        // a side's errors: its rows less its larger class
        auto errors = [](int n, int n1) { return static_cast<double>(n - std::max(n1, n - n1)); };
        if (nl + nm >= min_bucket && nr >= min_bucket)
          offer(nl, 1, errors(nl + nm, ones + miss1) + errors(nr, r1));
        if (nl >= min_bucket && nr + nm >= min_bucket)
          offer(nl, 0, errors(nl, ones) + errors(nr + nm, r1 + miss1));
      }
    } else {
      auto errors = [k](const int* a, const int* b, int n) {  // rows of a (+ b) less the largest class
        int top = 0;
        for (int c = 0; c < k; ++c) top = std::max(top, a[c] + (b ? b[c] : 0));
        return static_cast<double>(n - top);
      };
      right_.resize(static_cast<std::size_t>(k));
      for (int i = 0; i + 1 < present; ++i) {
        ++left[d_.label[rows[i].row]];
        if (rows[i].rank == rows[i + 1].rank) continue;
        const int nl = i + 1, nr = present - nl;
        for (int c = 0; c < k; ++c) right_[c] = all[c] - left[c];
        // The missing values left, then right (evaluate()'s order).
        if (nl + nm >= min_bucket && nr >= min_bucket)
          offer(nl, 1, errors(left, missing, nl + nm) + errors(right_.data(), nullptr, nr));
        if (nl >= min_bucket && nr + nm >= min_bucket)
          offer(nl, 0, errors(left, nullptr, nl) + errors(right_.data(), missing, nr + nm));
      }
    }
    for (int id : deferred.kept()) {
      const CountedCut& c = cuts_[static_cast<std::size_t>(id)];
      SplitRule r;
      r.feature = f;
      r.na_left = c.na;
      r.cut = c.left;
      r.left_count = c.left + (c.na == 1 ? nm : 0);
      r.threshold = midpoint(d_.value(f, rows[c.left - 1].row), d_.value(f, rows[c.left].row));
      best.offer_rule(r, c.score);
    }
  }
  // A cut counted_scan() offered: its non-missing rows left, the side of
  // its missing values, its score.
  struct CountedCut {
    int left;
    signed char na;
    double score;
  };

  // Units of the state's rows of feature f, in block order (value / code).
  void build_units(int f, const Entry* rows, int m) {
    const bool reg = d_.regression();
    // The units' sums are kept for the next state's (allocating them for
    // every unit of every state was a tenth of exhaustive depth 3 on wilt
    // with missing values, which scans such features here).
    for (Agg& a : units_) spare_.push_back(std::move(a));
    units_.clear();
    first_.clear();
    na_.clear(k_);
    // Two classes and unit weights: a run's class counts in ints, added
    // once (the same whole sums as one row at a time). Row by row, the
    // units were a fifth of a default fit with a five-level factor.
    const bool counted = !reg && k_ == 2 && d_.unit_weights && !d_.label_byte.empty();
    Agg one;  // a row of a regression, added by Agg::add()
    one.clear(k_);
    // Regression means are kept less the first row's response (see Agg).
    const double reference = reg && m > 0 ? d_.response[rows[0].row] : 0.0;
    for (int i = 0, end = 0; i < m; i = end) {
      const int rank = rows[i].rank;
      for (end = i + 1; end < m && rows[end].rank == rank;) ++end;
      Agg* target = &na_;
      if (rank != kMissingRank) {
        if (spare_.empty()) {
          units_.emplace_back();
        } else {
          units_.push_back(std::move(spare_.back()));
          spare_.pop_back();
        }
        units_.back().clear(k_);
        first_.push_back(i);
        target = &units_.back();
      }
      if (counted) {
        int ones = 0;
        for (int j = i; j < end; ++j) ones += d_.label_byte[rows[j].row];
        target->cw[1] += ones;
        target->cw[0] += end - i - ones;
        target->w += end - i;
        target->count += end - i;
        continue;
      }
      for (int j = i; j < end; ++j) {
        const Entry e = rows[j];
        if (reg) {
          one.count = 1;
          one.w = d_.weight[e.row];
          one.mean = d_.response[e.row] - reference;
          one.m2 = 0.0;
          target->add(one, reg);
        } else {
          // What Agg::add() of a one-row unit sums (adding its zeros to
          // the other classes changes nothing), without making one.
          const double w = d_.weight[e.row];
          target->cw[d_.label[e.row]] += w;
          target->w += w;
          ++target->count;
        }
      }
    }
    total_.clear(k_);
    for (const Agg& a : units_) total_.add(a, reg);
    f_ = f;
    rows_ = rows;
  }

  std::vector<int> identity() const {
    std::vector<int> o(units_.size());
    std::iota(o.begin(), o.end(), 0);
    return o;
  }

  // Numeric: value order. Categorical: by mean (regression), by class-1
  // proportion (two classes), or by the proportion of class c; ties by code.
  std::vector<int> key_order(int f, int c) const {
    std::vector<int> o = identity();
    if (!d_.categorical(f)) return o;
    std::vector<double> key(units_.size());
    for (std::size_t i = 0; i < units_.size(); ++i) {
      const Agg& a = units_[i];
      key[i] = d_.regression() ? a.mean : a.w > 0 ? a.cw[c < 0 ? 1 : c] / a.w : 0.0;
    }
    std::stable_sort(o.begin(), o.end(), [&](int a, int b) { return key[a] < key[b]; });
    return o;
  }

  std::vector<signed char> na_options() const {
    if (na_.count == 0) return {kNaNoSide};
    return {1, 0};
  }

  bool admissible(const Agg& l, const Agg& r, signed char na, int min_bucket) const {
    const int nl = l.count + (na == 1 ? na_.count : 0);
    const int nr = r.count + (na == 0 ? na_.count : 0);
    return nl >= min_bucket && nr >= min_bucket;
  }

  // The non-missing rows not in l (classification: by subtraction).
  // (Regression: only its count and weight are right, all enumerate needs.)
  Agg rest(const Agg& l) const {
    Agg r = total_;
    if (d_.regression()) {
      r.count -= l.count;
      r.w -= l.w;
      return r;
    }
    r.remove(l);
    return r;
  }

  double side(const Agg& a) const {
    if (d_.regression()) return std::max(0.0, a.m2);
    if (a.w <= 0) return 0.0;
    switch (score_) {
      case SideScore::loss:
        return class_loss(d_, a.cw.data(), a.w);
      case SideScore::entropy: {
        double t = xlogx(a.w);
        for (double v : a.cw) t -= xlogx(v);
        return std::max(0.0, t);
      }
      case SideScore::gini: {
        double t = 0.0;
        for (double v : a.cw) t += v * v;
        return std::max(0.0, a.w - t / a.w);
      }
    }
    return 0.0;
  }

  // Score of l | r with the missing rows on each admissible side.
  template <class Emit>
  void evaluate(const Agg& l, const Agg& r, int min_bucket, Emit&& emit) {
    if (na_.count == 0) {
      if (admissible(l, r, kNaNoSide, min_bucket)) emit(side(l) + side(r), kNaNoSide);
      return;
    }
    const bool reg = d_.regression();
    if (admissible(l, r, 1, min_bucket)) {
      tmp_ = l;
      tmp_.add(na_, reg);
      emit(side(tmp_) + side(r), 1);
    }
    if (admissible(l, r, 0, min_bucket)) {
      tmp_ = r;
      tmp_.add(na_, reg);
      emit(side(l) + side(tmp_), 0);
    }
  }

  // Prefixes of the units in `order`; the right side of regression is merged
  // from the suffix (a backward pass), never subtracted.
  template <class Offer>
  void ordered_scan(const std::vector<int>& order, int min_bucket, Offer&& offer) {
    const int u = static_cast<int>(order.size());
    const bool reg = d_.regression();
    if (reg) {
      suffix_.assign(u + 1, Agg());
      suffix_[u].clear(0);
      for (int p = u - 1; p >= 1; --p) {
        suffix_[p] = suffix_[p + 1];
        suffix_[p].add(units_[order[p]], true);
      }
    }
    Agg l;
    l.clear(k_);
    Agg r;
    for (int p = 1; p < u; ++p) {
      l.add(units_[order[p - 1]], reg);
      if (reg) {
        evaluate(l, suffix_[p], min_bucket, [&](double s, signed char na) { offer(order, p, s, na); });
      } else {
        r = total_;
        r.remove(l);
        evaluate(l, r, min_bucket, [&](double s, signed char na) { offer(order, p, s, na); });
      }
    }
  }

  // Every group of units (the last unit stays right), one unit moved per step.
  template <class Emit>
  void gray_scan(int min_bucket, Emit&& emit) {
    const int u = static_cast<int>(units_.size());
    mask_.assign(u, 0);
    Agg l, r;
    l.clear(k_);
    const std::uint32_t total = 1u << (u - 1);
    for (std::uint32_t g = 1; g < total; ++g) {
      int bit = 0;
      while (!((g >> bit) & 1u)) ++bit;
      if (mask_[bit]) {
        l.remove(units_[bit]);
        mask_[bit] = 0;
      } else {
        l.add(units_[bit], false);
        mask_[bit] = 1;
      }
      r = total_;
      r.remove(l);
      evaluate(l, r, min_bucket, emit);
    }
  }

  // Every group of units for regression, each side merged afresh (no
  // subtraction of sums of squares).
  template <class Emit>
  void subset_scan(int min_bucket, Emit&& emit) {
    const int u = static_cast<int>(units_.size());
    mask_.assign(u, 0);
    Agg l, r;
    const std::uint32_t total = 1u << (u - 1);
    for (std::uint32_t g = 1; g < total; ++g) {
      l.clear(0);
      r.clear(0);
      for (int i = 0; i < u; ++i) {
        mask_[i] = i < u - 1 && ((g >> i) & 1u);
        (mask_[i] ? l : r).add(units_[i], true);
      }
      evaluate(l, r, min_bucket, emit);
    }
  }

  // The test sending the first `prefix` units of `order` left.
  SplitRule rule(int f, const std::vector<int>& order, int prefix, signed char na) const {
    SplitRule s;
    s.feature = f;
    s.na_left = na;
    int n = 0;
    if (!d_.categorical(f)) {
      n = first_[prefix];  // numeric: the units in block order (`order` is the identity)
    } else {
      for (int p = 0; p < prefix; ++p) n += units_[order[p]].count;
    }
    s.left_count = n + (na == 1 ? na_.count : 0);
    if (!d_.categorical(f)) {
      s.cut = n;
      s.threshold = midpoint(d_.value(f, rows_[n - 1].row), d_.value(f, rows_[n].row));
    } else {
      for (int p = 0; p < prefix; ++p) s.levels.push_back(code(order[p]));
      std::sort(s.levels.begin(), s.levels.end());
      s.threshold = 0.0;
    }
    return s;
  }

  SplitRule rule_from_mask(int f, signed char na) const {
    SplitRule s;
    s.feature = f;
    s.na_left = na;
    int n = 0;
    for (std::size_t i = 0; i < units_.size(); ++i)
      if (mask_[i]) {
        n += units_[i].count;
        s.levels.push_back(code(static_cast<int>(i)));
      }
    s.left_count = n + (na == 1 ? na_.count : 0);
    return s;
  }

  int code(int unit) const { return static_cast<int>(d_.value(f_, rows_[first_[unit]].row)); }

  // A prefix test of orders_[order] scored by scan(), built if kept.
  struct Prefix {
    int order, prefix;
    signed char na;
    double score;
  };

  const Dataset& d_;
  int k_;
  std::vector<Prefix> prefixes_;
  std::vector<std::vector<int>> orders_;
  HeuristicGroups* heuristic_ = nullptr;
  bool partial_ = false;
  SideScore score_ = SideScore::loss;
  int f_ = -1;
  const Entry* rows_ = nullptr;
  std::vector<Agg> units_, suffix_;
  std::vector<Agg> spare_;  // units of an earlier state, their sums reused (build_units())
  std::vector<int> counts_, right_;  // counted_scan(): classes left, in all, missing; right
  std::vector<CountedCut> cuts_;
  std::vector<int> first_;
  std::vector<char> mask_;
  Agg na_, total_, tmp_;
};

// The lower of two best splits (ties within a relative 1e-12 keep `a` and
// join b's ties to a's, as one SplitTracker would).
inline Split better_split(const Split& a, std::vector<Split>* ties_a, const Split& b,
                          const std::vector<Split>* ties_b) {
  if (!b.found()) return a;
  if (!a.found() || b.score < a.score - 1e-12 * std::fabs(a.score)) {
    if (ties_a && ties_b) *ties_a = *ties_b;
    return b;
  }
  if (ties_a && ties_b && b.score <= a.score + 1e-12 * std::fabs(a.score))
    ties_a->insert(ties_a->end(), ties_b->begin(), ties_b->end());
  return a;
}

// The best test over the special features of a state (see Dataset::special),
// optionally only feature `only`.
inline Split best_special_split(const Dataset& d, GroupScanner& g, const Entry* block, int m,
                                int min_bucket, SideScore score, std::vector<Split>* ties,
                                int only = -1, bool claim = false) {
  SplitTracker best(ties);
  for (int f = 0; f < d.p; ++f) {
    const Entry* rows = block + static_cast<std::size_t>(f) * m;
    if (!d.special(f, rows, m) || (only >= 0 && f != only)) continue;
    g.scan(f, rows, m, min_bucket, score, best, claim);
  }
  return best.finish(d, block, m);
}

}  // namespace dpdt
