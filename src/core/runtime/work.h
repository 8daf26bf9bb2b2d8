// An estimate, before the search starts, of the work it will do, so that a
// search that cannot finish is refused at once rather than after hours.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/options.h"
#include "core/data/row_codes.h"
#include "core/splits/split_groups.h"

namespace dpdt {

// Row visits (one row of one feature read by a scan, a partition or a CART
// level, or one level group scored) of the search, counting a CART split's
// children as halves of their parent and the children of every split at
// every size, every state as new up to what the memo allows, and no split
// skipped by a bound (see search()): meant to be above what the search
// makes (at most 1.2 times below it on random searches, core test
// test_estimate_covers_visits_made), far above it where bounds skip
// splits. Candidates per state: every
// boundary between distinct values and every level group (exhaustive or an
// exact level), or at most 2 (2^K - 1) (the CART tree's nodes and one tie
// each). A scan of a categorical feature scores its level groups: every
// group of up to 12 levels present (2^(L-1), times the classes), or the
// prefixes of one ordering per class beyond that, or one ordering where
// that is exact (two classes or regression, no missing value).
class WorkEstimate {
 public:
  // `codes`: the rows' codes, read where the data's presort was released
  // (a search of states given by rows). `last_scans`: passes over a state's
  // rows at the last level (2 where the parents' bounds want a relaxed split).
  WorkEstimate(const Dataset& d, const SearchOptions& opt, const RowCodes* codes = nullptr,
               int last_scans = 1)
      : opt_(opt), n_(d.n), p_(d.p), classes_(std::max(1, d.n_classes)),
        one_order_(d.regression() || d.n_classes == 2), last_scans_(last_scans) {
    if (d.sorted.empty() && codes && !codes->empty() && d.n > 0) {
      for (int f = 0; f < d.p; ++f) features_.push_back({static_cast<double>(codes->ranks[f]), false, false});
      distinct_rows_ = count_distinct_rows(d.n, d.p, [&](int f, int i) {
        return std::pair<int, int>{i, codes->row(i)[f]};
      });
      visits_ = search(opt.max_depth);
      return;
    }
    for (int f = 0; f < d.p; ++f) {
      const Entry* rows = d.sorted.data() + static_cast<std::size_t>(f) * d.n;
      int present = present_rows(rows, d.n);
      Feature info;
      info.values = present > 0 ? rows[present - 1].rank + 1.0 : 0.0;
      info.categorical = d.categorical(f);
      info.missing = present < d.n;
      features_.push_back(info);
    }
    distinct_rows_ = count_distinct_rows(d.n, d.p, [&](int f, int i) {
      const Entry& e = d.sorted[static_cast<std::size_t>(f) * d.n + i];
      return std::pair<int, int>{e.row, e.rank};
    });
    visits_ = search(opt.max_depth);
  }
  double visits() const { return visits_; }
  // A search run before this one (a quick CART search whose trees bound it).
  void add_search(const WorkEstimate& before) { visits_ += before.visits_; }
  // Candidate splits of the root (before the memo or CART prunes them).
  double root_candidates() const { return candidates(n_, 0, opt_.max_depth); }

 private:
  struct Feature {
    double values = 0.0;  // distinct non-missing values, or levels
    bool categorical = false, missing = false;
  };

  // States with at most exact_levels levels left try every split.
  bool every_split(int remaining) const {
    return opt_.candidates == Candidates::exhaustive || remaining <= opt_.exact_levels;
  }

  // Orderings of the levels a categorical feature is scanned in beyond
  // kMaxEnumLevels: by mean or class-1 proportion, else by each class's.
  double orders() const { return one_order_ ? 1.0 : classes_; }

  // Level groups of a categorical feature tried as candidates (each with
  // both sides for missing values, if any) in a state of m rows.
  double groups(const Feature& f, double m) const {
    const double levels = std::min(f.values, m);
    if (levels < 2) return 0.0;
    const double g = levels <= kMaxEnumLevels ? std::ldexp(1.0, static_cast<int>(levels) - 1) - 1.0
                                              : orders() * (levels - 1.0);
    return f.missing ? 2.0 * g : g;
  }

