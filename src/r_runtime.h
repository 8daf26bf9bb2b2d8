// The engine's Runtime on R's side (glue only: knows R): interrupts and
// elapsed setTimeLimit()s, polled on the thread that called R, and progress
// lines on R's console.
#pragma once
#include <Rcpp.h>
#include <R_ext/Utils.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/runtime/runtime.h"

namespace dpdt_glue {

inline SEXP check_interrupt_fn(void*) {
  R_CheckUserInterrupt();
  return R_NilValue;
}
inline SEXP keep_condition(SEXP cond, void* out) {
  *static_cast<SEXP*>(out) = cond;
  return R_NilValue;
}

// Runs on the thread that called R. R_CheckUserInterrupt() runs inside an
// R-level tryCatch(interrupt =, error =), so R's longjmp never jumps over
// the engine's C++ frames, and the condition is kept: Ctrl-C (an interrupt)
// and an elapsed setTimeLimit() (an error) are told apart, and the glue
// re-raises the original after the engine has unwound.
class RRuntime : public dpdt::Runtime {
 public:
  // `seconds`: the time the search may take (time_limit); Inf: no limit.
  // `terminal`: progress goes to a terminal (one line rewritten in place);
  // `announce`: a long search is announced (no time limit bounds it).
  RRuntime(bool show, double seconds, bool terminal = false, bool announce = false)
      : show_(show), terminal_(terminal), announce_(announce), classes_{"interrupt", "error"},
        limited_(std::isfinite(seconds)),
        deadline_(std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(limited_ ? seconds : 0.0))) {}
  ~RRuntime() override {
    if (shown_) REprintf("\n");
  }
  bool interrupt_requested() override {
    const auto now = std::chrono::steady_clock::now();
    if (limited_ && now >= deadline_) {
      timed_out_ = true;
      return true;
    }
    if (announce_ && measured_ && !measured_told_ && projections_.seconds.empty() &&
        std::chrono::duration<double>(now - measured_start_).count() >= announce_after_)
      tell_measured_running();
    SEXP cond = R_NilValue;
    R_tryCatch(check_interrupt_fn, nullptr, classes_, keep_condition, &cond, nullptr, nullptr);
    if (cond == R_NilValue) return false;
    condition_ = cond;  // protected by the Rcpp object
    return true;
  }
  // The condition that stopped the search (R_NilValue: none).
  SEXP condition() const { return condition_; }
  bool timed_out() const { return timed_out_; }
  // A sentence added to the announcement of a long search (from R).
  void set_hint(std::string hint) { hint_ = std::move(hint); }
  // Whether the search may bound what it estimates: the hint is about the
  // bounds, said only then.
  void bounds(bool apply) override { bounds_ = apply; }
  // What follows the estimate's announcement or refusal: " " and the hint,
  // or nothing.
  std::string estimate_hint() const { return hint_.empty() || !bounds_ ? "" : " " + hint_; }
  // What a measured search (timed as it runs) says beside its announcement:
  // the settings that slow it (from R; the estimate's hint is not for it).
  void set_measured_hint(std::string hint) { measured_hint_ = std::move(hint); }
  const std::string& measured_hint() const { return measured_hint_; }
  // The work estimate the engine announced before it started (NaN: none).
  double estimated_visits() const { return estimated_visits_; }
  double estimated_seconds() const { return estimated_seconds_; }
  // Seconds after which a measured search says it is running long
  // (default a minute; the tests lower it).
  void set_announce_after(double seconds) { announce_after_ = seconds; }
  // A search estimated beyond a minute says so first, as an R message
  // (whatever `progress`): how long it may take and how to bound it. A
  // measured one (timed as it runs) says nothing then: its estimate counts
  // none of the splits its bounds skip (exhaustive depth 3 took 1/106 to
  // 1/170,000 of it), and "up to" hours before a search of a second
  // misleads. It speaks once it is known to run long: at its first
  // projection beyond a minute, or after a minute without one.
  void estimate(double row_visits, double seconds, bool measured) override {
    estimated_visits_ = row_visits;
    estimated_seconds_ = seconds;
    measured_ = measured;
    measured_start_ = std::chrono::steady_clock::now();
    if (announce_ && !measured && seconds >= 60.0) {
      char text[600];
      std::snprintf(text, sizeof text,
                    "dpdt_fit(): this search may take up to about %s (its work, %.2g "
                    "row visits, is meant as an upper bound; its time assumes 1e9 visits a "
                    "second, 3e8 for a regression, and data beyond the processor's caches run "
                    "up to ten times slower). "
                    "To bound it, set time_limit (seconds), or lower max_depth or cart_depth.",
                    duration(seconds).c_str(), row_visits);
      say(text + estimate_hint());
    } else if (show_ && !measured && seconds >= 1.0) {
      REprintf("dpdt: up to about %.0f s estimated (%.2g row visits)\n", seconds, row_visits);
    }
  }
  void projected(const dpdt::Projected& p) override {
    const double elapsed = p.elapsed, seconds = p.seconds;
    const int done = p.done, total = p.total;
    projections_.elapsed.push_back(elapsed);
    projections_.done.push_back(done);
    projections_.total.push_back(total);
    projections_.seconds.push_back(seconds);
    projections_.visits.push_back(p.visits);
    projections_.projected_visits.push_back(p.projected_visits);
    projections_.runs.push_back(dpdt::root_runs_name(p.runs));
    if (announce_ && !projection_told_ && done < total && seconds >= announce_after_) {
      projection_told_ = true;
      char text[512];
      std::snprintf(text, sizeof text,
                    "dpdt_fit(): this search tries every split%s and is timed as it runs: "
                    "projected at about %s in all (timed on %d of the root's %d %s, %s).",
                    p.runs == dpdt::RootRuns::splits ? " below its root's candidates" : "",
                    duration(seconds).c_str(), done, total, dpdt::root_runs_name(p.runs),
                    duration(elapsed).c_str());
      say(text + what_to_do());
    }
  }
  // The projections of a measured search, in order (empty: none).
  struct Projections {
    std::vector<double> elapsed, seconds, visits, projected_visits;
    std::vector<int> done, total;
    std::vector<std::string> runs;  // what the runs are (root_runs_name())
  };
  const Projections& projections() const { return projections_; }
  bool measured() const { return measured_; }
  // The projected time beyond which a measured search stops (Inf: never).
  void set_stop_beyond(double seconds) { stop_beyond_ = seconds; }
  // On a terminal one line rewritten in place; in a log (not a terminal) a
  // line of its own at most every 10% of the subtrees, and the last.
  void progress(int done, int total) override {
    if (!show_ || done == last_) return;
    if (!terminal_ && done != total && total > 0 && (done - last_shown_) * 10 < total) return;
    last_ = done;
    last_shown_ = done;
    shown_ = terminal_;
    std::string left;
    if (!projections_.seconds.empty() && done < total) {
      const double rest = projections_.seconds.back() - projections_.elapsed.back();
      left = ", about " + duration(rest > 0 ? rest : 0) + " left";
    }
    if (terminal_) REprintf("\rdpdt: %d of %d subtrees below the root searched%s   ", done, total, left.c_str());
    else REprintf("dpdt: %d of %d subtrees below the root searched%s\n", done, total, left.c_str());
  }

