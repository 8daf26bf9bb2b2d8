// The small random problems of the core tests, shared by the search's tests
// (core_tests.cpp), the pruning tests (prune_tests.cpp) and, through
// brute_force.h, the core fuzzer: n rows of p features with values on a small
// grid (so thresholds tie), a class or a response per row, and weights.
#pragma once
#include <cmath>
#include <random>
#include <vector>

namespace dpdt_test {

struct Problem {
  int n, p, k;  // k = 0: regression
  std::vector<double> x, y, w;  // x column-major; NaN = missing
  bool cat0 = false;            // feature 0 categorical (level codes 1..L)
  // Misclassification costs, k x k row-major (row the true class, column
  // the prediction); empty: 0/1 loss.
  std::vector<double> loss_matrix;
};

struct Shape {
  int n, p, k;
  int weighted = 0;               // 0 unit weights, 1 whole (1..3), 2 fractional
  int top_value = 4;              // numeric values 0..top_value
  bool categorical_last = false;  // last feature: level codes 1..4
  bool missing = false;           // about one value in ten missing
  int response_steps = 4;         // regression: y in 0, 0.5, .., steps / 2
  double response_shift = 0;      // added to a regression response
};

inline Problem random_problem(std::mt19937& g, const Shape& s) {
  Problem pr{s.n, s.p, s.k, {}, {}, {}, false, {}};
  auto draw = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  for (int f = 0; f < s.p; ++f)
    for (int i = 0; i < s.n; ++i) {
      double v = s.categorical_last && f == s.p - 1 ? 1 + draw(0, 3) : draw(0, s.top_value);
      if (s.missing && draw(0, 9) == 0) v = NAN;
      pr.x.push_back(v);
    }
  for (int i = 0; i < s.n; ++i) {
    pr.y.push_back(s.k > 0 ? draw(0, s.k - 1) : draw(0, s.response_steps) * 0.5 + s.response_shift);
    const int whole = draw(1, 3);
    pr.w.push_back(s.weighted == 0 ? 1.0 : s.weighted == 1 ? whole : whole * 0.1 + 0.03);
  }
  return pr;
}

// 1..14 rows of 1..3 features on the grid 0..4.
inline Problem random_problem(std::mt19937& g, int k, int weighted) {
  const int n = std::uniform_int_distribution<int>(1, 14)(g);
  const int p = std::uniform_int_distribution<int>(1, 3)(g);
  Shape s{n, p, k};
  s.weighted = weighted;
  return random_problem(g, s);
}

}  // namespace dpdt_test
