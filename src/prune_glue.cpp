// Glue (knows R) for optimal pruning: R tree list + rows -> the engine's
// replacement or raising front. Replacement fronts are lazy: the glue
// returns the unpruned tree with its statistics on the rows (`base`) and,
// per number k of pruned cuts, the base nodes made leaves; cpp_prune_tree()
// builds tree k from them when it is asked for (R/front-object.R,
// front_tree()). Raising fronts return one R tree list per k.
#include <Rcpp.h>

#include <chrono>
#include <ctime>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/fronts/tree.h"
#include "core/prune/ensemble.h"
#include "core/prune/heavy_light.h"
#include "core/prune/pruning.h"
#include "core/prune/raising.h"
#include "r_runtime.h"
#include "tree_convert.h"

namespace {

dpdt::PruneRows rows_of(const Rcpp::NumericVector& y, const Rcpp::NumericVector& w, int n_classes) {
  dpdt::PruneRows r;
  r.n = y.size();
  r.n_classes = n_classes;
  r.y = y.begin();
  r.w = w.begin();
  return r;
}

void check_features(const dpdt::FlatTree& t, const Rcpp::NumericMatrix& x) {
  for (int v = 0; v < t.size(); ++v)
    if (t.feature[v] >= x.ncol())
      Rcpp::stop("the tree tests feature %d but x has %d columns", t.feature[v] + 1, x.ncol());
}

// Statistics of tree `t` (labels `keep` per node) on the rows, routed by
// the tree's own splits.
void fill_stats(dpdt::FlatTree& t, const Rcpp::NumericMatrix& x, const dpdt::PruneRows& r,
                const std::vector<double>& keep, bool relabel) {
  std::vector<int> end(r.n);
  for (int i = 0; i < r.n; ++i) end[i] = dpdt::route_row(t, x.begin(), r.n, i);
  const dpdt::NodeLosses nl = dpdt::node_losses(t, end, r, keep, relabel);
  std::vector<int> id(t.size());
  for (int v = 0; v < t.size(); ++v) id[v] = v;
  dpdt::copy_stats(t, id, nl, r.n_classes);
}

// Per tree: splits, leaves, depth, weighted tests (sum over leaves of
// weight x depth) — the front's columns, without walking R lists.
struct Summaries {
  std::vector<int> splits, leaves, depth;
  std::vector<double> tests;
  void add(const dpdt::FlatTree& t) {
    int s = 0, l = 0, d = 0;
    double w = 0;
    for (int v = 0; v < t.size(); ++v) {
      d = std::max(d, t.depth[v]);
      if (t.feature[v] >= 0) { ++s; continue; }
      ++l;
      w += t.weight[v] * t.depth[v];
    }
    splits.push_back(s);
    leaves.push_back(l);
    depth.push_back(d);
    tests.push_back(w);
  }
  // The same numbers for t with the nodes of `cut` made leaves, without
  // building that tree: a preorder walk (left first, as cut_tree() numbers
  // the nodes) summing the leaves' weight x depth in the same order. The
  // cut inner nodes it meets are appended to `cuts`.
  void add_cut(const dpdt::FlatTree& t, const std::vector<char>& cut, const std::vector<double>& weight,
               std::vector<std::pair<int, int>>& stack, std::vector<int>& cuts) {
    int s = 0, l = 0, d = 0;
    double w = 0;
    stack.assign(1, {0, 0});
    while (!stack.empty()) {
      const auto [v, dv] = stack.back();
      stack.pop_back();
      d = std::max(d, dv);
      if (t.feature[v] >= 0 && !cut[v]) {
        ++s;
        stack.push_back({t.right[v], dv + 1});
        stack.push_back({t.left[v], dv + 1});
        continue;
      }
      if (t.feature[v] >= 0) cuts.push_back(v);
      ++l;
      w += weight[v] * dv;
    }
    splits.push_back(s);
    leaves.push_back(l);
    depth.push_back(d);
    tests.push_back(w);
  }
  Rcpp::List to_r() const {
    return Rcpp::List::create(Rcpp::_["n_splits"] = Rcpp::wrap(splits), Rcpp::_["n_leaves"] = Rcpp::wrap(leaves),
                              Rcpp::_["depth"] = Rcpp::wrap(depth), Rcpp::_["tests"] = Rcpp::wrap(tests));
  }
};

}  // namespace

