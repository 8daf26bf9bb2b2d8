// Heavy-light routing of rows to leaves (PRUNING.md §3, Lemma 3.2 of the
// pruning paper): the edge to a child holding more than half of a node's
// subtree is heavy; heavy edges form paths; a row's way down a heavy path is
// a prefix of it, found by binary search on the boxes (per tested feature:
// an interval, a set of levels, whether NA is inside) that the paths' nodes
// imply. At most O(log s) light edges on any path: O(d log^2 s) per row
// instead of O(depth). Same leaves as route_row(), always.
#pragma once
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/fronts/tree.h"

namespace dpdt {

class HeavyLightRouter {
 public:
  explicit HeavyLightRouter(const FlatTree& t) : t_(t) {
    const int s = t.size();
    for (int v = 0; v < s; ++v)
      for (int c : t.left_levels[v])
        if (c < 1 || c > 63) supported_ = false;
    if (!supported_) return;
    // features tested, one slot each
    int p = 0;
    for (int v = 0; v < s; ++v) p = std::max(p, t.feature[v] + 1);
    std::vector<int> slot(p, -1);
    for (int v = 0; v < s; ++v)
      if (t.feature[v] >= 0 && slot[t.feature[v]] < 0) {
        slot[t.feature[v]] = static_cast<int>(features_.size());
        features_.push_back(t.feature[v]);
      }
    const int d = static_cast<int>(features_.size());
    categorical_.assign(d, 0);
    for (int v = 0; v < s; ++v)
      if (t.feature[v] >= 0 && !t.left_levels[v].empty()) categorical_[slot[t.feature[v]]] = 1;
    // boxes, top-down (parents come before children in preorder)
    const double inf = std::numeric_limits<double>::infinity();
    lo_.assign(static_cast<std::size_t>(s) * d, -inf);
    hi_.assign(static_cast<std::size_t>(s) * d, inf);
    mask_.assign(static_cast<std::size_t>(s) * d, ~std::uint64_t(0));
    na_.assign(static_cast<std::size_t>(s) * d, 1);
    for (int v = 0; v < s; ++v) {
      if (t.feature[v] < 0) continue;
      const int f = slot[t.feature[v]];
      for (int side = 0; side < 2; ++side) {
        const int c = side ? t.left[v] : t.right[v];
        for (int g = 0; g < d; ++g) {
          const std::size_t from = static_cast<std::size_t>(v) * d + g, to = static_cast<std::size_t>(c) * d + g;
          lo_[to] = lo_[from];
          hi_[to] = hi_[from];
          mask_[to] = mask_[from];
          na_[to] = na_[from];
        }
        const std::size_t at = static_cast<std::size_t>(c) * d + f;
        const std::vector<int>& lev = t.left_levels[v];
        if (lev.empty()) {
          if (side) hi_[at] = std::min(hi_[at], t.threshold[v]);
          else lo_[at] = std::max(lo_[at], t.threshold[v]);
        } else {
          std::uint64_t m = 0;  // bit c: level code c (1..63); bit 0: any other code
          for (int l : lev) m |= std::uint64_t(1) << l;
          mask_[at] &= side ? m : ~m;
        }
        if (t.na_left[v] != side) na_[at] = 0;
      }
    }
    // heavy paths
    std::vector<int> size(s, 1);
    for (int v = s - 1; v >= 0; --v)
      if (t.feature[v] >= 0) size[v] = 1 + size[t.left[v]] + size[t.right[v]];
    path_.assign(s, -1);
    pos_.assign(s, 0);
    for (int v = 0; v < s; ++v) {
      if (path_[v] >= 0) continue;  // already on a path
      const int id = static_cast<int>(paths_.size());
      paths_.emplace_back();
      for (int u = v; u >= 0;) {
        path_[u] = id;
        pos_[u] = static_cast<int>(paths_[id].size());
        paths_[id].push_back(u);
        int next = -1;
        if (t.feature[u] >= 0)
          for (int c : {t.left[u], t.right[u]})
            if (2 * size[c] > size[u]) next = c;
        u = next;
      }
    }
  }

  bool supported() const { return supported_; }
  int n_paths() const { return static_cast<int>(paths_.size()); }

  // The leaf row `row` of x (column-major, n rows) reaches, or -1 where a
  // missing value has no side (as route_row).
  int route(const double* x, std::size_t n, int row) const {
    int v = 0;
    for (;;) {
      const std::vector<int>& P = paths_[path_[v]];
      int lo = pos_[v], hi = static_cast<int>(P.size()) - 1;
      while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (inside(P[mid], x, n, row)) lo = mid;
        else hi = mid - 1;
      }
      v = P[lo];
      if (t_.feature[v] < 0) return v;
      const int side = side_of(t_, v, x[static_cast<std::size_t>(t_.feature[v]) * n + row]);
      if (side == kNaNoSide) return -1;
      v = side ? t_.left[v] : t_.right[v];
    }
  }

 private:
  const FlatTree& t_;
  bool supported_ = true;
  std::vector<int> features_;
  std::vector<char> categorical_;
  std::vector<double> lo_, hi_;
  std::vector<std::uint64_t> mask_;
  std::vector<char> na_;
  std::vector<std::vector<int>> paths_;
  std::vector<int> path_, pos_;

  bool inside(int v, const double* x, std::size_t n, int row) const {
    const int d = static_cast<int>(features_.size());
    const std::size_t base = static_cast<std::size_t>(v) * d;
    for (int g = 0; g < d; ++g) {
      const double xv = x[static_cast<std::size_t>(features_[g]) * n + row];
      if (std::isnan(xv)) {
        if (!na_[base + g]) return false;
        continue;
      }
      if (!(xv > lo_[base + g] && xv <= hi_[base + g])) return false;
      if (categorical_[g]) {
        const int c = static_cast<int>(xv);
        const int bit = (c >= 1 && c <= 63 && c == xv) ? c : 0;
        if (!((mask_[base + g] >> bit) & 1)) return false;
      }
    }
    return true;
  }
};

// Every row's leaf (-1: stopped by a missing value without a side). With
// `automatic`, both routings are timed on the first rows and the faster one
// routes the rest (the leaves do not depend on the choice); `used_heavy`
// tells which one routed them.
inline std::vector<int> route_rows(const FlatTree& t, const double* x, int n, bool automatic,
                                   bool heavy, bool* used_heavy = nullptr) {
  std::vector<int> leaf(n);
  HeavyLightRouter hl(t);
  bool use = heavy && hl.supported();
  int start = 0;
  if (automatic) {
    use = false;
    const int probe = std::min(n / 4, 2000);
    if (hl.supported() && probe >= 200) {
      using clock = std::chrono::steady_clock;
      const auto t0 = clock::now();
      for (int i = 0; i < probe; ++i) leaf[i] = route_row(t, x, n, i);
      const auto t1 = clock::now();
      for (int i = probe; i < 2 * probe; ++i) leaf[i] = hl.route(x, n, i);
      const auto t2 = clock::now();
      use = (t2 - t1) < (t1 - t0);
      start = 2 * probe;
    }
  }
  for (int i = start; i < n; ++i) leaf[i] = use ? hl.route(x, n, i) : route_row(t, x, n, i);
  if (used_heavy) *used_heavy = use;
  return leaf;
}

}  // namespace dpdt
