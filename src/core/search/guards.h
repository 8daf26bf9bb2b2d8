// The search's guards (room: reads the context; calls nothing of the
// search): what it refuses before it starts or stops for, with messages
// that say what to lower: the work and time estimate, the memory of the
// row buffers and of the memo, the pairs of one split's fronts, and losses
// a double cannot report.
#pragma once
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/options.h"
#include "core/fronts/pareto.h"
#include "core/runtime/runtime.h"
#include "core/runtime/work.h"
#include "core/search/context.h"
#include "core/search/projection.h"
#include "core/splits/cut_positions.h"
#include "core/splits/partition_wide.h"

namespace dpdt {

class Guards {
 public:
  explicit Guards(const SearchContext& c) : c_(c), d_(c.d), opt_(c.opt) {}

  // Every pair of two children's front points is a candidate point: refuse
  // before one split's pairs alone would take a good part of the budget.
  void check_pair_count(double pairs) const {
    const double bytes = pairs * sizeof(FrontPoint) * std::max(1, opt_.threads);
    if (bytes <= opt_.max_memory_bytes / 4) return;
    std::ostringstream msg;
    msg << "combining the Pareto fronts of one split's children needs " << pairs
        << " points (about " << bytes / 1e9 << " GB with " << opt_.threads
        << " threads), more than a quarter of max_memory = " << opt_.max_memory_bytes / 1e9
        << " GB. Lower max_depth (now " << opt_.max_depth
        << "), use complexity = \"splits\" (shorter fronts), or raise max_memory.";
    throw ResourceLimit(msg.str());
  }

  // Searches estimated to be far beyond reach are refused before they start.
  int search_threads() const { return opt_.max_depth == 1 ? 1 : std::max(1, opt_.threads); }
  double estimated_seconds(const WorkEstimate& work) const {
    const double rate = d_.regression() ? kRegressionVisitsPerSecond : kVisitsPerSecond;
    return work.visits() / rate / search_threads();
  }

  // `measured`: a root timed and counted as it runs (RootProjection),
  // which max_work and the hour refuse before it starts only when its
  // estimate is beyond kMeasuredOvershoot times them: the estimate of a
  // bounded search was at most 1.3 million times the time taken (bidding,
  // exhaustive depth 4), so one refused takes at least about 8 hours (its
  // projection would stop it beyond 3), and one beyond ten million hours
  // would otherwise run for hours before its projection stopped it.
  static constexpr double kMeasuredOvershoot = 1e7;
  void check_work(const WorkEstimate& work, bool measured) const {
    const double seconds = estimated_seconds(work);
    const double overshoot = measured ? kMeasuredOvershoot : 1.0;
    const bool too_much = work.visits() > overshoot * opt_.max_work;
    const double limit = overshoot * opt_.max_seconds;
    if (!too_much && !(seconds > limit)) return;
    const int threads = search_threads();
    std::ostringstream msg;
    msg.precision(2);
    msg << "this search is estimated at " << work.visits() << " row visits ("
        << work.root_candidates() << " candidate splits at the root, max_depth = "
        << opt_.max_depth << ", candidates = \""
        << (opt_.candidates == Candidates::exhaustive ? "exhaustive" : "cart")
        << "\"): up to about " << duration(seconds) << " with " << threads << " thread(s), ";
    if (too_much && measured)
      msg << "beyond ten million times max_work = " << opt_.max_work
          << ", far beyond what the bounds of a search that tries every split have been "
             "measured to save (at most about 1.3 million times)";
    else if (too_much) msg << "beyond max_work = " << opt_.max_work;
    else if (measured)
      msg << "beyond ten million hours, far beyond what the bounds of a search that tries "
             "every split have been measured to save (at most about 1.3 million times)";
    else msg << "beyond an hour";
    msg << ". Lower max_depth";
    if (opt_.candidates == Candidates::exhaustive)
      msg << ", use candidates = \"cart\"";
    else
      msg << " or cart_depth (now " << opt_.cart_depth_at(0) << " at the root)";
    msg << ", or fit on fewer rows; or set time_limit (seconds: the widest search that "
           "finishes within it is kept), or raise max_work (Inf: no limit) to run it anyway.";
    throw SearchTooLarge(msg.str());
  }

