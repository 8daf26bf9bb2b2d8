// The exact depth-two solver: for a state with two levels left, the lowest
// 0/1 loss of one split of each side of every numeric cut, over every
// feature and threshold, without writing out any side's rows.
//
// A side holding class counts A_c, split at boundary b of a feature f2
// (a_c(b) of its rows at or below b), keeps
//   max_c a_c(b) + max_c' (A_c' - a_c'(b))
// rows correctly classified: the largest of A_c (when c = c') and, for each
// pair c < c' and e(b) = a_c(b) - a_c'(b), of A_c' + e(b) and A_c - e(b).
// So a side's best split on f2 needs only the largest and smallest e(b) over
// the boundaries, per pair of classes. The left sides of a feature f1's cuts
// grow one row at a time in f1's order; a row of class y at f2's value group
// g adds +-1 to e on the suffix b >= g of every pair holding y. A segment
// tree keeps the extremes under suffix additions in O(log m), so every left
// side (and, adding rows in reverse order, every right side) of f1's cuts on
// f2 costs O(m log m (k - 1)), where writing each cut's sides out and
// scanning them costs O(m p) per cut. Boundaries with an empty side give the
// leaf's loss, which a split never exceeds, so they change no minimum.
//
// With min_bucket > 1 a side's split must leave min_bucket of its rows on
// each side: its boundaries form a range [lo, hi] (rows at or below lo >=
// min_bucket, rows above hi >= min_bucket), found in a Fenwick tree of the
// side's rows per value group, and the extremes of e are taken over that
// range only, also in O(log m).
//
// Unit weights and 0/1 loss: every count is a whole number, every loss
// exact, and equal to what the last level's scans find.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "core/data/dataset.h"
#include "core/splits/split_rule.h"
#include "core/splits/wide_lanes.h"

namespace dpdt {

// Largest and smallest of m values under "add v to every value from i on",
// in one or more lanes of values. The lanes' nodes lie side by side: the
// additions a row makes to several lanes (one per pair of classes holding
// its class) walk one path, not one path per lane (bean, 7 classes: the
// scans 21 % faster).
class SuffixAddExtremes {
 public:
  // `allow_wide`: several lanes' additions may use AVX2 where the CPU has
  // it (the tests compare both ways).
  explicit SuffixAddExtremes(bool allow_wide = true) : wide_(allow_wide && cpu_has_avx2()) {}
  // An addition of `value` to lane `lane`.
  struct Add {
    int lane, value;
  };

  void reset(int values, int lanes = 1) {
    size_ = 1;
    while (size_ < values) size_ *= 2;
    lanes_ = lanes;
    nodes_.assign(2 * static_cast<std::size_t>(size_) * lanes, Node{});
  }
  // One lane. The path's node extremes stay in registers on the way up
  // (read back from memory, each level waited for the store of the one
  // below); only the sibling's and the parent's pending addition are loaded.
  void add_from(int i, int v) {
    Node* const nodes = nodes_.data();
    int at = i + size_;
    int hi = nodes[at].max += v;
    int lo = nodes[at].min += v;
    while (at > 1) {
      // A left child's right sibling lies wholly in the suffix; a right
      // child's left sibling gets 0 (no branch to mispredict).
      const int w = (at & 1) ? 0 : v;
      Node& s = nodes[at ^ 1];
      s.max += w;
      s.min += w;
      s.add += w;
      const int s_hi = s.max, s_lo = s.min;
      at >>= 1;
      Node& n = nodes[at];
      hi = std::max(hi, s_hi) + n.add;
      lo = std::min(lo, s_lo) + n.add;
      n.max = hi;
      n.min = lo;
    }
  }
  // Several lanes: each of [first, last) from i on. Compiled once more for
  // AVX2, run where the CPU has it (wide_lanes.h): exhaustive depth 2 on
  // bean (7 classes, 21 lanes), complexity "tests", spends two thirds of
  // the time here.
  void add_from(int i, const Add* first, const Add* last) {
#if DPDT_WIDE_LANES
    if (wide_) return add_from_wide(i, first, last);
#endif
    add_from_body(i, first, last);
  }
#if DPDT_WIDE_LANES
  DPDT_TARGET_AVX2 void add_from_wide(int i, const Add* first, const Add* last) {
    add_from_body(i, first, last);
  }
#endif
  [[gnu::always_inline]] inline void add_from_body(int i, const Add* first, const Add* last) {
    int at = i + size_;
    for (const Add* a = first; a != last; ++a) {
      Node& x = node(at, a->lane);
      x.max += a->value;
      x.min += a->value;
    }
    while (at > 1) {
      if (!(at & 1))
        for (const Add* a = first; a != last; ++a) {
          Node& s = node(at | 1, a->lane);
          s.max += a->value;
          s.min += a->value;
          s.add += a->value;
        }
      at >>= 1;
      for (const Add* a = first; a != last; ++a) {
        Node& n = node(at, a->lane);
        const Node& l = node(2 * at, a->lane);
        const Node& r = node(2 * at + 1, a->lane);
        n.max = std::max(l.max, r.max) + n.add;
        n.min = std::min(l.min, r.min) + n.add;
      }
    }
  }
  int max(int lane = 0) const { return nodes_[static_cast<std::size_t>(lanes_) + lane].max; }
  int min(int lane = 0) const { return nodes_[static_cast<std::size_t>(lanes_) + lane].min; }
  // The extremes of values [first, last] (inclusive) of one lane, bottom
  // up: the nodes taken on the left all lie below node l - 1 of the level
  // reached (on the right below r + 1), so each step up adds that node's
  // pending addition to what they hold, and past the meeting point the
  // additions of its ancestors up to the root. (The recursive descent it
  // replaces was a fifth of exhaustive depth 3 on wilt, min_bucket 5.)
  std::pair<int, int> range(int first, int last, int lane) const {
    Extremes left, right;
    int l = first + size_, r = last + size_;
    while (l <= r) {
      if (l & 1) left.take(node(l++, lane));
      if (!(r & 1)) right.take(node(r--, lane));
      l >>= 1;
      r >>= 1;
      left.shift(node(l - 1, lane).add);
      right.shift(node(r + 1, lane).add);
    }
    for (int at = l - 1; at > 1;) left.shift(node(at >>= 1, lane).add);
    for (int at = r + 1; at > 1;) right.shift(node(at >>= 1, lane).add);
    return {std::max(left.max, right.max), std::min(left.min, right.min)};
  }

