// The many-class scan of coded columns (room: reads codes only): each row
// as its rank times 8 plus its class (3 to 8 classes, unit weights;
// CutPositions with kManyClassBits), the first of a
// column's cuts whose two leaves misclassify fewest rows. With AVX2 and at
// most 32,767 rows, sixteen cuts are scored at once in 16-bit lanes; else
// row by row with the classes' counts in lanes, as the scan of entries
// counts them (split_scan.h's ManyClassMisclassification), without the
// gather of each row's class.
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>

#include "core/splits/coded_scan.h"
#include "core/splits/wide_lanes.h"

#if DPDT_WIDE_LANES
#include <immintrin.h>
#endif

namespace dpdt {

// A row's class takes the low kManyClassBits bits of its code: at most
// kMaxCodedClasses classes.
inline constexpr int kManyClassBits = 3;
inline constexpr int kMaxCodedClasses = 1 << kManyClassBits;
inline constexpr std::uint32_t kManyClassMask = kMaxCodedClasses - 1;

// Rows misclassified by the two leaves of a cut: the rows of each side
// less its largest class (`top`, `right_top`); m rows in all.
inline int two_leaf_errors(int m, int top, int right_top) { return m - top - right_top; }

// Rows misclassified by the two leaves of the cut after the rows counted
// in `counts` (k classes; `totals`: the column's).
inline int errors_after(int m, int k, const int* counts, const int* totals) {
  int top = 0, right_top = 0;
  for (int c = 0; c < k; ++c) {
    top = std::max(top, counts[c]);
    right_top = std::max(right_top, totals[c] - counts[c]);
  }
  return two_leaf_errors(m, top, right_top);
}

// The cuts after the first `left0` rows, one by one, with `counts` (the
// classes' counts among those rows; updated) and the classes' `totals`:
// the first cut scoring below `best` and below every earlier cut. A cut
// whose score exceeds the least so far by s is followed by s that cannot
// score less (a row moved changes the errors by at most 1): they are
// skipped.
inline CodedBest coded_classes_rest(const std::uint32_t* code, int m, int left0, int last,
                                    int first, int k, int* counts, const int* totals,
                                    CodedBest best) {
  int next = left0 + 1;
  for (int left = left0 + 1; left <= last; ++left) {
    ++counts[code[left - 1] & kManyClassMask];
    if (left < next || left < first ||
        (code[left - 1] >> kManyClassBits) == (code[left] >> kManyClassBits))
      continue;
    const int score = errors_after(m, k, counts, totals);
    if (score < best.score) best = {score, left};
    else next = left + (score - best.score) + 1;
  }
  return best;
}

// The first cut of a coded column of k classes (totals: each class's rows;
// min_bucket rows on each side) that misclassifies fewer rows than `below`
// and than every earlier cut, row by row: each row's class added to eight
// lanes of counts as its row of ones (one load and one add), the largest
// counts taken at the cuts scored only. kNoCodedCut: none. (`below`: the
// least errors of earlier features, whose cuts win ties.)
[[gnu::always_inline]] inline CodedBest first_least_coded_classes_body(const std::uint32_t* code,
                                                                       int m, int min_bucket,
                                                                       int k, const int* totals,
                                                                       int below) {
  const int last = m - min_bucket;
  const int first = std::max(1, min_bucket);
  alignas(32) int one_hot[kMaxCodedClasses][kMaxCodedClasses] = {};
  for (int c = 0; c < kMaxCodedClasses; ++c) one_hot[c][c] = 1;
  int total[kMaxCodedClasses] = {};
  for (int c = 0; c < k; ++c) total[c] = totals[c];
  int counts[kMaxCodedClasses] = {};
  CodedBest best{below, 0};
  int next = 1;
  for (int left = 1; left <= last; ++left) {
    const int* ones = one_hot[code[left - 1] & kManyClassMask];
    for (int c = 0; c < kMaxCodedClasses; ++c) counts[c] += ones[c];
    if (left < next || left < first ||
        (code[left - 1] >> kManyClassBits) == (code[left] >> kManyClassBits))
      continue;
    const int score = errors_after(m, kMaxCodedClasses, counts, total);
    if (score < best.score) best = {score, left};
    else next = left + (score - best.score) + 1;
  }
  return found_cut(best);
}

[[gnu::noinline]] inline CodedBest first_least_coded_classes_base(const std::uint32_t* code, int m,
                                                                  int min_bucket, int k,
                                                                  const int* totals, int below) {
  return first_least_coded_classes_body(code, m, min_bucket, k, totals, below);
}

#if DPDT_WIDE_LANES
[[gnu::noinline]] DPDT_TARGET_AVX2 inline CodedBest first_least_coded_classes_wide(
    const std::uint32_t* code, int m, int min_bucket, int k, const int* totals, int below) {
  return first_least_coded_classes_body(code, m, min_bucket, k, totals, below);
}

// Each of K classes' rows among code[from, to) added to `counts` (AVX2;
// to - from a multiple of sixteen): sixteen rows at a time, each class's
// 16-bit lanes counting its rows (their order does not matter), the last
// class by difference.
template <int K>
DPDT_TARGET_AVX2 inline void count_coded_classes(const std::uint32_t* code, int from, int to,
                                                 int* counts) {
  const __m256i class_mask = _mm256_set1_epi32(static_cast<int>(kManyClassMask));
  __m256i minus[K - 1];  // minus the rows of each class, lane by lane
  for (int c = 0; c < K - 1; ++c) minus[c] = _mm256_setzero_si256();
  for (int row = from; row < to; row += 16) {
    const __m256i* at_row = reinterpret_cast<const __m256i*>(code + row);
    const __m256i a = _mm256_and_si256(_mm256_loadu_si256(at_row), class_mask);
    const __m256i b = _mm256_and_si256(_mm256_loadu_si256(at_row + 1), class_mask);
    const __m256i cls = _mm256_packus_epi32(a, b);
#pragma GCC unroll 8
    for (int c = 0; c < K - 1; ++c) {
      const __m256i is_c = _mm256_cmpeq_epi16(cls, _mm256_set1_epi16(static_cast<short>(c)));
      minus[c] = _mm256_add_epi16(minus[c], is_c);
    }
  }
  int counted = 0;
  for (int c = 0; c < K - 1; ++c) {
    // Pairs of lanes summed into eight 32-bit lanes, then those summed.
    const __m256i pairs = _mm256_madd_epi16(minus[c], _mm256_set1_epi16(-1));
    __m128i sum =
        _mm_add_epi32(_mm256_castsi256_si128(pairs), _mm256_extracti128_si256(pairs, 1));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0x4E));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0xB1));
    const int rows_of_c = _mm_cvtsi128_si32(sum);
    counts[c] += rows_of_c;
    counted += rows_of_c;
  }
  counts[K - 1] += (to - from) - counted;
}

