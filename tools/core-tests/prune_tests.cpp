// Brute-force oracles for optimal pruning (src/core/prune/: pruning.h, raising.h,
// heavy_light.h) on thousands of small random trees and data sets:
//  - both replacement programs (indexed by pruned cuts, by errors) equal the
//    best of every set of cut nodes, for every k; rebuilt trees have exactly
//    k cuts pruned and the loss the front reports;
//  - the raising program equals the best of every tree reachable by raising
//    sequences, for every k, in both label modes; rebuilt trees too;
//  - relabelled raising is never worse than relabelled replacement;
//  - heavy-light routing reaches the same leaf as plain routing on every row;
//  - the ensemble heuristic's points are joint prunings with the losses it
//    reports, never below the best of every joint pruning at their splits,
//    and its lower bounds never above the best within them;
//  - the worked example of PRUNING.md §6.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "check.h"
#include "problems.h"
#include "core/prune/ensemble.h"
#include "core/prune/heavy_light.h"
#include "core/prune/pruning.h"
#include "core/prune/raising.h"

namespace {

bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * (1 + std::fabs(a) + std::fabs(b)); }

using dpdt_test::Problem;

dpdt::PruneRows prune_rows(const Problem& d) {
  dpdt::PruneRows r;
  r.n = d.n;
  r.n_classes = d.k;
  r.y = d.y.data();
  r.w = d.w.data();
  return r;
}

// A random tree with `inner` internal nodes over p features; features
// 0..p-2 numeric with thresholds in 0..4, feature p-1 categorical (codes 1..4)
// when `categorical`. Every node gets a label (class or mean) and NA sides.
dpdt::FlatTree random_tree(std::mt19937& g, int inner, int p, bool categorical, int k, bool chain) {
  dpdt::FlatTree t;
  std::function<void(int, int)> grow = [&](int budget, int depth) {
    const int id = t.add(depth);
    t.value.push_back(k > 0 ? std::uniform_int_distribution<int>(0, k - 1)(g)
                            : std::uniform_int_distribution<int>(0, 8)(g) * 0.5);
    if (budget == 0) return;
    const int f = std::uniform_int_distribution<int>(0, p - 1)(g);
    t.feature[id] = f;
    if (categorical && f == p - 1) {
      std::vector<int> lev;
      for (int c = 1; c <= 4; ++c)
        if (std::uniform_int_distribution<int>(0, 1)(g)) lev.push_back(c);
      if (lev.empty()) lev.push_back(1 + std::uniform_int_distribution<int>(0, 3)(g));
      t.left_levels[id] = lev;
    } else {
      t.threshold[id] = std::uniform_int_distribution<int>(0, 4)(g) + 0.5;
    }
    t.na_left[id] = std::uniform_int_distribution<int>(0, 1)(g);
    const int rest = budget - 1;
    const int a = chain ? (std::uniform_int_distribution<int>(0, 1)(g) ? rest : 0)
                        : std::uniform_int_distribution<int>(0, rest)(g);
    const int l = static_cast<int>(t.feature.size());
    grow(a, depth + 1);
    t.left[id] = l;
    t.right[id] = static_cast<int>(t.feature.size());
    grow(rest - a, depth + 1);
  };
  grow(inner, 0);
  return t;
}

// Values 0..5, a response shifted by 1e3 (sums that round), NA if `na`.
Problem random_data(std::mt19937& g, int n, int p, bool categorical, int k, int weighted, bool na) {
  dpdt_test::Shape s{n, p, k};
  s.weighted = weighted;
  s.top_value = 5;
  s.categorical_last = categorical;
  s.missing = na;
  s.response_steps = 8;
  s.response_shift = 1e3;
  return dpdt_test::random_problem(g, s);
}