 private:
  // A node's extremes include its own pending addition, not its ancestors'.
  struct Node {
    int max = 0, min = 0, add = 0;
  };
  Node& node(int at, int lane) { return nodes_[static_cast<std::size_t>(at) * lanes_ + lane]; }
  const Node& node(int at, int lane) const {
    return nodes_[static_cast<std::size_t>(at) * lanes_ + lane];
  }
  // The extremes of nodes taken by range(), none at first.
  struct Extremes {
    int max = std::numeric_limits<int>::min(), min = std::numeric_limits<int>::max();
    bool any = false;
    void take(const Node& n) {
      max = std::max(max, n.max);
      min = std::min(min, n.min);
      any = true;
    }
    void shift(int add) {
      if (!any) return;
      max += add;
      min += add;
    }
  };
  int size_ = 1, lanes_ = 1;
  std::vector<Node> nodes_;
  bool wide_;
};

class DepthTwoSolver {
 public:
  // The loss of each side of a cut as a leaf and with its best split, and
  // the first feature (in feature order) of a split with that loss, -1 when
  // no split loses less than the leaf: the last level's scans choose a split
  // of that feature.
  struct Sides {
    int leaf_left = 0, leaf_right = 0, best_left = 0, best_right = 0;
    int feature_left = -1, feature_right = -1;
  };

  explicit DepthTwoSolver(const Dataset& d)
      : d_(d), k_(d.n_classes), count_(d.n_classes), total_(d.n_classes) {
    for (int c = 0; c < k_; ++c)
      for (int c2 = c + 1; c2 < k_; ++c2) pairs_.push_back({c, c2});
    pairs_of_.resize(k_);
    for (std::size_t q = 0; q < pairs_.size(); ++q) {
      pairs_of_[pairs_[q].first].push_back({static_cast<int>(q), 1});
      pairs_of_[pairs_[q].second].push_back({static_cast<int>(q), -1});
    }
  }

