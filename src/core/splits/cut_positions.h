// A state's children at the last level written by position (room: holds;
// calls nothing of the search): the state's columns as codes (rank shifted
// up by the class bits, plus the class) and, for the feature of its cuts,
// every row's position in that feature's order, laid out in each feature's
// order. A prefix cut of left_count rows sends a row left when its position
// is below left_count, so each child's column is the state's column packed
// by one comparison per row, eight rows at a time, with no row looked up:
// marking the rows' sides and reading each row's mark as its columns were
// written (the writers before this one) cost about 2.5 cycles a row of
// each feature, a third to a half of exhaustive depth 3 and of
// exact_levels = 2 (bench/results/profile_depth3.md). The codes and
// positions are made once per state and feature, O(p m) each. Each child's
// columns hold its rows in the state's order of each feature: a stable
// partition (the core tests compare them with one).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/data/dataset.h"
#include "core/splits/partition_wide.h"
#include "core/splits/wide_lanes.h"

namespace dpdt {

class CutPositions {
 public:
  // At most this many bytes of positions are kept (a feature's take p m
  // ints), but always one feature's: beyond, the least recently used
  // feature's are made again.
  static constexpr std::size_t kPositionBytes = std::size_t{64} << 20;

  // The most bytes it holds for states of at most n rows of p features
  // (Guards::check_buffer_memory()): the codes, and the positions and
  // counts of class 1 of one feature, or of more within position_bytes.
  static double most_bytes(int n, int p, std::size_t position_bytes = kPositionBytes) {
    const double codes = 4.0 * n * p, slot = 4.0 * n * p + 4.0 * (n + 1);
    return codes + std::max(slot, std::min(slot * p, static_cast<double>(position_bytes)));
  }
  // `wide`: the AVX2 loops (where the CPU runs them; the core tests also
  // run the scalar ones).
  explicit CutPositions(std::size_t position_bytes = kPositionBytes, bool wide = cpu_has_avx2())
      : position_bytes_(position_bytes), wide_(wide) {}

  // The state of m rows in `block` (its rows sorted by each feature), known
  // by its block, size and `generation` (Workspace::buffer_generation(): it
  // changes whenever the buffer holding the block is rewritten): its codes,
  // made unless they are this state's already.
  void prepare(const Dataset& d, const Entry* block, int m, std::uint64_t generation,
               int class_bits) {
    if (block == block_ && m == m_ && generation == generation_ && class_bits == class_bits_) return;
    block_ = block;
    m_ = m;
    generation_ = generation;
    class_bits_ = class_bits;
    p_ = d.p;
    const std::size_t size = static_cast<std::size_t>(m) * p_;
    codes_.resize(size);
    const std::uint8_t* label = d.label_byte.data();
    for (int f = 0; f < p_; ++f) {
      const Entry* rows = block + static_cast<std::size_t>(f) * m;
      std::uint32_t* code = codes_.data() + static_cast<std::size_t>(f) * m;
      for (int i = 0; i < m; ++i)
        code[i] = static_cast<std::uint32_t>(rows[i].rank) << class_bits | label[rows[i].row];
    }
    slot_of_.assign(static_cast<std::size_t>(p_), -1);
    feature_of_.clear();
    used_.clear();
    const std::size_t per_feature = std::max<std::size_t>(1, (size + m + 1) * sizeof(std::int32_t));
    slots_ = std::max<std::size_t>(1, std::min<std::size_t>(p_, position_bytes_ / per_feature));
    if (positions_.size() < slots_) positions_.resize(slots_);
  }

  // With two classes: the rows of class 1 among the first `count` rows of
  // feature f's order (the left side of its cut of `count` rows).
  int ones_before(int f, int count) {
    return positions(f)[static_cast<std::size_t>(m_) * p_ + count];
  }

  // Both children's columns of a prefix cut of feature f (left_count rows
  // go left), each column in the state's order: every output needs
  // kCodedSlack codes of slack past its p columns.
  void write_sides(int f, int left_count, std::uint32_t* left_out, std::uint32_t* right_out) {
    const std::int32_t* pos = positions(f);
    const std::size_t right_count = static_cast<std::size_t>(m_ - left_count);
    for (int g = 0; g < p_; ++g) {
      const std::size_t at = static_cast<std::size_t>(g) * m_;
      codes_by_position(codes_.data() + at, pos + at, m_, left_count,
                        left_out + static_cast<std::size_t>(g) * left_count,
                        right_out + g * right_count);
    }
  }

