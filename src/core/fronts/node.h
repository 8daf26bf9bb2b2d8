// A state's solution: its Pareto front, with the splits (actions) whose
// children's front points each front point combines, so that any point can
// be rebuilt as a tree (tree.h). Shared by the search, which makes them,
// and the trees, which read them.
#pragma once
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

struct Node {
  std::vector<FrontPoint> front;
  std::vector<Action> actions;
  // A lower bound of the least loss of the state's trees with min_bucket = 1
  // (with min_bucket > 1, the interval bound of the search's sweep holds for
  // it, not for the front's own least loss); 0 unless the search sets it.
  double relaxed_best = 0.0;
};

}  // namespace dpdt