  // A state's m rows (every feature's block, no missing values, no
  // categorical feature) and its numeric cuts, each feature's ascending:
  // the leaf losses of every cut's sides, their best split losses set to
  // the leaves' until scan() lowers them.
  // Sides' splits leave at least `min_bucket` rows on each side.
  void start(const Entry* block, int m, const std::vector<SplitRule>& cuts, int min_bucket = 1) {
    if (group_.empty()) group_.resize(d_.n);  // only workspaces that score pay for it
    block_ = block;
    m_ = m;
    min_bucket_ = std::max(1, min_bucket);
    sides_.assign(cuts.size(), Sides{});
    work_ = static_cast<double>(m) * d_.p;
    cuts_of_.assign(d_.p, {});
    for (std::size_t i = 0; i < cuts.size(); ++i)
      cuts_of_[cuts[i].feature].push_back({static_cast<int>(i), cuts[i].cut});
    for (int f = 0; f < d_.p; ++f) {
      if (cuts_of_[f].empty()) continue;
      const Entry* rows = block + static_cast<std::size_t>(f) * m;
      std::fill(count_.begin(), count_.end(), 0);
      std::fill(total_.begin(), total_.end(), 0);
      for (int i = 0; i < m; ++i) ++total_[d_.label[rows[i].row]];
      std::size_t j = 0;
      for (int i = 0; i < m && j < cuts_of_[f].size(); ++i) {
        ++count_[d_.label[rows[i].row]];
        if (i + 1 != cuts_of_[f][j].second) continue;
        int left_max = 0, right_max = 0;
        for (int c = 0; c < k_; ++c) {
          left_max = std::max(left_max, count_[c]);
          right_max = std::max(right_max, total_[c] - count_[c]);
        }
        Sides& s = sides_[cuts_of_[f][j].first];
        s.best_left = s.leaf_left = i + 1 - left_max;
        s.best_right = s.leaf_right = m - (i + 1) - right_max;
        ++j;
      }
    }
  }

  // Lowers every cut's best split losses to those of splits on feature f2.
  void scan(int f2) {
    const Entry* rows2 = block_ + static_cast<std::size_t>(f2) * m_;
    int groups = 1;
    for (int i = 0; i < m_; ++i) {
      if (i > 0 && rows2[i - 1].rank != rows2[i].rank) ++groups;
      group_[rows2[i].row] = groups - 1;
    }
    groups_ = groups;
    bool groups_counted = false;
    work_ += m_;
    for (int f1 = 0; f1 < d_.p; ++f1) {
      const auto& cuts = cuts_of_[f1];
      if (cuts.empty()) continue;
      const Entry* rows1 = block_ + static_cast<std::size_t>(f1) * m_;
      const Costs cost = costs(m_, cuts.size(), groups, k_);
      work_ += std::min(cost.counts, cost.trees);
      if (by_counts(cuts.size(), groups)) {
        if (!groups_counted) count_groups(rows2, groups);
        groups_counted = true;
        scan_by_counts(f2, rows1, cuts, groups);
        continue;
      }
      start_trees(groups);
      for (int i = 0, j = 0; j < static_cast<int>(cuts.size()); ++i) {
        add_row(rows1[i].row);
        if (i + 1 != cuts[j].second) continue;
        Sides& s = sides_[cuts[j].first];
        lower(s.best_left, s.feature_left, i + 1 - best_kept(), f2);
        ++j;
      }
      start_trees(groups);
      for (int i = m_ - 1, j = static_cast<int>(cuts.size()) - 1; j >= 0; --i) {
        add_row(rows1[i].row);
        if (i != cuts[j].second) continue;
        Sides& s = sides_[cuts[j].first];
        lower(s.best_right, s.feature_right, m_ - i - best_kept(), f2);
        --j;
      }
    }
  }

  // Takes the lower losses of another solver that scanned other features
  // of the same state.
  void merge(const DepthTwoSolver& other) {
    for (std::size_t i = 0; i < sides_.size(); ++i) {
      const Sides& o = other.sides_[i];
      lower(sides_[i].best_left, sides_[i].feature_left, o.best_left, o.feature_left);
      lower(sides_[i].best_right, sides_[i].feature_right, o.best_right, o.feature_right);
    }
  }

  const std::vector<Sides>& sides() const { return sides_; }

  // Whether scoring `cuts` cuts of a state of m rows on a feature of
  // `groups` values is cheaper from group counts than by trees (k classes).
  static bool counts_cheaper(int m, std::size_t cuts, int groups, int k) {
    const Costs c = costs(m, cuts, groups, k);
    return c.counts < c.trees;
  }

  // The row visits of start() and the scan()s since (the cheaper way's
  // cost for each pair of features: SearchContext::count_visits()).
  double work() const { return work_; }

  // The cost of scoring `cuts` cuts on a feature of `groups` values, in
  // row visits: from group counts, or by the trees of extremes (both sides,
  // a segment-tree step per value group's level and pair of classes).
  struct Costs {
    double counts, trees;
  };
  static Costs costs(int m, std::size_t cuts, int groups, int k) {
    const double lanes = std::max(1.0, k * (k - 1) / 2.0);
    return {m + 2.0 * static_cast<double>(cuts) * groups * k,
            2.0 * m * (1.0 + std::log2(static_cast<double>(std::max(1, groups)))) * lanes};
  }