// Loss of rows ending at each node of tree `t` (end[i]), each node labelled
// by `value` or, if relabel, by the majority / mean of the rows below it.
double tree_loss(const dpdt::FlatTree& t, const std::vector<int>& end, const Problem& d,
                 const std::vector<double>& value, bool relabel) {
  std::vector<int> parent = dpdt::parents_of(t);
  auto below = [&](int i, int v) {
    for (int u = end[i]; u >= 0; u = parent[u])
      if (u == v) return true;
    return false;
  };
  double total = 0;
  for (int i = 0; i < d.n; ++i) {
    const int v = end[i];
    double label = value[v];
    if (relabel) {
      double sw = 0, swy = 0;
      std::vector<double> cw(std::max(d.k, 1), 0.0);
      for (int j = 0; j < d.n; ++j)
        if (below(j, v)) {
          sw += d.w[j];
          swy += d.w[j] * d.y[j];
          if (d.k > 0) cw[static_cast<int>(d.y[j])] += d.w[j];
        }
      if (sw > 0) {
        if (d.k > 0) {
          int best = 0;
          for (int c = 1; c < d.k; ++c)
            if (cw[c] > cw[best]) best = c;
          label = best;
        } else {
          label = swy / sw;
        }
      }
    }
    total += d.k > 0 ? (static_cast<int>(d.y[i]) == static_cast<int>(label) ? 0 : d.w[i])
                     : d.w[i] * (d.y[i] - label) * (d.y[i] - label);
  }
  return total;
}

int inner_count(const dpdt::FlatTree& t) {
  int c = 0;
  for (int f : t.feature) c += f >= 0;
  return c;
}

// ---- replacement ---------------------------------------------------------

// Each tree's rows' ends and splits kept under every set of cut nodes.
struct Prunings {
  std::vector<std::vector<int>> ends;
  std::vector<int> kept;
};
Prunings every_pruning(const dpdt::FlatTree& t, const std::vector<int>& end) {
  const std::vector<int> parent = dpdt::parents_of(t);
  std::vector<int> inner;
  for (int v = 0; v < t.size(); ++v)
    if (t.feature[v] >= 0) inner.push_back(v);
  const int c = static_cast<int>(inner.size());
  Prunings out;
  for (int mask = 0; mask < (1 << c); ++mask) {
    std::vector<char> cut(t.size(), 0);
    for (int b = 0; b < c; ++b)
      if (mask >> b & 1) cut[inner[b]] = 1;
    std::vector<int> e2 = end;
    for (std::size_t i = 0; i < end.size(); ++i)
      for (int u = end[i]; u >= 0; u = parent[u])
        if (cut[u]) e2[i] = u;
    int kept = 0;
    for (int v : inner) {
      bool gone = false;
      for (int u = v; u >= 0; u = parent[u]) gone = gone || cut[u];
      kept += !gone;
    }
    out.ends.push_back(e2);
    out.kept.push_back(kept);
  }
  return out;
}

// Best loss for every k over every set of cut nodes; rows end where `end`
// says in the full tree, and at their highest cut ancestor after cutting.
std::vector<double> brute_replacement(const dpdt::FlatTree& t, const std::vector<int>& end, const Problem& d,
                                      const std::vector<double>& value, bool relabel) {
  const int c = inner_count(t);
  std::vector<double> best(c + 1, INFINITY);
  const Prunings all = every_pruning(t, end);
  for (std::size_t j = 0; j < all.kept.size(); ++j) {
    const int removed = c - all.kept[j];
    best[removed] = std::min(best[removed], tree_loss(t, all.ends[j], d, value, relabel));
  }
  return best;
}

std::vector<int> route_all(const dpdt::FlatTree& t, const Problem& d) {
  std::vector<int> end(d.n);
  for (int i = 0; i < d.n; ++i) end[i] = dpdt::route_row(t, d.x.data(), d.n, i);
  return end;
}

