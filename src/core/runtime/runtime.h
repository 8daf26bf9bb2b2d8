// How the engine talks to its host (R, or a plain C++ test) without knowing it:
// the host answers "should we stop?" and receives progress, always on the
// thread that called the engine, never on a worker thread.
#pragma once
#include <chrono>
#include <stdexcept>
#include <string>

namespace dpdt {

// What a measured root's runs are: its features (each feature's candidate
// splits one run), groups of its candidate splits (a numeric feature with
// missing values has two, one for each side they go to; a factor, one per
// level group; a distributed chunk, the parts of features it holds), or its
// candidate splits one by one (exact_levels = 2).
enum class RootRuns { features, groups, splits };

// The runs named in a message, plural ("after 3 of the root's 9 ...").
inline const char* root_runs_name(RootRuns runs) {
  switch (runs) {
    case RootRuns::features: return "features";
    case RootRuns::groups: return "groups of candidate splits";
    case RootRuns::splits: return "candidate splits";
  }
  return "runs";
}

// A measured search's projection after some of its root's runs.
struct Projected {
  double elapsed = 0.0, seconds = 0.0;           // seconds so far; projected in all
  double visits = 0.0, projected_visits = 0.0;   // row visits so far; projected in all
  int done = 0, total = 0;                       // runs finished, of
  RootRuns runs = RootRuns::features;            // what the runs are
};

class Runtime {
 public:
  virtual ~Runtime() = default;
  virtual bool interrupt_requested() { return false; }
  virtual void progress(int done, int total) { (void)done; (void)total; }
  // Before the estimate (and any refusal by it): whether the search may
  // bound states that try every split, skipping splits its estimate counts
  // (not with a factor of more than 12 levels, regression, or inexact sums
  // of complexities).
  virtual void bounds(bool apply) { (void)apply; }
  // Before the search starts: its estimated work (WorkEstimate) and time;
  // `measured`: the search is timed as it runs instead (RootProjection).
  virtual void estimate(double row_visits, double seconds, bool measured) {
    (void)row_visits;
    (void)seconds;
    (void)measured;
  }
  // A measured search: after `done` of `total` runs of the root, its time
  // and row visits so far, and both projected in all.
  virtual void projected(const Projected& p) { (void)p; }
};

// Passes interrupts through but shows no progress (a preliminary phase).
class QuietRuntime : public Runtime {
 public:
  explicit QuietRuntime(Runtime& host) : host_(host) {}
  bool interrupt_requested() override { return host_.interrupt_requested(); }

 private:
  Runtime& host_;
};

// The user asked to stop (Ctrl-C); the host turns this into its own interrupt.
class Interrupted : public std::exception {
 public:
  const char* what() const noexcept override { return "interrupted"; }
};

// For a long loop on the host's own thread (no workers): asks the host
// whether to stop about every `period` seconds (the clock is read once per
// 256 ticks) and throws Interrupted when it says so. No host: never stops.
class InterruptPoll {
 public:
  explicit InterruptPoll(Runtime* host, double period = 0.2)
      : host_(host), period_(period), last_(std::chrono::steady_clock::now()) {}
  void tick() {
    if (!host_ || (++ticks_ & 255u) != 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_).count() < period_) return;
    last_ = now;
    if (host_->interrupt_requested()) throw Interrupted();
  }

 private:
  Runtime* host_;
  double period_;
  std::chrono::steady_clock::time_point last_;
  unsigned ticks_ = 0;
};

// A search that would exceed its memory budget; the message says what to lower.
class ResourceLimit : public std::runtime_error {
 public:
  explicit ResourceLimit(const std::string& msg) : std::runtime_error(msg) {}
};

// A search refused for its size (estimated work, or the memo's memory),
// which a narrower search would avoid; other limits (row buffers, a
// split's front pairs) are ResourceLimit itself.
class SearchTooLarge : public ResourceLimit {
 public:
  explicit SearchTooLarge(const std::string& msg) : ResourceLimit(msg) {}
};

}  // namespace dpdt