  // Which way scan() finds a side's best split: kAuto chooses the cheaper
  // per pair of features; the others are for the tests.
  enum class Way { kAuto, kTrees, kCounts };
  void set_way(Way w) { way_ = w; }

 private:
  // Whether f1's cuts are scored on f2 from f2's value groups' class counts
  // (scan_by_counts(): O(m + cuts x groups x k)) rather than by the trees
  // of extremes (O(m log(groups) x pairs of classes), both sides): few
  // values of f2 in the state, as with one-byte data (skin: 256 values on
  // 196,045 rows) or deep in a tree.
  bool by_counts(std::size_t cuts, int groups) const {
    if (way_ != Way::kAuto) return way_ == Way::kCounts;
    return counts_cheaper(m_, cuts, groups, k_);
  }

  // scan() for f1's cuts on f2 from class counts: f1's rows added in order,
  // each to its f2 group's counts; at a cut, the left side's counts are
  // those, the right side's the totals' less those, and each side's best
  // split on f2 is one pass over the groups.
  // The state's class counts per value group of f2 (group_totals_) and in
  // all (total_), the same for every f1: once per scan().
  void count_groups(const Entry* rows2, int groups) {
    group_totals_.assign(static_cast<std::size_t>(groups) * k_, 0);
    std::fill(total_.begin(), total_.end(), 0);
    const int* label = d_.label.data();
    for (int i = 0; i < m_; ++i) {
      const int row = rows2[i].row;
      ++group_totals_[static_cast<std::size_t>(group_[row]) * k_ + label[row]];
      ++total_[label[row]];
    }
  }

  // After count_groups().
  void scan_by_counts(int f2, const Entry* rows1, const std::vector<std::pair<int, int>>& cuts,
                      int groups) {
    group_counts_.assign(static_cast<std::size_t>(groups) * k_, 0);
    std::fill(count_.begin(), count_.end(), 0);
    const int* label = d_.label.data();
    for (int i = 0, j = 0; j < static_cast<int>(cuts.size()); ++i) {
      const int row = rows1[i].row;
      ++group_counts_[static_cast<std::size_t>(group_[row]) * k_ + label[row]];
      ++count_[label[row]];
      if (i + 1 != cuts[j].second) continue;
      Sides& s = sides_[cuts[j].first];
      lower(s.best_left, s.feature_left, i + 1 - kept_by_counts(false, i + 1), f2);
      lower(s.best_right, s.feature_right, m_ - (i + 1) - kept_by_counts(true, m_ - (i + 1)), f2);
      ++j;
    }
  }

  // best_kept() of one side from the group counts: the left side's
  // (group_counts_, count_) or the right side's (the totals less those);
  // `size`: its rows.
  int kept_by_counts(bool right, int size) {
    if (k_ == 2 && min_bucket_ == 1)
      return right ? kept_by_two_counts<true>() : kept_by_two_counts<false>();
    side_.resize(k_);
    below_.assign(k_, 0);
    for (int c = 0; c < k_; ++c) side_[c] = right ? total_[c] - count_[c] : count_[c];
    int kept = *std::max_element(side_.begin(), side_.end());
    if (size < 2 * min_bucket_) return kept;
    int rows = 0;
    for (int g = 0; g + 1 < groups_; ++g) {
      const std::size_t at = static_cast<std::size_t>(g) * k_;
      int in = 0;
      for (int c = 0; c < k_; ++c) {
        const int v = right ? group_totals_[at + c] - group_counts_[at + c] : group_counts_[at + c];
        below_[c] += v;
        in += v;
      }
      if (in == 0) continue;  // the same split as the group before
      rows += in;
      if (rows < min_bucket_) continue;
      if (size - rows < min_bucket_) break;
      int lo = 0, hi = 0;
      for (int c = 0; c < k_; ++c) {
        lo = std::max(lo, below_[c]);
        hi = std::max(hi, side_[c] - below_[c]);
      }
      kept = std::max(kept, lo + hi);
    }
    return kept;
  }

