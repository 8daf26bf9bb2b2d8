// Bounds for states that try every split with two or more levels left:
// which of their splits can still put a point on the state's front, known
// before the split's children are solved.
//
// Quant-BnB's interval bound (Mazumder et al., 2022), here for fronts: for
// cuts a < t < b of one feature, left(a) is a subset of left(t), and right(b)
// a subset of right(t). A tree's loss on a subset of rows is never above
// its loss on the whole set, so with min_bucket = 1
//   best(left(t)) >= best(left(a)),   best(right(t)) >= best(right(b)),
// where best() is the lowest loss of a child's front: its optimal subtree,
// so the children must try every split too (and every level group: no
// factor of more than 12 levels), and the tree restricted to the subset
// must be one the search can build. With missing values in the state it
// may not be (a threshold restricted to a subset can become "missing vs
// the rest", which is no candidate; the core fuzzer found that): there
// best() gives way to a bound that allows that test (Node::relaxed, one
// level left: LastLevel::missing_vs_rest()), or to 0. With min_bucket > 1
// it fails as it stands (the restricted tree may keep a leaf smaller than
// min_bucket), but best(left(t)) >= best1(left(t)) >= best1(left(a)), with
// best1() the best loss with min_bucket = 1: the sweep uses that where
// best1() is known, one level above the leaves (Node::relaxed). MurTree's similarity bound (Demirovic
// et al., JMLR 2022) holds for any min_bucket: rows taken out of a set lower
// its best loss by at most their largest possible loss (weight, or weight
// times the class's largest cost), because the subset's best tree applied
// to the superset keeps every leaf at least as large, so
//   best(left(t))  >= best(left(b))  - removable(t..b),
//   best(right(t)) >= best(right(a)) - removable(a..t).
// A child's front point is its leaf (its loss known exactly, from prefix
// sums of the class weights in the feature's order) or a subtree with a
// split (loss >= best(), complexity >= one split's), so four points bound
// every point a split can give. With three or more levels left the
// children's fronts are long, and BoundedSweep::side_bound() applies both
// arguments to a side's whole front, complexity by complexity; with
// exactly three left and whole counts, the depth-two solver gives every
// cut's sides their best one-split losses in one pass per pair of features
// (CutScoring::one_split_losses()), so a side's front is known exactly up
// to one split, and the seeds include each feature's best trees of two and
// three splits (a leaf and a stump, two stumps). wilt, exhaustive depth 3:
// 2,658 root splits solved before, 257 with these seeds, exact one-split
// sides and ties broken by candidate (dominated()).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/fronts/pareto.h"

namespace dpdt {

// Leaf losses and weights of the two sides of every cut of one feature.
class PrefixLeaves {
 public:
  explicit PrefixLeaves(const Dataset& d)
      : d_(d), row_bound_(std::max(1, d.n_classes), 1.0),
        counted_(d.unit_weights && d.loss_matrix.empty() && !d.regression()),
        two_costs_(d.n_classes == 2 && !d.loss_matrix.empty()),
        counted_costs_(two_costs_ && d.unit_weights && losses_sum_exactly(d)) {
    const int k = d.n_classes;
    if (!d.loss_matrix.empty())
      for (int c = 0; c < k; ++c) {
        row_bound_[c] = 0.0;
        for (int j = 0; j < k; ++j) row_bound_[c] = std::max(row_bound_[c], d.loss_matrix[c * k + j]);
      }
  }

