// Wider vector instructions for the lane scans, chosen at run time: R
// builds the package for the baseline CPU (SSE2 on x86-64), so a hot scan
// that gains from AVX2 is compiled once more for it (DPDT_TARGET_AVX2) and
// run where the CPU reports it. The two give the same whole numbers.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DPDT_WIDE_LANES 1
#define DPDT_TARGET_AVX2 __attribute__((target("avx2")))
#else
#define DPDT_WIDE_LANES 0
#define DPDT_TARGET_AVX2
#endif

namespace dpdt {

// Whether this CPU runs AVX2 (asked once).
inline bool cpu_has_avx2() {
#if DPDT_WIDE_LANES
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
#else
  return false;
#endif
}

}  // namespace dpdt
