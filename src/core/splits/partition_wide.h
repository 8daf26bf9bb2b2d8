// The partition's loops over one feature's rows (partition.h's writers call
// them): the scalar ones, and the same compiled for AVX2, chosen at run time
// (wide_lanes.h): four rows at a time, their sides read one by one (a
// hardware gather was no faster, and is slow on some CPUs), and each output
// written by one permute that packs the rows going there to the front of the
// vector and one store of all four lanes; the cursor then advances by the
// rows that went there. The lanes past the cursor are rewritten later or
// land in the slack past each output (kPartitionSlack). Written rows and
// their order are those of the scalar loops, which the core tests compare.
// A stand-alone loop over 4,000 rows and 5 features, ns a row: 8-byte
// entries 0.99 -> 0.61. Children at the last level are written as codes
// by position (CutPositions), eight rows at a time, with no row's side
// looked up: a comparison of each row's position in the cut's feature.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/data/dataset.h"
#include "core/splits/wide_lanes.h"

#if DPDT_WIDE_LANES
#include <immintrin.h>
#endif

namespace dpdt {

// Rows written past an output's cursor by one wide store (at most three).
inline constexpr int kPartitionSlack = 4;
// Codes written past a coded output's cursor by one store of eight (at most
// seven: CutPositions).
inline constexpr int kCodedSlack = 8;

// One feature's m rows to both children, in order (the scalar loops;
// below, their AVX2 versions). Branch-free: the side of a
// row is unpredictable. Each row is written to both outputs and only one
// cursor advances; the stray write lands on the next feature's first slot
// (rewritten later) or in the slack past the end of each output.
inline void sides_of_entries_base(const Entry* rows, int m, const char* goes_left, Entry* lo,
                                  Entry* ro) {
  for (int i = 0; i < m; ++i) {
    const Entry e = rows[i];
    const int left = goes_left[e.row];
    *lo = e;
    *ro = e;
    lo += left;
    ro += 1 - left;
  }
}

// One child's rows of one feature (`want`: 1 left, 0 right).
inline void side_of_entries_base(const Entry* rows, int m, const char* goes_left, char want,
                                 Entry* o) {
  for (int i = 0; i < m; ++i) {
    const Entry e = rows[i];
    *o = e;
    o += goes_left[e.row] == want;
  }
}

// Whether the partition's AVX2 loops run (asked once).
inline bool wide_partition_runs() {
#if DPDT_WIDE_LANES
  return cpu_has_avx2();
#else
  return false;
#endif
}

#if DPDT_WIDE_LANES
namespace wide_partition {

// The lanes to permute so that the rows whose bits are set in `mask` (four
// rows) come first, in order: lanes of 32 bits, `per_row` of them a row.
struct PackTable {
  alignas(32) std::int32_t lanes[16][8];
  constexpr explicit PackTable(int per_row) : lanes{} {
    for (int mask = 0; mask < 16; ++mask) {
      int out = 0;
      for (int row = 0; row < 4; ++row)
        if (mask >> row & 1)
          for (int k = 0; k < per_row; ++k) lanes[mask][out++] = row * per_row + k;
    }
  }
};
inline constexpr PackTable kEntryLanes{2};  // an Entry: two lanes

// Bit i set when row i of the four goes left.
inline unsigned sides_of_four(const Entry* rows, const char* goes_left) {
  return static_cast<unsigned>(goes_left[rows[0].row]) |
         static_cast<unsigned>(goes_left[rows[1].row]) << 1 |
         static_cast<unsigned>(goes_left[rows[2].row]) << 2 |
         static_cast<unsigned>(goes_left[rows[3].row]) << 3;
}

// Both children's entries of one feature's m rows.
DPDT_TARGET_AVX2 inline void sides_of_entries(const Entry* rows, int m, const char* goes_left,
                                              Entry* lo, Entry* ro) {
  int i = 0;
  for (; i + 4 <= m; i += 4) {
    const unsigned left = sides_of_four(rows + i, goes_left);
    const __m256i four = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows + i));
    const __m256i to_left =
        _mm256_load_si256(reinterpret_cast<const __m256i*>(kEntryLanes.lanes[left]));
    const __m256i to_right =
        _mm256_load_si256(reinterpret_cast<const __m256i*>(kEntryLanes.lanes[left ^ 15u]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(lo), _mm256_permutevar8x32_epi32(four, to_left));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(ro), _mm256_permutevar8x32_epi32(four, to_right));
    const int n_left = __builtin_popcount(left);
    lo += n_left;
    ro += 4 - n_left;
  }
  sides_of_entries_base(rows + i, m - i, goes_left, lo, ro);
}

