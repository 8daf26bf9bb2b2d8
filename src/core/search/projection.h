// The measured projection of a bounded root (room: holds; calls only the
// host): the work estimate counts none of the splits a bounded sweep skips,
// and it was 106 to 170,000 times the time taken at depth 3 and 1,500 to
// 1.3 million times at depth 4 on the benchmark sets
// (bench/results/projection_depth{3,4}.md), so a bounded root is not
// refused by it: it is timed as it runs. The seeds' phase solves a few
// splits per feature; then each feature's run is a task, and after each
// one the sweep's time so far, scaled by the runs left, projects the
// whole. A projection far beyond the limit stops the search
// (SearchTooLarge, with the figures), so a search that would take many
// hours stops within a few of its features; and whatever its projection, a
// search still running at that margin stops then (at depth 4 one feature's
// run can take hours). The same holds for max_work, in the row visits the
// search counts as it runs (SearchContext::count_visits()): projected
// beyond it, or having made that many, it stops; the estimate made before
// it starts refuses it only when ten million times beyond.
#pragma once
#include <chrono>
#include <functional>
#include <limits>
#include <utility>

#include "core/runtime/runtime.h"

namespace dpdt {

class RootProjection {
 public:
  // Seconds on a monotonic clock (the core tests pass their own).
  using Clock = std::function<double()>;
  // Row visits made so far (SearchContext::visits_made()).
  using Counter = std::function<double()>;
  static double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  // A search is stopped when projected beyond kMargin times `limit`
  // (seconds; Inf: never), from the second run on: from there the
  // projections were within a factor of 1.73 of the time taken on 16
  // benchmark sets, after the first one 0.57 to 1.91 times it
  // (bench/results/projection_depth3.md).
  static constexpr double kMargin = 3.0;
  static constexpr int kRunsBeforeStopping = 2;

  // `limit`: seconds (stopped beyond kMargin times it); `work_limit`: row
  // visits (max_work: stopped beyond it).
  explicit RootProjection(double limit, Clock clock = steady_seconds,
                          double work_limit = std::numeric_limits<double>::infinity(),
                          Counter visits = [] { return 0.0; })
      : limit_(limit), work_limit_(work_limit), clock_(std::move(clock)),
        counter_(std::move(visits)), start_(clock_()), start_visits_(counter_()) {}

  // The seeds' phase is over: the sweep's projections start from it. It
  // stops nothing by itself: the sweep may solve no split more (a run's
  // ends are solved only when its bounds leave them open), so the seeds'
  // time says nothing of the sweep's.
  void seeds_done() {
    elapsed_ = projected_ = seeds_ = clock_() - start_;
    visits_ = projected_visits_ = seeds_visits_ = counter_() - start_visits_;
  }

  // `done` of `total` runs finished: returns whether the projection changed.
  bool runs_done(int done, int total) {
    if (done <= done_ || total <= 0) return false;
    done_ = done;
    total_ = total;
    elapsed_ = clock_() - start_;
    visits_ = counter_() - start_visits_;
    projected_ = seeds_ + (elapsed_ - seeds_) * total / done;
    projected_visits_ = seeds_visits_ + (visits_ - seeds_visits_) * total / done;
    if (done < total && done >= kRunsBeforeStopping && !beyond_) {
      if (projected_visits_ > work_limit_) beyond_ = by_work_ = true;
      else if (projected_ > kMargin * limit_) beyond_ = true;
    }
    return true;
  }

  // Whether the search has run beyond the margin itself (checked by the
  // runtime while it runs): it stops then, projected or not.
  bool overdue() {
    if (beyond_) return true;
    const double elapsed = clock_() - start_;
    const double visits = counter_() - start_visits_;
    if (visits > work_limit_) {
      elapsed_ = elapsed;
      visits_ = visits;
      beyond_ = overdue_ = by_work_ = true;
    } else if (elapsed > kMargin * limit_) {
      elapsed_ = elapsed;
      visits_ = visits;
      beyond_ = overdue_ = true;
    }
    return beyond_;
  }

  // What the runs are (RootRuns): the root's features unless told.
  void count(RootRuns runs) { runs_ = runs; }
  RootRuns runs() const { return runs_; }

  bool beyond() const { return beyond_; }
  // Stopped by overdue(), not by a projection.
  bool stopped_overdue() const { return overdue_; }
  // Stopped for max_work (its row visits), not for time.
  bool stopped_by_work() const { return by_work_; }
  double elapsed() const { return elapsed_; }
  double projected() const { return projected_; }
  double visits() const { return visits_; }
  double projected_visits() const { return projected_visits_; }
  int done() const { return done_; }
  int total() const { return total_; }

 private:
  double limit_, work_limit_;
  Clock clock_;
  Counter counter_;
  double start_, start_visits_, seeds_ = 0.0, elapsed_ = 0.0, projected_ = 0.0;
  double seeds_visits_ = 0.0, visits_ = 0.0, projected_visits_ = 0.0;
  int done_ = 0, total_ = 0;
  bool beyond_ = false, overdue_ = false, by_work_ = false;
  RootRuns runs_ = RootRuns::features;
};

// The host's runtime for the sweep's phase: progress and interrupts pass
// through; each run finished updates the projection, which the host hears,
// and a projection beyond the margin, or a search overdue, asks it to stop.
class ProjectingRuntime : public Runtime {
 public:
  ProjectingRuntime(Runtime& host, RootProjection& projection)
      : host_(host), projection_(projection) {}
  bool interrupt_requested() override {
    return projection_.overdue() || host_.interrupt_requested();
  }
  void progress(int done, int total) override {
    if (projection_.runs_done(done, total))
      host_.projected({projection_.elapsed(), projection_.projected(), projection_.visits(),
                       projection_.projected_visits(), done, total, projection_.runs()});
    host_.progress(done, total);
  }

 private:
  Runtime& host_;
  RootProjection& projection_;
};

}  // namespace dpdt