void test_replacement() {
  std::mt19937 g(7);
  int eligible = 0;
  for (int rep = 0; rep < 1500; ++rep) {
    const int k = rep % 4 == 3 ? 0 : 2 + rep % 2;
    const int p = 1 + rep % 3;
    const bool cat = rep % 5 < 2 && p >= 2;
    dpdt::FlatTree t = random_tree(g, rep % 9, p, cat, k, rep % 7 == 0);
    Problem d = random_data(g, 1 + rep % 17, p, cat, k, rep % 3, rep % 4 == 1);
    const bool relabel = rep % 2 == 0;
    std::vector<int> end = route_all(t, d);
    if (rep % 6 == 5)  // rows stopping at inner nodes (rpart's ties)
      for (int i = 0; i < d.n; ++i) {
        const std::vector<int> parent = dpdt::parents_of(t);
        for (int u = end[i]; u >= 0; u = parent[u])
          if (std::uniform_int_distribution<int>(0, 4)(g) == 0) { end[i] = u; break; }
      }
    const dpdt::NodeLosses nl = dpdt::node_losses(t, end, prune_rows(d), t.value, relabel);
    const std::vector<double> want = brute_replacement(t, end, d, t.value, relabel);
    for (auto index : {dpdt::PruneIndex::by_pruned, dpdt::PruneIndex::by_errors, dpdt::PruneIndex::automatic}) {
      dpdt::ReplacementFront fr(t, nl.leaf_loss, nl.stuck_loss, index);
      if (index == dpdt::PruneIndex::by_errors && !fr.used_error_index()) continue;
      if (index == dpdt::PruneIndex::by_errors) ++eligible;
      CHECK(fr.loss().size() == want.size(), "rep %d: front length %zu vs %zu", rep, fr.loss().size(), want.size());
      const std::vector<int> parent = dpdt::parents_of(t);
      for (std::size_t j = 0; j < want.size() && j < fr.loss().size(); ++j) {
        CHECK(close(fr.loss()[j], want[j]), "rep %d index %d k %zu: dp %g brute %g", rep,
              static_cast<int>(index), j, fr.loss()[j], want[j]);
        // the rebuilt tree: exactly j cuts pruned, the reported loss
        const std::vector<char> cut = fr.cuts_at(static_cast<int>(j));
        std::vector<int> orig;
        dpdt::FlatTree pt = dpdt::cut_tree(t, cut, orig);
        CHECK(inner_count(pt) == inner_count(t) - static_cast<int>(j), "rep %d k %zu: rebuilt tree has %d cuts",
              rep, j, inner_count(pt));
        std::vector<int> e2 = end;
        for (int i = 0; i < d.n; ++i)
          for (int u = end[i]; u >= 0; u = parent[u])
            if (cut[u]) e2[i] = u;
        CHECK(close(tree_loss(t, e2, d, t.value, relabel), want[j]), "rep %d k %zu: rebuilt loss", rep, j);
      }
    }
    // with majority labels on the same rows the front never decreases in k
    if (relabel)
      for (std::size_t j = 1; j < want.size(); ++j)
        CHECK(want[j] >= want[j - 1] - 1e-9, "rep %d: relabelled front decreases at %zu", rep, j);
  }
  CHECK(eligible > 300, "the error-indexed program ran on only %d cases", eligible);
  std::printf("replacement: brute force on 1500 random trees (%d with the error-indexed program)\n", eligible);
}

// ---- raising ---------------------------------------------------------------

// A tree as nested original node ids.
struct Shape {
  int v;
  std::vector<Shape> kids;  // empty or two
};

Shape full_shape(const dpdt::FlatTree& t, int v) {
  Shape s{v, {}};
  if (t.feature[v] >= 0) s.kids = {full_shape(t, t.left[v]), full_shape(t, t.right[v])};
  return s;
}

std::string key(const Shape& s) {
  std::string out = std::to_string(s.v);
  if (!s.kids.empty()) out += "(" + key(s.kids[0]) + "," + key(s.kids[1]) + ")";
  return out;
}

// Every shape one raising away from s.
void raises(const Shape& s, std::vector<Shape>& out) {
  if (s.kids.empty()) return;
  out.push_back(s.kids[0]);
  out.push_back(s.kids[1]);
  for (int c = 0; c < 2; ++c) {
    std::vector<Shape> sub;
    raises(s.kids[c], sub);
    for (Shape& r : sub) {
      Shape copy = s;
      copy.kids[c] = r;
      out.push_back(copy);
    }
  }
}

dpdt::FlatTree to_tree(const dpdt::FlatTree& t, const Shape& s, std::vector<int>& orig) {
  dpdt::FlatTree out;
  orig.clear();
  std::function<int(const Shape&, int)> add = [&](const Shape& sh, int depth) {
    const int id = out.add(depth);
    orig.push_back(sh.v);
    if (sh.kids.empty()) return id;
    out.feature[id] = t.feature[sh.v];
    out.threshold[id] = t.threshold[sh.v];
    out.left_levels[id] = t.left_levels[sh.v];
    out.na_left[id] = t.na_left[sh.v];
    const int l = add(sh.kids[0], depth + 1);
    out.left[id] = l;
    const int r = add(sh.kids[1], depth + 1);
    out.right[id] = r;
    return id;
  };
  add(s, 0);
  return out;
}

