// The tests generating function: which splits a state may try.
//  - cart: the internal nodes of a greedy CART tree grown on the state's rows
//    (the DPDT-K generator of the paper);
//  - exhaustive: every feature and every threshold (exact, for small data).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/data/options.h"
#include "core/data/row_codes.h"
#include "core/splits/histogram_scan.h"
#include "core/splits/partition.h"
#include "core/splits/split_groups.h"
#include "core/splits/split_scan.h"

namespace dpdt {

// A split of a state (see split_rule.h).
using Candidate = SplitRule;

class CandidateGenerator {
 public:
  // `codes`: the rows' codes, for states given by their rows (none: only
  // states given by blocks).
  CandidateGenerator(const Dataset& d, const SearchOptions& opt, const RowCodes* codes = nullptr)
      : d_(d), opt_(opt), codes_(codes ? *codes : no_codes_), goes_left_(d.n),
        impurity_(d.n_classes, opt.criterion == Criterion::entropy, d.xlogx_table),
        groups_(d), unit_counts_table_(d.unit_weights && !d.xlogx_table.empty()) {}

  // `total`: the statistics of the state's rows (stats_of(d, block, m)).
  std::vector<Candidate> generate(const Entry* block, int m, int depth, const NodeStats& total) {
    std::vector<Candidate> out;
    if (opt_.candidates == Candidates::exhaustive || opt_.max_depth - depth <= opt_.exact_levels) {
      out.reserve(most_boundaries(block, m));
      for_each_boundary(d_, block, m, opt_.min_bucket, [&](int f, int left, double thr) {
        Candidate c;
        c.feature = f;
        c.left_count = c.cut = left;
        c.threshold = thr;
        out.push_back(c);
      });
      bool partial = false;
      for (int f = 0; f < d_.p; ++f) {
        const Entry* rows = block + static_cast<std::size_t>(f) * m;
        if (!d_.special(f, rows, m)) continue;
        groups_.enumerate(f, rows, m, opt_.min_bucket, [&](const SplitRule& r) { out.push_back(r); });
        partial = partial || groups_.partial();
      }
      // Some level groups were left out: CART's proposals join, so this
      // state offers at least what a CART state would (exhaustive >= cart).
      if (partial) {
        for (const Candidate& c : cart_candidates(block, m, depth, total))
          if (std::none_of(out.begin(), out.end(), [&](const Candidate& o) { return o.same_test(c); }))
            out.push_back(c);
      }
      return out;
    }
    return cart_candidates(block, m, depth, total);
  }

  // At most how many numeric cuts a state's block has: per feature, one
  // fewer than its rows, and than the ranks its values span. Reserved, so
  // the cuts are not moved as they are found (2 % of exhaustive depth 3 on
  // wilt); not more, or a feature of few values (skin's 256) would hold
  // room for every row.
  std::size_t most_boundaries(const Entry* block, int m) const {
    std::size_t most = 0;
    for (int f = 0; f < d_.p && m > 1; ++f) {
      const Entry* rows = block + static_cast<std::size_t>(f) * m;
      const int last = rows[m - 1].rank;
      most += static_cast<std::size_t>(last == kMissingRank ? m - 1 : std::min(m - 1, last - rows[0].rank));
    }
    return most;
  }

  // The internal nodes of a greedy CART tree of `levels` levels grown on
  // the state's rows, as tests of them, without repeats (sorted).
  std::vector<Candidate> cart_proposals(const Entry* block, int m, int levels,
                                        const NodeStats& total) {
    std::vector<Candidate> out;
    found_.clear();
    grow(block, m, levels, 0, &total);
    for (const auto& s : found_) restate(block, m, s, out);
    return sorted_tests(out);
  }

  // cart_proposals() of a state given by its rows and their codes
  // (two classes, exact weights, numeric codes: RowCodes): the same CART
  // tree grown from histograms of codes, and its tests restated on the
  // state alike, so the same candidates (thresholds of binned features
  // aside: between the same two sides' values).
  // `filled`: the state's histograms, when the caller filled them already.
  std::vector<Candidate> cart_proposals_of_rows(const int* rows, int m, int levels,
                                                const NodeStats& total,
                                                const HistogramScan* filled = nullptr) {
    std::vector<Candidate> out;
    found_.clear();
    grow_rows(rows, m, levels, 0, &total, filled);
    for (const auto& s : found_) restate_rows(m, s, out);
    return sorted_tests(out);
  }

