// The check macro of the core tests (core_tests.cpp, prune_tests.cpp): a
// failed condition prints where and why, and is counted; main() reports.
#pragma once
#include <cstdio>

namespace dpdt_test {
inline int failures = 0, checks = 0;
}  // namespace dpdt_test

#define CHECK(cond, ...)                                         \
  do {                                                           \
    ++dpdt_test::checks;                                         \
    if (!(cond)) {                                               \
      ++dpdt_test::failures;                                     \
      std::printf("FAIL %s:%d: ", __FILE__, __LINE__);           \
      std::printf(__VA_ARGS__);                                  \
      std::printf("\n");                                         \
    }                                                            \
  } while (0)