 private:
  // A measured search still running after announce_after_ seconds with no
  // projection yet (the root's first feature can take that long at depth
  // 4), once; once projected, the projections speak (projected()).
  void tell_measured_running() {
    measured_told_ = true;
    char text[512];
    std::snprintf(text, sizeof text,
                  "dpdt_fit(): this search tries every split and is timed as it runs: it has "
                  "run %s before the first of the root's features was timed (with missing "
                  "values or level groups, its first group of candidate splits; with "
                  "exact_levels = 2, its first candidate split; the projection follows it).",
                  duration(announce_after_).c_str());
    say(text + what_to_do());
  }
  // What a measured search's announcements add: when it stops, how to
  // bound it, and the settings that slow it (measured_hint_).
  std::string what_to_do() const {
    std::string out;
    if (std::isfinite(stop_beyond_))
      out += " It stops with an error if projected beyond " + duration(stop_beyond_) +
             " (or still running then).";
    return out + " To bound it, set time_limit (seconds)." + measured_hint_;
  }
  static void say(const std::string& text) {
    Rcpp::Function message = Rcpp::Environment::base_env()["message"];
    message(text);
  }
  static std::string duration(double seconds) {
    char out[64];
    if (seconds < 120) std::snprintf(out, sizeof out, "%.0f seconds", seconds);
    else if (seconds < 7200) std::snprintf(out, sizeof out, "%.0f minutes", seconds / 60);
    else if (seconds < 172800) std::snprintf(out, sizeof out, "%.2g hours", seconds / 3600);
    else std::snprintf(out, sizeof out, "%.0f days", seconds / 86400);
    return out;
  }

  bool show_;
  bool terminal_, announce_;
  bool shown_ = false;
  int last_ = -1, last_shown_ = 0;
  Rcpp::CharacterVector classes_;
  Rcpp::RObject condition_;
  bool limited_;
  std::chrono::steady_clock::time_point deadline_;
  bool timed_out_ = false;
  double estimated_visits_ = NAN, estimated_seconds_ = NAN;
  bool measured_ = false, bounds_ = false, projection_told_ = false, measured_told_ = false;
  double announce_after_ = 60.0;
  std::chrono::steady_clock::time_point measured_start_;
  double stop_beyond_ = INFINITY;
  Projections projections_;
  std::string hint_;
  std::string measured_hint_;
};

}  // namespace dpdt_glue