double shape_loss(const dpdt::FlatTree& t, const dpdt::FlatTree& st, const std::vector<int>& orig, const Problem& d,
                  bool relabel) {
  std::vector<double> value(st.size());
  for (int i = 0; i < st.size(); ++i) value[i] = t.value[orig[i]];
  return tree_loss(st, route_all(st, d), d, value, relabel);
}

std::vector<double> brute_raising(const dpdt::FlatTree& t, const Problem& d, bool relabel) {
  const int c = inner_count(t);
  std::vector<double> best(c + 1, INFINITY);
  std::set<std::string> seen;
  std::vector<Shape> todo{full_shape(t, 0)};
  seen.insert(key(todo[0]));
  while (!todo.empty()) {
    Shape s = todo.back();
    todo.pop_back();
    std::vector<int> orig;
    dpdt::FlatTree st = to_tree(t, s, orig);
    const int k = c - inner_count(st);
    best[k] = std::min(best[k], shape_loss(t, st, orig, d, relabel));
    std::vector<Shape> next;
    raises(s, next);
    for (Shape& r : next)
      if (seen.insert(key(r)).second) todo.push_back(r);
  }
  return best;
}

void test_raising() {
  std::mt19937 g(11);
  for (int rep = 0; rep < 800; ++rep) {
    const int k = rep % 4 == 3 ? 0 : 2 + rep % 2;
    const int p = 1 + rep % 3;
    const bool cat = rep % 5 < 2 && p >= 2;
    dpdt::FlatTree t = random_tree(g, rep % 7, p, cat, k, rep % 5 == 0);
    Problem d = random_data(g, 1 + rep % 15, p, cat, k, rep % 3, rep % 4 == 1);
    for (bool relabel : {false, true}) {
      dpdt::RaisingFront rf(t, d.x.data(), prune_rows(d), t.value, relabel);
      const double states = rf.count_states(1e6);
      rf.run();
      CHECK(static_cast<double>(rf.states()) == states, "rep %d: counted %g states, used %zu", rep, states,
            rf.states());
      const std::vector<double> want = brute_raising(t, d, relabel);
      CHECK(rf.loss().size() == want.size(), "rep %d: raising front length", rep);
      for (std::size_t j = 0; j < want.size() && j < rf.loss().size(); ++j) {
        CHECK(close(rf.loss()[j], want[j]), "rep %d relabel %d k %zu: dp %g brute %g", rep, relabel, j,
              rf.loss()[j], want[j]);
        std::vector<int> orig;
        dpdt::FlatTree st = rf.tree_at(static_cast<int>(j), orig);
        CHECK(inner_count(st) == inner_count(t) - static_cast<int>(j), "rep %d k %zu: rebuilt raising tree", rep, j);
        CHECK(close(shape_loss(t, st, orig, d, relabel), want[j]), "rep %d k %zu: rebuilt raising loss", rep, j);
      }
      if (relabel) {  // raising can do all that replacement does
        const dpdt::NodeLosses nl = dpdt::node_losses(t, route_all(t, d), prune_rows(d), t.value, true);
        dpdt::ReplacementFront fr(t, nl.leaf_loss, nl.stuck_loss);
        for (std::size_t j = 0; j < want.size(); ++j)
          CHECK(rf.loss()[j] <= fr.loss()[j] + 1e-9, "rep %d k %zu: raising %g > replacement %g", rep, j,
                rf.loss()[j], fr.loss()[j]);
      }
    }
  }
  std::printf("raising: brute force on 800 random trees, both label modes\n");
}

// ---- heavy-light routing -----------------------------------------------------

void test_heavy_light() {
  std::mt19937 g(3);
  int used = 0;
  for (int rep = 0; rep < 300; ++rep) {
    const int p = 1 + rep % 4;
    const bool cat = rep % 3 == 0 && p >= 2;
    dpdt::FlatTree t = random_tree(g, rep % 60, p, cat, 2, rep % 2 == 0);
    if (rep % 5 == 0)
      for (auto& s : t.na_left) s = dpdt::kNaNoSide;
    Problem d = random_data(g, 200, p, cat, 2, 0, rep % 3 == 1);
    dpdt::HeavyLightRouter hl(t);
    CHECK(hl.supported(), "rep %d: heavy-light not supported", rep);
    for (int i = 0; i < d.n; ++i) {
      const int a = dpdt::route_row(t, d.x.data(), d.n, i), b = hl.route(d.x.data(), d.n, i);
      CHECK(a == b, "rep %d row %d: plain %d heavy-light %d", rep, i, a, b);
    }
    bool heavy = false;
    const std::vector<int> auto_leaf = dpdt::route_rows(t, d.x.data(), d.n, true, false, &heavy);
    used += heavy;
    for (int i = 0; i < d.n; ++i) CHECK(auto_leaf[i] == dpdt::route_row(t, d.x.data(), d.n, i), "auto routing");
  }
  std::printf("heavy-light: equals plain routing on every row of 300 random trees\n");
}

