// Children of a split inherit every feature's order from their parent by a
// stable partition, so rows are sorted once for the whole search.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/data/dataset.h"
#include "core/splits/partition_wide.h"
#include "core/splits/split_rule.h"
#include "core/splits/wide_lanes.h"

namespace dpdt {

// Sets the side in goes_left of each of a feature's m rows (split_rows):
// the first left_count go left.
inline void mark_prefix(const Entry* split_rows, int m, int left_count,
                        std::vector<char>& goes_left) {
  for (int i = 0; i < m; ++i) goes_left[split_rows[i].row] = i < left_count;
}

// The hash of a prefix cut's left side (the first left_count of the m
// split_rows; `whole`: the hash of all m), summed over the smaller side.
inline std::uint64_t prefix_hash(const Entry* split_rows, int m, int left_count,
                                 std::uint64_t whole, const std::vector<std::uint64_t>& row_keys) {
  const bool left_smaller = 2 * left_count <= m;
  std::uint64_t smaller = 0;
  for (int i = left_smaller ? 0 : left_count; i < (left_smaller ? left_count : m); ++i)
    smaller += row_keys[split_rows[i].row];
  return left_smaller ? smaller : whole - smaller;
}

// Sets the side in goes_left of each row of the state's m rows (`block`,
// every feature's) by `rule`, with no set hash: CART's growth of proposals,
// whose states are never memoised (it summed zero keys, read at random, from
// a vector of n of them per generator).
inline void mark_rule_sides(const Dataset& d, const Entry* block, int m, const SplitRule& rule,
                            std::vector<char>& goes_left) {
  const Entry* split_rows = block + static_cast<std::size_t>(rule.feature) * m;
  if (!d.special(rule.feature, split_rows, m)) return mark_prefix(split_rows, m, rule.left_count, goes_left);
  for_each_side(d, rule, split_rows, m, [&](int i, bool left) { goes_left[split_rows[i].row] = left; });
}

// Sets each row's side in goes_left (rule.left_count rows go left: a prefix
// of the block for a numeric test without missing values, else row by row)
// and returns the sum of the left rows' keys (the left child's set hash).
inline std::uint64_t mark_sides(const Dataset& d, const Entry* block, int m,
                                const SplitRule& rule, std::vector<char>& goes_left,
                                const std::vector<std::uint64_t>& row_keys) {
  const Entry* split_rows = block + static_cast<std::size_t>(rule.feature) * m;
  const int left_count = rule.left_count;
  std::uint64_t left_hash = 0;
  if (!d.special(rule.feature, split_rows, m)) {
    mark_prefix(split_rows, m, left_count, goes_left);
    for (int i = 0; i < left_count; ++i) left_hash += row_keys[split_rows[i].row];
  } else {
    for_each_side(d, rule, split_rows, m, [&](int i, bool left) {
      goes_left[split_rows[i].row] = left;
      if (left) left_hash += row_keys[split_rows[i].row];
    });
  }
  return left_hash;
}

// Writes both children's blocks from the sides mark_sides() set. Each
// output needs kPartitionSlack entries of slack past its p blocks.
inline void write_sides(const Dataset& d, const Entry* block, int m, int left_count,
                        const std::vector<char>& goes_left, Entry* left_out, Entry* right_out) {
  const std::size_t right_count = static_cast<std::size_t>(m - left_count);
  for (int f = 0; f < d.p; ++f)
    entries_to_sides(block + static_cast<std::size_t>(f) * m, m, goes_left.data(),
                     left_out + static_cast<std::size_t>(f) * left_count, right_out + f * right_count);
}

// Writes one child's rows of feature f only, where write_side() puts them.
inline void write_side_feature(const Entry* block, int m, int count, bool left,
                               const std::vector<char>& goes_left, int f, Entry* out) {
  entries_to_side(block + static_cast<std::size_t>(f) * m, m, goes_left.data(), left ? 1 : 0,
                  out + static_cast<std::size_t>(f) * count);
}

// Writes one child's block only (the left one if `left`; `count` rows), with
// the same slack rule as write_sides().
inline void write_side(const Dataset& d, const Entry* block, int m, int count, bool left,
                       const std::vector<char>& goes_left, Entry* out) {
  for (int f = 0; f < d.p; ++f) write_side_feature(block, m, count, left, goes_left, f, out);
}

// The rows of `rule` go left: both children's blocks written, the left
// child's set hash returned (mark_sides, then write_sides).
inline std::uint64_t partition_rows(const Dataset& d, const Entry* block, int m,
                                    const SplitRule& rule,
                                    std::vector<char>& goes_left,
                                    const std::vector<std::uint64_t>& row_keys,
                                    Entry* left_out, Entry* right_out) {
  const std::uint64_t left_hash = mark_sides(d, block, m, rule, goes_left, row_keys);
  write_sides(d, block, m, rule.left_count, goes_left, left_out, right_out);
  return left_hash;
}

}  // namespace dpdt