// One child's entries of one feature's m rows (`want`: 1 left, 0 right).
DPDT_TARGET_AVX2 inline void side_of_entries(const Entry* rows, int m, const char* goes_left,
                                             char want, Entry* o) {
  const unsigned flip = want ? 0u : 15u;
  int i = 0;
  for (; i + 4 <= m; i += 4) {
    const unsigned kept = sides_of_four(rows + i, goes_left) ^ flip;
    const __m256i four = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows + i));
    const __m256i lanes = _mm256_load_si256(reinterpret_cast<const __m256i*>(kEntryLanes.lanes[kept]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), _mm256_permutevar8x32_epi32(four, lanes));
    o += __builtin_popcount(kept);
  }
  side_of_entries_base(rows + i, m - i, goes_left, want, o);
}

// The lanes to permute so that the rows whose bits are set in `mask`
// (eight rows, one 32-bit lane each) come first, in order.
struct PackTable8 {
  alignas(32) std::int32_t lanes[256][8];
  constexpr PackTable8() : lanes{} {
    for (int mask = 0; mask < 256; ++mask) {
      int out = 0;
      for (int row = 0; row < 8; ++row)
        if (mask >> row & 1) lanes[mask][out++] = row;
    }
  }
};
inline constexpr PackTable8 kEightLanes{};

// Bit i set when row i of eight goes left: its position below `cut`.
DPDT_TARGET_AVX2 inline unsigned left_of_eight(const std::int32_t* pos, __m256i cut) {
  const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pos));
  return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(cut, at))));
}

// A state's codes of one feature to both children by the rows' positions
// in the cut's feature (CutPositions): eight rows at a time, each output
// packed by one permute and stored at once. Returns the rows written (a
// multiple of eight), the cursors moved past them; the caller writes the rest.
DPDT_TARGET_AVX2 inline int codes_by_position(const std::uint32_t* code, const std::int32_t* pos,
                                              int m, int left_count, std::uint32_t*& lo,
                                              std::uint32_t*& ro) {
  const __m256i cut = _mm256_set1_epi32(left_count);
  int i = 0;
  for (; i + 8 <= m; i += 8) {
    const unsigned left = left_of_eight(pos + i, cut);
    const __m256i eight = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(code + i));
    const __m256i to_left = _mm256_load_si256(reinterpret_cast<const __m256i*>(kEightLanes.lanes[left]));
    const __m256i to_right =
        _mm256_load_si256(reinterpret_cast<const __m256i*>(kEightLanes.lanes[left ^ 255u]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(lo), _mm256_permutevar8x32_epi32(eight, to_left));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(ro), _mm256_permutevar8x32_epi32(eight, to_right));
    const int n_left = __builtin_popcount(left);
    lo += n_left;
    ro += 8 - n_left;
  }
  return i;
}

// ... to one child (`left`: the left one).
DPDT_TARGET_AVX2 inline int code_by_position(const std::uint32_t* code, const std::int32_t* pos, int m,
                                             int left_count, bool left, std::uint32_t*& out) {
  const __m256i cut = _mm256_set1_epi32(left_count);
  const unsigned flip = left ? 0u : 255u;
  int i = 0;
  for (; i + 8 <= m; i += 8) {
    const unsigned kept = left_of_eight(pos + i, cut) ^ flip;
    const __m256i eight = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(code + i));
    const __m256i lanes = _mm256_load_si256(reinterpret_cast<const __m256i*>(kEightLanes.lanes[kept]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permutevar8x32_epi32(eight, lanes));
    out += __builtin_popcount(kept);
  }
  return i;
}

}  // namespace wide_partition
#endif

// One feature's rows to both children or to one: the AVX2 loops where
// they run, else the scalar ones.
inline void entries_to_sides(const Entry* rows, int m, const char* goes_left, Entry* lo, Entry* ro) {
#if DPDT_WIDE_LANES
  if (wide_partition_runs()) return wide_partition::sides_of_entries(rows, m, goes_left, lo, ro);
#endif
  sides_of_entries_base(rows, m, goes_left, lo, ro);
}
inline void entries_to_side(const Entry* rows, int m, const char* goes_left, char want, Entry* o) {
#if DPDT_WIDE_LANES
  if (wide_partition_runs()) return wide_partition::side_of_entries(rows, m, goes_left, want, o);
#endif
  side_of_entries_base(rows, m, goes_left, want, o);
}

}  // namespace dpdt
