#pragma once
#include <algorithm>
#include <limits>
#include <vector>

namespace dpdt {

enum class Candidates { cart, exhaustive };
enum class Complexity { tests, splits, cost };
enum class Criterion { entropy, gini };

struct SearchOptions {
  int max_depth = 3;
  std::vector<int> cart_depth{5};  // entry d for states at depth d; last repeats
  Candidates candidates = Candidates::cart;
  Complexity complexity = Complexity::tests;
  Criterion criterion = Criterion::entropy;
  int min_bucket = 1;
  int threads = 1;
  double max_memory_bytes = 4e9;
  // Searches whose estimated work (WorkEstimate, row visits) exceeds this,
  // or whose estimated time (seconds with the threads used) exceeds
  // max_seconds, are refused before they start.
  double max_work = 1e15;
  double max_seconds = std::numeric_limits<double>::infinity();
  // States with at most this many levels left try every split (cut, level
  // group, missing-value side) whatever `candidates`: 1, the last level
  // (always exact), or 2, every depth-2 subtree below the proposals above.
  int exact_levels = 1;
  // States that try every split with two or more levels left skip the
  // splits that cannot reach their front (two_level_bounds.h); off only to
  // measure what that saves.
  bool bound_two_levels = true;
  // States of at least this many rows whose children are at the last level
  // solve them from the rows' one-byte codes where the data allow
  // (row_codes.h: two classes, exact weights, every feature with at most
  // 256 values and none missing), not from sorted blocks written out. Below
  // 1,024 rows clearing the histograms of 256 codes per feature costs more
  // than the sorted scans (raisin, 720 rows: 14% slower); tests set 0, and
  // INT_MAX to compare with the sorted scans.
  int last_level_from_rows = 1024;
  // Searches of CART proposals (exact_levels 1) on at least this many rows
  // hold every state as its rows where the last level comes from rows
  // (row_codes.h), not as sorted blocks: O(n) memory per depth instead of
  // O(n p), the same fronts and trees. Tests set 0, and INT_MAX to compare.
  int states_from_rows = 10000;
  // In those states with two levels left, how many cuts of a feature are
  // solved one by one before the depth-two solver (depth_two.h) scores the
  // rest: -1 chooses by the state's size; tests set 0 to score every time.
  int score_cuts_after = -1;
  // Only the most accurate tree: the bounded states skip every split that
  // cannot lose less than the best found so far (whatever its complexity),
  // so only each state's leaf and least loss stay exact, and the root's
  // front is those two points. Among trees of that loss, not necessarily
  // the smallest.
  bool best_only = false;

  int cart_depth_at(int depth) const {
    const int last = static_cast<int>(cart_depth.size()) - 1;
    return cart_depth[std::min(depth, last)];
  }
};

}  // namespace dpdt