  // kept_by_counts() of two classes with min_bucket 1, in registers and
  // without its skips: a boundary with an empty side keeps what the leaf
  // keeps, and one no row crosses what the one before it keeps, so neither
  // changes the largest (skin with exact_levels = 2: 256 groups a side).
  template <bool Right>
  int kept_by_two_counts() const {
    const int s0 = Right ? total_[0] - count_[0] : count_[0];
    const int s1 = Right ? total_[1] - count_[1] : count_[1];
    const int* counts = group_counts_.data();
    const int* totals = group_totals_.data();
    int kept = std::max(s0, s1), b0 = 0, b1 = 0;
    for (int g = 0; g + 1 < groups_; ++g) {
      b0 += Right ? totals[2 * g] - counts[2 * g] : counts[2 * g];
      b1 += Right ? totals[2 * g + 1] - counts[2 * g + 1] : counts[2 * g + 1];
      kept = std::max(kept, std::max(b0, b1) + std::max(s0 - b0, s1 - b1));
    }
    return kept;
  }

  // A side's best loss and its first feature, given another split's.
  static void lower(int& best, int& feature, int loss, int loss_feature) {
    if (loss < best || (loss == best && feature >= 0 && loss_feature >= 0 && loss_feature < feature)) {
      best = loss;
      feature = loss_feature;
    }
  }

  void start_trees(int groups) {
    pairs_tree_.reset(groups, static_cast<int>(pairs_.size()));
    std::fill(count_.begin(), count_.end(), 0);
    added_ = 0;
    if (min_bucket_ > 1) {
      fenwick_.assign(static_cast<std::size_t>(groups) + 1, 0);
      fenwick_top_ = 1;
      while (2 * fenwick_top_ <= groups) fenwick_top_ *= 2;
    }
  }

  void add_row(int row) {
    const int y = k_ == 2 ? d_.label_byte[row] : d_.label[row];
    ++count_[y];
    ++added_;
    if (min_bucket_ > 1)
      for (int i = group_[row] + 1; i <= groups_; i += i & -i) ++fenwick_[i];
    if (k_ == 2) {
      pairs_tree_.add_from(group_[row], y == 0 ? 1 : -1);
      return;
    }
    const auto& adds = pairs_of_[y];
    pairs_tree_.add_from(group_[row], adds.data(), adds.data() + adds.size());
  }

  // The first value group at or below which at least `rows` of the rows
  // added lie (groups_ when fewer were added).
  int group_holding(int rows) const {
    int at = 0;
    for (int step = fenwick_top_; step > 0; step /= 2)
      if (at + step <= groups_ && fenwick_[at + step] < rows) {
        at += step;
        rows -= fenwick_[at];
      }
    return at;  // 0-based: the group with 1-based index at + 1
  }

  // The most rows one split of the rows added so far classifies correctly.
  int best_kept() const {
    int kept = 0;
    for (int c = 0; c < k_; ++c) kept = std::max(kept, count_[c]);
    if (min_bucket_ > 1) return best_kept_within(kept);
    for (std::size_t q = 0; q < pairs_.size(); ++q) {
      const auto [c, c2] = pairs_[q];
      const int lane = static_cast<int>(q);
      kept = std::max(kept, std::max(count_[c2] + pairs_tree_.max(lane),
                                     count_[c] - pairs_tree_.min(lane)));
    }
    return kept;
  }

  // best_kept() over the boundaries that leave min_bucket rows on each side.
  int best_kept_within(int kept) const {
    if (added_ < 2 * min_bucket_) return kept;
    const int lo = group_holding(min_bucket_);
    const int hi = group_holding(added_ - min_bucket_ + 1) - 1;
    if (lo > hi) return kept;
    for (std::size_t q = 0; q < pairs_.size(); ++q) {
      const auto [c, c2] = pairs_[q];
      const auto [mx, mn] = pairs_tree_.range(lo, hi, static_cast<int>(q));
      kept = std::max(kept, std::max(count_[c2] + mx, count_[c] - mn));
    }
    return kept;
  }

  const Dataset& d_;
  const int k_;
  std::vector<std::pair<int, int>> pairs_;               // classes c < c'
  std::vector<std::vector<SuffixAddExtremes::Add>> pairs_of_;  // per class: (pair, sign of its e)
  SuffixAddExtremes pairs_tree_;                         // a lane per pair
  std::vector<int> group_;                               // by row: f2's value group
  std::vector<int> count_, total_;
  std::vector<int> group_counts_, group_totals_, side_, below_;  // scan_by_counts()
  Way way_ = Way::kAuto;
  std::vector<std::vector<std::pair<int, int>>> cuts_of_;  // per feature: (cut index, cut)
  std::vector<Sides> sides_;
  double work_ = 0.0;  // work()
  const Entry* block_ = nullptr;
  int m_ = 0;
  int min_bucket_ = 1;
  int groups_ = 0, added_ = 0;
  std::vector<int> fenwick_;  // min_bucket > 1: the side's rows per value group
  int fenwick_top_ = 1;
};

}  // namespace dpdt
