// Children of a split inherit every feature's order from their parent by a
// stable partition, so rows are sorted once for the whole search.
#pragma once
#include <cstdint>
#include <vector>

#include "dataset.h"
#include "split_rule.h"

namespace dpdt {

// The rows of `rule` go left (rule.left_count of them; each row's side is
// set in goes_left first: a prefix of the block for a numeric test without
// missing values, else row by row). Writes both children's blocks and
// returns the sum of the left rows' keys (the left child's set hash). Each
// output needs one entry of slack past its p blocks.
inline std::uint64_t partition_rows(const Dataset& d, const Entry* block, int m,
                                    const SplitRule& rule,
                                    std::vector<char>& goes_left,
                                    const std::vector<std::uint64_t>& row_keys,
                                    Entry* left_out, Entry* right_out) {
  const Entry* split_rows = block + static_cast<std::size_t>(rule.feature) * m;
  const int left_count = rule.left_count;
  std::uint64_t left_hash = 0;
  if (!d.special(rule.feature, split_rows, m)) {
    for (int i = 0; i < m; ++i) goes_left[split_rows[i].row] = i < left_count;
    for (int i = 0; i < left_count; ++i) left_hash += row_keys[split_rows[i].row];
  } else {
    for (int i = 0; i < m; ++i) {
      const bool l = dpdt::goes_left(d, rule, i, split_rows[i]);
      goes_left[split_rows[i].row] = l;
      if (l) left_hash += row_keys[split_rows[i].row];
    }
  }
  const int right_count = m - left_count;
  for (int f = 0; f < d.p; ++f) {
    const Entry* rows = block + static_cast<std::size_t>(f) * m;
    Entry* lo = left_out + static_cast<std::size_t>(f) * left_count;
    Entry* ro = right_out + static_cast<std::size_t>(f) * right_count;
    // Branch-free: the side of a row is unpredictable. Each entry is written
    // to both outputs and only one cursor advances; the stray write lands on
    // the next feature's first slot (rewritten later) or on the one slot of
    // slack the caller allocates past the end of each output.
    for (int i = 0; i < m; ++i) {
      const Entry e = rows[i];
      const int left = goes_left[e.row];
      *lo = e;
      *ro = e;
      lo += left;
      ro += 1 - left;
    }
  }
  return left_hash;
}

}  // namespace dpdt