// Optimal pruning fronts. `end`: 1-based node where each row stops in the
// source tree (its own routing, e.g. rpart's surrogates), or empty to route
// here; `keep`: the
// tree's own label of every node (0-based class or mean). Replacement
// returns `base`, `cut` and `cut_start` (model k + 1's cut base nodes are
// cut[cut_start[k] + 1 .. cut_start[k + 1]], 1-based) and, with eager =
// true, also every tree as an R list (for tests).
// [[Rcpp::export]]
Rcpp::List cpp_prune(Rcpp::NumericMatrix x, Rcpp::List tree, Rcpp::IntegerVector end,
                     Rcpp::NumericVector y, Rcpp::NumericVector w, int n_classes,
                     Rcpp::NumericVector keep, std::string method, bool relabel,
                     std::string index, double max_states, std::string routing, bool eager) {
  const std::clock_t start = std::clock();
  double front_seconds = 0;
  const dpdt::FlatTree t = dpdt_glue::tree_from_r(tree);
  check_features(t, x);
  const int n = x.nrow();
  if (y.size() != n || w.size() != n) Rcpp::stop("x, y and w must describe the same rows");
  if (keep.size() != t.size()) Rcpp::stop("keep must have one label per node");
  const dpdt::PruneRows r = rows_of(y, w, n_classes);
  const std::vector<double> keep_v(keep.begin(), keep.end());
  Rcpp::List trees, cut_nodes, base;
  Rcpp::IntegerVector cut_base, cut_start;
  Rcpp::NumericVector loss;
  std::string used_index = "pruned", used_routing = "source";
  Summaries sum;
  double states = 0;

  if (method == "replace") {
    std::vector<int> e(n);
    if (end.size() == n) {
      for (int i = 0; i < n; ++i) e[i] = end[i] == NA_INTEGER ? -1 : end[i] - 1;
    } else {
      bool heavy = false;
      e = dpdt::route_rows(t, x.begin(), n, routing == "auto", routing == "heavy", &heavy);
      used_routing = heavy ? "heavy-light" : "plain";
    }
    for (int i = 0; i < n; ++i)
      if (e[i] < 0 || e[i] >= t.size()) Rcpp::stop("row %d of the data reaches no node of the tree", i + 1);
    const dpdt::NodeLosses nl = dpdt::node_losses(t, e, r, keep_v, relabel);
    const dpdt::PruneIndex pi = index == "errors"   ? dpdt::PruneIndex::by_errors
                                : index == "pruned" ? dpdt::PruneIndex::by_pruned
                                                    : dpdt::PruneIndex::automatic;
    dpdt::ReplacementFront fr(t, nl.leaf_loss, nl.stuck_loss, pi);
    if (!fr.error_index_possible())
      Rcpp::stop("the error-indexed program needs whole-number losses that never grow when a node is split");
    used_index = fr.used_error_index() ? "errors" : "pruned";
    loss = Rcpp::NumericVector(fr.loss().begin(), fr.loss().end());
    front_seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    const int m = fr.max_pruned() + 1;
    if (eager) trees = Rcpp::List(m);
    cut_nodes = Rcpp::List(m);
    // the unpruned tree (node order of cut_tree) with the rows' statistics
    std::vector<int> orig;
    dpdt::FlatTree b = dpdt::cut_tree(t, std::vector<char>(t.size(), 0), orig);
    dpdt::copy_stats(b, orig, nl, n_classes);
    base = dpdt_glue::tree_to_r(b, n_classes);
    std::vector<int> pos(t.size());
    for (int i = 0; i < b.size(); ++i) pos[orig[i]] = i;
    std::vector<int> cb, cs{0};
    std::vector<std::pair<int, int>> stack;
    std::vector<int> cn;
    for (int k = 0; k < m; ++k) {
      const std::vector<char> cut = fr.cuts_at(k);
      cn.clear();
      if (eager) {
        for (int v = 0; v < t.size(); ++v)
          if (cut[v]) cn.push_back(v);
        dpdt::FlatTree pt = dpdt::cut_tree(t, cut, orig);
        dpdt::copy_stats(pt, orig, nl, n_classes);
        sum.add(pt);
        trees[k] = dpdt_glue::tree_to_r(pt, n_classes);
      } else {
        sum.add_cut(t, cut, nl.weight, stack, cn);  // meets the cut nodes in preorder
        std::sort(cn.begin(), cn.end());
      }
      Rcpp::IntegerVector cv(cn.size());
      for (std::size_t i = 0; i < cn.size(); ++i) {
        cv[i] = cn[i] + 1;
        cb.push_back(pos[cn[i]] + 1);
      }
      cs.push_back(static_cast<int>(cb.size()));
      cut_nodes[k] = cv;
    }
    cut_base = Rcpp::IntegerVector(cb.begin(), cb.end());
    cut_start = Rcpp::IntegerVector(cs.begin(), cs.end());
  } else {
    dpdt::RaisingFront rf(t, x.begin(), r, keep_v, relabel);
    // Ctrl-C and an elapsed setTimeLimit() stop the count and the program
    // within a fraction of a second (the condition is re-raised in R).
    dpdt_glue::RRuntime host(false, R_PosInf);
    try {
      states = rf.count_states(max_states, &host);
      if (states > max_states) {
        Rcpp::List out = Rcpp::List::create(Rcpp::_["refused"] = true, Rcpp::_["states"] = states);
        return out;
      }
      rf.run(&host);
    } catch (const dpdt::Interrupted&) {
      if (Rf_inherits(host.condition(), "error"))
        return Rcpp::List::create(Rcpp::_["condition"] = host.condition());
      throw Rcpp::internal::InterruptedException();
    } catch (const std::invalid_argument& err) {
      Rcpp::stop(err.what());
    }
    used_routing = "plain";
    loss = Rcpp::NumericVector(rf.loss().begin(), rf.loss().end());
    front_seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    const int m = static_cast<int>(rf.loss().size());
    trees = Rcpp::List(m);
    std::vector<int> orig;
    for (int k = 0; k < m; ++k) {
      dpdt::FlatTree rt = rf.tree_at(k, orig);
      std::vector<double> kv(rt.size());
      for (int v = 0; v < rt.size(); ++v) kv[v] = keep_v[orig[v]];
      fill_stats(rt, x, r, kv, relabel);
      sum.add(rt);
      Rcpp::List tr = dpdt_glue::tree_to_r(rt, n_classes);
      tr["source_node"] = dpdt_glue::one_based(orig);
      trees[k] = tr;
    }
  }
  const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  return Rcpp::List::create(Rcpp::_["refused"] = false, Rcpp::_["loss"] = loss,
                            Rcpp::_["trees"] = trees, Rcpp::_["cut_nodes"] = cut_nodes,
                            Rcpp::_["base"] = base, Rcpp::_["cut"] = cut_base, Rcpp::_["cut_start"] = cut_start,
                            Rcpp::_["index"] = used_index, Rcpp::_["routing"] = used_routing,
                            Rcpp::_["states"] = states, Rcpp::_["seconds"] = seconds,
                            Rcpp::_["front_seconds"] = front_seconds, Rcpp::_["summary"] = sum.to_r());
}

