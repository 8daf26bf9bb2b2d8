// Training data as the search sees it: column-major features, each feature's
// rows presorted once (stable, so ties keep row order), responses and weights.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace dpdt {

// A row in a feature's sorted block, with its dense rank there: scans compare
// ranks read in sequence instead of fetching values from all over memory.
// Missing values (NaN) sort last, with rank kMissingRank: in every state's
// block of a feature its missing rows are the last ones.
constexpr int kMissingRank = std::numeric_limits<int>::max();

struct Entry {
  int row;
  int rank;
};

struct Dataset {
  int n = 0;
  int p = 0;
  int n_classes = 0;                // 0 means regression
  const double* x = nullptr;        // n * p, column-major, owned by the caller
  std::vector<int> label;           // classification: 0 .. n_classes - 1
  std::vector<double> response;     // regression: centred at y_center
  double y_center = 0.0;
  std::vector<double> weight;       // > 0
  std::vector<Entry> sorted;        // feature f's rows by value at [f * n, (f + 1) * n)
  std::vector<double> xlogx_table;  // v log v for whole v, when weights are whole
  // Categorical features hold level codes 1..n_levels[f] (a test sends a
  // group of levels left); n_levels[f] = 0 (or an empty vector): numeric.
  std::vector<int> n_levels;
  // Misclassification costs, n_classes x n_classes row-major (row the true
  // class, column the prediction); empty: 0/1 loss.
  std::vector<double> loss_matrix;
  // Cost of testing each feature (complexity "cost"); empty: all 1.
  std::vector<double> feature_cost;

  bool regression() const { return n_classes == 0; }
  bool categorical(int f) const { return !n_levels.empty() && n_levels[f] > 0; }
  double cost(int f) const { return feature_cost.empty() ? 1.0 : feature_cost[f]; }
  // A feature whose block (m rows of a state) needs the general scan of
  // split_groups.h: categorical, or with missing values in the state.
  bool special(int f, const Entry* rows, int m) const {
    return categorical(f) || (m > 0 && rows[m - 1].rank == kMissingRank);
  }
  double value(int feature, int row) const {
    return x[static_cast<std::size_t>(feature) * n + row];
  }
};

// Regression responses are centred so that sums of squares lose less precision.
inline Dataset make_dataset(const double* x, int n, int p, const double* y,
                            const double* w, int n_classes) {
  Dataset d;
  d.n = n;
  d.p = p;
  d.n_classes = n_classes;
  d.x = x;
  d.weight.assign(w, w + n);
  if (n_classes > 0) {
    d.label.resize(n);
    for (int i = 0; i < n; ++i) d.label[i] = static_cast<int>(y[i]);
  } else {
    double sw = 0.0, swy = 0.0;
    for (int i = 0; i < n; ++i) { sw += w[i]; swy += w[i] * y[i]; }
    d.y_center = sw > 0 ? swy / sw : 0.0;
    d.response.resize(n);
    for (int i = 0; i < n; ++i) d.response[i] = y[i] - d.y_center;
  }
  d.sorted.resize(static_cast<std::size_t>(n) * p);
  std::vector<int> rows(n);
  for (int f = 0; f < p; ++f) {
    std::iota(rows.begin(), rows.end(), 0);
    const double* col = x + static_cast<std::size_t>(f) * n;
    // NaN last (a strict weak order: NaN compares greater than any number).
    std::stable_sort(rows.begin(), rows.end(), [col](int a, int b) {
      return std::isnan(col[b]) ? !std::isnan(col[a]) : col[a] < col[b];
    });
    Entry* out = d.sorted.data() + static_cast<std::size_t>(f) * n;
    int rank = 0;
    for (int i = 0; i < n; ++i) {
      if (i > 0 && col[rows[i - 1]] < col[rows[i]]) ++rank;
      out[i] = {rows[i], std::isnan(col[rows[i]]) ? kMissingRank : rank};
    }
  }
  // Entropy with unit (or whole) weights needs v log v only at whole v.
  double total = 0.0;
  bool whole = true;
  for (int i = 0; i < n; ++i) {
    total += w[i];
    whole = whole && w[i] == std::floor(w[i]);
  }
  if (whole && total <= 1e7) {
    d.xlogx_table.resize(static_cast<std::size_t>(total) + 1);
    for (std::size_t v = 1; v < d.xlogx_table.size(); ++v)
      d.xlogx_table[v] = static_cast<double>(v) * std::log(static_cast<double>(v));
  }
  return d;
}

}  // namespace dpdt
