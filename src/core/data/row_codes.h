// Each row's rank on every feature in one byte, row after row, for data
// whose features all have at most 256 ranks (few values, or quantile bins:
// binning.h) and no missing value. A state at the last level then needs
// only its rows, not each feature's sorted block: one row's codes of every
// feature share a cache line, and a histogram per feature replaces the
// sorted scan (histogram_scan.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

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
  rc.p = d.p;
  rc.code.resize(static_cast<std::size_t>(d.n) * d.p);
  rc.lo.assign(static_cast<std::size_t>(d.p) * kMaxRowCodes, 0.0);
  rc.hi.assign(rc.lo.size(), 0.0);
  for (int f = 0; f < d.p; ++f) {
    const Entry* rows = d.sorted.data() + static_cast<std::size_t>(f) * d.n;
    const std::size_t at = static_cast<std::size_t>(f) * kMaxRowCodes;
    for (int i = 0; i < d.n; ++i) {
      const int c = rows[i].rank;
      rc.code[static_cast<std::size_t>(rows[i].row) * d.p + f] = static_cast<std::uint8_t>(c);
      const double v = d.value(f, rows[i].row);  // rows by value: first the lowest
      if (i == 0 || rows[i - 1].rank != c) rc.lo[at + c] = v;
      rc.hi[at + c] = v;
    }
  }
  return rc;
}

}  // namespace dpdt