// ---- the worked example of PRUNING.md §6 --------------------------------------

void test_worked_example() {
  dpdt::FlatTree t;
  for (int v = 0; v < 7; ++v) t.add(v == 0 ? 0 : (v == 1 || v == 4) ? 1 : 2);
  t.feature = {0, 1, -1, -1, 1, -1, -1};
  t.threshold = {1, 0, NAN, NAN, 0, NAN, NAN};
  t.left = {1, 2, -1, -1, 5, -1, -1};
  t.right = {4, 3, -1, -1, 6, -1, -1};
  t.value = {0, 0, 0, 1, 0, 0, 1};
  Problem d{8, 2, 2, {}, {}, {}, false, {}};
  d.x = {0, 1, 0, 1, 2, 3, 2, 3, /* x1 */ 0, 0, 1, 1, 0, 0, 1, 1};
  d.y = {0, 0, 1, 1, 0, 0, 1, 0};
  d.w.assign(8, 1.0);
  const dpdt::NodeLosses nl = dpdt::node_losses(t, route_all(t, d), prune_rows(d), t.value, true);
  for (auto index : {dpdt::PruneIndex::by_pruned, dpdt::PruneIndex::by_errors}) {
    dpdt::ReplacementFront fr(t, nl.leaf_loss, nl.stuck_loss, index);
    CHECK(fr.used_error_index() == (index == dpdt::PruneIndex::by_errors), "worked example: index");
    CHECK(fr.loss() == std::vector<double>({1, 1, 3, 3}), "worked example: replacement front");
  }
  dpdt::RaisingFront rf(t, d.x.data(), prune_rows(d), t.value, false);
  rf.run();
  CHECK(rf.loss() == std::vector<double>({1, 1, 1, 3}), "worked example: raising front %g %g %g %g",
        rf.loss()[0], rf.loss()[1], rf.loss()[2], rf.loss()[3]);
  std::printf("worked example of PRUNING.md: exact fronts\n");
}


// ---- ensembles -------------------------------------------------------------

// The ensemble's loss with each tree's rows ending at `ends[t]`: majority
// vote (ties to the first class) or the mean.
double ensemble_loss(const std::vector<dpdt::FlatTree>& trees,
                     const std::vector<std::vector<int>>& ends, const Problem& d) {
  double total = 0;
  for (int i = 0; i < d.n; ++i) {
    if (d.k > 0) {
      std::vector<int> votes(d.k, 0);
      for (std::size_t t = 0; t < trees.size(); ++t) ++votes[static_cast<int>(trees[t].value[ends[t][i]])];
      int win = 0;
      for (int c = 1; c < d.k; ++c)
        if (votes[c] > votes[win]) win = c;
      total += win == static_cast<int>(d.y[i]) ? 0 : d.w[i];
    } else {
      double m = 0;
      for (std::size_t t = 0; t < trees.size(); ++t) m += trees[t].value[ends[t][i]];
      m /= static_cast<double>(trees.size());
      total += d.w[i] * (m - d.y[i]) * (m - d.y[i]);
    }
  }
  return total;
}

