// A part of the root's work, for one search spread over processes (R's
// futures; R/distribute.R): the root candidates [first, last), in the
// order the root generates them. A bounded root (sweep.h) is solved in two
// stages: every chunk solves its seed cuts and reports their front, the
// fronts are merged into the seeds' front of the whole root, and every
// chunk then solves its cuts bounded by it, as one process bounds every
// feature's sweep by the seeds of all. Any chunking gives the root's front:
// the sweep skips only splits whose points cannot enter it nor win a tie,
// and the chunks' fronts, merged with ties going to the earliest
// candidate, are the front of all candidates (with exact losses; Search
// refuses chunks otherwise).
#pragma once
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "core/fronts/pareto.h"

namespace dpdt {

struct RootChunk {
  enum class Stage {
    plan,   // only the root's candidates: how many, and whether bounded
    seeds,  // a bounded root's seed cuts of [first, last): their front
    solve   // [first, last) solved; a bounded root's bounded by seed_front
  };
  Stage stage = Stage::solve;
  std::size_t first = 0;
  std::size_t last = std::numeric_limits<std::size_t>::max();
  // Every chunk's seeds' front merged (its actions: root candidates), for
  // the solve stage of a bounded root.
  std::vector<FrontPoint> seed_front;

  // The parts of the runs (ranges of candidates) inside [first, last).
  std::vector<std::pair<std::size_t, std::size_t>> clip(
      const std::vector<std::pair<std::size_t, std::size_t>>& runs) const {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (const auto& [a, b] : runs) {
      const std::size_t lo = a > first ? a : first, hi = b < last ? b : last;
      if (lo < hi) out.push_back({lo, hi});
    }
    return out;
  }
};

}  // namespace dpdt