// Tree k of a lazy replacement front: `base` (the unpruned tree list with
// its statistics, from cpp_prune) with the nodes `cut` (1-based inner base
// nodes) made leaves, each node keeping its statistics: the same list the
// eager path builds.
// [[Rcpp::export]]
Rcpp::List cpp_prune_tree(Rcpp::List base, Rcpp::IntegerVector cut, int n_classes) {
  const dpdt::FlatTree t = dpdt_glue::tree_from_r(base);
  const int s = t.size();
  const Rcpp::IntegerVector count = base["n"];
  const Rcpp::NumericVector weight = base["weight"], value = base["value"], loss = base["loss"];
  if (count.size() != s || weight.size() != s || value.size() != s || loss.size() != s)
    Rcpp::stop("the base tree's statistics must have one element per node");
  dpdt::NodeLosses st;
  st.count.assign(count.begin(), count.end());
  st.weight.assign(weight.begin(), weight.end());
  st.value.assign(value.begin(), value.end());
  st.leaf_loss.assign(loss.begin(), loss.end());
  if (n_classes > 0) {
    const Rcpp::NumericMatrix cw = base["class_weight"];
    if (cw.nrow() != s || cw.ncol() != n_classes) Rcpp::stop("the base tree's class_weight has the wrong shape");
    st.class_weight.resize(static_cast<std::size_t>(s) * n_classes);
    for (int v = 0; v < s; ++v) {
      st.value[v] -= 1.0;
      for (int c = 0; c < n_classes; ++c) st.class_weight[static_cast<std::size_t>(v) * n_classes + c] = cw(v, c);
    }
  }
  std::vector<char> mask(s, 0);
  for (int v : cut) {
    if (v == NA_INTEGER || v < 1 || v > s || t.feature[v - 1] < 0) Rcpp::stop("cut nodes must be inner nodes of the base tree");
    mask[v - 1] = 1;
  }
  std::vector<int> orig;
  dpdt::FlatTree pt = dpdt::cut_tree(t, mask, orig);
  dpdt::copy_stats(pt, orig, st, n_classes);
  return dpdt_glue::tree_to_r(pt, n_classes);
}