  // A state's m rows sorted by one feature (classification). Every row's
  // sums are written, so only the first row's are zeroed; a row's class
  // sums are copied from the row before as a fixed number of values, a
  // power of two at least the classes (the values past them land on the
  // next row's, written after it, or on the slack at the end): a copy of
  // k values, k known only at run time, was a call to memmove per row (a
  // tenth of exhaustive depth 3 on room, with the zeroing).
  void start(const Entry* rows, int m) {
    const std::size_t k = static_cast<std::size_t>(d_.n_classes);
    m_ = m;
    if (counted_) return start_counted(rows, m);
    if (counted_costs_) return start_counted_costs(rows, m);
    class_weight_.resize((static_cast<std::size_t>(m) + 1) * k + kSlack);
    std::fill(class_weight_.begin(), class_weight_.begin() + static_cast<std::ptrdiff_t>(k), 0.0);
    weight_.resize(static_cast<std::size_t>(m) + 1);
    removable_.resize(static_cast<std::size_t>(m) + 1);
    weight_[0] = removable_[0] = 0.0;
    if (k <= 2) sum_rows<2>(rows, m);
    else if (k <= 4) sum_rows<4>(rows, m);
    else if (k <= 8) sum_rows<8>(rows, m);
    else if (k <= kSlack) sum_rows<kSlack>(rows, m);
    else sum_rows<0>(rows, m);
    right_cw_.resize(k);
  }

  // start() on the rows of a run of numeric cuts of one feature that send
  // its missing values to the same side (BoundedSweep::feature_runs()), in
  // the order the cuts send them left: the feature's sorted block (missing
  // values last), or, when the missing values go left, those rows first.
  // Returns what to add to a cut (its non-missing rows going left) for its
  // position in that order.
  int start_run(const Entry* rows, int m, signed char na_left) {
    if (na_left != 1) {
      start(rows, m);
      return 0;
    }
    int present = present_rows(rows, m);
    missing_first_.assign(rows + present, rows + m);
    missing_first_.insert(missing_first_.end(), rows, rows + present);
    start(missing_first_.data(), m);
    return m - present;
  }

  // Whether every leaf loss is a whole number (whole counts: unit weights,
  // 0/1 loss), and so every loss the sweep's bounds add up.
  bool whole_losses() const { return counted_; }

  // The largest loss the rows between two cuts can carry.
  double removable(int from, int to) const {
    return counted_ ? to - from : removable_[to] - removable_[from];
  }
  double weight_left(int cut) const { return counted_ || counted_costs_ ? cut : weight_[cut]; }
  double weight_right(int cut) const {
    return counted_ || counted_costs_ ? m_ - cut : weight_[m_] - weight_[cut];
  }
  // Whole counts inline, the rest called (with every case inline, the
  // whole counts' leaves were no longer inlined into the sweep's bounds).
  [[gnu::always_inline]] double leaf_left(int cut) const {
    return counted_ ? cut - top_left_[cut] : leaf_left_of_sums(cut);
  }
  [[gnu::always_inline]] double leaf_right(int cut) {
    return counted_ ? m_ - cut - top_right_[cut] : leaf_right_of_sums(cut);
  }
  // The same with whole counts (whole_losses()), as ints.
  [[gnu::always_inline]] int whole_leaf_left(int cut) const { return cut - top_left_[cut]; }
  [[gnu::always_inline]] int whole_leaf_right(int cut) const { return m_ - cut - top_right_[cut]; }

 private:
  [[gnu::noinline]] double leaf_left_of_sums(int cut) const {
    if (counted_costs_) return two_class_cost(cut - ones_[cut], ones_[cut]);
    const double* left = &class_weight_[cut * static_cast<std::size_t>(d_.n_classes)];
    if (two_costs_) return two_class_cost(left[0], left[1]);
    return class_loss(d_, left, weight_[cut]);
  }
  [[gnu::noinline]] double leaf_right_of_sums(int cut) {
    if (counted_costs_) {
      const int ones = ones_[m_] - ones_[cut];
      return two_class_cost(m_ - cut - ones, ones);
    }
    const std::size_t k = static_cast<std::size_t>(d_.n_classes);
    const double* all = &class_weight_[m_ * k];
    const double* left = &class_weight_[cut * k];
    if (two_costs_) return two_class_cost(all[0] - left[0], all[1] - left[1]);
    if (d_.loss_matrix.empty()) {  // misclassified() of the right side's sums, not copied
      double top = 0.0;
      for (std::size_t c = 0; c < k; ++c) top = std::max(top, all[c] - left[c]);
      return std::max(0.0, weight_right(cut) - top);
    }
    for (std::size_t c = 0; c < k; ++c) right_cw_[c] = all[c] - left[c];
    return class_loss(d_, right_cw_.data(), weight_right(cut));
  }