  // A measured root stopped by its projection: the figures, and what to do.
  [[noreturn]] void projection_error(const RootProjection& p) const {
    if (p.stopped_by_work()) work_projection_error(p);
    std::ostringstream msg;
    msg.precision(2);
    msg << "this search was stopped after " << duration(p.elapsed()) << ": ";
    if (p.stopped_overdue())
      msg << "it had run that long without finishing";
    else
      msg << "after " << p.done() << " of the root's " << p.total() << " " << runs(p)
          << " it was projected at about "
          << duration(p.projected());
    msg << ", beyond " << duration(RootProjection::kMargin * opt_.max_seconds) << " ("
        << RootProjection::kMargin << " times what a search may take without time_limit). Lower max_depth (now " << opt_.max_depth
        << "), fit on fewer rows, or " << narrower() << "; or set time_limit (seconds: "
           "the widest search that finishes within it is kept), or set max_work = Inf to run "
           "it anyway.";
    throw SearchTooLarge(msg.str());
  }

  // ... stopped for max_work, in the row visits it counted.
  [[noreturn]] void work_projection_error(const RootProjection& p) const {
    std::ostringstream msg;
    msg.precision(2);
    msg << "this search was stopped after " << p.visits() << " row visits ("
        << duration(p.elapsed()) << "): ";
    if (p.stopped_overdue())
      msg << "it had made max_work = " << opt_.max_work << " without finishing";
    else
      msg << "after " << p.done() << " of the root's " << p.total() << " " << runs(p)
          << " it was projected at about "
          << p.projected_visits()
          << " row visits, beyond max_work = " << opt_.max_work;
    msg << ". Raise max_work (Inf: no limit), lower max_depth (now " << opt_.max_depth
        << "), fit on fewer rows, or " << narrower() << "; or set time_limit (seconds: "
           "the widest search that finishes within it is kept).";
    throw SearchTooLarge(msg.str());
  }

  static const char* runs(const RootProjection& p) { return root_runs_name(p.runs()); }

  // The narrower search a measured one can fall back to.
  std::string narrower() const {
    if (opt_.candidates == Candidates::exhaustive) return "use candidates = \"cart\"";
    return "lower exact_levels (now " + std::to_string(opt_.exact_levels) + ")";
  }

  static std::string duration(double seconds) {
    std::ostringstream out;
    out.precision(2);
    if (seconds < 120) out << seconds << " seconds";
    else if (seconds < 7200) out << seconds / 60 << " minutes";
    else if (seconds < 172800) out << seconds / 3600 << " hours";
    else if (seconds < 2 * 3.15e7) out << seconds / 86400 << " days";
    else out << seconds / 3.15e7 << " years";
    return out.str();
  }

  // Scaled losses are exact; reported ones must be representable doubles.
  double mean_loss(double loss) const {
    return std::ldexp(loss / c_.total_weight, d_.regression() ? 2 * d_.y_exp : 0);
  }
  bool reportable(double loss) const {
    if (loss == 0) return true;
    const double raw = d_.unscale_loss(loss), mean = mean_loss(loss);
    return std::isfinite(raw) && std::isfinite(mean) && raw >= DBL_MIN && mean >= DBL_MIN;
  }
  void range_error(double loss, const char* what) const {
    const double raw = d_.unscale_loss(loss), mean = mean_loss(loss);
    // The mean loss itself representable: only the weights' scale is at fault.
    const bool weights = std::isfinite(mean) && mean >= DBL_MIN;
    const bool big = weights ? !std::isfinite(raw) : !std::isfinite(mean);
    // log10 of the mean loss, computed from the scaled value (no overflow).
    const double log10_mean = std::log10(loss / c_.total_weight) +
                              (d_.regression() ? 2 * d_.y_exp : 0) * std::log10(2.0);
    std::ostringstream msg;
    msg << what << " " << (d_.regression() ? "mean squared error" : "misclassification rate")
        << " is about 1e" << std::lround(log10_mean) << " and its loss (in units of "
        << (d_.regression() ? "squared response times weight" : "weight") << ") is "
        << (big ? "beyond the largest" : "below the smallest normal")
        << " double: it cannot be reported exactly. " << (big ? "Divide" : "Multiply")
        << (weights ? " the weights by a constant (the trees stay the same)."
                    : " the response by a constant (the trees stay the same, the "
                      "losses scale by its square).");
    throw ResourceLimit(msg.str());
  }
  void check_range(double root_loss) const {
    if (!reportable(root_loss)) range_error(root_loss, "the single leaf's");
  }
  void check_front_range(const std::vector<FrontPoint>& front) const {
    for (const FrontPoint& pt : front)
      if (!reportable(pt.loss)) range_error(pt.loss, "a front tree's");
  }