  // Candidate tests of a state of m rows: numeric cuts and level groups,
  // and the cost of sending a row through a group test (a search in its
  // levels: log2 of the most levels present).
  struct Tests {
    double cuts = 0.0, groups = 0.0, group_row = 0.0;
    double total() const { return cuts + groups; }
  };
  Tests tests(double m, int depth, int remaining, bool every = false) const {
    Tests t;
    for (const Feature& f : features_) {
      if (f.categorical) {
        t.groups += groups(f, m);
        t.group_row = std::max(t.group_row, std::log2(std::max(2.0, std::min(f.values, m))));
      } else {
        t.cuts += (std::min(f.values, m) - 1.0) * (f.missing ? 2.0 : 1.0);
      }
    }
    t.cuts = std::max(0.0, std::min(t.cuts, p_ * (m - 2.0 * opt_.min_bucket + 1.0)));
    if (every || every_split(remaining)) return t;
    const double cart = 2.0 * (std::ldexp(1.0, opt_.cart_depth_at(depth)) - 1.0);
    const double all = t.total();
    if (all > cart) {  // CART proposes at most this many, in these shares
      t.cuts *= cart / all;
      t.groups *= cart / all;
    }
    return t;
  }
  double candidates(double m, int depth, int remaining) const {
    return tests(m, depth, remaining).total();
  }

  // One best-split scan of a state of m rows over every feature: a pass
  // over each feature's rows, plus the level groups a categorical one
  // scores (every group up to 12 levels, unless one ordering is exact).
  double scan(double m) const {
    double v = m * p_;
    for (const Feature& f : features_) {
      if (!f.categorical) continue;
      const double levels = std::min(f.values, m);
      if (levels < 2) continue;
      const bool ordered = one_order_ && !f.missing;
      v += !ordered && levels <= kMaxEnumLevels
               ? std::ldexp(1.0, static_cast<int>(levels) - 1) * classes_
               : orders() * levels * std::max(1.0, std::log2(levels));
    }
    return v;
  }

  // States of one depth, by size: bin j holds the states of about n r^-j
  // rows (r = n^(1/kBins)), their count and their rows' sum (its mean is
  // the bin's size), so that children of every size are counted at theirs.
  struct SizeBins {
    std::vector<double> count, rows;
    explicit SizeBins(double n) : count(kBins + 1, 0.0), rows(kBins + 1, 0.0), n_(n),
                                  log_n_(std::log(std::max(n, 2.0))) {}
    double size(int j) const { return rows[j] / count[j]; }
    double total() const {
      double s = 0.0;
      for (double c : count) s += c;
      return s;
    }
    void scale(double f) {
      for (int j = 0; j <= kBins; ++j) count[j] *= f, rows[j] *= f;
    }
    // `c` states of `m` rows each.
    void add(double c, double m) { add_to(bin_of(m), c, c * m); }
    // `c` states whose sizes are spread evenly over [lo, hi]: each bin gets
    // its share of them, at the mean size of its part of the range.
    void spread(double c, double lo, double hi) {
      if (!(hi > lo)) return add(c, lo);
      for (int j = bin_of(hi); j <= kBins; ++j) {
        const double top = std::min(hi, edge(j)), bottom = std::max(lo, j == kBins ? 0.0 : edge(j + 1));
        if (top > bottom) {
          const double share = c * (top - bottom) / (hi - lo);
          add_to(j, share, share * (top + bottom) / 2.0);
        }
        if (bottom <= lo) break;
      }
    }