  // class_loss() of two classes' weights with a loss matrix (its diagonal
  // 0), the same value without its loops: the cheaper of predicting 0
  // (class 1's weight times its cost) and 1, the first on a tie.
  double two_class_cost(double w0, double w1) const {
    const double as0 = w1 * d_.loss_matrix[2], as1 = w0 * d_.loss_matrix[1];
    return std::max(0.0, as1 < as0 ? as1 : as0);
  }

  // The most classes whose sums are copied as a fixed number of values.
  static constexpr std::size_t kSlack = 16;

  // Whole counts (unit weights, 0/1 loss): a side's leaf misclassifies its
  // rows less its largest class, so only that class's count is kept at
  // each cut, for each side (two passes); weights and removable losses are
  // counts of rows. The same values as the sums, without writing k + 2 of
  // them per row (exhaustive depth 3, complexity "splits", paired CPU,
  // median of 5: skin 0.88, page 0.96, wilt 0.98, raisin 1.01).
  void start_counted(const Entry* rows, int m) {
    top_left_.resize(static_cast<std::size_t>(m) + 1);
    top_right_.resize(static_cast<std::size_t>(m) + 1);
    top_left_[0] = top_right_[m] = 0;
    if (d_.n_classes == 2) {
      const std::uint8_t* label = d_.label_byte.data();
      int ones = 0;
      for (int i = 0; i < m; ++i) {
        ones += label[rows[i].row];
        top_left_[i + 1] = std::max(ones, i + 1 - ones);
      }
      ones = 0;
      for (int i = m - 1; i >= 0; --i) {
        ones += label[rows[i].row];
        top_right_[i] = std::max(ones, m - i - ones);
      }
      return;
    }
    count_.assign(static_cast<std::size_t>(d_.n_classes), 0);
    int top = 0;
    for (int i = 0; i < m; ++i) {
      top = std::max(top, ++count_[d_.label[rows[i].row]]);
      top_left_[i + 1] = top;
    }
    std::fill(count_.begin(), count_.end(), 0);
    top = 0;
    for (int i = m - 1; i >= 0; --i) {
      top = std::max(top, ++count_[d_.label[rows[i].row]]);
      top_right_[i] = top;
    }
  }

  // Two classes, unit weights and whole costs: the sums are whole numbers
  // (losses_sum_exactly()), every one a count of rows of class 1 and the
  // rest, so only those counts are kept, one per cut: the same values,
  // without writing four sums per row.
  void start_counted_costs(const Entry* rows, int m) {
    ones_.resize(static_cast<std::size_t>(m) + 1);
    removable_.resize(static_cast<std::size_t>(m) + 1);
    ones_[0] = 0;
    removable_[0] = 0.0;
    const std::uint8_t* label = d_.label_byte.data();
    for (int i = 0; i < m; ++i) {
      const int y = label[rows[i].row];
      ones_[i + 1] = ones_[i] + y;
      removable_[i + 1] = removable_[i] + row_bound_[y];
    }
  }

  // start()'s sums; `Width` values copied per row (0: exactly the classes).
  template <std::size_t Width>
  void sum_rows(const Entry* rows, int m) {
    const std::size_t k = static_cast<std::size_t>(d_.n_classes);
    double* cw = class_weight_.data();
    for (int i = 0; i < m; ++i) {
      const int row = rows[i].row;
      const double w = d_.weight[row];
      const double* prev = cw + i * k;
      double* next = cw + (i + 1) * k;
      if constexpr (Width > 0) {
        double copy[Width];  // prev and next overlap when Width > k
        for (std::size_t c = 0; c < Width; ++c) copy[c] = prev[c];
        for (std::size_t c = 0; c < Width; ++c) next[c] = copy[c];
      } else {
        std::copy(prev, prev + k, next);
      }
      next[d_.label[row]] += w;
      weight_[i + 1] = weight_[i] + w;
      removable_[i + 1] = removable_[i] + w * row_bound_[d_.label[row]];
    }
  }

