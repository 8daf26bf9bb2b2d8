// The engine's Runtime on R's side (glue only: knows R): interrupts and
// elapsed setTimeLimit()s, polled on the thread that called R, and progress
// lines on R's console.
#pragma once
#include <Rcpp.h>
#include <R_ext/Utils.h>

#include <chrono>
#include <cmath>

#include "core/runtime.h"

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
  RRuntime(bool show, double seconds)
      : show_(show), classes_{"interrupt", "error"},
        limited_(std::isfinite(seconds)),
        deadline_(std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(limited_ ? seconds : 0.0))) {}
  ~RRuntime() override {
    if (shown_) REprintf("\n");
  }
  bool interrupt_requested() override {
    if (limited_ && std::chrono::steady_clock::now() >= deadline_) {
      timed_out_ = true;
      return true;
    }
    SEXP cond = R_NilValue;
    R_tryCatch(check_interrupt_fn, nullptr, classes_, keep_condition, &cond, nullptr, nullptr);
    if (cond == R_NilValue) return false;
    condition_ = cond;  // protected by the Rcpp object
    return true;
  }
  // The condition that stopped the search (R_NilValue: none).
  SEXP condition() const { return condition_; }
  bool timed_out() const { return timed_out_; }
  void estimate(double row_visits, double seconds) override {
    if (!show_ || seconds < 1.0) return;  // a short search needs no forecast
    REprintf("dpdt: about %.2g row visits estimated (up to about %.0f s)\n", row_visits,
             seconds);
  }
  void progress(int done, int total) override {
    if (!show_ || done == last_) return;
    last_ = done;
    shown_ = true;
    REprintf("\rdpdt: %d of %d subtrees below the root searched", done, total);
  }

 private:
  bool show_;
  bool shown_ = false;
  int last_ = -1;
  Rcpp::CharacterVector classes_;
  Rcpp::RObject condition_;
  bool limited_;
  std::chrono::steady_clock::time_point deadline_;
  bool timed_out_ = false;
};

}  // namespace dpdt_glue
