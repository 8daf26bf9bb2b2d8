// The training statistics of trees' nodes, and readable thresholds: a
// front's trees share most of their nodes' rows (the search builds them
// from shared states), so each distinct set of rows is counted once.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <tuple>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/fronts/tree.h"

namespace dpdt {

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

namespace detail {

// The distinct row sets of several trees' nodes. A node's rows are its
// parent's rows on one side of the parent's test, so a set is known by its
// path from the root: trees whose paths agree share the set, and a set's
// tests (each distinct test some tree makes of it) split its rows once.
class SharedRowSets {
 public:
  // Tree t's nodes' sets (set_of) and tests (test_of; -1 at a leaf).
  void add_tree(const FlatTree& t, std::vector<int>& set_of, std::vector<int>& test_of) {
    if (sets_.empty()) {
      sets_.emplace_back();
      depth_.push_back(0);
    }
    set_of.assign(t.size(), 0);
    test_of.assign(t.size(), -1);
    // Preorder: a node's parent comes before it.
    for (int v = 0; v < t.size(); ++v) {
      if (t.feature[v] < 0) continue;
      const int q = test_of[v] = test_of_set(set_of[v], t, v);
      set_of[t.left[v]] = tests_[q].child[1];
      set_of[t.right[v]] = tests_[q].child[0];
    }
  }

  // Every set's statistics, and with `readable` every numeric test's gap:
  // each set's rows in ascending order, as counting each tree alone does,
  // so the sums are the same to the bit. The rows go down a chunk at a
  // time, so the rows held at once are a few chunks', not a few times n
  // (a front on 10 million rows). Regression makes two passes, as
  // stats_of() does (weights of many orders): every set's sums, then its
  // deviations from its mean.
  void count(const Dataset& d, bool readable, int chunk_rows) {
    stats_.assign(sets_.size(), NodeStats(d.n_classes));
    if (sets_.empty()) return;
    side_rows_.assign(static_cast<std::size_t>(levels_), {});
    std::vector<int> rows;
    for (int pass = 0; pass < (d.regression() ? 2 : 1); ++pass) {
      for (int first = 0; first < d.n; first += chunk_rows) {
        rows.resize(static_cast<std::size_t>(std::min(chunk_rows, d.n - first)));
        std::iota(rows.begin(), rows.end(), first);
        count_set(d, readable && pass == 0, pass == 1, 0, 0, rows);
      }
      if (pass == 0 && d.regression())
        for (NodeStats& st : stats_) st.centre();
    }
  }

  const NodeStats& stats(int set) const { return stats_[set]; }
  // The training values either side of test q: the largest that goes
  // left, the smallest that goes right (infinite when none).
  double below(int q) const { return tests_[q].below; }
  double above(int q) const { return tests_[q].above; }

 private:
  struct Test {
    int feature;
    double threshold;
    signed char na_left;
    std::vector<int> left_levels;
    int child[2];  // the sets of side 0 (right) and side 1 (left)
    double below = -INFINITY, above = INFINITY;
  };
  // A test of a set, by its feature, threshold (bits: NAN for a
  // categorical test), NA side and left levels.
  using Key = std::tuple<int, int, std::uint64_t, int, std::vector<int>>;

  int test_of_set(int set, const FlatTree& t, int v) {
    std::uint64_t bits;
    std::memcpy(&bits, &t.threshold[v], sizeof bits);
    Key key{set, t.feature[v], bits, t.na_left[v], t.left_levels[v]};
    const auto found = index_.find(key);
    if (found != index_.end()) return found->second;
    const int q = static_cast<int>(tests_.size());
    const int right = static_cast<int>(sets_.size());
    sets_.emplace_back();
    sets_.emplace_back();
    depth_.push_back(depth_[set] + 1);
    depth_.push_back(depth_[set] + 1);
    levels_ = std::max(levels_, depth_[set] + 2);
    tests_.push_back(Test{t.feature[v], t.threshold[v], t.na_left[v], t.left_levels[v],
                          {right, right + 1}});
    sets_[set].push_back(q);
    index_.emplace(std::move(key), q);
    return q;
  }