// Leaves reached by every row with plain or heavy-light routing (for tests
// and benchmarks; NA where a missing value has no side).
// [[Rcpp::export]]
Rcpp::IntegerVector cpp_route_with(Rcpp::NumericMatrix x, Rcpp::List tree, bool heavy) {
  const dpdt::FlatTree t = dpdt_glue::tree_from_r(tree);
  check_features(t, x);
  const int n = x.nrow();
  const std::vector<int> leaf = dpdt::route_rows(t, x.begin(), n, false, heavy);
  Rcpp::IntegerVector out(n);
  for (int i = 0; i < n; ++i) out[i] = leaf[i] < 0 ? NA_INTEGER : leaf[i] + 1;
  return out;
}

// Leaves reached by every row when the tree's tests decide alone: NA for a
// row that meets a missing value, or a level in `unseen[[v]]` (1-based
// codes, or NULL) at a node v of its path — the rows a source's own rules
// (rpart's surrogates) must route instead.
// [[Rcpp::export]]
Rcpp::IntegerVector cpp_route_tests(Rcpp::NumericMatrix x, Rcpp::List tree, Rcpp::List unseen) {
  const dpdt::FlatTree t = dpdt_glue::tree_from_r(tree);
  check_features(t, x);
  if (unseen.size() != t.size()) Rcpp::stop("unseen must have one element per node");
  std::vector<std::vector<int>> un(t.size());
  for (int v = 0; v < t.size(); ++v)
    if (!Rf_isNull(unseen[v])) {
      const Rcpp::IntegerVector u = unseen[v];
      un[v].assign(u.begin(), u.end());
      std::sort(un[v].begin(), un[v].end());
    }
  const int n = x.nrow();
  const double* xp = x.begin();
  Rcpp::IntegerVector out(n);
  for (int i = 0; i < n; ++i) {
    int v = 0;
    while (v >= 0 && t.feature[v] >= 0) {
      const double xv = xp[static_cast<std::size_t>(t.feature[v]) * n + i];
      if (std::isnan(xv) || std::binary_search(un[v].begin(), un[v].end(), static_cast<int>(xv))) {
        v = -1;
        break;
      }
      v = dpdt::side_of(t, v, xv) ? t.left[v] : t.right[v];
    }
    out[i] = v < 0 ? NA_INTEGER : v + 1;
  }
  return out;
}

// The next double above (up = TRUE) or below each value.
// [[Rcpp::export]]
Rcpp::NumericVector cpp_double_next(Rcpp::NumericVector v, bool up) {
  Rcpp::NumericVector out(v.size());
  for (R_xlen_t i = 0; i < v.size(); ++i) out[i] = std::nextafter(v[i], up ? INFINITY : -INFINITY);
  return out;
}

// The largest double below each value (rpart's `x < c` is `x <= below(c)`).
// [[Rcpp::export]]
Rcpp::NumericVector cpp_double_below(Rcpp::NumericVector v) { return cpp_double_next(v, false); }


