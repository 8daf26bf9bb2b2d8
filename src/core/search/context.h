// What every room of the search shares (room: holds; calls nothing of the
// search): the data and options, the tolerance of loss comparisons, the
// memo of solved states, the rows' hash keys, the workers' abort flag, the
// facts of the data decided once, and the record of heuristic level
// groups; and the small rules every room applies alike (when a state is a
// leaf, what a split costs).
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/node_stats.h"
#include "core/data/options.h"
#include "core/data/row_codes.h"
#include "core/fronts/node.h"
#include "core/fronts/pareto.h"
#include "core/runtime/parallel.h"
#include "core/search/memo.h"
#include "core/splits/split_groups.h"

namespace dpdt {

// Levels of the CART tree whose splits seed a bounded state below the root
// (BoundedSweep::cart_seeds(); its rows take one buffer: Guards).
constexpr int kSeedCartLevels = 2;

// Whether a search may hold its states as rows (Search::states_of_rows(),
// given the codes): CART proposals above an exact last level, on at least
// states_from_rows rows of two classes with exact weights and 0/1 loss,
// numeric features, one test costing the same on every feature. The
// caller may then make the data without their presort (code_features()).
inline bool rows_layout_allowed(const Dataset& d, const SearchOptions& opt) {
  bool uniform_cost = true;
  for (int f = 1; f < d.p; ++f) uniform_cost = uniform_cost && d.cost(f) == d.cost(0);
  bool numeric = true;
  for (int f = 0; f < d.p; ++f) numeric = numeric && !d.categorical(f);
  return opt.max_depth >= 2 && d.n >= opt.states_from_rows && opt.candidates == Candidates::cart &&
         opt.exact_levels <= 1 && d.n_classes == 2 && d.exact_weights && d.loss_matrix.empty() &&
         numeric && (opt.complexity != Complexity::cost || uniform_cost);
}

struct SearchContext {
  SearchContext(const Dataset& data, const SearchOptions& options)
      : d(data), opt(options), row_keys(data.n), heuristic(data.p),
        abort(own_abort_), visits(own_visits_), codes(data.coded ? *data.coded : own_codes_) {
    std::uint64_t s = 0x2545F4914F6CDD1DULL;  // fixed: results never depend on a seed
    for (auto& k : row_keys) k = splitmix64(s);
    if (!data.coded && std::min(opt.last_level_from_rows, opt.states_from_rows) <= d.n &&
        d.n_classes == 2 && d.exact_weights && d.loss_matrix.empty())
      own_codes_ = row_codes(d);
  }

  // The context of a second search over the same data within `outer`'s
  // (Search::relaxed_): the same row keys (so the same states' hashes) and
  // codes, and the outer search's abort flag and count of row visits, so
  // that its work is stopped and counted with the outer search's. Its memo
  // and tolerances are its own (settle()).
  SearchContext(const SearchContext& outer, const SearchOptions& options)
      : d(outer.d), opt(options), row_keys(outer.row_keys), heuristic(outer.d.p),
        abort(outer.abort), visits(outer.visits), codes(outer.codes) {}
  // The context keeps references to its data and options: built from a
  // temporary, it would dangle (a core test once did: ASan's
  // stack-use-after-scope), so that does not compile.
  SearchContext(const Dataset&&, const SearchOptions&) = delete;
  SearchContext(const Dataset&, const SearchOptions&&) = delete;
  SearchContext(const SearchContext&, const SearchOptions&&) = delete;

  // From the root's statistics (`total`, its leaf's `loss`): the tolerances
  // of comparisons and the facts of the data the rooms read.
  void settle(const NodeStats& total, double loss) {
    total_weight = total.weight;
    // See LossTolerance. Complexity "tests" sums weights like a loss does;
    // "cost" sums weights times costs, inexact whenever costs are fractional.
    const double rounding = d.n * 0x1p-50;
    if (d.regression()) {
      tol.rel = rounding;
      tol.abs = rounding * rounding * loss;
    }
    else if (!exact_losses()) tol.abs = rounding * total.weight * largest_cost(d);
    double max_cost = 1.0;
    for (int f = 0; f < d.p; ++f) max_cost = std::max(max_cost, d.cost(f));
    complexity_tol = opt.complexity == Complexity::cost ? rounding * total.weight * max_cost
                     : opt.complexity == Complexity::tests && !d.exact_weights
                         ? rounding * total.weight
                         : 0.0;
    uniform_cost = true;
    for (int levels : d.n_levels) every_group_tried = every_group_tried && levels <= kMaxEnumLevels;
    for (int f = 1; f < d.p; ++f) uniform_cost = uniform_cost && d.cost(f) == d.cost(0);
    counted = d.unit_weights && d.loss_matrix.empty() && opt.complexity != Complexity::cost;
    for (int f = 0; f < d.p; ++f) counted = counted && !d.categorical(f);
  }

