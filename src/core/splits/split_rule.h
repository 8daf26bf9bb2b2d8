// A test on one feature, as the search proposes and partitions it: numeric
// (the feature's `cut` smallest non-missing values of the state go left,
// i.e. x <= threshold) or categorical (the level codes in `levels` go left),
// and in both cases the side its missing values take.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/data/dataset.h"

namespace dpdt {

// Where a missing value goes at a node that has no learned side for it
// (its state had no missing value on the tested feature).
constexpr signed char kNaNoSide = -1;

struct SplitRule {
  int feature = -1;
  int left_count = 0;  // rows of the state going left, missing ones included
  int cut = 0;         // numeric: non-missing rows going left (a prefix of the block)
  double threshold = 0.0;
  std::vector<int> levels;  // categorical: sorted codes going left; else empty
  signed char na_left = kNaNoSide;

  bool same_test(const SplitRule& o) const {
    return feature == o.feature && cut == o.cut && levels == o.levels && na_left == o.na_left;
  }
  bool operator<(const SplitRule& o) const {
    if (feature != o.feature) return feature < o.feature;
    if (cut != o.cut) return cut < o.cut;
    if (levels != o.levels) return levels < o.levels;
    return na_left < o.na_left;
  }
};

// Does the i-th row (entry e) of the rule's feature block go left?
inline bool goes_left(const Dataset& d, const SplitRule& r, int i, const Entry& e) {
  if (e.rank == kMissingRank) return r.na_left == 1;
  if (r.levels.empty()) return i < r.cut;
  const int code = static_cast<int>(d.value(r.feature, e.row));
  return std::binary_search(r.levels.begin(), r.levels.end(), code);
}

// visit(i, left) for each of the rule's feature block's m rows, in order,
// with goes_left(). A group of levels sends all rows of a value one way, so
// it is looked up once per run of equal ranks (looking up every row's
// level, a gather and a binary search, was a seventh of a default fit with
// two factors).
template <class Visit>
void for_each_side(const Dataset& d, const SplitRule& r, const Entry* rows, int m, Visit&& visit) {
  const bool by_value = !r.levels.empty();
  bool left = false;
  for (int i = 0; i < m; ++i) {
    if (!by_value || i == 0 || rows[i].rank != rows[i - 1].rank) left = goes_left(d, r, i, rows[i]);
    visit(i, left);
  }
}

}  // namespace dpdt
