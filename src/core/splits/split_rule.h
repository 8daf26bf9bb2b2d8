// A test on one feature, as the search proposes and partitions it: numeric
// (the feature's `cut` smallest non-missing values of the state go left,
// i.e. x <= threshold) or categorical (the level codes in `levels` go left),
// and in both cases the side its missing values take.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/data/dataset.h"

namespace dpdt {

// Where a missing value goes at a node that has no learned side for it
// (its state had no missing value on the tested feature).
constexpr signed char kNaNoSide = -1;

// A categorical test's level codes going left, sorted; empty for a numeric
// test. One pointer wide, null when empty: an exhaustive state holds one
// candidate for every boundary of every feature (htru's root children about
// 100,000), and with a std::vector here each was 56 bytes, written out by
// the million, where now it is 32.
class LevelCodes {
 public:
  LevelCodes() = default;
  LevelCodes(const LevelCodes& o) : data_(o.data_ ? copy_of(o.data_) : nullptr) {}
  LevelCodes(LevelCodes&& o) noexcept : data_(o.data_) { o.data_ = nullptr; }
  LevelCodes& operator=(const LevelCodes& o) {
    if (this != &o && (data_ || o.data_)) {
      int* copy = o.data_ ? copy_of(o.data_) : nullptr;
      delete[] data_;
      data_ = copy;
    }
    return *this;
  }
  LevelCodes& operator=(LevelCodes&& o) noexcept {
    if (this != &o) {
      delete[] data_;
      data_ = o.data_;
      o.data_ = nullptr;
    }
    return *this;
  }
  ~LevelCodes() { delete[] data_; }

  bool empty() const { return data_ == nullptr; }
  std::size_t size() const { return data_ ? static_cast<std::size_t>(data_[0]) : 0; }
  int* begin() { return data_ ? data_ + 1 : nullptr; }
  int* end() { return data_ ? data_ + 1 + data_[0] : nullptr; }
  const int* begin() const { return data_ ? data_ + 1 : nullptr; }
  const int* end() const { return data_ ? data_ + 1 + data_[0] : nullptr; }
  int back() const { return data_[data_[0]]; }
  // Categorical tests only, a few codes each: one allocation per code.
  void push_back(int code) {
    const int n = static_cast<int>(size());
    int* grown = new int[n + 2];
    grown[0] = n + 1;
    std::copy(begin(), end(), grown + 1);
    grown[n + 1] = code;
    delete[] data_;
    data_ = grown;
  }
  std::vector<int> to_vector() const { return std::vector<int>(begin(), end()); }

  bool operator==(const LevelCodes& o) const {
    return std::equal(begin(), end(), o.begin(), o.end());
  }
  bool operator!=(const LevelCodes& o) const { return !(*this == o); }
  bool operator<(const LevelCodes& o) const {
    return std::lexicographical_compare(begin(), end(), o.begin(), o.end());
  }

 private:
  // data[0] codes follow data[0].
  static int* copy_of(const int* data) {
    int* copy = new int[data[0] + 1];
    std::copy(data, data + data[0] + 1, copy);
    return copy;
  }
  int* data_ = nullptr;
};

struct SplitRule {
  int feature = -1;
  int left_count = 0;  // rows of the state going left, missing ones included
  int cut = 0;         // numeric: non-missing rows going left (a prefix of the block)
  signed char na_left = kNaNoSide;
  double threshold = 0.0;
  LevelCodes levels;  // categorical: sorted codes going left; else empty

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
