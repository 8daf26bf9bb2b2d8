// Pruning an ensemble (a majority vote, or the mean, of trees) by subtree
// replacement to a total budget of splits kept. It is NP-hard already for
// two trees (Harviainen, Sommer, Sorge and Szeider, 2025), so beyond what
// enumeration reaches this is a heuristic, with a proven lower bound of the
// least loss at every budget beside it.
//
// The heuristic is block-coordinate descent (PRUNING.md, section 5): the
// other trees fixed, each row has a cost for each class (value) the tree
// may vote, and the single-tree replacement program prunes the tree
// exactly for those costs plus a penalty per split kept. Starting from the
// whole ensemble, the penalty rises step by step (each step starts from the
// last one's pruning), and every joint pruning a pass ends with is a real
// one: the front is the Pareto set of those.
//
// The lower bound (classification): a row is voted right only when enough
// trees vote its class, and a tree votes class c on a row only when a node
// labelled c on the row's path is kept as a leaf, which keeps every split
// above it: at least that node's depth. So a row whose cheapest set of
// winning votes needs more than B splits is wrong in every joint pruning
// keeping B splits. Regression: each tree predicts a label on the row's
// path, so the mean lies between the means of the paths' least and
// greatest labels; a row's squared distance to that interval bounds its
// error at any budget (weak: it ignores the budget).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "core/runtime/runtime.h"

namespace dpdt {

// One tree, nodes numbered parents first (preorder): children (-1 at a
// leaf), depth, each node's label (a class 0..k-1, or a value), and the
// node each row ends in.
struct EnsembleMember {
  std::vector<int> left, right, depth;
  std::vector<double> label;
  std::vector<int> end;
};

// A joint pruning: its splits kept, loss, and per tree the nodes made
// leaves (none of them below another).
struct EnsemblePoint {
  int splits = 0;
  double loss = 0.0;
  std::vector<std::vector<int>> cuts;
  std::vector<int> kept;  // per tree: its splits kept
  // Summed over the trees: each row's weight times the depth of the leaf
  // it ends in; and the deepest leaf a row ends in.
  double tests = 0.0;
  int depth = 0;
};

class EnsemblePruner {
 public:
  // `y`: each row's class (0..n_classes - 1), or value (n_classes = 0).
  EnsemblePruner(const std::vector<EnsembleMember>& trees, const std::vector<double>& y,
                 const std::vector<double>& w, int n_classes)
      : trees_(trees), y_(y), w_(w), n_(static_cast<int>(y.size())), k_(n_classes),
        t_(static_cast<int>(trees.size())) {
    cut_.resize(t_);
    pred_.resize(t_);
    kept_.assign(t_, 0);
    for (int t = 0; t < t_; ++t) {
      cut_[t].assign(trees_[t].left.size(), 0);
      pred_[t].resize(n_);
      for (int i = 0; i < n_; ++i) pred_[t][i] = trees_[t].label[trees_[t].end[i]];
      for (int l : trees_[t].left) kept_[t] += l >= 0;
    }
    if (k_ > 0) {
      votes_.assign(static_cast<std::size_t>(n_) * k_, 0);
      for (int t = 0; t < t_; ++t)
        for (int i = 0; i < n_; ++i) ++votes_[vote_at(i, static_cast<int>(pred_[t][i]))];
    } else {
      sum_.assign(n_, 0.0);
      for (int t = 0; t < t_; ++t)
        for (int i = 0; i < n_; ++i) sum_[i] += pred_[t][i];
    }
  }

  // For each penalty in turn (per split kept, in units of loss), passes
  // over the trees until one changes no tree or `max_passes`; the joint
  // pruning after each pass joins the front, as do the whole ensemble and
  // every tree a leaf. Interruptible between trees.
  void run(const std::vector<double>& penalties, int max_passes, Runtime& rt) {
    record();
    record_leaves();
    for (double lambda : penalties) {
      for (int pass = 0; pass < max_passes; ++pass) {
        bool changed = false;
        for (int t = 0; t < t_; ++t) {
          if (rt.interrupt_requested()) throw Interrupted();
          changed = improve(t, lambda) || changed;
        }
        record();
        if (!changed) break;
      }
    }
  }

