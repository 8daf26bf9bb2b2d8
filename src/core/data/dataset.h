// Training data as the search sees it: column-major features, each feature's
// rows presorted once (stable, so ties keep row order), responses and weights.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <utility>
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

// How many of a block's m rows hold a value (its missing rows are the last).
inline int present_rows(const Entry* rows, int m) {
  while (m > 0 && rows[m - 1].rank == kMissingRank) --m;
  return m;
}

// Whether a feature's m sorted rows hold a missing value (they sort last).
inline bool holds_missing(const Entry* rows, int m) {
  return m > 0 && rows[m - 1].rank == kMissingRank;
}

// Whether any of the p features of a block of m rows each does.
inline bool block_holds_missing(const Entry* block, int m, int p) {
  for (int f = 0; f < p; ++f)
    if (holds_missing(block + static_cast<std::size_t>(f) * m, m)) return true;
  return false;
}

struct RowCodes;  // row_codes.h

// From this many rows a feature is presorted by radix_order(), below by
// std::stable_sort (the same order; the radix sort's eight passes over
// 256 counts cost more on few rows).
constexpr int kRadixRows = 4096;

struct Dataset {
  int n = 0;
  int p = 0;
  int n_classes = 0;                // 0 means regression
  std::vector<const double*> column;  // p columns of n values, owned by the caller
  std::vector<int> label;           // classification: 0 .. n_classes - 1
  // At most 127 classes: the same in one byte (make_dataset() fills it),
  // read by the two-class scans and counts: a fourth of the cache (htru's
  // 14,318 labels in 14 KB, not 57 KB beside 32 KB of L1). Paired CPU, new /
  // old: magic exact_levels = 2 0.957 (11 runs), htru best_only depth 3
  // 0.954 (5), and by the codes of children at the last level (CutPositions).
  std::vector<std::uint8_t> label_byte;
  std::vector<double> response;     // regression: y * 2^-y_exp
  std::vector<double> weight;       // w * 2^-w_exp, >= 0
  // Power-of-two scales (exact): responses are brought near 1 and extreme
  // weights near 1, so no square, product or v log v over- or underflows.
  // The front is scale-equivariant: losses scale by 2^(w_exp + 2 y_exp).
  int y_exp = 0;
  int w_exp = 0;
  // Every weight is a whole multiple of one power of two and their total,
  // in those units, is below 2^52: every sum of weights is then exact.
  bool exact_weights = false;
  // Every weight is 1: class weights are counts (whole numbers, exact).
  bool unit_weights = false;
  std::vector<Entry> sorted;        // feature f's rows by value at [f * n, (f + 1) * n)
  // Each row's codes, made without the presort (code_features(): sorted is
  // then empty and only a search of states given by rows runs); else null.
  std::shared_ptr<const RowCodes> coded;
  std::vector<double> xlogx_table;  // v log v for whole v, when weights are whole
  // Features whose values are ranked by quantile bin (binning.h: a bin
  // holds several values); empty: none.
  std::vector<char> binned;
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
  bool is_binned(int f) const { return !binned.empty() && binned[f]; }
  double cost(int f) const { return feature_cost.empty() ? 1.0 : feature_cost[f]; }
  // A feature whose block (m rows of a state) needs the general scan of
  // split_groups.h: categorical, or with missing values in the state.
  bool special(int f, const Entry* rows, int m) const {
    return categorical(f) || holds_missing(rows, m);
  }
  double value(int feature, int row) const { return column[feature][row]; }
  // Losses and weights back in the caller's units.
  double unscale_loss(double v) const { return std::ldexp(v, w_exp + (regression() ? 2 * y_exp : 0)); }
  double unscale_weight(double v) const { return std::ldexp(v, w_exp); }
  double unscale_response(double v) const { return std::ldexp(v, y_exp); }
};

