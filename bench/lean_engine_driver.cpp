// A plain C++ driver of the search for profiling (no R): reads a Quant-BnB
// training CSV (uncompressed: x1..xp then y, classes 0..K-1), fits depth 3
// with cart_depth 5 on one thread (or as given) and prints the front.
// cart_depth 0 means candidates = "exhaustive"; "nobound" turns the
// similarity bound of states with two levels left off; "bestonly" keeps
// only the most accurate tree (SearchOptions::best_only). max_bins (0: none)
// bins the features (binning.h); "sorted" solves the last level from sorted
// blocks even where row codes could serve (last_level_from_rows off).
// DPDT_DRIVER_COSTS=1 adds a loss matrix of whole costs (1 to 3).
//   g++ -std=c++17 -O2 -g -Isrc bench/lean_engine_driver.cpp -o /tmp/driver -pthread
//   valgrind --tool=callgrind /tmp/driver bank_train.csv [max_depth] [cart_depth] [reps] [nobound|bound|bestonly] [exact_levels] [tests|splits] [score_cuts_after] [min_bucket] [max_bins] [rows|sorted]
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/data/binning.h"
#include "core/data/twin_features.h"
#include "core/fronts/tree.h"
#include "core/search/search.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: driver file.csv [max_depth] [cart_depth] [reps] [nobound|bound|bestonly] [exact_levels] [tests|splits] [score_cuts_after] [min_bucket] [max_bins] [rows|sorted]\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string line;
  std::getline(in, line);  // header
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> r;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) r.push_back(std::stod(cell));
    rows.push_back(r);
  }
  const int n = static_cast<int>(rows.size()), p = static_cast<int>(rows[0].size()) - 1;
  std::vector<double> x(static_cast<std::size_t>(n) * p), y(n), w(n, 1.0);
  int k = 0;
  for (int i = 0; i < n; ++i) {
    for (int f = 0; f < p; ++f) x[static_cast<std::size_t>(f) * n + i] = rows[i][f];
    y[i] = rows[i][p];
    k = std::max(k, static_cast<int>(y[i]) + 1);
  }
  dpdt::SearchOptions opt;
  opt.max_depth = argc > 2 ? std::atoi(argv[2]) : 3;
  opt.cart_depth = {argc > 3 ? std::atoi(argv[3]) : 5};
  if (opt.cart_depth[0] == 0) {  // R's default CART depths stay (Search::incumbent_front())
    opt.candidates = dpdt::Candidates::exhaustive;
    opt.cart_depth = opt.max_depth <= 3 ? std::vector<int>{5} : opt.max_depth == 4 ? std::vector<int>{4, 3, 2} : std::vector<int>{2};
  }
  const int reps = argc > 4 ? std::atoi(argv[4]) : 1;
  opt.bound_two_levels = !(argc > 5 && std::string(argv[5]) == "nobound");
  opt.best_only = argc > 5 && std::string(argv[5]) == "bestonly";
  opt.exact_levels = argc > 6 ? std::atoi(argv[6]) : 1;
  if (argc > 7 && std::string(argv[7]) == "splits") opt.complexity = dpdt::Complexity::splits;
  if (argc > 8) opt.score_cuts_after = std::atoi(argv[8]);  // -1: the search's own rule
  if (argc > 9) opt.min_bucket = std::atoi(argv[9]);
  const int max_bins = argc > 10 ? std::atoi(argv[10]) : 0;
  if (argc > 11 && std::string(argv[11]) == "sorted")
    opt.last_level_from_rows = std::numeric_limits<int>::max();
  opt.max_work = std::numeric_limits<double>::infinity();  // measure, never refuse
  for (int r = 0; r < reps; ++r) {
    dpdt::Dataset d = dpdt::make_dataset(x.data(), n, p, y.data(), w.data(), k);
    // DPDT_DRIVER_COSTS=1: a loss matrix, misclassifying class a costing
    // 1 + (a mod 3) (bench/min_bucket_bounds.R's "loss_matrix").
    if (std::getenv("DPDT_DRIVER_COSTS")) {
      d.loss_matrix.assign(static_cast<std::size_t>(k) * k, 0.0);
      for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b)
          if (a != b) d.loss_matrix[static_cast<std::size_t>(a) * k + b] = 1 + a % 3;
    }
    dpdt::bin_numeric_features(d, max_bins);
    const std::vector<int> kept = dpdt::drop_twin_features(d);  // as the R glue does
    dpdt::Search search(d, opt);
    dpdt::Runtime runtime;
    search.run(runtime);
    if (r + 1 == reps) {
      std::printf("states %zu front", search.states());
      for (const auto& pt : search.front()) std::printf(" (%.17g, %.17g)", pt.loss, pt.complexity);
      std::printf("\n");
      // DPDT_DRIVER_TREES=1: every front tree's tests too, so that a change
      // can be checked to leave the trees, not only the front, identical.
      if (std::getenv("DPDT_DRIVER_TREES"))
        for (std::size_t i = 0; i < search.front().size(); ++i) {
          const dpdt::FlatTree t = dpdt::extract_tree(search.root(), static_cast<int>(i));
          std::printf("tree %zu:", i);
          for (int v = 0; v < t.size(); ++v)
            std::printf(" %d/%.17g", t.feature[v] < 0 ? -1 : kept[t.feature[v]], t.threshold[v]);
          std::printf("\n");
        }
    }
  }
  return 0;
}
