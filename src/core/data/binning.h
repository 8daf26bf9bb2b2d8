// Quantile binning of numeric features (max_bins): a feature with more
// distinct values than max_bins keeps its rows' order, but its values are
// ranked by bin, so every scan, bound and work estimate of the search sees
// at most max_bins values and cuts only between bins. The data's values
// stay as they are: a cut's threshold still lies between the largest value
// of one bin and the smallest of the next, so trees route the caller's
// values exactly as the search counted them.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/data/dataset.h"

namespace dpdt {

// The edges of a sorted feature's bins: with m present values
// v_1 <= ... <= v_m and B bins, e_k = v_ceil(k m / B) for k = 1 .. B - 1,
// without repeats (ties merge bins). A bin is (e_(k-1), e_k]: a test can
// cut only at an edge, x <= e_k against x > e_k.
inline std::vector<double> bin_edges(const Dataset& d, int f, const Entry* rows, int present,
                                     int max_bins) {
  std::vector<double> edges;
  for (int k = 1; k < max_bins; ++k) {
    const long long pos = (static_cast<long long>(k) * present + max_bins - 1) / max_bins - 1;
    const double v = d.value(f, rows[pos].row);
    if (edges.empty() || v > edges.back()) edges.push_back(v);
  }
  return edges;
}

// Bins every numeric feature with more than max_bins distinct present
// values (max_bins <= 0: none). Returns each feature's number of bins, 0
// where it was left alone (categorical, or few values). Call after the
// categorical features are marked (n_levels).
// Bins feature f (its n rows sorted, `rows`) when it is numeric with more
// than max_bins distinct present values: its ranks become bins. Returns
// its number of bins, 0 where it was left alone. Marks d.binned.
inline int bin_feature(Dataset& d, int f, Entry* rows, int max_bins) {
  if (max_bins <= 0 || d.categorical(f)) return 0;
  int present = present_rows(rows, d.n);
  if (present == 0 || rows[present - 1].rank + 1 <= max_bins) return 0;
  const std::vector<double> edges = bin_edges(d, f, rows, present, max_bins);
  // Each edge is a present value, so every bin up to the last edge's holds
  // a row: the ranks stay dense (0, 1, ...), as the scans expect.
  std::size_t below = 0;
  for (int i = 0; i < present; ++i) {
    const double v = d.value(f, rows[i].row);
    while (below < edges.size() && edges[below] < v) ++below;
    rows[i].rank = static_cast<int>(below);
  }
  d.binned.resize(d.p, 0);
  d.binned[f] = 1;
  return rows[present - 1].rank + 1;
}

inline std::vector<int> bin_numeric_features(Dataset& d, int max_bins) {
  std::vector<int> bins(d.p, 0);
  for (int f = 0; f < d.p; ++f)
    bins[f] = bin_feature(d, f, d.sorted.data() + static_cast<std::size_t>(f) * d.n, max_bins);
  return bins;
}

}  // namespace dpdt
