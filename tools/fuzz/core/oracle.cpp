#include "oracle.h"

namespace dpdt_fuzz {

std::vector<dpdt_test::Point> brute_front(const dpdt_test::Problem& pr, int depth,
                                          int min_bucket, bool tests, double tol) {
  std::vector<int> all(pr.n);
  for (int i = 0; i < pr.n; ++i) all[i] = i;
  dpdt_test::BruteMemo memo;
  return dpdt_test::pareto(dpdt_test::all_trees(pr, all, depth, min_bucket, tests, &memo), tol);
}

}  // namespace dpdt_fuzz