void test_ensemble_heuristic() {
  std::mt19937 g(77);
  int points = 0;
  for (int rep = 0; rep < 300; ++rep) {
    const int k = rep % 3 == 0 ? 0 : 2 + rep % 2;
    const int n_trees = 2 + rep % 3;
    Problem d = random_data(g, 3 + rep % 14, 2, false, k, rep % 3, false);
    std::vector<dpdt::FlatTree> trees;
    std::vector<std::vector<int>> ends;
    std::vector<dpdt::EnsembleMember> members;
    std::vector<Prunings> all;
    for (int t = 0; t < n_trees; ++t) {
      trees.push_back(random_tree(g, (rep + t) % (n_trees == 4 ? 3 : 4), 2, false, k, false));
      ends.push_back(route_all(trees[t], d));
      dpdt::EnsembleMember m;
      m.left = trees[t].left;
      m.right = trees[t].right;
      m.depth = trees[t].depth;
      m.label = trees[t].value;
      m.end = ends[t];
      members.push_back(m);
      all.push_back(every_pruning(trees[t], ends[t]));
    }
    // every joint pruning: the least loss at each number of splits kept
    int total = 0;
    for (const Prunings& p : all) total += *std::max_element(p.kept.begin(), p.kept.end());
    std::vector<double> best(total + 1, INFINITY);
    std::vector<std::size_t> pick(n_trees, 0);
    for (;;) {
      std::vector<std::vector<int>> e(n_trees);
      int kept = 0;
      for (int t = 0; t < n_trees; ++t) {
        e[t] = all[t].ends[pick[t]];
        kept += all[t].kept[pick[t]];
      }
      best[kept] = std::min(best[kept], ensemble_loss(trees, e, d));
      int t = 0;
      while (t < n_trees && ++pick[t] == all[t].kept.size()) pick[t++] = 0;
      if (t == n_trees) break;
    }
    dpdt::EnsemblePruner pr(members, d.y, d.w, k);
    CHECK(close(pr.loss(), ensemble_loss(trees, ends, d)), "rep %d: whole ensemble's loss %g", rep,
          pr.loss());
    dpdt::Runtime rt;
    pr.run({1e-6, 0.01, 0.1, 0.5, 1, 2, 5}, 4, rt);  // the leaves: not by a penalty
    const std::vector<dpdt::EnsemblePoint> front = pr.front();
    std::vector<int> budgets;
    for (const auto& p : front) budgets.push_back(p.splits);
    const std::vector<double> lb = pr.lower_bounds(budgets);
    CHECK(!front.empty() && front[0].splits == 0, "rep %d: the front does not start with every tree a leaf", rep);
    for (std::size_t j = 0; j < front.size(); ++j) {
      const dpdt::EnsemblePoint& p = front[j];
      ++points;
      if (j > 0)
        CHECK(p.splits > front[j - 1].splits && p.loss < front[j - 1].loss, "rep %d: not a front at %zu", rep, j);
      // the point's cuts rebuild its loss and splits
      std::vector<std::vector<int>> e(n_trees);
      int kept = 0;
      for (int t = 0; t < n_trees; ++t) {
        const std::vector<int> parent = dpdt::parents_of(trees[t]);
        e[t] = ends[t];
        for (std::size_t i = 0; i < e[t].size(); ++i)
          for (int u = ends[t][i]; u >= 0; u = parent[u])
            if (std::find(p.cuts[t].begin(), p.cuts[t].end(), u) != p.cuts[t].end()) e[t][i] = u;
        int tk = 0;
        for (int v = 0; v < trees[t].size(); ++v) {
          if (trees[t].feature[v] < 0) continue;
          bool gone = false;
          for (int u = v; u >= 0; u = parent[u])
            gone = gone || std::find(p.cuts[t].begin(), p.cuts[t].end(), u) != p.cuts[t].end();
          tk += !gone;
        }
        CHECK(tk == p.kept[t], "rep %d point %zu tree %d: kept %d, said %d", rep, j, t, tk, p.kept[t]);
        kept += tk;
      }
      CHECK(kept == p.splits, "rep %d point %zu: %d splits kept, said %d", rep, j, kept, p.splits);
      const double loss = ensemble_loss(trees, e, d);
      CHECK(close(loss, p.loss), "rep %d point %zu: loss %g, said %g", rep, j, loss, p.loss);
      CHECK(p.loss >= best[p.splits] - 1e-9 * (1 + best[p.splits]), "rep %d: %g below the best %g at %d splits",
            rep, p.loss, best[p.splits], p.splits);
      double within = INFINITY;
      for (int b = 0; b <= p.splits; ++b) within = std::min(within, best[b]);
      CHECK(lb[j] <= within + 1e-9 * (1 + within), "rep %d: bound %g above the best %g within %d splits", rep,
            lb[j], within, p.splits);
    }
  }
  std::printf("ensemble heuristic: %d points of 300 ensembles checked\n", points);
}

}  // namespace

int main() {
  test_worked_example();
  test_ensemble_heuristic();
  test_replacement();
  test_raising();
  test_heavy_light();
  std::printf("%d checks, %d failed\n", dpdt_test::checks, dpdt_test::failures);
  return dpdt_test::failures == 0 ? 0 : 1;
}
