// A state's solution: its Pareto front, with the splits (actions) whose
// children's front points each front point combines, so that any point can
// be rebuilt as a tree (tree.h). Shared by the search, which makes them,
// and the trees, which read them.
#pragma once
#include <atomic>
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
// long as a split that can be rebuilt into a tree refers to it. Their count
// lives in the node (Node::owners), not in a block of its own as a
// shared_ptr's would: such states are most of a search's nodes (exhaustive
// depth 3 on bank: 10,800 of 157,000 allocations were their counts), and a
// reference is three words, not four (a bounded state's sweep holds two per
// candidate: SweepState). Whether it owns is its own flag: a reference to
// a node the memo holds may outlive the memo's copy, and must not read it.
class ChildRef {
 public:
  ChildRef() = default;
  ChildRef(const Node* solved, double leaf) : node(solved), leaf_loss(leaf) {}
  // A state the memo does not keep: owned by this reference and its copies.
  static ChildRef owning(std::unique_ptr<Node> solved, double leaf);
  ChildRef(const ChildRef& o) : node(o.node), leaf_loss(o.leaf_loss), owns_(o.owns_) { retain(); }
  ChildRef(ChildRef&& o) noexcept : node(o.node), leaf_loss(o.leaf_loss), owns_(o.owns_) {
    o.node = nullptr;
    o.owns_ = false;
  }
  ChildRef& operator=(const ChildRef& o) {
    if (this != &o) {
      o.retain();
      release();
      node = o.node;
      leaf_loss = o.leaf_loss;
      owns_ = o.owns_;
    }
    return *this;
  }
  ChildRef& operator=(ChildRef&& o) noexcept {
    if (this != &o) {
      release();
      node = o.node;
      leaf_loss = o.leaf_loss;
      owns_ = o.owns_;
      o.node = nullptr;
      o.owns_ = false;
    }
    return *this;
  }
  ~ChildRef() { release(); }
  // Whether the references own the node (the memo does not hold it).
  bool owns() const { return owns_; }

  const Node* node = nullptr;
  double leaf_loss = 0.0;  // the leaf's loss; read only when node == nullptr

 private:
  bool owns_ = false;
  void retain() const;
  void release();
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
  // The references that own it (ChildRef::owning()); unused for a node the
  // memo or a unique_ptr holds. Atomic: the root's workers copy references.
  mutable std::atomic<std::uint32_t> owners{0};
};

inline ChildRef ChildRef::owning(std::unique_ptr<Node> solved, double leaf) {
  solved->owners.store(1, std::memory_order_relaxed);
  ChildRef ref;
  ref.node = solved.release();
  ref.leaf_loss = leaf;
  ref.owns_ = true;
  return ref;
}
inline void ChildRef::retain() const {
  if (owns_) node->owners.fetch_add(1, std::memory_order_relaxed);
}
inline void ChildRef::release() {
  if (owns_ && node->owners.fetch_sub(1, std::memory_order_acq_rel) == 1) delete node;
  node = nullptr;
  owns_ = false;
}

// A child's front read in place: its node's, or its leaf's one point. The
// assembly of a state and its bounded sweep pair every solved split's two
// fronts; copying them cost two allocations a split (exhaustive depth 3 on
// bank: 26,000 of 100,000).
class ChildFront {
 public:
  explicit ChildFront(const ChildRef& c) : node_(c.node), leaf_{c.leaf_loss, 0.0, -1, 0, 0} {}
  const FrontPoint* data() const { return node_ ? node_->front.data() : &leaf_; }
  std::size_t size() const { return node_ ? node_->front.size() : 1; }

 private:
  const Node* node_;
  FrontPoint leaf_;
};

// The pairs of a split's left point i with each of its right points
// (add_split_points()' row i): callers filter between rows, as two fronts
// of a thousand points make a million pairs.
inline void add_split_row(const ChildFront& left, std::size_t i, const ChildFront& right,
                          double cost, std::int32_t action, std::vector<FrontPoint>& pts) {
  const FrontPoint& l = left.data()[i];
  const FrontPoint* r = right.data();
  for (std::size_t j = 0; j < right.size(); ++j)
    pts.push_back({l.loss + r[j].loss, l.complexity + r[j].complexity + cost, action,
                   static_cast<std::int32_t>(i), static_cast<std::int32_t>(j)});
}

// Every pair of the two children's points of a split (add_split_points()).
inline void add_split_points(const ChildFront& left, const ChildFront& right, double cost,
                             std::int32_t action, std::vector<FrontPoint>& pts) {
  add_split_points(left.data(), left.size(), right.data(), right.size(), cost, action, pts);
}

// Keeps only the actions the front's points use, in their order, and
// renumbers the points: a node stays no larger than its front, and the
// states its other splits led to are freed (ChildRef::owning()). `origin`,
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
