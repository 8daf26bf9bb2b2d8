// The two-class scan of coded columns (room: reads codes only): each row
// as its rank times 2 plus its class (CutPositions),
// every cut of a column scored in vector lanes, eight in 32-bit lanes (GCC
// and clang vectors, compiled for the baseline CPU and once more for AVX2)
// or, with AVX2 and at most 32,767 rows, sixteen in 16-bit lanes.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/splits/wide_lanes.h"

#if DPDT_WIDE_LANES
#include <immintrin.h>
#endif

namespace dpdt {

// The first cut of a coded column (CutPositions: each
// row as its rank times 2 plus its class) whose two leaves misclassify
// fewest rows, and that number, over the cuts with min_bucket rows on each
// side (kNoCodedCut: none). Eight cuts at a time in vector lanes: each
// lane keeps its own first least score, and of the lanes' least the first
// cut wins, as offering every cut in order would choose. Without the
// gather of each row's class, it takes a third of the time per row of
// scan_whole_scores() (0.66 against 1.92 ns with AVX2, 4,000 rows of
// distinct values). `below`: the least errors of earlier features (whose
// cuts win ties); only cuts below it are sought, and the sixteen-lane
// scan skips the blocks that cannot reach it (exhaustive depth 3, paired
// CPU: occupancy 0.90, raisin 0.94, bank 0.94, wilt 0.96).
struct CodedBest {
  int score, left;
};
constexpr int kNoCodedCut = std::numeric_limits<int>::max();
// Of two cuts' scores, the least, the first cut on a tie (a lane's least
// and its cut; kNoCodedCut: no cut).
inline CodedBest earlier_least(CodedBest best, int score, int left) {
  if (score < best.score || (score == best.score && score != kNoCodedCut && left < best.left))
    return {score, left};
  return best;
}

// A scan's result: kNoCodedCut where no cut was found (`left` 0: the
// bound it started from).
inline CodedBest found_cut(CodedBest best) {
  return best.left > 0 ? best : CodedBest{kNoCodedCut, 0};
}

// Two classes' misclassification costs in whole numbers (a loss matrix
// with a zero diagonal): of a row of class 0 predicted 1, and of a row of
// class 1 predicted 0. A side's loss is the cheaper prediction's:
// min(rows of class 0 times of0, rows of class 1 times of1). The scans
// below take them as `costed` (otherwise both are 1, and not multiplied).
struct CodedCosts {
  int of0 = 1, of1 = 1;
  int largest() const { return std::max(of0, of1); }
};

// The loss of a cut with l0, l1 rows of each class on its left of t0, t1.
[[gnu::always_inline]] inline int coded_cut_loss(int l0, int l1, int t0, int t1, bool costed,
                                                 CodedCosts k) {
  if (!costed) return std::min(l0, l1) + std::min(t0 - l0, t1 - l1);
  return std::min(l0 * k.of0, l1 * k.of1) + std::min((t0 - l0) * k.of0, (t1 - l1) * k.of1);
}

// The cuts after the first `left0` rows, one by one (`l1`: class-1 rows
// among those), after the lanes' `best`.
[[gnu::always_inline]] inline CodedBest coded_rest(const std::uint32_t* code, int left0, int last,
                                                   int first, int l1, int t0, int t1,
                                                   CodedBest best, bool costed, CodedCosts k) {
  for (int left = left0 + 1; left <= last; ++left) {
    l1 += static_cast<int>(code[left - 1] & 1u);
    if (left < first || (code[left - 1] >> 1) == (code[left] >> 1)) continue;
    const int score = coded_cut_loss(left - l1, l1, t0, t1, costed, k);
    if (score < best.score) best = {score, left};
  }
  return best;
}

// Vector lanes of GCC and clang (lowered to the CPU's own vectors; two
// SSE2 registers on the baseline x86-64, one with AVX2). Comparisons give
// lanes of all ones or zeros, so a choice between lanes is made by masks.
using IntLanes = int __attribute__((vector_size(32)));
using CodeLanes = std::uint32_t __attribute__((vector_size(32)));
#if defined(__clang__)
#define DPDT_LANES_UP(v, zero, a, b, c, d, e, f, g, h) \
  __builtin_shufflevector(zero, v, a, b, c, d, e, f, g, h)
#else
#define DPDT_LANES_UP(v, zero, a, b, c, d, e, f, g, h) \
  __builtin_shuffle(zero, v, IntLanes{a, b, c, d, e, f, g, h})
#endif

[[gnu::always_inline]] inline CodedBest first_least_coded_body(const std::uint32_t* code, int m,
                                                               int min_bucket, int t0, int t1,
                                                               int below, bool costed,
                                                               CodedCosts k) {
  const int last = m - min_bucket;  // the largest left count
  const int first = std::max(1, min_bucket);
  const IntLanes zero = {};
  const IntLanes none = zero + below;
  const IntLanes step = {1, 2, 3, 4, 5, 6, 7, 8};
  IntLanes least = none, at = zero;
  int l1 = 0, left0 = 0;  // rows of class 1 among the first left0
  for (; left0 + 8 <= last; left0 += 8) {
    CodeLanes c, n;
    std::memcpy(&c, code + left0, sizeof c);
    std::memcpy(&n, code + left0 + 1, sizeof n);
    // Rows of class 1 up to each lane: the lanes' sums shifted up by 1, 2, 4.
    IntLanes ones = (IntLanes)(c & 1u);
    ones += DPDT_LANES_UP(ones, zero, 0, 8, 9, 10, 11, 12, 13, 14);
    ones += DPDT_LANES_UP(ones, zero, 0, 1, 8, 9, 10, 11, 12, 13);
    ones += DPDT_LANES_UP(ones, zero, 0, 1, 2, 3, 8, 9, 10, 11);
    const IntLanes left = left0 + step;
    const IntLanes c1 = l1 + ones, c0 = left - c1;
    const IntLanes r1 = t1 - c1, r0 = t0 - c0;
    // Minima and choices as conditionals: each a single instruction
    // where the CPU has one (vpminsd, vpblendvb), not a compare and three
    // masks.
    IntLanes score;
    if (costed) {
      const IntLanes k0 = c0 * k.of0, k1 = c1 * k.of1, q0 = r0 * k.of0, q1 = r1 * k.of1;
      score = (k0 < k1 ? k0 : k1) + (q0 < q1 ? q0 : q1);
    } else {
      score = (c0 < c1 ? c0 : c1) + (r0 < r1 ? r0 : r1);
    }
    const IntLanes cut = (IntLanes)(((c ^ n) >> 1) != 0) & (left >= first);
    const IntLanes better = cut & (score < least);
    least = better ? score : least;
    at = better ? left : at;
    l1 += ones[7];
  }
  CodedBest best{below, 0};
  for (int j = 0; j < 8; ++j)
    if (at[j] > 0) best = earlier_least(best, least[j], at[j]);
  return found_cut(coded_rest(code, left0, last, first, l1, t0, t1, best, costed, k));
}
#undef DPDT_LANES_UP

[[gnu::noinline]] inline CodedBest first_least_coded_base(const std::uint32_t* code, int m,
                                                          int min_bucket, int t0, int t1,
                                                          int below) {
  return first_least_coded_body(code, m, min_bucket, t0, t1, below, false, {});
}
[[gnu::noinline]] inline CodedBest first_least_costed_base(const std::uint32_t* code, int m,
                                                           int min_bucket, int t0, int t1,
                                                           int below, CodedCosts k) {
  return first_least_coded_body(code, m, min_bucket, t0, t1, below, true, k);
}
#if DPDT_WIDE_LANES
[[gnu::noinline]] DPDT_TARGET_AVX2 inline CodedBest first_least_coded_wide(
    const std::uint32_t* code, int m, int min_bucket, int t0, int t1, int below) {
  return first_least_coded_body(code, m, min_bucket, t0, t1, below, false, {});
}
[[gnu::noinline]] DPDT_TARGET_AVX2 inline CodedBest first_least_costed_wide(
    const std::uint32_t* code, int m, int min_bucket, int t0, int t1, int below, CodedCosts k) {
  return first_least_coded_body(code, m, min_bucket, t0, t1, below, true, k);
}
#endif
#if DPDT_WIDE_LANES
// The most rows whose counts sixteen 16-bit lanes hold.
constexpr int kMaxShortCodedRows = 32767;

// The least of sixteen 16-bit lanes of errors (at least 0: an unsigned
// minimum).
DPDT_TARGET_AVX2 inline int least_of_lanes(__m256i least) {
  const __m128i halves = _mm_min_epu16(_mm256_castsi256_si128(least),
                                       _mm256_extracti128_si256(least, 1));
  return _mm_extract_epi16(_mm_minpos_epu16(halves), 0);
}

// Of sixteen lanes' least errors and their cuts (cut 0: none), the first
// least below `below` (cut 0 where none is).
DPDT_TARGET_AVX2 inline CodedBest first_of_lanes(__m256i least, __m256i at, int below) {
  alignas(32) short lane_least[16], lane_at[16];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lane_least), least);
  _mm256_store_si256(reinterpret_cast<__m256i*>(lane_at), at);
  CodedBest best{below, 0};
  for (int j = 0; j < 16; ++j)
    if (lane_at[j] > 0) best = earlier_least(best, lane_least[j], lane_at[j]);
  return best;
}

