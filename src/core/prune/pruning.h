// Optimal pruning by subtree replacement (PRUNING.md §2): the least loss on
// a set of rows for EVERY number k of pruned internal nodes ("cuts"), in one
// post-order pass, with back-pointers to rebuild the pruned tree at any k.
//
// Two dynamic programs give the same front:
//  - indexed by pruned cuts: opt(v, j), j = 0..c_v (the O(s^2) tree knapsack);
//  - indexed by errors: P(v, e) = most cuts prunable with at most e errors,
//    e = 0..t_v. Used (automatically) when its table is the smaller one; it
//    needs whole-number losses and "sub-additive" leaf losses (splitting a
//    node never costs loss: true when every leaf is labelled by the majority
//    of the rows counted), which is what makes the exact-k front monotone.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "core/data/node_stats.h"
#include "core/fronts/tree.h"

namespace dpdt {

// The rows losses are counted on: class index (0-based) or response, weight.
struct PruneRows {
  int n = 0;
  int n_classes = 0;  // 0: regression
  const double* y = nullptr;
  const double* w = nullptr;
  bool regression() const { return n_classes == 0; }
};

// Loss of one row predicted as `value` (a class index or a mean).
inline double row_loss(const PruneRows& r, int i, double value) {
  if (r.regression()) {
    const double d = r.y[i] - value;
    return r.w[i] * d * d;
  }
  return static_cast<int>(r.y[i]) == static_cast<int>(value) ? 0.0 : r.w[i];
}

inline std::vector<int> parents_of(const FlatTree& t) {
  std::vector<int> parent(t.size(), -1);
  for (int v = 0; v < t.size(); ++v)
    if (t.feature[v] >= 0) parent[t.left[v]] = parent[t.right[v]] = v;
  return parent;
}

// Number of internal nodes in each subtree (nodes are in preorder, so
// children come after their parent).
inline std::vector<int> subtree_cuts(const FlatTree& t) {
  std::vector<int> c(t.size(), 0);
  for (int v = t.size() - 1; v >= 0; --v)
    if (t.feature[v] >= 0) c[v] = 1 + c[t.left[v]] + c[t.right[v]];
  return c;
}

// Per node of the source tree, the statistics of the rows E(v) that pass
// through it, the label it predicts when it is (or becomes) a leaf, and the
// losses the pruning programs need.
struct NodeLosses {
  std::vector<int> count;
  std::vector<double> weight;
  std::vector<double> class_weight;  // nodes x classes, row-major
  std::vector<double> value;         // label (class index) or mean as a leaf
  std::vector<double> leaf_loss;     // loss on E(v) when v is a leaf
  std::vector<double> stuck_loss;    // loss of the rows that stop at inner v
};

// `end[i]`: the node where row i stops (a leaf, or an inner node where the
// source tree's own rule stops it; -1 for a row that is not counted: none
// should be). `keep`: the tree's own label of every node (t.value); with
// relabel = true every node predicts the majority (mean) of its rows
// instead (its own label where no row reaches it). Regression losses are
// summed around each node's own value (two passes: means, then squares),
// so they do not lose precision at large response scales.
inline NodeLosses node_losses(const FlatTree& t, const std::vector<int>& end, const PruneRows& r,
                              const std::vector<double>& keep, bool relabel) {
  const int s = t.size(), k = r.n_classes;
  const std::vector<int> parent = parents_of(t);
  NodeLosses o;
  o.count.assign(s, 0);
  o.weight.assign(s, 0.0);
  o.class_weight.assign(static_cast<std::size_t>(s) * k, 0.0);
  o.leaf_loss.assign(s, 0.0);
  o.stuck_loss.assign(s, 0.0);
  // Regression means as NodeStats::mean(): deviations from the first row's
  // response (a sum of w y would lose the detail of a large offset).
  std::vector<double> shift(s, 0.0), dev(s, 0.0);
  std::vector<char> pure(s, 1);
  for (int i = 0; i < r.n; ++i) {
    for (int v = end[i]; v >= 0; v = parent[v]) {
      if (k == 0) {
        if (o.count[v] == 0) shift[v] = r.y[i];
        pure[v] = pure[v] && r.y[i] == shift[v];
        dev[v] += r.w[i] * (r.y[i] - shift[v]);
      }
      ++o.count[v];
      o.weight[v] += r.w[i];
      if (k > 0) o.class_weight[static_cast<std::size_t>(v) * k + static_cast<int>(r.y[i])] += r.w[i];
    }
  }
  o.value = keep;
  if (relabel) {
    for (int v = 0; v < s; ++v) {
      if (o.weight[v] <= 0) continue;
      o.value[v] = k > 0 ? majority_class(&o.class_weight[static_cast<std::size_t>(v) * k], k)
                 : pure[v] ? shift[v] : shift[v] + dev[v] / o.weight[v];
    }
  }
  for (int i = 0; i < r.n; ++i) {
    const int e = end[i];
    if (e < 0) continue;
    if (t.feature[e] >= 0) o.stuck_loss[e] += row_loss(r, i, o.value[e]);
    for (int v = e; v >= 0; v = parent[v]) o.leaf_loss[v] += row_loss(r, i, o.value[v]);
  }
  return o;
}

enum class PruneIndex { automatic, by_pruned, by_errors };

// The front of replacement prunings and what is needed to rebuild them.
class ReplacementFront {
 public:
  // leaf_loss[v]: loss on E(v) if v is a leaf; stuck_loss[v]: loss of the
  // rows that stop at inner node v while it stays inner.
  ReplacementFront(const FlatTree& t, const std::vector<double>& leaf_loss,
                   const std::vector<double>& stuck_loss, PruneIndex index = PruneIndex::automatic)
      : t_(t), leaf_(leaf_loss), stuck_(stuck_loss), cuts_(subtree_cuts(t)) {
    by_errors_ = errors_eligible() && (index == PruneIndex::by_errors ||
                                       (index == PruneIndex::automatic && errors_cost() < pruned_cost()));
    if (index == PruneIndex::by_errors && !by_errors_) eligible_ = false;
    if (by_errors_) run_by_errors(); else run_by_pruned();
  }