  const Dataset& d_;
  std::vector<double> row_bound_;  // a row's largest loss per unit weight, by class
  const bool counted_;
  const bool two_costs_;  // two classes with a loss matrix (two_class_cost())
  const bool counted_costs_;  // and unit weights, whole costs (start_counted_costs())
  int m_ = 0;
  std::vector<double> class_weight_, weight_, removable_, right_cw_;
  // Counted: the largest class's count left of each cut, and right of it.
  std::vector<int> top_left_, top_right_, count_;
  // Counted costs: the rows of class 1 before each cut.
  std::vector<int> ones_;
  std::vector<Entry> missing_first_;  // start_run()'s rows, missing values sent left
};

// The action of a point of a tree found by another search of the same
// space (Search::incumbent_front()): a real tree, so a point it dominates
// strictly cannot be on the front, but solved by no candidate of this
// state, so it wins no tie (sorted after the candidates' equal points).
constexpr std::int32_t kIncumbent = std::numeric_limits<std::int32_t>::max();

// Whether split `split` (a candidate index), whose every tree loses at
// least `least`, may hold the state's most accurate tree (best_only),
// beside `best`, the bounding front's least loss: it must lose strictly
// less than a later candidate's point, at most as much as an earlier
// one's or an incumbent's (ties go to the earliest candidate, whatever
// the order the splits were solved in: a root spread over processes merges
// its chunks so, and a missing-value feature's two runs of cuts met a
// tie one process and its chunks broke apart).
inline bool may_be_most_accurate(double least, const FrontPoint& best, const LossTolerance& tol,
                                 std::int32_t split) {
  if (best.action == kIncumbent || split < best.action) return !tol.below(best.loss, least);
  return tol.below(least, best.loss);
}
// With tolerances 0, for least losses that are whole numbers: the least
// one may_be_most_accurate() rules out for `split` (for a later split it is
// no larger).
inline double least_whole_ruled_out(const FrontPoint& best, std::int32_t split) {
  if (best.action == kIncumbent || split < best.action) return std::floor(best.loss) + 1.0;
  return std::ceil(best.loss);
}

// dominated() for points of one complexity c: the front's lookup for c
// made once (the front must not change meanwhile), then each point's answer.
class DominatedAt {
 public:
  DominatedAt(const std::vector<FrontPoint>& front, double c, const LossTolerance& tol) : tol_(tol) {
    auto it = std::lower_bound(front.begin(), front.end(), c,
                               [](const FrontPoint& p, double v) { return p.complexity < v; });
    equal_ = it != front.end() && it->complexity == c;
    if (equal_) {
      equal_loss_ = it->loss;
      equal_action_ = it->action;
    }
    has_prev_ = it != front.begin();
    if (has_prev_) prev_loss_ = std::prev(it)->loss;
  }

  // With tolerances 0, for losses that are whole numbers: the least loss
  // operator() finds dominated, for each split, so that a test is one
  // comparison with no branch (the sweep's bounds test most cuts of most
  // states: exhaustive depth 3, wilt, ten million tests). Made apart from
  // the lookup: dominated() makes a DominatedAt for every point, and with
  // these in its constructor the "tests" path of exact_levels = 2 spent a
  // fifth of its time there (htru).
  class Whole {
   public:
    explicit Whole(const DominatedAt& at) : equal_action_(at.equal_action_) {
      const double inf = std::numeric_limits<double>::infinity();
      least_ = at.has_prev_ ? std::ceil(at.prev_loss_) : inf;
      if (at.equal_) least_ = std::min(least_, std::floor(at.equal_loss_) + 1.0);
      least_tie_ = at.equal_ && equal_action_ >= 0 ? std::min(least_, std::ceil(at.equal_loss_)) : least_;
      ints_ = {equal_action_ >= 0 ? equal_action_ : std::numeric_limits<std::int32_t>::max(),
               as_int(least_), as_int(least_tie_)};
    }
    [[gnu::always_inline]] double least(std::int32_t split) const {
      return equal_action_ >= 0 && equal_action_ < split ? least_tie_ : least_;
    }
    // least() as an int, for losses below kBeyondWholeLosses (beyond:
    // none is dominated).
    static constexpr int kBeyondWholeLosses = 1 << 30;
    struct Ints {
      std::int32_t tie_after;  // splits after it get `tie` (INT32_MAX: none)
      int least, tie;
      [[gnu::always_inline]] int at(std::int32_t split) const { return split > tie_after ? tie : least; }
    };
    // A whole loss as an int, within kBeyondWholeLosses either way.
    static int as_int(double loss) {
      const double most = kBeyondWholeLosses;
      return static_cast<int>(std::max(-most, std::min(loss, most)));
    }
    // least() as ints, made with it (the sweep asks for them per interval).
    const Ints& ints() const { return ints_; }