// The exponent of the lowest set bit of a positive finite double.
inline int lowest_bit_exponent(double v) {
  int e = 0;
  const double m = std::frexp(v, &e);  // v = m * 2^e, m in [0.5, 1)
  std::uint64_t bits = static_cast<std::uint64_t>(std::ldexp(m, 53));
  int low = 0;
  while ((bits & 1u) == 0 && low < 53) {
    bits >>= 1;
    ++low;
  }
  return e - 53 + low;
}

// Weights (after scaling) whose every partial sum is exact in double;
// with `times`, also every sum of weights times whole numbers up to it.
inline bool weights_sum_exactly(const std::vector<double>& w, double times = 1.0) {
  int unit = 0;
  bool first = true;
  double max_w = 0.0;
  for (double v : w) {
    if (!(v > 0)) continue;
    const int e = lowest_bit_exponent(v);
    unit = first ? e : std::min(unit, e);
    first = false;
    max_w = std::max(max_w, v);
  }
  if (first) return true;
  // total / 2^unit <= n * max_w / 2^unit < 2^52, checked without overflow.
  const double units = std::ldexp(max_w, -unit) * static_cast<double>(w.size());
  return units * times < std::ldexp(1.0, 52);
}

// The largest misclassification cost (1 without a loss matrix).
inline double largest_cost(const Dataset& d) {
  double most = 1.0;
  for (double v : d.loss_matrix) most = std::max(most, v);
  return most;
}

// Whether every loss of a classification sums exactly: exact weights,
// and a loss matrix (if any) of whole costs whose largest times the
// weights still sums exactly (sums of whole multiples of one power of two
// below 2^52 of it are exact in any order).
inline bool losses_sum_exactly(const Dataset& d) {
  if (!d.exact_weights) return false;
  if (d.loss_matrix.empty()) return true;
  for (double v : d.loss_matrix)
    if (!(v == std::floor(v))) return false;
  return weights_sum_exactly(d.weight, largest_cost(d));
}

// An unsigned key in the order of the values: -0 as +0, every NaN alike
// and after every number.
inline std::uint64_t order_key(double v) {
  if (std::isnan(v)) return ~std::uint64_t{0};
  if (v == 0) v = 0.0;
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return (b >> 63) ? ~b : b | (std::uint64_t{1} << 63);
}

// Rows 0..n-1 of col in the order of a stable sort by value (NaN last): a
// least-significant-digit radix sort of their keys, byte by byte (stable;
// a byte every key shares is skipped). On 1e7 rows about 6 times faster
// than std::stable_sort with a comparator reading the values at random.
inline void radix_order(const double* col, int n, std::vector<int>& rows) {
  std::vector<std::uint64_t> key(n), key2(n);
  std::vector<int> rows2(n);
  rows.resize(n);
  for (int i = 0; i < n; ++i) {
    key[i] = order_key(col[i]);
    rows[i] = i;
  }
  for (int shift = 0; shift < 64; shift += 8) {
    std::size_t count[257] = {0};
    for (int i = 0; i < n; ++i) ++count[((key[i] >> shift) & 0xFF) + 1];
    if (count[((key[0] >> shift) & 0xFF) + 1] == static_cast<std::size_t>(n)) continue;
    for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
    for (int i = 0; i < n; ++i) {
      const std::size_t at = count[(key[i] >> shift) & 0xFF]++;
      key2[at] = key[i];
      rows2[at] = rows[i];
    }
    key.swap(key2);
    rows.swap(rows2);
  }
}

// Feature f's rows sorted by value into out (n entries; stable, NaN last
// with kMissingRank) with their dense ranks. `rows`: scratch.
inline void presort_feature(const Dataset& d, int f, std::vector<int>& rows, Entry* out) {
  const double* col = d.column[f];
  if (d.n >= kRadixRows) {
    radix_order(col, d.n, rows);
  } else {
    rows.resize(d.n);
    std::iota(rows.begin(), rows.end(), 0);
    // NaN last (a strict weak order: NaN compares greater than any number).
    std::stable_sort(rows.begin(), rows.end(), [col](int a, int b) {
      return std::isnan(col[b]) ? !std::isnan(col[a]) : col[a] < col[b];
    });
  }
  int rank = 0;
  for (int i = 0; i < d.n; ++i) {
    if (i > 0 && col[rows[i - 1]] < col[rows[i]]) ++rank;
    out[i] = {rows[i], std::isnan(col[rows[i]]) ? kMissingRank : rank};
  }
}