  // Exact least loss for k = 0..cuts(root) pruned cuts.
  const std::vector<double>& loss() const { return loss_; }
  bool used_error_index() const { return by_errors_; }
  // False when by_errors was asked for but the losses do not allow it.
  bool error_index_possible() const { return eligible_; }
  int max_pruned() const { return cuts_[0]; }
  // Table entries each program fills (the automatic choice compares them).
  double pruned_cost() const {
    double c = 0;
    for (int v = 0; v < t_.size(); ++v)
      if (t_.feature[v] >= 0) c += (cuts_[t_.left[v]] + 1.0) * (cuts_[t_.right[v]] + 1.0);
    return c;
  }
  double errors_cost() const {
    double c = 0;
    for (int v = 0; v < t_.size(); ++v)
      if (t_.feature[v] >= 0)
        c += (std::min(budget(t_.left[v]), budget(v)) + 1.0) * (std::min(budget(t_.right[v]), budget(v)) + 1.0);
    return c;
  }

  // The inner nodes that become leaves in an optimal pruning of exactly k
  // cuts: cut[v] = 1 for them (their subtrees are removed).
  std::vector<char> cuts_at(int k) const {
    std::vector<char> cut(t_.size(), 0);
    if (by_errors_) {
      int e = 0;
      while (P_[0][e] < k) ++e;
      mark_by_errors(0, e, cut);
      unprune(cut, k);
    } else {
      mark_by_pruned(0, k, cut);
    }
    return cut;
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  static constexpr int kNone = std::numeric_limits<int>::min() / 4;

  const FlatTree& t_;
  std::vector<double> leaf_, stuck_;
  std::vector<int> cuts_;
  bool by_errors_ = false, eligible_ = true;
  std::vector<double> loss_;
  std::vector<std::vector<int>> choice_;           // by pruned: left share a of j
  std::vector<std::vector<int>> P_, from_a_, from_b_;  // by errors

  int budget(int v) const { return static_cast<int>(std::llround(leaf_[v])); }

  // Whole-number losses, and no split ever costs loss.
  bool errors_eligible() const {
    for (int v = 0; v < t_.size(); ++v) {
      if (leaf_[v] != std::round(leaf_[v]) || stuck_[v] != std::round(stuck_[v]) || leaf_[v] > 1e7)
        return false;
      if (t_.feature[v] >= 0 && leaf_[t_.left[v]] + leaf_[t_.right[v]] + stuck_[v] > leaf_[v]) return false;
    }
    return true;
  }

  void run_by_pruned() {
    const int s = t_.size();
    std::vector<std::vector<double>> opt(s);
    choice_.assign(s, {});
    for (int v = s - 1; v >= 0; --v) {
      if (t_.feature[v] < 0) {
        opt[v] = {leaf_[v]};
        continue;
      }
      const int u = t_.left[v], w = t_.right[v], cu = cuts_[u], cw = cuts_[w];
      std::vector<double>& o = opt[v];
      o.assign(cuts_[v] + 1, kInf);
      std::vector<int>& ch = choice_[v];
      ch.assign(cuts_[v], -1);
      const std::vector<double>& ou = opt[u];
      const std::vector<double>& ow = opt[w];
      for (int a = 0; a <= cu; ++a)
        for (int b = 0; b <= cw; ++b) {
          const double val = ou[a] + ow[b];
          if (val < o[a + b]) {
            o[a + b] = val;
            ch[a + b] = a;
          }
        }
      for (int j = 0; j < cuts_[v]; ++j) o[j] += stuck_[v];
      o[cuts_[v]] = leaf_[v];
      std::vector<double>().swap(opt[u]);
      std::vector<double>().swap(opt[w]);
    }
    loss_ = opt[0];
  }

  void mark_by_pruned(int v, int j, std::vector<char>& cut) const {
    if (t_.feature[v] < 0) return;
    if (j == cuts_[v]) {
      cut[v] = 1;
      return;
    }
    const int a = choice_[v][j];
    mark_by_pruned(t_.left[v], a, cut);
    mark_by_pruned(t_.right[v], j - a, cut);
  }

  // P(v, e) for e = 0..budget(v); kNone where no pruning has loss <= e.
  void run_by_errors() {
    const int s = t_.size();
    P_.assign(s, {});
    from_a_.assign(s, {});
    from_b_.assign(s, {});
    for (int v = s - 1; v >= 0; --v) {
      const int L = budget(v);
      std::vector<int>& P = P_[v];
      P.assign(L + 1, kNone);
      std::vector<int>& fa = from_a_[v];
      std::vector<int>& fb = from_b_[v];
      fa.assign(L + 1, -1);
      fb.assign(L + 1, -1);
      if (t_.feature[v] >= 0) {
        const int u = t_.left[v], w = t_.right[v], st = static_cast<int>(std::llround(stuck_[v]));
        const std::vector<int>& Pu = P_[u];
        const std::vector<int>& Pw = P_[w];
        const int Lu = std::min(budget(u), L), Lw = std::min(budget(w), L);
        for (int a = 0; a <= Lu; ++a) {
          if (Pu[a] == kNone) continue;
          for (int b = 0; b <= Lw && a + b + st <= L; ++b) {
            if (Pw[b] == kNone) continue;
            const int e = a + b + st, val = Pu[a] + Pw[b];
            if (val > P[e]) {
              P[e] = val;
              fa[e] = a;
              fb[e] = b;
            }
          }
        }
      }
      // a leaf (or v pruned to one): all of its cuts at loss budget(v)
      if (cuts_[v] > P[L]) {
        P[L] = cuts_[v];
        fa[L] = fb[L] = -1;
      }
      // "at most e": carry the best of smaller budgets forward
      for (int e = 1; e <= L; ++e)
        if (P[e - 1] > P[e]) {
          P[e] = P[e - 1];
          fa[e] = fa[e - 1];
          fb[e] = fb[e - 1];
        }
    }
    // Carried entries keep the (a, b) of a smaller budget: rebuilding uses
    // them as they are. The least loss with at least k cuts pruned is the
    // exact-k loss (the front is monotone); it is the loss of the tree
    // rebuilt for k, summed here from the node losses.
    loss_.assign(cuts_[0] + 1, kInf);
    for (int k = 0; k <= cuts_[0]; ++k) loss_[k] = loss_of(cuts_at(k));
  }

  void mark_by_errors(int v, int e, std::vector<char>& cut) const {
    if (t_.feature[v] < 0) return;
    e = std::min(e, budget(v));
    const int a = from_a_[v][e];
    if (a < 0) {
      cut[v] = 1;
      return;
    }
    mark_by_errors(t_.left[v], a, cut);
    mark_by_errors(t_.right[v], from_b_[v][e], cut);
  }

  // Expand cut nodes (shallowest first) until exactly k cuts are pruned.
  // Each expansion cannot add loss (sub-additivity), so the loss stays optimal.
  void unprune(std::vector<char>& cut, int k) const {
    int pruned = 0;
    std::vector<int> stack{0}, order;
    while (!stack.empty()) {  // preorder walk of the pruned tree
      const int v = stack.back();
      stack.pop_back();
      if (t_.feature[v] < 0) continue;
      if (cut[v]) {
        pruned += cuts_[v];
        order.push_back(v);
        continue;
      }
      stack.push_back(t_.right[v]);
      stack.push_back(t_.left[v]);
    }
    std::size_t i = 0;
    while (pruned > k) {
      const int v = order[i++];
      cut[v] = 0;
      --pruned;
      for (int c : {t_.left[v], t_.right[v]})
        if (t_.feature[c] >= 0) {
          cut[c] = 1;
          order.push_back(c);
        }
    }
  }

  double loss_of(const std::vector<char>& cut) const {
    double total = 0;
    std::vector<int> stack{0};
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      if (t_.feature[v] < 0 || cut[v]) {
        total += leaf_[v];
        continue;
      }
      total += stuck_[v];
      stack.push_back(t_.left[v]);
      stack.push_back(t_.right[v]);
    }
    return total;
  }
};

// The tree t with every inner node v where cut[v] = 1 made a leaf; orig[i]
// is the source node of node i of the result (tests copied, stats not).
inline FlatTree cut_tree(const FlatTree& t, const std::vector<char>& cut, std::vector<int>& orig) {
  FlatTree out;
  orig.clear();
  struct Item { int src, parent, depth; bool left; };
  std::vector<Item> stack{{0, -1, 0, true}};
  while (!stack.empty()) {
    const Item it = stack.back();
    stack.pop_back();
    const int id = out.add(it.depth);
    orig.push_back(it.src);
    if (it.parent >= 0) (it.left ? out.left : out.right)[it.parent] = id;
    if (t.feature[it.src] < 0 || cut[it.src]) continue;
    out.feature[id] = t.feature[it.src];
    out.threshold[id] = t.threshold[it.src];
    out.left_levels[id] = t.left_levels[it.src];
    out.na_left[id] = t.na_left[it.src];
    out.na_learned[id] = t.na_learned[it.src];
    stack.push_back({t.right[it.src], id, it.depth + 1, false});
    stack.push_back({t.left[it.src], id, it.depth + 1, true});
  }
  return out;
}

// Copy per-node statistics of the source nodes onto a pruned tree.
inline void copy_stats(FlatTree& out, const std::vector<int>& orig, const NodeLosses& s, int n_classes) {
  out.resize_stats(n_classes);
  for (int i = 0; i < out.size(); ++i) {
    const int v = orig[i];
    out.set_stats(i, s.count[v], s.weight[v], s.value[v], s.leaf_loss[v],
                  s.class_weight.data() + static_cast<std::size_t>(v) * n_classes, n_classes);
  }
}

}  // namespace dpdt