  // One child's columns only (the left one if `left`; `count` rows).
  void write_side(int f, int left_count, bool left, int count, std::uint32_t* out) {
    const std::int32_t* pos = positions(f);
    for (int g = 0; g < p_; ++g) {
      const std::size_t at = static_cast<std::size_t>(g) * m_;
      code_by_position(codes_.data() + at, pos + at, m_, left_count, left,
                       out + static_cast<std::size_t>(g) * count);
    }
  }

 private:
  // Every feature's rows' positions in feature f's order, made on first
  // use, followed by the rows of class 1 before each position of f's order.
  const std::int32_t* positions(int f) {
    int slot = slot_of_[static_cast<std::size_t>(f)];
    if (slot >= 0) {
      touch(slot);
      return positions_[static_cast<std::size_t>(slot)].data();
    }
    if (feature_of_.size() < slots_) {
      slot = static_cast<int>(feature_of_.size());
      feature_of_.push_back(f);
      used_.push_back(0);
    } else {
      slot = static_cast<int>(std::min_element(used_.begin(), used_.end()) - used_.begin());
      slot_of_[static_cast<std::size_t>(feature_of_[static_cast<std::size_t>(slot)])] = -1;
      feature_of_[static_cast<std::size_t>(slot)] = f;
    }
    slot_of_[static_cast<std::size_t>(f)] = slot;
    touch(slot);
    std::vector<std::int32_t>& out = positions_[static_cast<std::size_t>(slot)];
    out.resize(static_cast<std::size_t>(m_) * p_ + m_ + 1);
    const Entry* by_f = block_ + static_cast<std::size_t>(f) * m_;
    int top = 0;
    for (int i = 0; i < m_; ++i) top = std::max(top, by_f[i].row);
    if (position_of_row_.size() <= static_cast<std::size_t>(top)) position_of_row_.resize(top + 1);
    for (int i = 0; i < m_; ++i) position_of_row_[by_f[i].row] = i;
    for (int g = 0; g < p_; ++g) {
      const Entry* rows = block_ + static_cast<std::size_t>(g) * m_;
      std::int32_t* at = out.data() + static_cast<std::size_t>(g) * m_;
      for (int i = 0; i < m_; ++i) at[i] = position_of_row_[rows[i].row];
    }
    std::int32_t* ones = out.data() + static_cast<std::size_t>(m_) * p_;
    const std::uint32_t* code = codes_.data() + static_cast<std::size_t>(f) * m_;
    ones[0] = 0;
    for (int i = 0; i < m_; ++i) ones[i + 1] = ones[i] + static_cast<std::int32_t>(code[i] & 1u);
    return out.data();
  }
  void touch(int slot) { used_[static_cast<std::size_t>(slot)] = ++clock_; }

  // One feature's codes to both children: a row goes left when its
  // position is below `left_count`.
  void codes_by_position(const std::uint32_t* code, const std::int32_t* pos, int m,
                         int left_count, std::uint32_t* lo, std::uint32_t* ro) const {
    int i = 0;
#if DPDT_WIDE_LANES
    if (wide_) i = wide_partition::codes_by_position(code, pos, m, left_count, lo, ro);
#else
    (void)wide_;
#endif
    for (; i < m; ++i) {
      const int left = pos[i] < left_count;
      *lo = code[i];
      *ro = code[i];
      lo += left;
      ro += 1 - left;
    }
  }
  // ... to one child (`left`: the left one).
  void code_by_position(const std::uint32_t* code, const std::int32_t* pos, int m,
                        int left_count, bool left, std::uint32_t* out) const {
    int i = 0;
#if DPDT_WIDE_LANES
    if (wide_) i = wide_partition::code_by_position(code, pos, m, left_count, left, out);
#else
    (void)wide_;
#endif
    for (; i < m; ++i) {
      *out = code[i];
      out += (pos[i] < left_count) == left;
    }
  }

  std::size_t position_bytes_;
  bool wide_;
  const Entry* block_ = nullptr;
  int m_ = -1, p_ = 0, class_bits_ = -1;
  std::uint64_t generation_ = 0;
  std::vector<std::uint32_t> codes_;  // each feature's rows as codes, in its order
  // Positions in a feature's order, by slot; the slot of each feature (-1:
  // none), the feature of each slot, and when each slot was last used.
  std::vector<std::vector<std::int32_t>> positions_;
  std::vector<int> slot_of_, feature_of_;
  std::vector<std::uint64_t> used_;
  std::uint64_t clock_ = 0;
  std::size_t slots_ = 1;
  std::vector<std::int32_t> position_of_row_;  // by row: its position in the feature's order
};

}  // namespace dpdt
