// Per-thread scratch of the search (room: holds, calls nothing): the row
// buffers of each depth, the candidate generator and the scanners a state
// uses, owned by one worker at a time.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/options.h"
#include "core/data/row_codes.h"
#include "core/search/depth_two.h"
#include "core/search/sweep_state.h"
#include "core/search/two_level_bounds.h"
#include "core/splits/candidates.h"
#include "core/splits/cut_positions.h"
#include "core/splits/histogram_scan.h"
#include "core/splits/partition_wide.h"
#include "core/splits/split_groups.h"
#include "core/splits/split_scan.h"

namespace dpdt {

// Per-thread scratch: each depth has its own buffer for the two children of
// a state, so a state's rows stay intact while its children are solved.
// O(depth * n * p).
struct Workspace {
  Workspace(const Dataset& d, const SearchOptions& opt, const RowCodes& codes,
            HeuristicGroups* heuristic)
      : goes_left(d.n), generator(d, opt, &codes),
        miss(d.n_classes, d.loss_matrix.empty() ? nullptr : d.loss_matrix.data()), groups(d),
        depth_two(d), data(d) {
    generator.report_heuristics_to(heuristic);
    groups.report_heuristics_to(heuristic);
  }
  std::vector<std::vector<Entry>> children;  // by depth
  std::vector<char> goes_left;
  CandidateGenerator generator;
  MisclassificationScore miss;
  ManyClassMisclassification many;
  SquaredErrorScan sse;
  GroupScanner groups;
  DepthTwoSolver depth_two;
  // The same worker's scratch in the search with min_bucket 1 that makes
  // the relaxed fronts (Search::front_with_min_bucket_one()), made on first use.
  std::unique_ptr<Workspace> relaxed;
  // The last level from rows (LastLevel::last_split_of_rows()): the two
  // children's rows of a split, and the histograms.
  std::vector<int> side_rows[2];
  HistogramScan histogram;
  // The rows of the state whose children are at the last level, in index
  // order (found once for all its splits; the state is known by its block,
  // size and set hash). A state holding a sixteenth of the rows or more
  // marks its rows and reads the marks in order, O(n), where sorting them
  // costs O(m log m): exhaustive depth 3 on skin (196,045 rows, states of
  // about 100,000) spent 12 % sorting.
  const std::vector<int>& rows_in_order(const Entry* block, int m, std::uint64_t hash) {
    if (block != ordered_block_ || m != static_cast<int>(ordered_rows_.size()) || hash != ordered_hash_) {
      if (m >= data.n / 16) {
        in_state_.resize(data.n);
        for (int i = 0; i < m; ++i) in_state_[block[i].row] = 1;
        // Branch-free (a row's mark is unpredictable): every row is written
        // at k, which only a marked row moves on; one slot of slack.
        ordered_rows_.resize(static_cast<std::size_t>(m) + 1);
        int k = 0;
        for (int row = 0; row < data.n; ++row) {
          ordered_rows_[k] = row;
          k += in_state_[row];
          in_state_[row] = 0;
        }
        ordered_rows_.resize(m);
      } else {
        ordered_rows_.resize(m);
        for (int i = 0; i < m; ++i) ordered_rows_[i] = block[i].row;
        std::sort(ordered_rows_.begin(), ordered_rows_.end());
      }
      ordered_block_ = block;
      ordered_hash_ = hash;
    }
    return ordered_rows_;
  }
  const Dataset& data;
  std::vector<int> ordered_rows_;
  std::vector<char> in_state_;  // rows_in_order()'s marks, all 0 between calls
  const Entry* ordered_block_ = nullptr;
  std::uint64_t ordered_hash_ = 0;
  // One per depth: a state's sums must outlive the search of its children.
  std::vector<std::unique_ptr<PrefixLeaves>> prefixes;

  PrefixLeaves& prefix(int depth) {
    while (prefixes.size() <= static_cast<std::size_t>(depth))
      prefixes.push_back(std::make_unique<PrefixLeaves>(data));
    return *prefixes[depth];
  }

  // One per depth, reused: the splits a bounded state below the root has
  // solved (the states it solves are deeper).
  std::vector<std::unique_ptr<SweepState>> sweep_states;
  SweepState& sweep_state(int depth) {
    while (sweep_states.size() <= static_cast<std::size_t>(depth))
      sweep_states.push_back(std::make_unique<SweepState>());
    return *sweep_states[depth];
  }

  // Room for the rows of children at `depth` of a state of m rows given by
  // its rows (states_from_rows): the left one's first, then the right one's.
  int* rows_buffer(int depth, int m) {
    if (child_rows.size() <= static_cast<std::size_t>(depth)) child_rows.resize(depth + 1);
    if (child_rows[depth].size() < static_cast<std::size_t>(m)) child_rows[depth].resize(m);
    return child_rows[depth].data();
  }
  std::vector<std::vector<int>> child_rows;  // by depth

  // Room for the coded columns of both children at the last level of a
  // state of m rows (CutPositions): the left one's
  // first, each followed by kCodedSlack codes of slack.
  std::uint32_t* coded_buffer(int m) {
    const std::size_t need = static_cast<std::size_t>(m) * data.p + 2 * kCodedSlack;
    if (coded_children.size() < need) coded_children.resize(need);
    return coded_children.data();
  }
  std::vector<std::uint32_t> coded_children;
  // The state whose children at the last level are written by position.
  CutPositions cut_positions;

  // Room for the blocks of children at `depth` of a state of m rows: the
  // left one first, then the right one, each followed by the slack
  // write_sides() needs.
  Entry* buffer(int depth, int m) {
    if (children.size() <= static_cast<std::size_t>(depth)) children.resize(depth + 1);
    if (generations_.size() <= static_cast<std::size_t>(depth)) generations_.resize(depth + 1);
    ++generations_[depth];
    const std::size_t need = static_cast<std::size_t>(m) * data.p + 2 * kPartitionSlack;
    if (children[depth].size() < need) children[depth].resize(need);
    return children[depth].data();
  }
  // How many times the buffer of `depth` has been handed out to be written
  // (buffer()): a state's block there is the same rows while it holds.
  std::uint64_t buffer_generation(int depth) const {
    return static_cast<std::size_t>(depth) < generations_.size() ? generations_[depth] : 0;
  }

 private:
  std::vector<std::uint64_t> generations_;  // by depth
};

}  // namespace dpdt