// first_least_coded_classes_body() sixteen cuts at a time in 16-bit lanes
// (AVX2, K classes, at most kMaxShortCodedRows rows). Where the cut before
// a block misclassifies s more rows than the least so far, and s is
// sixteen or more, none of the next s cuts misclassifies fewer (a row
// moved changes the errors by at most 1): the rows of as many whole blocks
// are only counted (count_coded_classes()), and the scan goes on after
// them (counting the few rows past the last whole block one by one, each
// count's store waiting for the last, made page's exhaustive depth 3 take
// 1.07 times as long instead of 0.92). In the
// others each class's count up to every lane is a sum of the lanes'
// indicators (within each 128-bit half, then the first half's total added
// to the second) plus the count before them, and a cut's errors its rows
// less both sides' largest counts; each lane keeps its first least score,
// and of the lanes' least the first cut wins. Exhaustive depth 3, the
// whole search's CPU against the scan of entries (paired, median of 5):
// page 0.81, room 0.83, segment 0.84; without the skipped blocks 0.94,
// 0.98 and 0.99.
template <int K>
[[gnu::noinline]] DPDT_TARGET_AVX2 CodedBest first_least_coded_classes_short(
    const std::uint32_t* code, int m, int min_bucket, const int* totals, int below) {
  const int last = m - min_bucket;
  const int first = std::max(1, min_bucket);
  const __m256i zero = _mm256_setzero_si256();
  const __m256i class_mask = _mm256_set1_epi32(static_cast<int>(kManyClassMask));
  const __m256i step = _mm256_setr_epi16(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
  const __m256i before_first = _mm256_set1_epi16(static_cast<short>(first - 1));
  const __m256i rows = _mm256_set1_epi16(static_cast<short>(m));
  // Each 128-bit half's last 16-bit lane, in every lane of that half.
  const __m256i last_lane = _mm256_setr_epi8(14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15,
                                             14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14,
                                             15, 14, 15, 14, 15);
  __m256i total[K];
  for (int c = 0; c < K; ++c) total[c] = _mm256_set1_epi16(static_cast<short>(totals[c]));
  int counts[kMaxCodedClasses] = {};  // each class's rows before the block
  // The least errors so far: below, or a lane's least.
  int least_any = std::min(below, static_cast<int>(std::numeric_limits<short>::max()));
  __m256i least = _mm256_set1_epi16(static_cast<short>(least_any)), at = zero;
  int left0 = 0;
  while (left0 + 16 <= last) {
    const int ahead = errors_after(m, K, counts, totals) - least_any;
    if (ahead >= 16) {
      const int to = left0 + (std::min(ahead, last - left0) & ~15);
      count_coded_classes<K>(code, left0, to, counts);
      left0 = to;
      continue;
    }
    // (Lambdas do not take the function's target: written out.)
    const __m256i* at_row = reinterpret_cast<const __m256i*>(code + left0);
    const __m256i a = _mm256_loadu_si256(at_row), b = _mm256_loadu_si256(at_row + 1);
    // Packing works within 128-bit halves: 0xD8 puts the 16 lanes in order.
    const __m256i cls = _mm256_permute4x64_epi64(
        _mm256_packus_epi32(_mm256_and_si256(a, class_mask), _mm256_and_si256(b, class_mask)), 0xD8);
    const __m256i* at_next = reinterpret_cast<const __m256i*>(code + left0 + 1);
    const __m256i a_next = _mm256_loadu_si256(at_next), b_next = _mm256_loadu_si256(at_next + 1);
    // A row of the same rank as the next: their codes differ in the class bits at most.
    const __m256i same_a = _mm256_cmpeq_epi32(
        _mm256_srli_epi32(_mm256_xor_si256(a, a_next), kManyClassBits), zero);
    const __m256i same_b = _mm256_cmpeq_epi32(
        _mm256_srli_epi32(_mm256_xor_si256(b, b_next), kManyClassBits), zero);
    const __m256i same = _mm256_permute4x64_epi64(_mm256_packs_epi32(same_a, same_b), 0xD8);
    __m256i top = zero, right_top = zero;
#pragma GCC unroll 8
    for (int c = 0; c < K; ++c) {
      // Minus the rows of class c up to each lane (a comparison gives -1).
      const __m256i is_c = _mm256_cmpeq_epi16(cls, _mm256_set1_epi16(static_cast<short>(c)));
      __m256i minus = _mm256_add_epi16(is_c, _mm256_slli_si256(is_c, 2));
      minus = _mm256_add_epi16(minus, _mm256_slli_si256(minus, 4));
      minus = _mm256_add_epi16(minus, _mm256_slli_si256(minus, 8));
      minus = _mm256_add_epi16(
          minus, _mm256_shuffle_epi8(_mm256_permute2x128_si256(minus, minus, 0x08), last_lane));
      const __m256i count = _mm256_sub_epi16(_mm256_set1_epi16(static_cast<short>(counts[c])), minus);
      top = _mm256_max_epi16(top, count);
      right_top = _mm256_max_epi16(right_top, _mm256_sub_epi16(total[c], count));
      counts[c] += __builtin_popcount(static_cast<unsigned>(_mm256_movemask_epi8(is_c))) >> 1;
    }
    const __m256i score = _mm256_sub_epi16(rows, _mm256_add_epi16(top, right_top));
    const __m256i left = _mm256_add_epi16(_mm256_set1_epi16(static_cast<short>(left0)), step);
    const __m256i cut = _mm256_andnot_si256(same, _mm256_cmpgt_epi16(left, before_first));
    const __m256i better = _mm256_and_si256(cut, _mm256_cmpgt_epi16(least, score));
    least = _mm256_blendv_epi8(least, score, better);
    at = _mm256_blendv_epi8(at, left, better);
    least_any = least_of_lanes(least);
    left0 += 16;
  }
  const CodedBest best = first_of_lanes(least, at, below);
  return found_cut(coded_classes_rest(code, m, left0, last, first, K, counts, totals, best));
}
#endif

// The first least cut of a coded column of k classes (3 to
// kMaxCodedClasses; totals: each class's rows): sixteen cuts at a time
// where the CPU has AVX2 and the column at most kMaxShortCodedRows rows,
// else row by row.
inline CodedBest first_least_coded_classes(const std::uint32_t* code, int m, int min_bucket, int k,
                                           const int* totals, int below = kNoCodedCut) {
#if DPDT_WIDE_LANES
  if (cpu_has_avx2()) {
    if (m <= kMaxShortCodedRows) {
      switch (k) {
        case 3: return first_least_coded_classes_short<3>(code, m, min_bucket, totals, below);
        case 4: return first_least_coded_classes_short<4>(code, m, min_bucket, totals, below);
        case 5: return first_least_coded_classes_short<5>(code, m, min_bucket, totals, below);
        case 6: return first_least_coded_classes_short<6>(code, m, min_bucket, totals, below);
        case 7: return first_least_coded_classes_short<7>(code, m, min_bucket, totals, below);
        default: return first_least_coded_classes_short<8>(code, m, min_bucket, totals, below);
      }
    }
    return first_least_coded_classes_wide(code, m, min_bucket, k, totals, below);
  }
#endif
  return first_least_coded_classes_base(code, m, min_bucket, k, totals, below);
}

}  // namespace dpdt
