// A state's solution: its Pareto front, with the splits (actions) whose
// children's front points each front point combines, so that any point can
// be rebuilt as a tree (tree.h). Shared by the search, which makes them,
// and the trees, which read them.
#pragma once
#include <memory>
#include <vector>

#include "core/fronts/pareto.h"

namespace dpdt {

struct Node;

// A child of a split: a solved state, or (node == nullptr) a state that can
// only be a leaf (maximum depth, pure, or too small to split).
struct ChildRef {
  const Node* node = nullptr;
  double leaf_loss = 0.0;  // the leaf's loss; read only when node == nullptr
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
// split's), and with two levels left their front (else empty).
struct RelaxedBound {
  double best = 0.0;
  std::vector<FrontPoint> front;
};

struct Node {
  std::vector<FrontPoint> front;
  std::vector<Action> actions;
  // Where the search sets it (min_bucket > 1, bounded states): what bounds
  // the trees of every state holding its rows (the relaxed interval bound)
  // with any min_bucket, and its own. A pointer: none with min_bucket 1.
  std::unique_ptr<const RelaxedBound> relaxed;
  // ... its least loss with min_bucket = 1 (a lower bound; 0 if not set).
  double relaxed_best() const { return relaxed ? relaxed->best : 0.0; }
};

}  // namespace dpdt
