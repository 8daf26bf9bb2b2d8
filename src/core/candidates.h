// The tests generating function: which splits a state may try.
//  - cart: the internal nodes of a greedy CART tree grown on the state's rows
//    (the DPDT-K generator of the paper);
//  - exhaustive: every feature and every threshold (exact, for small data).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "dataset.h"
#include "node_stats.h"
#include "options.h"
#include "partition.h"
#include "split_scan.h"

namespace dpdt {

// A split of a state: the first left_count rows of feature's block go left.
struct Candidate {
  int feature;
  int left_count;
  double threshold;
};

class CandidateGenerator {
 public:
  CandidateGenerator(const Dataset& d, const SearchOptions& opt)
      : d_(d), opt_(opt), goes_left_(d.n), no_keys_(d.n, 0),
        impurity_(d.n_classes, opt.criterion == Criterion::entropy, d.xlogx_table) {}

  std::vector<Candidate> generate(const Entry* block, int m, int depth) {
    std::vector<Candidate> out;
    if (opt_.candidates == Candidates::exhaustive) {
      for_each_boundary(d_, block, m, opt_.min_bucket,
                        [&](int f, int left, double thr) { out.push_back({f, left, thr}); });
      return out;
    }
    found_.clear();
    grow(block, m, opt_.cart_depth_at(depth), 0);
    for (const auto& s : found_) {
      Candidate c;
      if (restate(block, m, s, c)) out.push_back(c);
    }
    std::sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
      return a.feature != b.feature ? a.feature < b.feature : a.left_count < b.left_count;
    });
    out.erase(std::unique(out.begin(), out.end(),
                          [](const Candidate& a, const Candidate& b) {
                            return a.feature == b.feature && a.left_count == b.left_count;
                          }),
              out.end());
    return out;
  }

 private:
  struct Found { int feature; double threshold; };
  static constexpr std::size_t kMaxTies = 2;

  // Greedy CART on the rows in `block`, recording every split it makes.
  void grow(const Entry* block, int m, int levels, int level) {
    if (levels <= 0 || m - opt_.min_bucket < opt_.min_bucket) return;
    const NodeStats total = stats_of(d_, block, m);
    Split s;
    double parent = 0.0;
    if (d_.regression()) {
      parent = total.sse();
      s = sse_.best(d_, block, m, opt_.min_bucket, &ties_);
    } else if (d_.n_classes == 2 && opt_.criterion == Criterion::entropy) {
      const EntropySide side{d_.xlogx_table};
      parent = side(total.class_weight[0], total.class_weight[1]);
      s = best_split_two_classes(d_, block, m, opt_.min_bucket, total, side, &ties_);
    } else if (d_.n_classes == 2) {
      parent = GiniSide{}(total.class_weight[0], total.class_weight[1]);
      s = best_split_two_classes(d_, block, m, opt_.min_bucket, total, GiniSide{}, &ties_);
    } else {
      parent = impurity_.impurity(total);
      s = best_split(d_, block, m, opt_.min_bucket, total, impurity_, &ties_);
    }
    // A split that does not lower impurity is no candidate (CART stops there).
    if (!s.found() || !(s.score < parent * (1.0 - 1e-12))) return;
    // CART's choice among equally good splits is arbitrary, and the search
    // result can hang on it: the first split tied with CART's is a candidate
    // too (more ties cost search time: up to 4x on 'room' for all of them).
    // CART grows on below its own choice.
    const std::size_t kept = std::min<std::size_t>(ties_.size(), kMaxTies);
    for (std::size_t i = 0; i < kept; ++i) found_.push_back({ties_[i].feature, ties_[i].threshold});
    if (levels == 1) return;
    const std::size_t need = static_cast<std::size_t>(m) * d_.p + 1;
    if (left_.size() <= static_cast<std::size_t>(level)) {
      left_.resize(level + 1);
      right_.resize(level + 1);
    }
    if (left_[level].size() < need) {
      left_[level].resize(need);
      right_[level].resize(need);
    }
    // Raw pointers, not references into left_/right_: deeper levels may grow
    // those outer vectors, while the buffers' storage itself stays put.
    Entry* lb = left_[level].data();
    Entry* rb = right_[level].data();
    partition_rows(d_, block, m, s.feature, s.left_count, goes_left_, no_keys_, lb, rb);
    grow(lb, s.left_count, levels - 1, level + 1);
    grow(rb, m - s.left_count, levels - 1, level + 1);
  }

  // A CART node deep in the tree chose its threshold among its own rows; on
  // the whole state the same test is a partition whose canonical threshold is
  // the midpoint of the state's own neighbouring values.
  bool restate(const Entry* block, int m, const Found& s, Candidate& c) const {
    const Entry* rows = block + static_cast<std::size_t>(s.feature) * m;
    const int left = static_cast<int>(
        std::upper_bound(rows, rows + m, s.threshold,
                         [&](double t, const Entry& e) { return t < d_.value(s.feature, e.row); }) -
        rows);
    if (left < opt_.min_bucket || m - left < opt_.min_bucket) return false;
    c.feature = s.feature;
    c.left_count = left;
    c.threshold = midpoint(d_.value(s.feature, rows[left - 1].row), d_.value(s.feature, rows[left].row));
    return true;
  }

  const Dataset& d_;
  const SearchOptions& opt_;
  std::vector<char> goes_left_;
  std::vector<std::uint64_t> no_keys_;
  ImpurityScore impurity_;
  SquaredErrorScan sse_;
  std::vector<Found> found_;
  std::vector<Split> ties_;
  std::vector<std::vector<Entry>> left_, right_;
};

}  // namespace dpdt
