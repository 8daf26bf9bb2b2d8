// Pareto fronts of (loss, complexity) pairs. A front is kept sorted by
// complexity ascending, loss strictly descending.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace dpdt {

struct FrontPoint {
  double loss;
  double complexity;
  std::int32_t action;       // -1: the state is a leaf; else index of its split
  std::int32_t left_point;   // which point of each child's front
  std::int32_t right_point;
};

// When a computed loss counts as lower than another: by more than rounding
// can explain. Two trees with the same loss, summed in different orders,
// must not differ, and a row's weight must never vanish in the tolerance.
//  - abs: classification, in weight units: 0 when every sum of losses is
//    exact (whole weights, or whole multiples of one power of two, totalling
//    below 2^52; with a loss matrix, of whole costs, the total times the
//    largest cost below 2^52: SearchContext::exact_losses()); else
//    n * 2^-50 * W (times the largest cost), four times the worst-case
//    rounding of a tree's loss (each of its at most n + leaves additions
//    errs by at most 2^-53 * W).
//  - rel: regression, relative to the losses compared: n * 2^-50 (sums of
//    squares of n positive terms, each leaf's from a two-pass sum).
//  - abs, regression: (n * 2^-50)^2 times the single leaf's loss (the sum
//    of squared deviations from the mean, so it does not grow with an
//    offset of the response). A leaf whose rows share one value has loss
//    exactly 0 (NodeStats::sse); a nearly pure leaf's loss is summed about
//    a rounded mean, which can leave a residue of the order of this floor
//    where its exact loss is far smaller; without the floor, such a residue
//    of 1e-47 beside a larger tree of loss 0 would keep both on the front.
struct LossTolerance {
  double abs = 0.0;
  double rel = 0.0;
  bool below(double a, double b) const { return a < b - (abs + rel * std::fabs(b)); }
};

// The least loss of a front's points of complexity at most c (+inf: none).
inline double least_loss_within(const std::vector<FrontPoint>& front, double c) {
  auto it = std::upper_bound(front.begin(), front.end(), c,
                             [](double v, const FrontPoint& p) { return v < p.complexity; });
  return it == front.begin() ? std::numeric_limits<double>::infinity() : (it - 1)->loss;
}

// keep_pareto() of points already sorted by complexity, in place.
inline void keep_pareto_sorted(std::vector<FrontPoint>& pts, const LossTolerance& tol,
                               double complexity_tol) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < pts.size();) {
    // The best point among those of (nearly) equal complexity, the first on ties.
    std::size_t best = i, j = i + 1;
    for (; j < pts.size() && pts[j].complexity <= pts[i].complexity + complexity_tol; ++j)
      if (tol.below(pts[j].loss, pts[best].loss)) best = j;
    if (kept == 0 || tol.below(pts[best].loss, pts[kept - 1].loss)) pts[kept++] = pts[best];
    i = j;
  }
  pts.resize(kept);
}

// Keeps the non-dominated points. Losses equal within `tol`, and
// complexities within complexity_tol (fractional weights summed in another
// order), count as equal. Among equals the earlier point wins, so results
// are deterministic.
inline void keep_pareto(std::vector<FrontPoint>& pts, const LossTolerance& tol,
                        double complexity_tol) {
  const auto by_complexity = [](const FrontPoint& a, const FrontPoint& b) {
    return a.complexity < b.complexity;
  };
  // A few points (a bounded sweep's front as it grows) by insertion, stable
  // too: std::stable_sort takes a buffer from the heap every call (exhaustive
  // depth 3 on bank: 16,700 of 72,500 allocations).
  if (pts.size() <= 32) {
    for (std::size_t i = 1; i < pts.size(); ++i) {
      const FrontPoint p = pts[i];
      std::size_t j = i;
      for (; j > 0 && by_complexity(p, pts[j - 1]); --j) pts[j] = pts[j - 1];
      pts[j] = p;
    }
  } else {
    std::stable_sort(pts.begin(), pts.end(), by_complexity);
  }
  keep_pareto_sorted(pts, tol, complexity_tol);
}

// The front of a split: every pair of the children's points, plus the split's
// own cost. Appends to `pts`; keep_pareto runs once over all actions.
inline void add_split_points(const FrontPoint* left, std::size_t n_left, const FrontPoint* right,
                             std::size_t n_right, double cost, std::int32_t action,
                             std::vector<FrontPoint>& pts) {
  for (std::size_t i = 0; i < n_left; ++i)
    for (std::size_t j = 0; j < n_right; ++j)
      pts.push_back({left[i].loss + right[j].loss,
                     left[i].complexity + right[j].complexity + cost, action,
                     static_cast<std::int32_t>(i), static_cast<std::int32_t>(j)});
}

inline void add_split_points(const std::vector<FrontPoint>& left,
                             const std::vector<FrontPoint>& right, double cost,
                             std::int32_t action, std::vector<FrontPoint>& pts) {
  add_split_points(left.data(), left.size(), right.data(), right.size(), cost, action, pts);
}

}  // namespace dpdt
