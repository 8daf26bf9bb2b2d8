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
// entries 0.99 -> 0.61; coded rows 0.93 -> 0.74.
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

// Both children's codes of one feature's rows, the rank shifted up by
// `class_bits` plus the class, from marks that hold each row's side and
// class (mark_coded_sides()).
inline void sides_of_codes_base(const Entry* rows, int m, const char* marks, int class_bits,
                                std::uint32_t* lo, std::uint32_t* ro) {
  for (int i = 0; i < m; ++i) {
    const Entry e = rows[i];
    const int mark = marks[e.row];
    const std::uint32_t code =
        (static_cast<std::uint32_t>(e.rank) << class_bits) | static_cast<std::uint32_t>(mark >> 1);
    const int left = mark & 1;
    *lo = code;
    *ro = code;
    lo += left;
    ro += 1 - left;
  }
}

// One child's codes of one feature's rows (`want`: 1 left, 0 right).
inline void side_of_codes_base(const Entry* rows, int m, const char* marks, int class_bits,
                               int want, std::uint32_t* o) {
  for (int i = 0; i < m; ++i) {
    const Entry e = rows[i];
    const int mark = marks[e.row];
    *o = (static_cast<std::uint32_t>(e.rank) << class_bits) | static_cast<std::uint32_t>(mark >> 1);
    o += (mark & 1) == want;
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
inline constexpr PackTable kCodeLanes{1};   // a code: one lane

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

// Four rows' marks (mark_coded_sides(): side in bit 0, class from bit 1),
// one in each 32-bit lane.
DPDT_TARGET_AVX2 inline __m128i marks_of_four(const Entry* rows, const char* marks) {
  const auto byte = [&](int i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(marks[rows[i].row]));
  };
  const std::uint32_t four = byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24;
  return _mm_cvtepu8_epi32(_mm_cvtsi32_si128(static_cast<int>(four)));
}

// Four rows' codes, the rank shifted up by `class_bits` (in the low lane)
// plus the class, from their entries and marks.
DPDT_TARGET_AVX2 inline __m128 codes_of_four(const Entry* rows, __m128i mark, __m128i class_bits) {
  const __m256i ranks = _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7);  // an Entry's second lane
  const __m256i four = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows));
  const __m128i rank = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(four, ranks));
  return _mm_castsi128_ps(_mm_or_si128(_mm_sll_epi32(rank, class_bits), _mm_srli_epi32(mark, 1)));
}

// Bit i set when row i of the four goes left, from their marks.
DPDT_TARGET_AVX2 inline unsigned left_of_four(__m128i mark) {
  return static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(_mm_slli_epi32(mark, 31))));
}

// Both children's codes of one feature's m rows, from mark_coded_sides()' marks.
DPDT_TARGET_AVX2 inline void sides_of_codes(const Entry* rows, int m, const char* marks,
                                            int class_bits, std::uint32_t* lo, std::uint32_t* ro) {
  const __m128i bits = _mm_cvtsi32_si128(class_bits);
  int i = 0;
  for (; i + 4 <= m; i += 4) {
    const __m128i mark = marks_of_four(rows + i, marks);
    const unsigned left = left_of_four(mark);
    const __m128 code = codes_of_four(rows + i, mark, bits);
    const __m128i to_left = _mm_load_si128(reinterpret_cast<const __m128i*>(kCodeLanes.lanes[left]));
    const __m128i to_right =
        _mm_load_si128(reinterpret_cast<const __m128i*>(kCodeLanes.lanes[left ^ 15u]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(lo), _mm_castps_si128(_mm_permutevar_ps(code, to_left)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(ro), _mm_castps_si128(_mm_permutevar_ps(code, to_right)));
    const int n_left = __builtin_popcount(left);
    lo += n_left;
    ro += 4 - n_left;
  }
  sides_of_codes_base(rows + i, m - i, marks, class_bits, lo, ro);
}

// One child's codes of one feature's m rows (`want`: 1 left, 0 right).
DPDT_TARGET_AVX2 inline void side_of_codes(const Entry* rows, int m, const char* marks,
                                           int class_bits, int want, std::uint32_t* o) {
  const __m128i bits = _mm_cvtsi32_si128(class_bits);
  const unsigned flip = want ? 0u : 15u;
  int i = 0;
  for (; i + 4 <= m; i += 4) {
    const __m128i mark = marks_of_four(rows + i, marks);
    const unsigned kept = left_of_four(mark) ^ flip;
    const __m128 code = codes_of_four(rows + i, mark, bits);
    const __m128i lanes = _mm_load_si128(reinterpret_cast<const __m128i*>(kCodeLanes.lanes[kept]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), _mm_castps_si128(_mm_permutevar_ps(code, lanes)));
    o += __builtin_popcount(kept);
  }
  side_of_codes_base(rows + i, m - i, marks, class_bits, want, o);
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
inline void codes_to_sides(const Entry* rows, int m, const char* marks, int class_bits,
                           std::uint32_t* lo, std::uint32_t* ro) {
#if DPDT_WIDE_LANES
  if (wide_partition_runs())
    return wide_partition::sides_of_codes(rows, m, marks, class_bits, lo, ro);
#endif
  sides_of_codes_base(rows, m, marks, class_bits, lo, ro);
}
inline void codes_to_side(const Entry* rows, int m, const char* marks, int class_bits, int want,
                          std::uint32_t* o) {
#if DPDT_WIDE_LANES
  if (wide_partition_runs())
    return wide_partition::side_of_codes(rows, m, marks, class_bits, want, o);
#endif
  side_of_codes_base(rows, m, marks, class_bits, want, o);
}

}  // namespace dpdt