// first_least_coded_body() sixteen cuts at a time, in 16-bit lanes (AVX2;
// at most kMaxShortCodedRows rows): the same sums and choices in lanes
// half as wide, so each instruction scores twice as many cuts. A block of
// sixteen whose first cut's errors exceed the least so far by sixteen or
// more holds no cut below it (a row moved changes the errors by at most
// 1; with costs, by at most the larger cost): only its rows of class 1
// are counted.
[[gnu::always_inline]] DPDT_TARGET_AVX2 inline CodedBest first_least_coded_short_body(
    const std::uint32_t* code, int m, int min_bucket, int t0, int t1, int below, bool costed,
    CodedCosts k) {
  const int last = m - min_bucket;
  const int first = std::max(1, min_bucket);
  const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
  const __m256i step = _mm256_setr_epi16(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
  const __m256i before_first = _mm256_set1_epi16(static_cast<short>(first - 1));
  const __m256i total0 = _mm256_set1_epi16(static_cast<short>(t0));
  const __m256i total1 = _mm256_set1_epi16(static_cast<short>(t1));
  // Each 128-bit half's last 16-bit lane, in every lane of that half.
  const __m256i last_lane = _mm256_setr_epi8(14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15,
                                             14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14,
                                             15, 14, 15, 14, 15);
  // The least errors so far: below, or a lane's least.
  int least_any = std::min(below, static_cast<int>(std::numeric_limits<short>::max()));
  __m256i least = _mm256_set1_epi16(static_cast<short>(least_any)), at = zero;
  int l1 = 0, left0 = 0;
  for (; left0 + 16 <= last; left0 += 16) {
    // (Lambdas do not take the function's target: written out.)
    const __m256i* at_row = reinterpret_cast<const __m256i*>(code + left0);
    const __m256i* at_next = reinterpret_cast<const __m256i*>(code + left0 + 1);
    const __m256i a = _mm256_loadu_si256(at_row), b = _mm256_loadu_si256(at_row + 1);
    if (coded_cut_loss(left0 - l1, l1, t0, t1, costed, k) - 16 * k.largest() >= least_any) {
      // The class bits moved to the sign bits: one bit count a half.
      l1 += __builtin_popcount(static_cast<unsigned>(
                _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(a, 31))))) +
            __builtin_popcount(static_cast<unsigned>(
                _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(b, 31)))));
      continue;
    }
    const __m256i a_next = _mm256_loadu_si256(at_next), b_next = _mm256_loadu_si256(at_next + 1);
    // Packing works within 128-bit halves: 0xD8 puts the 16 lanes in order.
    __m256i ones = _mm256_permute4x64_epi64(
        _mm256_packus_epi32(_mm256_and_si256(a, one), _mm256_and_si256(b, one)), 0xD8);
    // A row of the same rank as the next: their codes differ in the class bit at most.
    const __m256i same_a = _mm256_cmpeq_epi32(_mm256_srli_epi32(_mm256_xor_si256(a, a_next), 1), zero);
    const __m256i same_b = _mm256_cmpeq_epi32(_mm256_srli_epi32(_mm256_xor_si256(b, b_next), 1), zero);
    const __m256i same = _mm256_permute4x64_epi64(_mm256_packs_epi32(same_a, same_b), 0xD8);
    // Rows of class 1 up to each lane: sums within each half, then the
    // first half's total added to the second half.
    ones = _mm256_add_epi16(ones, _mm256_slli_si256(ones, 2));
    ones = _mm256_add_epi16(ones, _mm256_slli_si256(ones, 4));
    ones = _mm256_add_epi16(ones, _mm256_slli_si256(ones, 8));
    ones = _mm256_add_epi16(
        ones, _mm256_shuffle_epi8(_mm256_permute2x128_si256(ones, ones, 0x08), last_lane));
    const __m256i left = _mm256_add_epi16(_mm256_set1_epi16(static_cast<short>(left0)), step);
    const __m256i c1 = _mm256_add_epi16(_mm256_set1_epi16(static_cast<short>(l1)), ones);
    const __m256i c0 = _mm256_sub_epi16(left, c1);
    const __m256i r1 = _mm256_sub_epi16(total1, c1), r0 = _mm256_sub_epi16(total0, c0);
    __m256i score;
    if (costed) {
      const __m256i k0 = _mm256_set1_epi16(static_cast<short>(k.of0));
      const __m256i k1 = _mm256_set1_epi16(static_cast<short>(k.of1));
      score = _mm256_add_epi16(
          _mm256_min_epi16(_mm256_mullo_epi16(c0, k0), _mm256_mullo_epi16(c1, k1)),
          _mm256_min_epi16(_mm256_mullo_epi16(r0, k0), _mm256_mullo_epi16(r1, k1)));
    } else {
      score = _mm256_add_epi16(_mm256_min_epi16(c0, c1), _mm256_min_epi16(r0, r1));
    }
    const __m256i cut = _mm256_andnot_si256(same, _mm256_cmpgt_epi16(left, before_first));
    const __m256i better = _mm256_and_si256(cut, _mm256_cmpgt_epi16(least, score));
    least = _mm256_blendv_epi8(least, score, better);
    at = _mm256_blendv_epi8(at, left, better);
    l1 += _mm256_extract_epi16(ones, 15);
    least_any = least_of_lanes(least);
  }
  const CodedBest best = first_of_lanes(least, at, below);
  return found_cut(coded_rest(code, left0, last, first, l1, t0, t1, best, costed, k));
}
[[gnu::noinline]] DPDT_TARGET_AVX2 inline CodedBest first_least_coded_short(
    const std::uint32_t* code, int m, int min_bucket, int t0, int t1, int below) {
  return first_least_coded_short_body(code, m, min_bucket, t0, t1, below, false, {});
}
// The sixteen lanes with costs: every product of rows and a cost, and so
// every loss, at most m times the larger cost (kMaxShortCodedRows at most).
[[gnu::noinline]] DPDT_TARGET_AVX2 inline CodedBest first_least_costed_short(
    const std::uint32_t* code, int m, int min_bucket, int t0, int t1, int below, CodedCosts k) {
  return first_least_coded_short_body(code, m, min_bucket, t0, t1, below, true, k);
}
#endif

