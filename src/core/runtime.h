// How the engine talks to its host (R, or a plain C++ test) without knowing it:
// the host answers "should we stop?" and receives progress, always on the
// thread that called the engine, never on a worker thread.
#pragma once
#include <stdexcept>
#include <string>

namespace dpdt {

class Runtime {
 public:
  virtual ~Runtime() = default;
  virtual bool interrupt_requested() { return false; }
  virtual void progress(int done, int total) { (void)done; (void)total; }
  // Before the search starts: its estimated work (WorkEstimate) and time.
  virtual void estimate(double row_visits, double seconds) { (void)row_visits; (void)seconds; }
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

// A search that would exceed its memory budget; the message says what to lower.
class ResourceLimit : public std::runtime_error {
 public:
  explicit ResourceLimit(const std::string& msg) : std::runtime_error(msg) {}
};

}  // namespace dpdt
