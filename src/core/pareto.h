// Pareto fronts of (loss, complexity) pairs. A front is kept sorted by
// complexity ascending, loss strictly descending.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace dpdt {

struct FrontPoint {
  double loss;
  double complexity;
  std::int32_t action;       // -1: the state is a leaf; else index of its split
  std::int32_t left_point;   // which point of each child's front
  std::int32_t right_point;
};

// Keeps the non-dominated points. Losses within loss_tol, and complexities
// within complexity_tol, count as equal: with fractional weights the same
// total is summed in different orders and must not make two equal trees
// differ. Among equals the earlier point wins, so results are deterministic.
inline void keep_pareto(std::vector<FrontPoint>& pts, double loss_tol, double complexity_tol) {
  std::stable_sort(pts.begin(), pts.end(), [](const FrontPoint& a, const FrontPoint& b) {
    return a.complexity < b.complexity;
  });
  std::vector<FrontPoint> out;
  for (std::size_t i = 0; i < pts.size();) {
    // The best point among those of (nearly) equal complexity, the first on ties.
    std::size_t best = i, j = i + 1;
    for (; j < pts.size() && pts[j].complexity <= pts[i].complexity + complexity_tol; ++j)
      if (pts[j].loss < pts[best].loss - loss_tol) best = j;
    if (out.empty() || pts[best].loss < out.back().loss - loss_tol) out.push_back(pts[best]);
    i = j;
  }
  pts.swap(out);
}

// The front of a split: every pair of the children's points, plus the split's
// own cost. Appends to `pts`; keep_pareto runs once over all actions.
inline void add_split_points(const std::vector<FrontPoint>& left,
                             const std::vector<FrontPoint>& right, double cost,
                             std::int32_t action, std::vector<FrontPoint>& pts) {
  for (std::size_t i = 0; i < left.size(); ++i)
    for (std::size_t j = 0; j < right.size(); ++j)
      pts.push_back({left[i].loss + right[j].loss,
                     left[i].complexity + right[j].complexity + cost, action,
                     static_cast<std::int32_t>(i), static_cast<std::int32_t>(j)});
}

}  // namespace dpdt