  // The Pareto front of the joint prunings recorded: splits ascending,
  // loss strictly descending.
  std::vector<EnsemblePoint> front() const {
    std::vector<EnsemblePoint> pts = seen_;
    std::stable_sort(pts.begin(), pts.end(), [](const EnsemblePoint& a, const EnsemblePoint& b) {
      return a.splits < b.splits || (a.splits == b.splits && a.loss < b.loss);
    });
    std::vector<EnsemblePoint> out;
    for (EnsemblePoint& p : pts)
      if (out.empty() || p.loss < out.back().loss) out.push_back(std::move(p));
    return out;
  }

  // A lower bound of the least loss of every joint pruning keeping at most
  // `budget` splits (see the file's opening comment).
  std::vector<double> lower_bounds(const std::vector<int>& budgets) const {
    if (k_ == 0) {
      const double lb = regression_bound();
      return std::vector<double>(budgets.size(), lb);
    }
    const std::vector<double> need = splits_to_be_right();
    std::vector<double> out;
    for (int b : budgets) {
      double lb = 0.0;
      for (int i = 0; i < n_; ++i)
        if (need[i] > b) lb += w_[i];
      out.push_back(lb);
    }
    return out;
  }

  // The loss of the ensemble as it stands (the whole ensemble before run()).
  double loss() const {
    double l = 0.0;
    for (int i = 0; i < n_; ++i) l += row_loss(i);
    return l;
  }

 private:
  std::size_t vote_at(int i, int c) const { return static_cast<std::size_t>(i) * k_ + c; }

  // The class the votes of row i elect: the most votes, ties to the first.
  int winner(int i) const {
    int best = 0;
    for (int c = 1; c < k_; ++c)
      if (votes_[vote_at(i, c)] > votes_[vote_at(i, best)]) best = c;
    return best;
  }
  double row_loss(int i) const {
    if (k_ > 0) return winner(i) == static_cast<int>(y_[i]) ? 0.0 : w_[i];
    const double e = sum_[i] / t_ - y_[i];
    return w_[i] * e * e;
  }

  // Tree t pruned anew for the others' votes and `lambda` per split kept.
  // Returns whether its prediction of some row, or its splits, changed.
  bool improve(int t, double lambda) {
    const EnsembleMember& tr = trees_[t];
    const int nodes = static_cast<int>(tr.left.size());
    const int width = k_ > 0 ? k_ : 3;
    // Per node: classification, each class's cost summed over the rows
    // below it; regression, sums of w, w a, w a^2 (a: the row's mean
    // without this tree, less its response, over the trees' count).
    sums_.assign(static_cast<std::size_t>(nodes) * width, 0.0);
    for (int i = 0; i < n_; ++i) {
      double* s = &sums_[static_cast<std::size_t>(tr.end[i]) * width];
      if (k_ > 0) {
        --votes_[vote_at(i, static_cast<int>(pred_[t][i]))];
        row_costs(i, s);
      } else {
        sum_[i] -= pred_[t][i];
        const double a = sum_[i] / t_ - y_[i];
        s[0] += w_[i];
        s[1] += w_[i] * a;
        s[2] += w_[i] * a * a;
      }
    }
    best_.assign(nodes, 0.0);
    std::vector<char> cut(nodes, 0);
    // Children first (reverse preorder): a node's sums, and its least cost
    // made a leaf or kept.
    for (int u = nodes - 1; u >= 0; --u) {
      double* s = &sums_[static_cast<std::size_t>(u) * width];
      if (tr.left[u] < 0) {
        best_[u] = leaf_cost(s, tr.label[u]);
        continue;
      }
      const double* l = &sums_[static_cast<std::size_t>(tr.left[u]) * width];
      const double* r = &sums_[static_cast<std::size_t>(tr.right[u]) * width];
      for (int c = 0; c < width; ++c) s[c] += l[c] + r[c];
      const double whole = leaf_cost(s, tr.label[u]);
      const double keep = best_[tr.left[u]] + best_[tr.right[u]] + lambda;
      cut[u] = whole <= keep;  // ties: the fewer splits
      best_[u] = cut[u] ? whole : keep;
    }
    const int kept = leaves_under(tr, cut, nullptr);
    bool changed = kept != kept_[t];
    for (int i = 0; i < n_; ++i) {
      const double p = tr.label[leaf_of(tr.end[i])];
      changed = changed || p != pred_[t][i];
      pred_[t][i] = p;
      if (k_ > 0) ++votes_[vote_at(i, static_cast<int>(p))];
      else sum_[i] += p;
    }
    kept_[t] = kept;
    cut_[t].swap(cut);
    return changed;
  }