  // CART levels whose rows a workspace's generator writes out for states
  // at depths [first, last] (at most one buffer per level, reused).
  int cart_buffer_levels(int first, int last) const {
    int levels = 0;
    for (int depth = first; depth <= last; ++depth) {
      const int left = opt_.max_depth - depth;
      if (opt_.candidates == Candidates::cart && left >= 2 && left > opt_.exact_levels)
        levels = std::max(levels, opt_.cart_depth_at(depth) - 1);
      else if (depth > 0 && left >= 2)  // every split tried: CART seeds (sweep.h)
        levels = std::max(levels, kSeedCartLevels - 1);
    }
    return levels;
  }

  // Each buffer holds at most a state's rows in every feature's order: the
  // root's, the main workspace's CART levels for the root, and per worker
  // one buffer per depth below the root plus the CART levels of the states
  // it solves (one workspace only at depth 1).
  // `of_rows`: states are held as their rows (4 bytes each) beside the
  // rows' codes (one byte per row and feature), not as blocks. `relaxed`:
  // each worker also solves states below the root with min_bucket 1
  // (Search::relaxed_), in a workspace of its own. `coded`: each worker
  // writes children at the last level by position (CutPositions).
  void check_buffer_memory(bool of_rows, bool relaxed = false, bool coded = false) const {
    const double block = (static_cast<double>(d_.n) * d_.p + 2 * kPartitionSlack) * sizeof(Entry);
    const double below_root = opt_.max_depth - 2 + cart_buffer_levels(1, opt_.max_depth - 2);
    const double per_worker =
        opt_.max_depth > 1 ? 1 + below_root + (relaxed ? below_root : 0) : 0;
    double need = 0.0;
    if (coded) need += std::max(1, opt_.threads) * (relaxed ? 2 : 1) * CutPositions::most_bytes(d_.n, d_.p);
    if (of_rows) {
      const double rows = 4.0 * d_.n;
      need += (d_.sorted.empty() ? 0.0 : block) + static_cast<double>(d_.n) * d_.p +
             rows * (2 + cart_buffer_levels(0, 0) + std::max(1, opt_.threads) * per_worker);
    } else {
      need += block * (1 + cart_buffer_levels(0, 0) + std::max(1, opt_.threads) * per_worker);
    }
    if (need > opt_.max_memory_bytes) {
      std::ostringstream msg;
      msg << "the search's row buffers alone need about " << need / 1e9
          << " GB (" << d_.n << " rows x " << d_.p << " features, max_depth = "
          << opt_.max_depth << ", threads = " << opt_.threads
          << "), more than max_memory = " << opt_.max_memory_bytes / 1e9
          << " GB. Lower max_depth or threads, or raise max_memory.";
      throw ResourceLimit(msg.str());
    }
  }

  std::string memory_message() const {
    std::ostringstream msg;
    msg << "the search stopped after solving " << c_.memo.states()
        << " states: its memo of solved states reached max_memory = "
        << opt_.max_memory_bytes / 1e9 << " GB. Lower max_depth (now " << opt_.max_depth
        << ")";
    if (opt_.candidates == Candidates::cart)
      msg << " or cart_depth (now " << opt_.cart_depth_at(0) << " at the root)";
    else
      msg << ", or use candidates = \"cart\" instead of \"exhaustive\"";
    msg << ", or raise max_memory (in GB, an argument of dpdt_fit()).";
    return msg.str();
  }

  // Row visits per second and thread the estimated seconds assume. A
  // regression's scans divide at every boundary: those that try every
  // split ran at 3.0e8 to 3.7e8 (Boston and random data, depth 2 to 4; with
  // 1e9 they took 2.6 to 3.4 times their estimated seconds), a CART search
  // of 1e5 rows at 6.6e7 of the visits it counted (1.3 times).
  static constexpr double kVisitsPerSecond = 1e9, kRegressionVisitsPerSecond = 3e8;

 private:
  const SearchContext& c_;
  const Dataset& d_;
  const SearchOptions& opt_;
};

}  // namespace dpdt