   private:
    std::int32_t equal_action_;
    double least_ = 0.0, least_tie_ = 0.0;
    Ints ints_{};
  };
  // Always inlined: the sweep asks it of every cut of an interval, and
  // where GCC called it, exhaustive depth 3 took 1.04 times as long (wilt,
  // occupancy, paired CPU, median of 5).
  [[gnu::always_inline]] bool operator()(double l, std::int32_t split) const {
    if (equal_ && (tol_.below(equal_loss_, l) ||
                   (equal_action_ >= 0 && equal_action_ < split && equal_loss_ <= l)))
      return true;
    return has_prev_ && prev_loss_ <= l;
  }

 private:
  LossTolerance tol_;
  bool equal_ = false, has_prev_ = false;
  double equal_loss_ = 0.0, prev_loss_ = 0.0;
  std::int32_t equal_action_ = -1;
};

// least_whole_ruled_out() as the ints of DominatedAt::Whole: a split
// before the best point's action rules out one more loss than the others.
inline DominatedAt::Whole::Ints whole_ruled_out(const FrontPoint& best) {
  using W = DominatedAt::Whole;
  return {best.action == kIncumbent ? kIncumbent : best.action - 1,
          W::as_int(std::floor(best.loss) + 1.0), W::as_int(std::ceil(best.loss))};
}

// Whether a point (c, l) of candidate `split` of a state cannot change a
// front that holds `front`'s points (sorted by complexity, losses falling;
// their actions the state's candidates): a point less complex is at most
// as bad, or one as complex is better by more than the tolerance, or is as
// good and comes from an earlier candidate. The state's front is assembled
// in candidate order, and among points equal within the tolerance
// keep_pareto keeps the first unless a later one is better by more than
// it: once the earlier candidate's point is in, the one kept loses at most
// the tolerance more than it, so a later point at least as bad never wins.
// split = -1: no candidate known (ties not broken).
inline bool dominated(const std::vector<FrontPoint>& front, double c, double l,
                      const LossTolerance& tol, std::int32_t split = -1) {
  return DominatedAt(front, c, tol)(l, split);
}

// keep_pareto for the points the bounds compare with (a sweep's own
// front, never returned): of equally complex points the least loss, and of
// equal ones the earliest candidate's, kept, which lets dominated()'s tie
// rule skip every later candidate that can only tie (keep_pareto keeps the
// first found, and a sweep finds cuts out of order).
// Points are appended to a front kept so (a solved split's, the scored
// cuts'): only those past the sorted prefix are sorted, then merged (with
// complexity "tests", sorting the whole front after each split was a
// seventh of exact_levels = 2 on bean). Points equal in all three keys
// differ only in which children's points make them, which no bound reads.
inline void keep_bounding_front(std::vector<FrontPoint>& pts, const LossTolerance& tol,
                                double complexity_tol) {
  const auto before = [](const FrontPoint& a, const FrontPoint& b) {
    if (a.complexity != b.complexity) return a.complexity < b.complexity;
    if (a.loss != b.loss) return a.loss < b.loss;
    return a.action < b.action;
  };
  const auto sorted_end = std::is_sorted_until(pts.begin(), pts.end(), before);
  std::sort(sorted_end, pts.end(), before);
  std::inplace_merge(pts.begin(), sorted_end, pts.end(), before);
  keep_pareto_sorted(pts, tol, complexity_tol);
}

}  // namespace dpdt