  // Each node's leaf under the cuts `cut` (owner_: its highest cut
  // ancestor, or -1 when none and it is its own; leaf_of()), with the
  // highest cut nodes (cut, no cut ancestor) appended to `highest` when
  // given. Returns the splits kept: inner nodes neither cut nor below a cut.
  int leaves_under(const EnsembleMember& tr, const std::vector<char>& cut,
                   std::vector<int>* highest) {
    const int nodes = static_cast<int>(tr.left.size());
    owner_.assign(nodes, -1);
    int kept = 0;
    for (int u = 0; u < nodes; ++u) {
      if (tr.left[u] < 0) continue;
      if (owner_[u] < 0 && cut[u]) {
        owner_[u] = u;
        if (highest) highest->push_back(u);
      }
      if (owner_[u] < 0) ++kept;
      owner_[tr.left[u]] = owner_[tr.right[u]] = owner_[u];
    }
    return kept;
  }
  int leaf_of(int end) const { return owner_[end] >= 0 ? owner_[end] : end; }

  // Row i's cost of each class the tree may vote, the other trees' votes
  // fixed (it is wrong: its weight; right: 0), added to s. With V the
  // others' votes and y its class: voting y, y wins if V(y) + 1 beats every
  // class before y and ties or beats every one after; voting c != y, y
  // must beat c's V(c) + 1 (or tie it, c after y) and the others' V.
  void row_costs(int i, double* s) const {
    const int y = static_cast<int>(y_[i]);
    const int* v = &votes_[vote_at(i, 0)];
    int before = -1, after = -1;
    for (int c = 0; c < y; ++c) before = std::max(before, v[c]);
    for (int c = y + 1; c < k_; ++c) after = std::max(after, v[c]);
    const int vy = v[y];
    for (int c = 0; c < k_; ++c) {
      bool right;
      if (c == y) right = vy + 1 > before && vy + 1 >= after;
      else if (c < y) right = vy > std::max(before, v[c] + 1) && vy >= after;
      else right = vy > before && vy >= std::max(after, v[c] + 1);
      if (!right) s[c] += w_[i];
    }
  }

  double leaf_cost(const double* s, double label) const {
    if (k_ > 0) return s[static_cast<int>(label)];
    const double p = label / t_;  // the tree's share of the mean
    return std::max(0.0, s[2] + 2.0 * p * s[1] + p * p * s[0]);
  }

  // The joint pruning as it stands joins the points seen.
  void record() {
    EnsemblePoint p;
    p.loss = loss();
    p.cuts.resize(t_);
    p.kept = kept_;
    for (int t = 0; t < t_; ++t) {
      p.splits += kept_[t];
      const EnsembleMember& tr = trees_[t];
      leaves_under(tr, cut_[t], &p.cuts[t]);
      for (int i = 0; i < n_; ++i) {
        const int leaf = leaf_of(tr.end[i]);
        p.tests += w_[i] * tr.depth[leaf];
        p.depth = std::max(p.depth, tr.depth[leaf]);
      }
    }
    seen_.push_back(std::move(p));
  }

  // The joint pruning of every tree made a leaf (its root's label).
  void record_leaves() {
    EnsemblePoint p;
    p.cuts.resize(t_);
    p.kept.assign(t_, 0);
    for (int t = 0; t < t_; ++t)
      if (trees_[t].left[0] >= 0) p.cuts[t].push_back(0);
    // every row gets the roots' vote (ties to the first class) or mean
    std::vector<int> votes(std::max(k_, 1), 0);
    double mean = 0.0;
    for (const EnsembleMember& tr : trees_) {
      if (k_ > 0) ++votes[static_cast<int>(tr.label[0])];
      else mean += tr.label[0] / t_;
    }
    const int win = static_cast<int>(std::max_element(votes.begin(), votes.end()) - votes.begin());
    for (int i = 0; i < n_; ++i) {
      if (k_ > 0) {
        if (win != static_cast<int>(y_[i])) p.loss += w_[i];
      } else {
        p.loss += w_[i] * (mean - y_[i]) * (mean - y_[i]);
      }
    }
    seen_.push_back(std::move(p));
  }