  // Where to record the use of heuristic level groups.
  void report_heuristics_to(HeuristicGroups* h) { groups_.report_heuristics_to(h); }

 private:
  // A test a CART node chose, and its rank (or code) of the last of its
  // rows going left (numeric tests; -1: none).
  struct Found : SplitRule {
    int rank_left = -1;
  };
  static constexpr std::size_t kMaxTies = 2;

  static std::vector<Candidate> sorted_tests(std::vector<Candidate>& out) {
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end(),
                          [](const Candidate& a, const Candidate& b) { return a.same_test(b); }),
              out.end());
    return std::move(out);
  }

  // The internal nodes of the greedy CART tree of the state.
  std::vector<Candidate> cart_candidates(const Entry* block, int m, int depth,
                                         const NodeStats& total) {
    return cart_proposals(block, m, opt_.cart_depth_at(depth), total);
  }

  // Greedy CART on the rows in `block`, recording every split it makes.
  // `known`: the rows' statistics when the caller has them (the state's own).
  void grow(const Entry* block, int m, int levels, int level, const NodeStats* known = nullptr) {
    if (levels <= 0 || m - opt_.min_bucket < opt_.min_bucket) return;
    NodeStats own;
    if (!known) own = stats_of(d_, block, m);
    const NodeStats& total = known ? *known : own;
    Split s;
    double parent = 0.0;
    if (d_.regression()) {
      parent = total.sse();
      s = sse_.best(d_, block, m, opt_.min_bucket, &ties_);
    } else if (d_.n_classes == 2 && opt_.criterion == Criterion::entropy) {
      const EntropySide side{d_.xlogx_table};
      parent = side(total.class_weight[0], total.class_weight[1]);
      if (unit_counts_table_)
        s = best_split_two_classes_unit(d_, block, m, opt_.min_bucket, total,
                                        EntropyUnit{d_.xlogx_table.data()}, &ties_);
      else
        s = best_split_two_classes(d_, block, m, opt_.min_bucket, total, side, &ties_);
    } else if (d_.n_classes == 2) {
      parent = GiniSide{}(total.class_weight[0], total.class_weight[1]);
      s = best_split_two_classes(d_, block, m, opt_.min_bucket, total, GiniSide{}, &ties_);
    } else {
      parent = impurity_.impurity(total);
      if (opt_.criterion == Criterion::entropy && unit_counts_table_)
        s = best_entropy_split_unit(d_, block, m, opt_.min_bucket, total, unit_counts_, &ties_);
      else
        s = best_split(d_, block, m, opt_.min_bucket, total, impurity_, &ties_);
    }
    {
      const SideScore sc = d_.regression() || opt_.criterion == Criterion::entropy
                               ? SideScore::entropy
                               : SideScore::gini;
      const Split g = best_special_split(d_, groups_, block, m, opt_.min_bucket, sc, &special_ties_);
      s = better_split(s, &ties_, g, &special_ties_);
    }
    // A split that does not lower impurity is no candidate (CART stops there).
    if (!s.found() || !(s.score < parent * (1.0 - 1e-12))) return;
    // CART's choice among equally good splits is arbitrary, and the search
    // result can hang on it: the first split tied with CART's is a candidate
    // too (more ties cost search time: up to 4x on 'room' for all of them).
    // CART grows on below its own choice.
    const std::size_t kept = std::min<std::size_t>(ties_.size(), kMaxTies);
    for (std::size_t i = 0; i < kept; ++i) {
      Found t;
      static_cast<SplitRule&>(t) = ties_[i];
      if (t.levels.empty() && t.cut > 0)
        t.rank_left = block[static_cast<std::size_t>(t.feature) * m + t.cut - 1].rank;
      found_.push_back(t);
    }
    if (levels == 1) return;
    // Both children in one buffer per level, the left one first, each with
    // the slack write_sides() needs.
    const std::size_t need = static_cast<std::size_t>(m) * d_.p + 2 * kPartitionSlack;
    if (children_.size() <= static_cast<std::size_t>(level)) children_.resize(level + 1);
    if (children_[level].size() < need) children_[level].resize(need);
    // Raw pointers, not references into children_: deeper levels may grow
    // that outer vector, while the buffers' storage itself stays put.
    Entry* lb = children_[level].data();
    Entry* rb = lb + static_cast<std::size_t>(s.left_count) * d_.p + kPartitionSlack;
    mark_rule_sides(d_, block, m, s, goes_left_);
    write_sides(d_, block, m, s.left_count, goes_left_, lb, rb);
    grow(lb, s.left_count, levels - 1, level + 1);
    grow(rb, m - s.left_count, levels - 1, level + 1);
  }

  // grow() on a set of rows (index order), from histograms of their codes.
  // `filled`: these rows' histograms, already filled.
  void grow_rows(const int* rows, int m, int levels, int level, const NodeStats* known = nullptr,
                 const HistogramScan* filled = nullptr) {
    if (levels <= 0 || m - opt_.min_bucket < opt_.min_bucket) return;
    const NodeStats total = known ? *known : class_stats(d_, m, [rows](int i) { return rows[i]; });
    if (!filled) hist_.fill(d_, codes_, rows, m);
    const HistogramScan& hist = filled ? *filled : hist_;
    if (level == 0) {
      // The state's own counts, for restate_rows().
      state_counts_.resize(static_cast<std::size_t>(d_.p) * kMaxRowCodes);
      for (int f = 0; f < d_.p; ++f)
        std::copy(hist.counts(f), hist.counts(f) + codes_.ranks[f],
                  state_counts_.begin() + static_cast<std::ptrdiff_t>(f) * kMaxRowCodes);
    }
    const double t0 = total.class_weight[0], t1 = total.class_weight[1];
    double parent = 0.0;
    Split s;
    if (opt_.criterion == Criterion::entropy) {
      const EntropySide side{d_.xlogx_table};
      parent = side(t0, t1);
      s = hist.best_by(d_, codes_, m, opt_.min_bucket, total, side, &ties_);
    } else {
      parent = GiniSide{}(t0, t1);
      s = hist.best_by(d_, codes_, m, opt_.min_bucket, total, GiniSide{}, &ties_);
    }
    if (!s.found() || !(s.score < parent * (1.0 - 1e-12))) return;
    const std::size_t kept = std::min<std::size_t>(ties_.size(), kMaxTies);
    for (std::size_t i = 0; i < kept; ++i) {
      Found t;
      static_cast<SplitRule&>(t) = ties_[i];
      t.rank_left = HistogramScan::codes_around(hist.counts(t.feature), t.left_count).first;
      found_.push_back(t);
    }
    if (levels == 1) return;
    const int last_left = HistogramScan::codes_around(hist.counts(s.feature), s.left_count).first;
    if (row_children_.size() <= static_cast<std::size_t>(level)) row_children_.resize(level + 1);
    if (row_children_[level].size() < static_cast<std::size_t>(m)) row_children_[level].resize(m);
    // A raw pointer: deeper levels may grow the outer vector (as grow()).
    int* const room = row_children_[level].data();
    int* left = room;
    int* right = left + s.left_count;
    for (int i = 0; i < m; ++i) {
      const int row = rows[i];
      if (codes_.row(row)[s.feature] <= last_left) *left++ = row;
      else *right++ = row;
    }
    grow_rows(room, s.left_count, levels - 1, level + 1);
    grow_rows(room + s.left_count, m - s.left_count, levels - 1, level + 1);
  }

  // restate() on a state given by its rows (restate()'s rules, from the
  // state's counts of codes).
  void restate_rows(int m, const Found& s, std::vector<Candidate>& out) const {
    const int f = s.feature;
    const int* counts = state_counts_.data() + static_cast<std::size_t>(f) * kMaxRowCodes;
    int last_left = s.rank_left;
    // Not binned, a code is one value: the codes up to the node's threshold.
    if (!d_.is_binned(f))
      while (last_left + 1 < codes_.ranks[f] && codes_.lowest(f, last_left + 1) <= s.threshold)
        ++last_left;
    int left = 0;
    for (int c = 0; c <= last_left; ++c) left += counts[c];
    if (left == 0 || left == m) return;
    Candidate c;
    c.feature = f;
    c.left_count = c.cut = left;
    const std::pair<int, int> around = HistogramScan::codes_around(counts, left);
    c.threshold = HistogramScan::threshold_between(codes_, f, around.first, around.second);
    if (c.left_count >= opt_.min_bucket && m - c.left_count >= opt_.min_bucket) out.push_back(c);
  }

  // A CART node deep in the tree chose its test among its own rows; on the
  // whole state the same test is a partition: a numeric threshold's
  // canonical value is the midpoint of the state's own neighbouring values,
  // a level group keeps the levels present in the state. A missing-value
  // side chosen where the CART node saw none is tried both ways.
  void restate(const Entry* block, int m, const Found& s, std::vector<Candidate>& out) const {
    const Entry* rows = block + static_cast<std::size_t>(s.feature) * m;
    int present = present_rows(rows, m);
    const int missing = m - present;
    Candidate c;
    c.feature = s.feature;
    int left = 0;
    if (s.levels.empty() && d_.is_binned(s.feature)) {
      // Binned (max_bins): the node's cut lies between two of its bins, and
      // on the state it is the same cut between bins (whatever values of
      // the bins either holds): the rows of the bins up to the node's last
      // left one go left.
      left = static_cast<int>(std::partition_point(rows, rows + present, [&](const Entry& e) {
                                return e.rank <= s.rank_left;
                              }) - rows);
      if (left == 0 || left == present) return;
      c.cut = left;
      c.threshold = midpoint(d_.value(s.feature, rows[left - 1].row), d_.value(s.feature, rows[left].row));
    } else if (s.levels.empty()) {
      left = static_cast<int>(
          std::upper_bound(rows, rows + present, s.threshold,
                           [&](double t, const Entry& e) { return t < d_.value(s.feature, e.row); }) -
          rows);
      if (left == 0 || left == present) return;
      c.cut = left;
      c.threshold = midpoint(d_.value(s.feature, rows[left - 1].row), d_.value(s.feature, rows[left].row));
    } else {
      for (int i = 0; i < present; ++i) {
        const int code = static_cast<int>(d_.value(s.feature, rows[i].row));
        if (std::binary_search(s.levels.begin(), s.levels.end(), code)) {
          ++left;
          if (c.levels.empty() || c.levels.back() != code) c.levels.push_back(code);
        }
      }
      if (left == 0 || left == present) return;
    }
    auto add = [&](signed char na) {
      c.na_left = na;
      c.left_count = left + (na == 1 ? missing : 0);
      if (c.left_count >= opt_.min_bucket && m - c.left_count >= opt_.min_bucket) out.push_back(c);
    };
    if (missing == 0) {
      add(kNaNoSide);
    } else if (s.na_left != kNaNoSide) {
      add(s.na_left);
    } else {
      add(1);
      add(0);
    }
  }

  const Dataset& d_;
  const SearchOptions& opt_;
  RowCodes no_codes_;
  const RowCodes& codes_;
  HistogramScan hist_;
  std::vector<int> state_counts_;                // a state's codes' counts (grow_rows)
  std::vector<std::vector<int>> row_children_;   // by CART level (grow_rows)
  std::vector<char> goes_left_;
  ImpurityScore impurity_;
  SquaredErrorScan sse_;
  std::vector<Found> found_;
  std::vector<Split> ties_, special_ties_;
  std::vector<int> unit_counts_;
  GroupScanner groups_;
  std::vector<std::vector<Entry>> children_;  // by CART level
  // Unit weights and v log v by count: the entropy scans count in integers.
  bool unit_counts_table_;
};

}  // namespace dpdt
