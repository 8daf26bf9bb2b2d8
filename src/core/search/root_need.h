// What a root split's child must beat for its trees to reach the root's
// front (room: holds the root's front known so far; calls nothing of the
// search), so that the child's bounded sweep skips the splits that cannot.
//
// A root split's points are sums: a left point (l, c) and a right point
// (l', c') make (l + l', c + c' + cost). Let U(k) be the least loss of a
// real tree of the root's search with complexity at most k (the root's leaf,
// and any root split's solved points). If l + l' > U(c + c' + cost) for
// every point (l, c) of the sibling, no tree with the right point (l', c')
// can be on the root's front: the front holds a point at most as complex
// that loses strictly less. So the right child needs only the points with
//   l' <= T(c') = max over the sibling's points (l, c) of U(c + c' + cost) - l,
// and T falls as c' grows. A child solved for this need is exact wherever
// its best loss is within T, and elsewhere holds real trees that lose more
// than T: every root point made with one of those is strictly dominated,
// so the root's front and its trees are those of the exact children (the
// core tests compare). The sibling's points are its own front when it is
// solved (exact or for its own need: the root pairs these points, so T
// over them is what the pairs need), else its leaf and a lower bound of
// every tree with a split (loss 0, complexity one split's). Only with
// exact sums (whole counts or exact weights; tolerances 0): then
// "strictly" is exact, and T is exact.
//
// Such a child is not stored in the memo (its front is not the state's).
// Used where the root tries CART proposals and its children every split
// (exact_levels = 2 at depth 3 on the 16 benchmark sets, complexity
// "tests", min_bucket 1: 82.6 to 55.4 s, bench/results/depth_two.md). Not below a bounded root (exhaustive): its interval
// bounds read the children's fronts as exact, and a child's bound where it
// skipped is only T, which left most root cuts open (wilt, depth 3: 3.8 s
// to 90 s).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <mutex>
#include <vector>

#include "core/fronts/pareto.h"

namespace dpdt {

// The child's need as a front for dominated(): corners (just above T(c'),
// c'); a point (l', c') is dominated by it only if l' > T(c'). At most
// `max_corners` complexities are evaluated (any subset is a valid need; the
// rest only skips less): with complexity "tests" the fronts are long.
inline std::vector<FrontPoint> child_need(const std::vector<FrontPoint>& root,
                                          const std::vector<FrontPoint>& sibling, double cost,
                                          std::size_t max_corners = 512) {
  // T changes only where c + c' + cost meets a corner of the root's front;
  // of long fronts every few corners are paired (at most 2^14 pairs).
  std::vector<double> at{0.0};
  const std::size_t pairs = root.size() * sibling.size();
  const std::size_t stride = pairs > (1u << 14) ? (pairs >> 14) + 1 : 1;
  const std::size_t root_stride = std::min(stride, root.size());
  const std::size_t sibling_stride = (stride + root_stride - 1) / root_stride;
  for (std::size_t i = 0; i < root.size(); i += root_stride)
    for (std::size_t j = 0; j < sibling.size(); j += sibling_stride) {
      const double c = root[i].complexity - sibling[j].complexity - cost;
      if (c > 0.0) at.push_back(c);
    }
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  if (at.size() > max_corners) {
    std::vector<double> some;
    const double step = static_cast<double>(at.size() - 1) / static_cast<double>(max_corners - 1);
    for (std::size_t i = 0; i < max_corners; ++i)
      some.push_back(at[static_cast<std::size_t>(std::floor(step * static_cast<double>(i)))]);
    some.erase(std::unique(some.begin(), some.end()), some.end());
    at.swap(some);
  }
  // T at every corner, a sibling's point at a time: the corners ascend, so
  // U's point (least_loss_within()'s) only moves up the root's front, one
  // pass per sibling point instead of a search per pair (the same values;
  // a fortieth of bean's exact_levels = 2 fit went to the searches).
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> t(at.size(), -inf);
  for (const FrontPoint& s : sibling) {
    auto above = root.begin();  // the first root point more complex than the corner's sum
    for (std::size_t a = 0; a < at.size(); ++a) {
      const double sum = at[a] + s.complexity + cost;
      while (above != root.end() && !(sum < above->complexity)) ++above;
      const double u = above == root.begin() ? inf : (above - 1)->loss;
      t[a] = std::max(t[a], u - s.loss);
    }
  }
  std::vector<FrontPoint> need;
  for (std::size_t a = 0; a < at.size(); ++a) {
    if (!(t[a] < inf)) continue;
    const double above = std::nextafter(t[a], inf);
    if (need.empty() || above < need.back().loss) need.push_back({above, at[a], -1, 0, 0});
  }
  return need;
}

// The root's front known so far, shared by the workers: the leaf's point
// and every solved root split's points (real trees of the search).
class KnownRootFront {
 public:
  explicit KnownRootFront(double leaf_loss) : front_{{leaf_loss, 0.0, -1, 0, 0}} {}

  std::vector<FrontPoint> snapshot() const {
    std::lock_guard<std::mutex> lock(m_);
    return front_;
  }

  // Points of real trees of the root's search: a solved root split's
  // front, or trees found otherwise (Search::incumbent_front()).
  void add(const std::vector<FrontPoint>& pts) {
    std::lock_guard<std::mutex> lock(m_);
    front_.insert(front_.end(), pts.begin(), pts.end());
    keep_pareto(front_, LossTolerance{}, 0.0);
  }

 private:
  mutable std::mutex m_;
  std::vector<FrontPoint> front_;
};

}  // namespace dpdt