// Every feature's sorted block (Dataset::sorted).
inline void presort_features(Dataset& d) {
  d.sorted.resize(static_cast<std::size_t>(d.n) * d.p);
  std::vector<int> rows;
  for (int f = 0; f < d.p; ++f)
    presort_feature(d, f, rows, d.sorted.data() + static_cast<std::size_t>(f) * d.n);
}

// Features as p columns of n values (the caller keeps them), y and w as
// given by the caller (unscaled); n_classes = 0: regression. `presort`:
// false leaves Dataset::sorted empty, for code_features() (row_codes.h)
// or presort_features() later.
inline Dataset make_dataset(std::vector<const double*> columns, int n, const double* y,
                            const double* w, int n_classes, bool presort = true) {
  Dataset d;
  d.n = n;
  d.p = static_cast<int>(columns.size());
  d.n_classes = n_classes;
  d.column = std::move(columns);
  // Weights beyond 2^+-200 are brought to [0.5, 1); ordinary weights are
  // left alone, so whole weights stay whole (exact sums, the v log v table).
  double max_w = 0.0;
  for (int i = 0; i < n; ++i) max_w = std::max(max_w, w[i]);
  if (max_w > 0 && (max_w > 0x1p200 || max_w < 0x1p-200)) d.w_exp = std::ilogb(max_w) + 1;
  d.weight.resize(n);
  for (int i = 0; i < n; ++i) d.weight[i] = std::ldexp(w[i], -d.w_exp);
  d.exact_weights = weights_sum_exactly(d.weight);
  d.unit_weights = std::all_of(d.weight.begin(), d.weight.end(), [](double v) { return v == 1.0; });
  if (n_classes > 0) {
    d.label.resize(n);
    for (int i = 0; i < n; ++i) d.label[i] = static_cast<int>(y[i]);
    if (n_classes <= 127) d.label_byte.assign(d.label.begin(), d.label.end());
  } else {
    // Responses are brought to [-1, 1] by a power of two (exact), never
    // shifted: a shift would round away the detail of values far from it.
    double max_y = 0.0;
    for (int i = 0; i < n; ++i) max_y = std::max(max_y, std::fabs(y[i]));
    if (max_y > 0) d.y_exp = std::ilogb(max_y) + 1;
    d.response.resize(n);
    for (int i = 0; i < n; ++i) d.response[i] = std::ldexp(y[i], -d.y_exp);
  }
  if (presort) presort_features(d);
  // Entropy with unit (or whole) weights needs v log v only at whole v.
  double total = 0.0;
  bool whole = true;
  for (int i = 0; i < n; ++i) {
    total += d.weight[i];
    whole = whole && d.weight[i] == std::floor(d.weight[i]);
  }
  if (whole && total <= 1e7) {
    d.xlogx_table.resize(static_cast<std::size_t>(total) + 1);
    for (std::size_t v = 1; v < d.xlogx_table.size(); ++v)
      d.xlogx_table[v] = static_cast<double>(v) * std::log(static_cast<double>(v));
  }
  return d;
}

// The same of an n x p column-major matrix x.
inline Dataset make_dataset(const double* x, int n, int p, const double* y, const double* w,
                            int n_classes) {
  std::vector<const double*> columns(p);
  for (int f = 0; f < p; ++f) columns[f] = x + static_cast<std::size_t>(f) * n;
  return make_dataset(std::move(columns), n, y, w, n_classes);
}

}  // namespace dpdt
