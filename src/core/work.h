// An estimate, before the search starts, of the work it will do, so that a
// search that cannot finish is refused at once rather than after hours.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "dataset.h"
#include "options.h"

namespace dpdt {

// Row visits (one row of one feature read by a scan, a partition or a CART
// level) of the search, counting every state as new (the memo only lowers
// it) and each child of a split as half its parent. Candidates per state:
// every boundary between distinct values (exhaustive), or at most
// 2 (2^K - 1) (the CART tree's nodes and one tie each).
class WorkEstimate {
 public:
  WorkEstimate(const Dataset& d, const SearchOptions& opt) : opt_(opt), n_(d.n), p_(d.p) {
    // Tests per feature: boundaries between distinct non-missing values
    // (twice: each side for the missing values, if any), or for a
    // categorical feature every level group (exhaustive, up to 12 levels).
    for (int f = 0; f < d.p; ++f) {
      const Entry* rows = d.sorted.data() + static_cast<std::size_t>(f) * d.n;
      int present = d.n;
      while (present > 0 && rows[present - 1].rank == kMissingRank) --present;
      double u = present > 0 ? rows[present - 1].rank + 1.0 : 0.0;
      if (d.categorical(f) && opt.candidates == Candidates::exhaustive && u <= 12)
        u = std::ldexp(1.0, static_cast<int>(u) - 1);
      if (present < d.n) u = 2.0 * u;
      distinct_.push_back(u);
    }
    visits_ = state(d.n, opt.max_depth, 0);
  }
  double visits() const { return visits_; }
  // Candidate splits of the root (before the memo or CART prunes them).
  double root_candidates() const { return candidates(n_, 0, opt_.max_depth); }

 private:
  // States with at most exact_levels levels left try every split.
  bool every_split(int remaining) const {
    return opt_.candidates == Candidates::exhaustive || remaining <= opt_.exact_levels;
  }

  double candidates(double m, int depth, int remaining) const {
    double boundaries = 0.0;
    for (double u : distinct_) boundaries += std::min(u, m) - 1.0;
    boundaries = std::min(boundaries, p_ * (m - 2.0 * opt_.min_bucket + 1.0));
    if (every_split(remaining)) return std::max(0.0, boundaries);
    const double cart = 2.0 * (std::ldexp(1.0, opt_.cart_depth_at(depth)) - 1.0);
    return std::max(0.0, std::min(boundaries, cart));
  }

  double state(double m, int remaining, int depth) {
    const double mp = m * p_;
    if (remaining <= 0 || m < 2.0 * opt_.min_bucket || m < 2.0) return 0.0;
    if (remaining == 1) return mp;
    const double generate = every_split(remaining) ? mp : opt_.cart_depth_at(depth) * mp;
    const double b = candidates(m, depth, remaining);
    return generate + b * (mp + 2.0 * state(m / 2.0, remaining - 1, depth + 1));
  }

  const SearchOptions& opt_;
  double n_, p_;
  std::vector<double> distinct_;
  double visits_ = 0.0;
};

}  // namespace dpdt
