// The brute-force oracle as the core fuzzer calls it. It is compiled in its
// own translation unit (oracle.cpp) without sanitizers or coverage: it is
// the reference, not the code under test, and instrumenting it made each
// execution 20 times slower and steered libFuzzer by the oracle's branches.
#pragma once
#include <vector>

#include "brute_force.h"

namespace dpdt_fuzz {

// The Pareto front (complexity, loss) of all trees of depth <= depth on all
// rows of pr, complexities and losses within tol merged.
std::vector<dpdt_test::Point> brute_front(const dpdt_test::Problem& pr, int depth,
                                          int min_bucket, bool tests, double tol);

}  // namespace dpdt_fuzz