// The first cut of a coded column of two classes (t0, t1: each class's
// rows) that misclassifies fewer rows than `below` (the least errors of
// earlier features, whose cuts win ties) and than every earlier cut.
inline CodedBest first_least_coded(const std::uint32_t* code, int m, int min_bucket, int t0, int t1,
                                   int below = kNoCodedCut) {
#if DPDT_WIDE_LANES
  if (cpu_has_avx2())
    return m <= kMaxShortCodedRows ? first_least_coded_short(code, m, min_bucket, t0, t1, below)
                                   : first_least_coded_wide(code, m, min_bucket, t0, t1, below);
#endif
  return first_least_coded_base(code, m, min_bucket, t0, t1, below);
}

// first_least_coded() with misclassification costs: the first cut of least
// loss below `below`. Every loss (at most m times the larger cost) must fit
// an int (LastLevel::plain_classes()).
inline CodedBest first_least_costed(const std::uint32_t* code, int m, int min_bucket, int t0,
                                    int t1, CodedCosts k, int below = kNoCodedCut) {
#if DPDT_WIDE_LANES
  if (cpu_has_avx2())
    return static_cast<long long>(m) * k.largest() <= kMaxShortCodedRows
               ? first_least_costed_short(code, m, min_bucket, t0, t1, below, k)
               : first_least_costed_wide(code, m, min_bucket, t0, t1, below, k);
#endif
  return first_least_costed_base(code, m, min_bucket, t0, t1, below, k);
}


}  // namespace dpdt
