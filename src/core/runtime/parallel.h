// Runs independent tasks on worker threads while the calling thread alone
// talks to the host: it polls for interrupts and reports progress. Workers
// never call the host.
#pragma once
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/runtime/runtime.h"

namespace dpdt {

// Thrown inside workers when the search is being abandoned.
struct Aborted {};

template <class Task>
void run_tasks(int n_tasks, int threads, Runtime& runtime, std::atomic<bool>& abort,
               Task&& task) {
  const int n_workers = std::max(1, std::min(threads, n_tasks));
  std::atomic<int> next{0}, done{0};
  int finished = 0;
  std::mutex mu;
  std::condition_variable cv;
  std::exception_ptr error;

  auto work = [&](int worker) {
    for (;;) {
      const int t = next.fetch_add(1);
      if (t >= n_tasks || abort.load()) break;
      try {
        task(t, worker);
      } catch (const Aborted&) {
        break;
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        abort.store(true);
        break;
      }
      done.fetch_add(1);
    }
    std::lock_guard<std::mutex> lock(mu);
    ++finished;
    cv.notify_all();
  };

  std::vector<std::thread> pool;
  for (int w = 0; w < n_workers; ++w) pool.emplace_back(work, w);
  bool interrupted = false;
  {
    std::unique_lock<std::mutex> lock(mu);
    while (finished < n_workers) {
      cv.wait_for(lock, std::chrono::milliseconds(100));
      lock.unlock();
      if (!interrupted && runtime.interrupt_requested()) {
        interrupted = true;
        abort.store(true);
      }
      runtime.progress(done.load(), n_tasks);
      lock.lock();
    }
  }
  for (auto& t : pool) t.join();
  // Workers may all finish before the loop above first wakes: report the
  // final count once more so a shown progress always reaches "n of n".
  if (!interrupted) runtime.progress(done.load(), n_tasks);
  if (interrupted) throw Interrupted();
  if (error) std::rethrow_exception(error);
}

}  // namespace dpdt
