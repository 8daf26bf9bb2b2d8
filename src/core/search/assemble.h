// A state's node from its candidates' solved children (room: reads the
// context; calls nothing of the search): the actions, and the Pareto front
// of the leaf and every pair of the children's front points.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/data/node_stats.h"
#include "core/fronts/node.h"
#include "core/fronts/pareto.h"
#include "core/search/context.h"
#include "core/search/guards.h"
#include "core/splits/candidates.h"

namespace dpdt {

// Pending points above which assemble_front() filters as it goes.
constexpr std::size_t kFilterAbove = 1 << 16;

// Every pair of a split's children's points added to `pts`, a left
// point's row of pairs at a time, `pts` filtered (keep_pareto() with these
// tolerances) whenever it holds more than kFilterAbove: deep searches with
// complexity "tests" have long fronts, and two of a thousand points make a
// million pairs (a root split of bean with exact_levels = 2: 50 MB at once).
inline void add_split_points_filtered(const ChildFront& left, const ChildFront& right, double cost,
                                      std::int32_t action, const LossTolerance& tol,
                                      double complexity_tol, std::vector<FrontPoint>& pts) {
  for (std::size_t i = 0; i < left.size(); ++i) {
    add_split_row(left, i, right, cost, action, pts);
    if (pts.size() > kFilterAbove) keep_pareto(pts, tol, complexity_tol);
  }
}

// `origin`, when given: the index in `cands` of each of the node's actions.
// Only the splits the front uses become actions, numbered in the order of
// their first use along the front (as keep_front_actions() numbers them):
// a bounded sweep assembles every split it solved, of which the front keeps
// few, and an action copies its children's references.
inline std::unique_ptr<Node> assemble_front(
    const SearchContext& c, const Guards& guards, const NodeStats& total, double loss,
    const std::vector<Candidate>& cands,
    const std::vector<std::pair<ChildRef, ChildRef>>& children,
    std::vector<std::size_t>* origin = nullptr) {
  std::vector<FrontPoint> pts{{loss, 0.0, -1, 0, 0}};
  for (std::size_t a = 0; a < cands.size(); ++a) {
    const ChildFront lf(children[a].first), rf(children[a].second);
    guards.check_pair_count(static_cast<double>(lf.size()) * rf.size());
    add_split_points_filtered(lf, rf, c.split_cost(cands[a].feature, total),
                              static_cast<std::int32_t>(a), c.tol, c.complexity_tol, pts);
  }
  keep_pareto(pts, c.tol, c.complexity_tol);
  auto node = std::make_unique<Node>();
  node->front.assign(pts.begin(), pts.end());
  if (origin) origin->clear();
  std::vector<std::int32_t> renumbered(cands.size(), -1);
  for (FrontPoint& p : node->front) {
    if (p.action < 0) continue;
    const std::size_t a = static_cast<std::size_t>(p.action);
    if (renumbered[a] < 0) {
      renumbered[a] = static_cast<std::int32_t>(node->actions.size());
      node->actions.push_back({cands[a].feature, cands[a].threshold, children[a].first,
                               children[a].second, cands[a].levels.to_vector(), cands[a].na_left});
      if (origin) origin->push_back(a);
    }
    p.action = renumbered[a];
  }
  return node;
}

}  // namespace dpdt
