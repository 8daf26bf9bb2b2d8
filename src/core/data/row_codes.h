// Each row's rank on every feature in one byte, row after row, for data
// whose features all have at most 256 ranks (few values, or quantile bins:
// binning.h) and no missing value. A state at the last level then needs
// only its rows, not each feature's sorted block: one row's codes of every
// feature share a cache line, and a histogram per feature replaces the
// sorted scan (histogram_scan.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/data/binning.h"
#include "core/data/dataset.h"

namespace dpdt {

constexpr int kMaxRowCodes = 256;

struct RowCodes {
  int p = 0;
  std::vector<std::uint8_t> code;  // n * p, row-major
  std::vector<int> ranks;          // feature f's codes are 0 .. ranks[f] - 1
  std::vector<double> lo, hi;      // code c of feature f: its values' range, at f * 256 + c
  bool empty() const { return code.empty(); }
  const std::uint8_t* row(int r) const { return code.data() + static_cast<std::size_t>(r) * p; }
  double lowest(int f, int c) const { return lo[static_cast<std::size_t>(f) * kMaxRowCodes + c]; }
  double highest(int f, int c) const { return hi[static_cast<std::size_t>(f) * kMaxRowCodes + c]; }
};

// Feature f's codes and its codes' value ranges, from its sorted rows.
inline void write_feature_codes(const Dataset& d, int f, const Entry* rows, RowCodes& rc) {
  const std::size_t at = static_cast<std::size_t>(f) * kMaxRowCodes;
  for (int i = 0; i < d.n; ++i) {
    const int c = rows[i].rank;
    rc.code[static_cast<std::size_t>(rows[i].row) * d.p + f] = static_cast<std::uint8_t>(c);
    const double v = d.value(f, rows[i].row);  // rows by value: first the lowest
    if (i == 0 || rows[i - 1].rank != c) rc.lo[at + c] = v;
    rc.hi[at + c] = v;
  }
}

inline void size_codes(const Dataset& d, RowCodes& rc) {
  rc.p = d.p;
  rc.code.resize(static_cast<std::size_t>(d.n) * d.p);
  rc.lo.assign(static_cast<std::size_t>(d.p) * kMaxRowCodes, 0.0);
  rc.hi.assign(rc.lo.size(), 0.0);
}

// The codes, or none (empty) when a feature is categorical, has a missing
// value or more than 256 ranks.
inline RowCodes row_codes(const Dataset& d) {
  RowCodes rc;
  if (d.n == 0 || d.p == 0) return rc;
  for (int f = 0; f < d.p; ++f) {
    const Entry* rows = d.sorted.data() + static_cast<std::size_t>(f) * d.n;
    const int last = rows[d.n - 1].rank;
    if (d.categorical(f) || last == kMissingRank || last >= kMaxRowCodes) return rc;
    rc.ranks.push_back(last + 1);
  }
  size_codes(d, rc);
  for (int f = 0; f < d.p; ++f)
    write_feature_codes(d, f, d.sorted.data() + static_cast<std::size_t>(f) * d.n, rc);
  return rc;
}

// The codes of a data set made without its presort (make_dataset(...,
// false)): one feature sorted at a time in scratch, binned as
// bin_numeric_features() does (max_bins; 0: none), so d.coded holds what
// row_codes() would of the presorted, binned data, and bins[f] each
// feature's bins, in n * p bytes where the presort takes 8 n p. False, and
// nothing set, where a feature cannot be coded (a factor, a missing value,
// more than 256 values or bins): the caller presorts then.
inline bool code_features(Dataset& d, int max_bins, std::vector<int>& bins) {
  if (d.n == 0 || d.p == 0) return false;
  for (int f = 0; f < d.p; ++f)
    if (d.categorical(f)) return false;
  auto rc = std::make_shared<RowCodes>();
  size_codes(d, *rc);
  std::vector<Entry> rows(d.n);
  std::vector<int> scratch;
  std::vector<int> binned(d.p, 0);
  for (int f = 0; f < d.p; ++f) {
    presort_feature(d, f, scratch, rows.data());
    binned[f] = bin_feature(d, f, rows.data(), max_bins);
    const int last = rows[d.n - 1].rank;
    if (last == kMissingRank || last >= kMaxRowCodes) {
      d.binned.clear();
      return false;
    }
    rc->ranks.push_back(last + 1);
    write_feature_codes(d, f, rows.data(), *rc);
  }
  bins = binned;
  d.coded = std::move(rc);
  return true;
}

}  // namespace dpdt