// An ensemble pruned by block-coordinate descent (core/prune/ensemble.h).
// `members`: per tree, its nodes in preorder (left, right: 1-based, 0 at a
// leaf; depth; value: the class index 1..k or the value) and each row's end
// node (1-based). Returns the Pareto front of the joint prunings reached
// (splits kept, loss, and per point and tree the nodes made leaves,
// 1-based), each point's lower bound, and the whole ensemble's loss; or
// the condition of an elapsed setTimeLimit() (an interrupt is R's again).
// [[Rcpp::export]]
Rcpp::List cpp_prune_ensemble(Rcpp::List members, Rcpp::NumericVector y, Rcpp::NumericVector w,
                              int n_classes, Rcpp::NumericVector penalties, int max_passes) {
  const int n = y.size();
  if (w.size() != n) Rcpp::stop("y and w must describe the same rows");
  std::vector<dpdt::EnsembleMember> trees;
  for (R_xlen_t t = 0; t < members.size(); ++t) {
    const Rcpp::List m = members[t];
    const Rcpp::IntegerVector left = m["left"], right = m["right"], depth = m["depth"],
                              end = m["end"];
    const Rcpp::NumericVector value = m["value"];
    const int nodes = left.size();
    if (right.size() != nodes || depth.size() != nodes || value.size() != nodes || end.size() != n)
      Rcpp::stop("member %d: node vectors of different lengths, or an end node per row missing",
                 static_cast<int>(t) + 1);
    dpdt::EnsembleMember e;
    for (int u = 0; u < nodes; ++u) {
      const bool leaf = left[u] == 0;
      if (!leaf && (left[u] <= u + 1 || right[u] <= u + 1 || left[u] > nodes || right[u] > nodes))
        Rcpp::stop("member %d: nodes are not numbered parents first", static_cast<int>(t) + 1);
      e.left.push_back(leaf ? -1 : left[u] - 1);
      e.right.push_back(leaf ? -1 : right[u] - 1);
      e.depth.push_back(depth[u]);
      const double v = value[u];
      if (n_classes > 0 && !(v >= 1 && v <= n_classes))
        Rcpp::stop("member %d: a node's class is not one of 1..%d", static_cast<int>(t) + 1, n_classes);
      e.label.push_back(n_classes > 0 ? v - 1 : v);
    }
    for (int i = 0; i < n; ++i) {
      if (end[i] == NA_INTEGER || end[i] < 1 || end[i] > nodes || left[end[i] - 1] != 0)
        Rcpp::stop("member %d: row %d ends in no leaf", static_cast<int>(t) + 1, i + 1);
      e.end.push_back(end[i] - 1);
    }
    trees.push_back(std::move(e));
  }
  std::vector<double> yy(y.begin(), y.end()), ww(w.begin(), w.end());
  if (n_classes > 0)
    for (double& v : yy) v -= 1;
  dpdt::EnsemblePruner pruner(trees, yy, ww, n_classes);
  const double whole = pruner.loss();
  dpdt_glue::RRuntime host(false, R_PosInf);
  try {
    pruner.run(std::vector<double>(penalties.begin(), penalties.end()), max_passes, host);
  } catch (const dpdt::Interrupted&) {
    if (Rf_inherits(host.condition(), "error"))
      return Rcpp::List::create(Rcpp::_["condition"] = host.condition());
    throw Rcpp::internal::InterruptedException();
  }
  const std::vector<dpdt::EnsemblePoint> front = pruner.front();
  std::vector<int> budgets;
  Rcpp::IntegerVector splits(front.size()), depth(front.size());
  Rcpp::NumericVector loss(front.size()), tests(front.size());
  Rcpp::List cuts(front.size()), kept(front.size());
  for (std::size_t j = 0; j < front.size(); ++j) {
    splits[j] = front[j].splits;
    loss[j] = front[j].loss;
    tests[j] = front[j].tests;
    depth[j] = front[j].depth;
    budgets.push_back(front[j].splits);
    Rcpp::List per_tree(front[j].cuts.size());
    for (std::size_t t = 0; t < front[j].cuts.size(); ++t) {
      Rcpp::IntegerVector c(front[j].cuts[t].begin(), front[j].cuts[t].end());
      per_tree[t] = c + 1;
    }
    cuts[j] = per_tree;
    kept[j] = Rcpp::IntegerVector(front[j].kept.begin(), front[j].kept.end());
  }
  const std::vector<double> lb = pruner.lower_bounds(budgets);
  return Rcpp::List::create(Rcpp::_["splits"] = splits, Rcpp::_["loss"] = loss,
                            Rcpp::_["tests"] = tests, Rcpp::_["depth"] = depth,
                            Rcpp::_["cuts"] = cuts, Rcpp::_["kept"] = kept,
                            Rcpp::_["lower_bound"] = Rcpp::NumericVector(lb.begin(), lb.end()),
                            Rcpp::_["whole_loss"] = whole);
}