  // Whether every loss sums exactly (losses_sum_exactly()). Then the
  // search's comparisons need no tolerance, and the bounds that need exact
  // sums (incumbents, root_need.h) apply: exhaustive depth 3, complexity
  // "splits", costs 1 to 3, in R, CPU s, min_bucket 5: wilt 278 -> 12.4,
  // page 78 -> 34, occupancy 8.1 -> 3.4 (bench/results/
  // min_bucket_exact_losses.md); min_bucket 1: wilt 7.3 -> 2.2, page 27 ->
  // 13; the same fronts and trees.
  bool exact_losses() const { return losses_sum_exactly(d); }

  // The hash of the whole set of rows (the root's state).
  std::uint64_t root_hash() const {
    std::uint64_t hash = 0;
    for (auto k : row_keys) hash += k;
    return hash;
  }

  // A leaf: at the maximum depth, pure, or too small for two buckets
  // (m < 2 min_bucket, written so that it cannot overflow).
  bool terminal(int depth, const NodeStats& s, int m) const {
    return depth >= opt.max_depth || s.pure() || m - opt.min_bucket < opt.min_bucket;
  }

  // What a split on `feature` adds to the complexity of a state of weight
  // s.weight: its weight (each row passes one more test), the feature's
  // cost times its weight, or 1 (one more split).
  double split_cost(int feature, const NodeStats& s) const {
    switch (opt.complexity) {
      case Complexity::tests: return s.weight;
      case Complexity::cost: return d.cost(feature) * s.weight;
      case Complexity::splits: return 1.0;
    }
    return 1.0;
  }

  // The least complexity a split of a child of weight w adds.
  double least_split_cost(double w) const {
    return opt.complexity == Complexity::splits ? 1.0 : w;  // tests (cost: never bounded)
  }

  // Row visits made so far (WorkEstimate's unit: a row of one feature read
  // by a scan, a partition, prefix sums or the depth-two solver), counted
  // once per state or pass by every worker, so a bounded root's max_work
  // applies to what it does, not to an estimate that counts every split
  // it skips (RootProjection).
  void count_visits(double v) const {
    visits.fetch_add(static_cast<std::uint64_t>(v), std::memory_order_relaxed);
  }
  double visits_made() const { return static_cast<double>(visits.load(std::memory_order_relaxed)); }

  // A worker stops when the search is being abandoned.
  void check_abort() const {
    if (abort.load(std::memory_order_relaxed)) throw Aborted();
  }

  // The bytes of the memo and of the other search's (Search::relaxed_),
  // which share max_memory.
  double memo_bytes() const { return memo.bytes() + (other_memo ? other_memo->bytes() : 0.0); }

  static double best_loss(const ChildRef& c) { return c.node ? c.node->front.back().loss : c.leaf_loss; }
  static std::vector<FrontPoint> front_of(const ChildRef& c) {
    if (c.node) return c.node->front;
    return {{c.leaf_loss, 0.0, -1, 0, 0}};
  }

  const Dataset& d;
  const SearchOptions& opt;
  std::vector<std::uint64_t> row_keys;
  Memo memo;
  const Memo* other_memo = nullptr;  // memo_bytes()
  LossTolerance tol;
  double complexity_tol = 0.0;
  double total_weight = 0.0;
  bool uniform_cost = true;
  // Classes counted in whole numbers on numeric features: the depth-two
  // solver applies (CutScoring::may_score()).
  bool counted = false;
  // No factor has more levels than the exhaustive search enumerates the
  // groups of (split_groups.h): its fronts are then optimal.
  bool every_group_tried = true;
  HeuristicGroups heuristic;

 private:
  std::atomic<bool> own_abort_{false};
  std::atomic<std::uint64_t> own_visits_{0};
  RowCodes own_codes_;

 public:
  // The workers' abort flag and the row visits made (count_visits()): this
  // search's own, or an outer search's.
  std::atomic<bool>& abort;
  std::atomic<std::uint64_t>& visits;
  // Each row's codes, where the last level reads them (empty: it does not):
  // the data's own (Dataset::coded), or made here from the presort.
  const RowCodes& codes;

 private:
  static std::uint64_t splitmix64(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

}  // namespace dpdt