  // The rows of set `set` (at depth `level`) added to its statistics, or
  // with `deviations` their deviations, and sent down its tests.
  void count_set(const Dataset& d, bool readable, bool deviations, int set, int level,
                 const std::vector<int>& rows) {
    NodeStats& s = stats_[set];
    if (deviations) {
      for (int i : rows) s.add_deviation(d.weight[i], d.response[i]);
    } else {
      for (int i : rows) s.add(d, i);
    }
    if (sets_[set].empty()) return;
    // Each depth's room, reused by the set's tests one after another.
    std::vector<int>* side_rows = side_rows_[static_cast<std::size_t>(level)].data();
    for (int q : sets_[set]) {
      Test& test = tests_[q];
      if (sets_[test.child[0]].empty() && sets_[test.child[1]].empty()) {
        // Both sides are leaves: each row is added to its side as it is
        // sent, in the same order, without writing the sides' rows out
        // (most tests of a front's trees are the last level's).
        NodeStats* const side_stats[2] = {&stats_[test.child[0]], &stats_[test.child[1]]};
        route(d, readable, test, rows, [&](int side, int i) {
          if (deviations) side_stats[side]->add_deviation(d.weight[i], d.response[i]);
          else side_stats[side]->add(d, i);
        });
        continue;
      }
      side_rows[0].clear();
      side_rows[1].clear();
      route(d, readable, test, rows, [&](int side, int i) { side_rows[side].push_back(i); });
      count_set(d, readable, deviations, test.child[1], level + 1, side_rows[1]);
      count_set(d, readable, deviations, test.child[0], level + 1, side_rows[0]);
    }
  }

  // visit(side, row) for each of `rows` in order that the test sends to a
  // side (1: left); with `readable`, the test's gap is narrowed too.
  template <class Visit>
  static void route(const Dataset& d, bool readable, Test& test, const std::vector<int>& rows,
                    Visit&& visit) {
    for (int i : rows) {
      const double xv = d.value(test.feature, i);
      const int side = side_of_test(test.na_left, test.left_levels, test.threshold, xv);
      if (side == kNaNoSide) continue;  // counted down to this set only
      if (readable && test.left_levels.empty() && !std::isnan(xv)) {
        if (side) test.below = std::max(test.below, xv);
        else test.above = std::min(test.above, xv);
      }
      visit(side, i);
    }
  }

  std::vector<std::vector<int>> sets_;  // each set's tests
  std::vector<Test> tests_;
  std::map<Key, int> index_;
  std::vector<NodeStats> stats_;
  std::vector<int> depth_;  // each set's
  int levels_ = 1;          // the sets' depths, plus one
  // By depth: the rows each side of the test being counted.
  std::vector<std::array<std::vector<int>, 2>> side_rows_;
};

}  // namespace detail

// The training statistics of every node of every tree of `trees`. With
// `readable`, each numeric threshold becomes readable_threshold() of the
// training values on either side of it in its node, found in the same pass
// over the rows (no row changes side, so the statistics hold for either
// threshold). Each distinct set of rows among the trees' nodes is counted
// once: bean with exact_levels = 2 has a front of 3,402 trees on 10,888
// rows, which took 0.5 s routing every row through every tree (a seventh
// of the fit). Call after the trees are extracted, before they are used.
// `chunk_rows`: the rows sent down the trees at a time (the tests vary it).
inline void fill_node_stats(const std::vector<FlatTree*>& trees, const Dataset& d,
                            bool readable = false, int chunk_rows = 1 << 16) {
  detail::SharedRowSets sets;
  std::vector<std::vector<int>> set_of(trees.size()), test_of(trees.size());
  for (std::size_t j = 0; j < trees.size(); ++j) sets.add_tree(*trees[j], set_of[j], test_of[j]);
  sets.count(d, readable, std::max(1, chunk_rows));
  const int k = d.n_classes;
  for (std::size_t j = 0; j < trees.size(); ++j) {
    FlatTree& t = *trees[j];
    t.resize_stats(k);
    for (int v = 0; v < t.size(); ++v) {
      const NodeStats& s = sets.stats(set_of[j][v]);
      const double value = d.regression() ? s.mean() : predicted_class(d, s.class_weight.data());
      t.set_stats(v, s.count, s.weight, value, leaf_loss(d, s), s.class_weight.data(), k);
      const int q = test_of[j][v];
      if (readable && q >= 0 && t.left_levels[v].empty() && std::isfinite(sets.below(q)) &&
          std::isfinite(sets.above(q)))
        t.threshold[v] = readable_threshold(sets.below(q), sets.above(q), t.threshold[v]);
    }
  }
}

// fill_node_stats() of one tree.
inline void fill_node_stats(FlatTree& t, const Dataset& d, bool readable = false) {
  fill_node_stats(std::vector<FlatTree*>{&t}, d, readable);
}

}  // namespace dpdt