  // Per row, the fewest splits kept with which it can be voted right: the
  // cheapest trees' depths of the shallowest node labelled its class on
  // its path, as many trees as its class needs to win (two classes: half
  // the trees, the first class winning ties; more: y's votes at least the
  // others' share of the rest, as evenly spread as can be). Infinite when
  // too few trees have such a node.
  std::vector<double> splits_to_be_right() const {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> need(n_, 0.0);
    std::vector<std::vector<int>> cost(n_, std::vector<int>());
    std::vector<int> shallowest;
    for (const EnsembleMember& tr : trees_) {
      const int nodes = static_cast<int>(tr.left.size());
      // per node and class: the depth of the shallowest node of that class
      // from the root to it (-1: none)
      shallowest.assign(static_cast<std::size_t>(nodes) * k_, -1);
      for (int u = 0; u < nodes; ++u) {
        int* s = &shallowest[static_cast<std::size_t>(u) * k_];
        const int c = static_cast<int>(tr.label[u]);
        if (s[c] < 0) s[c] = tr.depth[u];
        if (tr.left[u] < 0) continue;
        for (int child : {tr.left[u], tr.right[u]})
          std::copy(s, s + k_, &shallowest[static_cast<std::size_t>(child) * k_]);
      }
      for (int i = 0; i < n_; ++i) {
        const int d = shallowest[static_cast<std::size_t>(tr.end[i]) * k_ + static_cast<int>(y_[i])];
        if (d >= 0) cost[i].push_back(d);
      }
    }
    for (int i = 0; i < n_; ++i) {
      const int votes = votes_needed(static_cast<int>(y_[i]));
      std::vector<int>& c = cost[i];
      if (static_cast<int>(c.size()) < votes) {
        need[i] = inf;
        continue;
      }
      std::nth_element(c.begin(), c.begin() + (votes - 1), c.end());
      double total = 0.0;
      for (int j = 0; j < votes; ++j) total += c[j];
      need[i] = total;
    }
    return need;
  }

  // The fewest votes of T with which class y can win (see above).
  int votes_needed(int y) const {
    if (k_ == 2) return y == 0 ? (t_ + 1) / 2 : t_ / 2 + 1;
    for (int v = 1; v <= t_; ++v) {
      const int spread = (t_ - v + k_ - 2) / (k_ - 1);  // ceil((T - v) / (k - 1))
      if (v >= spread) return v;
    }
    return t_;
  }

  double regression_bound() const {
    std::vector<double> lo(n_, 0.0), hi(n_, 0.0), path_lo, path_hi;
    for (const EnsembleMember& tr : trees_) {
      const int nodes = static_cast<int>(tr.left.size());
      path_lo.assign(nodes, 0.0);
      path_hi.assign(nodes, 0.0);
      for (int u = 0; u < nodes; ++u) {
        if (u == 0) path_lo[u] = path_hi[u] = tr.label[u];
        path_lo[u] = std::min(path_lo[u], tr.label[u]);
        path_hi[u] = std::max(path_hi[u], tr.label[u]);
        if (tr.left[u] < 0) continue;
        for (int child : {tr.left[u], tr.right[u]}) {
          path_lo[child] = path_lo[u];
          path_hi[child] = path_hi[u];
        }
      }
      for (int i = 0; i < n_; ++i) {
        lo[i] += path_lo[tr.end[i]];
        hi[i] += path_hi[tr.end[i]];
      }
    }
    double lb = 0.0;
    for (int i = 0; i < n_; ++i) {
      const double a = lo[i] / t_, b = hi[i] / t_;
      const double d = y_[i] < a ? a - y_[i] : y_[i] > b ? y_[i] - b : 0.0;
      lb += w_[i] * d * d;
    }
    return lb;
  }

  const std::vector<EnsembleMember>& trees_;
  const std::vector<double>& y_;
  const std::vector<double>& w_;
  const int n_, k_, t_;
  std::vector<std::vector<char>> cut_;
  std::vector<std::vector<double>> pred_;
  std::vector<int> kept_;
  std::vector<int> votes_;   // classification: rows x classes
  std::vector<double> sum_;  // regression: each row's sum of predictions
  std::vector<double> sums_, best_;
  std::vector<int> owner_;
  std::vector<EnsemblePoint> seen_;
};

}  // namespace dpdt
