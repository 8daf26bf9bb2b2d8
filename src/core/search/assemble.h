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

// `origin`, when given: the index in `cands` of each of the node's actions
// (it keeps only those its front uses: keep_front_actions()).
inline std::unique_ptr<Node> assemble_front(
    const SearchContext& c, const Guards& guards, const NodeStats& total, double loss,
    const std::vector<Candidate>& cands,
    const std::vector<std::pair<ChildRef, ChildRef>>& children,
    std::vector<std::size_t>* origin = nullptr) {
  auto node = std::make_unique<Node>();
  std::vector<FrontPoint> pts{{loss, 0.0, -1, 0, 0}};
  for (std::size_t a = 0; a < cands.size(); ++a) {
    const ChildRef& l = children[a].first;
    const ChildRef& r = children[a].second;
    const double cost = c.split_cost(cands[a].feature, total);
    node->actions.push_back({cands[a].feature, cands[a].threshold, l, r, cands[a].levels,
                             cands[a].na_left});
    const std::vector<FrontPoint> lf = SearchContext::front_of(l), rf = SearchContext::front_of(r);
    guards.check_pair_count(static_cast<double>(lf.size()) * rf.size());
    add_split_points(lf, rf, cost, static_cast<std::int32_t>(a), pts);
    // Deep searches with complexity "tests" have long fronts: filter as we
    // go, so the pending points stay near one split's pairs.
    if (pts.size() > kFilterAbove) keep_pareto(pts, c.tol, c.complexity_tol);
  }
  keep_pareto(pts, c.tol, c.complexity_tol);
  node->front.assign(pts.begin(), pts.end());
  keep_front_actions(*node, origin);
  return node;
}

}  // namespace dpdt
