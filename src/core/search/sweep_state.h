// The splits of one bounded state solved so far (room: holds; calls
// nothing of the search), shared by the bounded sweep and the depth-two
// scoring of its cuts.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "core/data/node_stats.h"
#include "core/fronts/node.h"
#include "core/fronts/pareto.h"
#include "core/search/context.h"
#include "core/search/depth_two.h"
#include "core/splits/candidates.h"

namespace dpdt {

// By candidate index (tasks on different features write different entries).
struct SweepState {
  SweepState() = default;
  SweepState(std::size_t n, bool scoring, bool stumps, bool complete) {
    reset(n, scoring, stumps, complete);
  }
  // A state of n candidates, none solved. `scoring`: room for the depth-two
  // solver's scores; `stumps`: for its sides' one-split losses;
  // `complete`: the state holds no missing value (BoundedSweep::complete()). A
  // workspace reuses one per depth (Workspace::sweep_state()): allocating
  // these afresh for every state, and freeing them, cost a tenth of
  // exhaustive depth 3 on wilt in page faults once the memo no longer kept
  // the heap growing.
  // Only the flags are cleared for every candidate: children and floors
  // are read only where they say, and a state's children are dropped
  // where it solved some (release()), so the others are empty already
  // (assigning every candidate's two empty children, 64 bytes, was 2.4 %
  // of exhaustive depth 3's instructions on wilt, for ten thousand
  // candidates a state).
  void reset(std::size_t n, bool scoring, bool stumps, bool complete_rows) {
    complete = complete_rows;
    release();  // the children of a state that did not finish (interrupted)
    solved.assign(n, 0);
    leaf_only.assign(n, 0);
    if (floors.size() < 2 * n) floors.resize(2 * n);  // read only where leaf_only says
    scored.assign(n, 0);
    if (children.size() < n) children.resize(n);  // read only where solved says
    scores = scoring;
    if (scoring && sides.size() < n) sides.resize(n);  // read only where scored says
    stump.assign(stumps ? n : 0, {});
    stump_known.assign(stumps ? n : 0, 0);
  }
  // Drops the references to the children solved (those a node's actions
  // kept live on), leaving every entry empty.
  void release() {
    const char* first = solved.data();
    const char* end = first + solved.size();
    // Few are solved: memchr finds them (a loop over every flag cost about
    // as much as the assignments it saved).
    for (const char* at = first; at != end;) {
      at = static_cast<const char*>(std::memchr(at, 1, static_cast<std::size_t>(end - at)));
      if (!at) break;
      children[static_cast<std::size_t>(at - first)] = {};
      ++at;
    }
  }
  // No missing value in the state's rows: a side's best loss bounds every
  // side holding its rows (BoundedSweep::subset_bound()).
  bool complete = true;
  std::vector<char> solved;
  // Sides of a solved split given as their leaf only (StateSolver::
  // solve_children()'s sides not wanted): 1 the left, 2 the right.
  std::vector<char> leaf_only;
  // Such a side's least loss as the sweep bounded it (2 i: left, 2 i + 1:
  // right), as a child whose best loss that is.
  std::vector<ChildRef> floors;
  // A solved split's side as a bound of its neighbours': its child, or its
  // floor when it is only its leaf.
  const ChildRef& side(std::size_t i, bool left) const {
    if (leaf_only[i] & (left ? 1 : 2)) return floors[2 * i + (left ? 0 : 1)];
    return left ? children[i].first : children[i].second;
  }
  // Cuts scored by the depth-two solver, not solved: their sides' losses.
  // `scores`: the state's cuts may be scored (room in `sides`).
  bool scores = false;
  std::vector<char> scored;
  std::vector<std::pair<ChildRef, ChildRef>> children;
  std::vector<DepthTwoSolver::Sides> sides;
  // With three levels left: each numeric cut's sides as leaves and with
  // their best split (CutScoring::one_split_losses()), where stump_known.
  std::vector<DepthTwoSolver::Sides> stump;
  std::vector<char> stump_known;
};

// The points of solved candidate i, added to `pts`.
inline void add_solved_points(const SearchContext& c, const NodeStats& total,
                              const std::vector<Candidate>& cands, std::size_t i,
                              const SweepState& sw, std::vector<FrontPoint>& pts) {
  add_split_points(ChildFront(sw.children[i].first), ChildFront(sw.children[i].second),
                   c.split_cost(cands[i].feature, total), static_cast<std::int32_t>(i), pts);
}

}  // namespace dpdt