   private:
    double edge(int j) const { return n_ * std::exp(-log_n_ * j / kBins); }
    int bin_of(double m) const {
      if (!(m < n_)) return 0;
      const int j = static_cast<int>(std::floor(std::log(n_ / std::max(m, 1e-300)) / log_n_ * kBins));
      return std::clamp(j, 0, kBins);
    }
    void add_to(int j, double c, double r) { count[j] += c, rows[j] += r; }
    double n_, log_n_;
  };
  static constexpr int kBins = 192;

  // The search level by level: the states at depth k, by size, each
  // generating its candidates and partitioning its rows once per
  // candidate, which makes 2 (candidates) states at depth k + 1, or
  // scanning once at the last level. A split a CART tree proposes halves
  // its state; the children of splits at every boundary take every size
  // from min_bucket to m - min_bucket evenly, which counts their work at
  // its mean over those sizes, not at the mean size (a state's work grows
  // faster than its rows: 4/3 of it at depth 3, 8/3 at depth 4 where all
  // values differ). The states are capped by what the memo allows: a state
  // is an intersection of k root tests with their sides (every test of a
  // state restricts a root test on the same feature), so there are at most
  // C(2T, k) of them for T root tests, and a union of groups of rows with
  // equal predictors, so at most 2^(distinct rows).
  double search(int depth_max) const {
    const double tests_at_root = tests(n_, 0, depth_max, true).total();
    const double cap_rows = std::ldexp(1.0, static_cast<int>(std::min(distinct_rows_, 1000.0)));
    const double bucket = std::max(1.0, static_cast<double>(opt_.min_bucket)), least = 2.0 * bucket;
    double total = 0.0;
    SizeBins states(n_);
    states.add(1.0, n_);
    for (int k = 0; k < depth_max; ++k) {
      const int remaining = depth_max - k;
      SizeBins next(n_);
      for (int j = 0; j <= kBins; ++j) {
        if (!(states.count[j] > 0.0)) continue;
        const double count = states.count[j], m = states.size(j);
        if (m < least) continue;
        if (remaining == 1) {
          total += count * scan(m) * last_scans_;
          continue;
        }
        const Tests t = tests(m, k, remaining);
        const bool every = every_split(remaining);
        const double generate = every ? m * p_ : opt_.cart_depth_at(k) * scan(m);
        total += count * (generate + t.total() * m * (p_ + 1.0) + t.groups * m * t.group_row);
        const double children = 2.0 * count * t.total();
        if (every)
          next.spread(children, bucket, m - bucket);
        else
          next.add(children, m / 2.0);
      }
      if (remaining == 1) break;
      const double sets = std::exp(std::lgamma(2.0 * tests_at_root + 1.0) - std::lgamma(k + 2.0) -
                                   std::lgamma(2.0 * tests_at_root - k));
      const double cap = std::min(cap_rows, std::max(1.0, sets)), made = next.total();
      if (made > cap) next.scale(cap / made);
      states = next;
    }
    return total;
  }

  // Rows with pairwise different predictor values (NaN equal to NaN), from
  // entry(f, i): the i-th (row, rank) of feature f, in any order of rows.
  template <class EntryAt>
  static double count_distinct_rows(int n, int p, EntryAt entry) {
    std::vector<std::uint64_t> key(n, 0x9E3779B97F4A7C15ULL);
    for (int f = 0; f < p; ++f) {
      for (int i = 0; i < n; ++i) {
        const std::pair<int, int> e = entry(f, i);
        std::uint64_t h = key[e.first] ^ (static_cast<std::uint64_t>(e.second) + 0x632BE59BD9B4E019ULL);
        h *= 0xBF58476D1CE4E5B9ULL;
        key[e.first] = h ^ (h >> 31);
      }
    }
    std::sort(key.begin(), key.end());
    return static_cast<double>(std::unique(key.begin(), key.end()) - key.begin());
  }

  const SearchOptions& opt_;
  double n_, p_, classes_, distinct_rows_ = 0.0;
  bool one_order_;
  int last_scans_;
  std::vector<Feature> features_;
  double visits_ = 0.0;
};

}  // namespace dpdt
