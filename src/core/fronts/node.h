// A state's solution: its Pareto front, with the splits (actions) whose
// children's front points each front point combines, so that any point can
// be rebuilt as a tree (tree.h). Shared by the search, which makes them,
// and the trees, which read them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/fronts/pareto.h"

namespace dpdt {

struct Node;

// A child of a split: a solved state, or (node == nullptr) a state that can
// only be a leaf (maximum depth, pure, or too small to split). A state the
// memo holds is owned by it; a state the memo does not keep (one level
// left: states.h) is owned by the references to it, so that it lives as
// long as a split that can be rebuilt into a tree refers to it.
struct ChildRef {
  ChildRef() = default;
  ChildRef(const Node* solved, double leaf, std::shared_ptr<const Node> own = nullptr)
      : node(solved), leaf_loss(leaf), owned(std::move(own)) {}
  const Node* node = nullptr;
  double leaf_loss = 0.0;  // the leaf's loss; read only when node == nullptr
  std::shared_ptr<const Node> owned;  // node, when the memo does not hold it
};

struct Action {
  int feature;
  double threshold;
  ChildRef left, right;
  std::vector<int> levels;  // categorical test: level codes going left
  signed char na_left;      // 1, 0, or -1: the state had no missing value
};

// A state's trees with min_bucket = 1 (with min_bucket > 1, the interval
// bound of the search's sweep holds for these, not for the state's own
// front): a lower bound of their least loss (one level left: the best
// split's), and with two levels left or more their front (else empty).
struct RelaxedBound {
  double best = 0.0;
  std::vector<FrontPoint> front;
};

struct Node {
  std::vector<FrontPoint> front;
  // The splits the front's points use (FrontPoint::action), and no others.
  std::vector<Action> actions;
  // Where the search sets it (min_bucket > 1, bounded states; and at the
  // last level where the data hold missing values, with "missing vs the
  // rest" allowed: LastLevel::missing_vs_rest()): what bounds the trees of
  // every state holding its rows (the relaxed interval bound) with any
  // min_bucket, and its own. A pointer: none with min_bucket 1 on complete
  // data.
  std::unique_ptr<const RelaxedBound> relaxed;
  // ... its least loss with min_bucket = 1 (a lower bound; 0 if not set).
  double relaxed_best() const { return relaxed ? relaxed->best : 0.0; }
};

// Keeps only the actions the front's points use, in their order, and
// renumbers the points: a node stays no larger than its front, and the
// states its other splits led to are freed (ChildRef::owned). `origin`,
// when given: each kept action's former index.
inline void keep_front_actions(Node& node, std::vector<std::size_t>* origin = nullptr) {
  // Most often every action is kept and first used in its order (a state
  // of the last level: its best split): nothing moves.
  std::int32_t used = 0;
  bool in_order = true;
  for (const FrontPoint& p : node.front)
    if (p.action == used) ++used;
    else if (p.action > used) in_order = false;
  if (in_order && static_cast<std::size_t>(used) == node.actions.size()) {
    if (origin) {
      origin->clear();
      for (std::int32_t a = 0; a < used; ++a) origin->push_back(static_cast<std::size_t>(a));
    }
    return;
  }
  std::vector<std::int32_t> renumbered(node.actions.size(), -1);
  std::vector<Action> kept;
  if (origin) origin->clear();
  for (FrontPoint& p : node.front) {
    if (p.action < 0) continue;
    std::int32_t& to = renumbered[static_cast<std::size_t>(p.action)];
    if (to < 0) {
      to = static_cast<std::int32_t>(kept.size());
      kept.push_back(std::move(node.actions[static_cast<std::size_t>(p.action)]));
      if (origin) origin->push_back(static_cast<std::size_t>(p.action));
    }
    p.action = to;
  }
  node.actions.swap(kept);
}

}  // namespace dpdt
