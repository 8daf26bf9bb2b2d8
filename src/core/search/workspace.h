// Per-thread scratch of the search (room: holds, calls nothing): the row
// buffers of each depth, the candidate generator and the scanners a state
// uses, owned by one worker at a time.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/options.h"
#include "core/search/depth_two.h"
#include "core/search/two_level_bounds.h"
#include "core/splits/candidates.h"
#include "core/splits/split_groups.h"
#include "core/splits/split_scan.h"

namespace dpdt {

// Per-thread scratch: each depth has its own buffer for the two children of
// a state, so a state's rows stay intact while its children are solved.
// O(depth * n * p).
struct Workspace {
  Workspace(const Dataset& d, const SearchOptions& opt, HeuristicGroups* heuristic)
      : goes_left(d.n), generator(d, opt),
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
  std::vector<SplitRule> every_cut;  // CutScoring::front_with_min_bucket_one()
  const Dataset& data;
  // One per depth: a state's sums must outlive the search of its children.
  std::vector<std::unique_ptr<PrefixLeaves>> prefixes;

  PrefixLeaves& prefix(int depth) {
    while (prefixes.size() <= static_cast<std::size_t>(depth))
      prefixes.push_back(std::make_unique<PrefixLeaves>(data));
    return *prefixes[depth];
  }

  // Room for the blocks of children at `depth` of a state of m rows: the
  // left one first, then the right one, each followed by the slot of slack
  // write_sides() needs.
  Entry* buffer(int depth, int m) {
    if (children.size() <= static_cast<std::size_t>(depth)) children.resize(depth + 1);
    const std::size_t need = static_cast<std::size_t>(m) * data.p + 2;
    if (children[depth].size() < need) children[depth].resize(need);
    return children[depth].data();
  }
};

}  // namespace dpdt
