// Brute-force oracles for the search, run on thousands of small random
// problems: the exhaustive search at depth <= 2 must return exactly the Pareto
// front of all trees of depth <= 2; fronts must not depend on the number of
// threads; the cart generator must never lose to greedy CART.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <vector>

#include "brute_force.h"
#include "core/search.h"
#include "core/tree.h"

namespace {

using namespace dpdt_test;

int failures = 0;
#define CHECK(cond, ...)                         \
  do {                                           \
    if (!(cond)) {                               \
      ++failures;                                \
      std::printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      std::printf(__VA_ARGS__);                  \
      std::printf("\n");                         \
    }                                            \
  } while (0)

// weighted: 0 unit weights, 1 whole weights, 2 fractional weights.
Problem random_problem(std::mt19937& g, int k, int weighted) {
  Problem pr;
  pr.n = std::uniform_int_distribution<int>(1, 14)(g);
  pr.p = std::uniform_int_distribution<int>(1, 3)(g);
  pr.k = k;
  std::uniform_int_distribution<int> small(0, 4);
  for (int i = 0; i < pr.n * pr.p; ++i) pr.x.push_back(small(g));
  for (int i = 0; i < pr.n; ++i) {
    pr.y.push_back(k > 0 ? std::uniform_int_distribution<int>(0, k - 1)(g) : small(g) * 0.5);
    const int whole = std::uniform_int_distribution<int>(1, 3)(g);
    pr.w.push_back(weighted == 0 ? 1.0 : weighted == 1 ? whole : whole * 0.1 + 0.03);
  }
  return pr;
}

dpdt::SearchOptions options(int depth, bool exhaustive, bool tests, int min_bucket, int threads) {
  dpdt::SearchOptions o;
  o.max_depth = depth;
  o.candidates = exhaustive ? dpdt::Candidates::exhaustive : dpdt::Candidates::cart;
  o.complexity = tests ? dpdt::Complexity::tests : dpdt::Complexity::splits;
  o.min_bucket = min_bucket;
  o.threads = threads;
  return o;
}

void test_exhaustive_matches_brute_force() {
  std::mt19937 g(42);
  int cases = 0;
  for (int rep = 0; rep < 3000; ++rep) {
    const int k = rep % 3 == 2 ? 0 : 2 + rep % 2;
    Problem pr = random_problem(g, k, rep % 5 == 0 ? 1 : rep % 5 == 1 ? 2 : 0);
    const int depth = 1 + rep % 2, min_bucket = 1 + (rep % 7 == 0);
    const bool tests = rep % 4 < 2;
    dpdt::Dataset d = dpdt::make_dataset(pr.x.data(), pr.n, pr.p, pr.y.data(), pr.w.data(), k);
    const dpdt::SearchOptions o = options(depth, true, tests, min_bucket, 1 + rep % 2);
    dpdt::Search s(d, o);
    dpdt::Runtime rt;
    s.run(rt);
    std::vector<int> rows(pr.n);
    for (int i = 0; i < pr.n; ++i) rows[i] = i;
    const double tol = 1e-7;
    auto expect = pareto(all_trees(pr, rows, depth, min_bucket, tests), tol);
    const auto& got = s.front();
    bool same = expect.size() == got.size();
    for (std::size_t i = 0; same && i < got.size(); ++i)
      same = std::fabs(expect[i].first - got[i].complexity) < tol &&
             std::fabs(expect[i].second - got[i].loss) < tol;
    CHECK(same, "exhaustive front differs from brute force (case %d: n=%d p=%d k=%d depth=%d)",
          rep, pr.n, pr.p, k, depth);
    // Every front tree, rebuilt and re-evaluated, has the loss the front says.
    for (std::size_t i = 0; i < got.size(); ++i) {
      dpdt::FlatTree t = dpdt::extract_tree(s.root(), static_cast<int>(i));
      dpdt::fill_node_stats(t, d);
      double loss = 0;
      for (int v = 0; v < t.size(); ++v)
        if (t.feature[v] < 0) loss += t.loss[v];
      CHECK(std::fabs(loss - got[i].loss) < tol, "tree %zu loss %g, front says %g", i, loss,
            got[i].loss);
    }
    ++cases;
  }
  std::printf("exhaustive vs brute force: %d cases\n", cases);
}

Problem larger_problem(std::mt19937& g, int n, int p, int k) {
  Problem pr{n, p, k, {}, {}, {}};
  std::normal_distribution<double> z;
  for (int i = 0; i < n * p; ++i) pr.x.push_back(std::round(z(g) * 20) / 20);
  for (int i = 0; i < n; ++i) {
    const double s = pr.x[i] + (p > 1 ? pr.x[n + i] * pr.x[i] : 0) + 0.5 * z(g);
    pr.y.push_back(k > 0 ? (s > 0.3) + (k > 2 && s > 1.2) : s);
    pr.w.push_back(1.0);
  }
  return pr;
}

void test_threads_do_not_change_results() {
  std::mt19937 g(7);
  for (int rep = 0; rep < 6; ++rep) {
    const int k = rep % 3 == 2 ? 0 : 2 + rep % 2;
    Problem pr = larger_problem(g, 400, 4, k);
    dpdt::Dataset d = dpdt::make_dataset(pr.x.data(), pr.n, pr.p, pr.y.data(), pr.w.data(), k);
    std::vector<std::vector<double>> fronts;
    for (int threads : {1, 2, 3}) {
      dpdt::SearchOptions o = options(4, false, rep % 2 == 0, 1, threads);
      o.cart_depth = {3, 2};
      dpdt::Search s(d, o);
      dpdt::Runtime rt;
      s.run(rt);
      std::vector<double> flat;
      for (std::size_t i = 0; i < s.front().size(); ++i) {
        flat.push_back(s.front()[i].loss);
        flat.push_back(s.front()[i].complexity);
        const dpdt::FlatTree t = dpdt::extract_tree(s.root(), static_cast<int>(i));
        for (int v = 0; v < t.size(); ++v) {
          flat.push_back(t.feature[v]);
          flat.push_back(t.feature[v] < 0 ? 0.0 : t.threshold[v]);
        }
      }
      fronts.push_back(flat);
    }
    CHECK(fronts[0] == fronts[1] && fronts[1] == fronts[2], "threads change the front (rep %d)", rep);
  }
}

// Greedy CART of depth D (entropy, the same tie rules) is one of the trees the
// cart generator can build, so some front point is at least as good.
void test_never_worse_than_greedy() {
  std::mt19937 g(11);
  for (int rep = 0; rep < 20; ++rep) {
    Problem pr = larger_problem(g, 300, 3, 2 + rep % 2);
    dpdt::Dataset d = dpdt::make_dataset(pr.x.data(), pr.n, pr.p, pr.y.data(), pr.w.data(), pr.k);
    dpdt::SearchOptions greedy = options(3, false, false, 1, 1);
    greedy.cart_depth = {1};
    dpdt::Search sg(d, greedy);
    dpdt::SearchOptions o = options(3, false, false, 1, 2);
    dpdt::Search s(d, o);
    dpdt::Runtime rt;
    sg.run(rt);
    s.run(rt);
    // Every point of the cart_depth = 1 front is weakly dominated by the K = 5 front.
    for (const auto& q : sg.front()) {
      bool dominated = false;
      for (const auto& r : s.front())
        dominated = dominated || (r.complexity <= q.complexity && r.loss <= q.loss + 1e-9);
      CHECK(dominated, "cart_depth 5 front misses a point of cart_depth 1 (rep %d)", rep);
    }
  }
}

void test_memory_guard() {
  std::mt19937 g(3);
  Problem pr = larger_problem(g, 300, 4, 2);
  dpdt::Dataset d = dpdt::make_dataset(pr.x.data(), pr.n, pr.p, pr.y.data(), pr.w.data(), 2);
  dpdt::SearchOptions o = options(4, true, true, 1, 2);
  o.max_memory_bytes = 2e6;
  dpdt::Search s(d, o);
  dpdt::Runtime rt;
  bool refused = false;
  try {
    s.run(rt);
  } catch (const dpdt::ResourceLimit& e) {
    refused = std::string(e.what()).find("max_memory") != std::string::npos;
  }
  CHECK(refused, "the memory guard did not stop an exhaustive depth-4 search at 2 MB");
}

// A split that CART scores equal to its choice is a candidate too, so the
// result does not hang on an arbitrary tie-break (it did on 'occupancy').
void test_tied_cart_split_is_a_candidate() {
  // y = 0 0 1 1 0 1. In x0's order the labels read 0 0 1 0 1 1, in x1's
  // 1 1 0 1 0 0: mirror images, so cutting after 2 or after 4 rows scores
  // the same on either feature: four different partitions, all tied; the
  // first two (x0 after 2 rows, x0 after 4 rows) are candidates.
  const std::vector<double> x = {1, 2, 3, 5, 4, 6,   3, 5, 1, 2, 6, 4};
  const std::vector<double> y = {0, 0, 1, 1, 0, 1}, w(6, 1.0);
  dpdt::Dataset d = dpdt::make_dataset(x.data(), 6, 2, y.data(), w.data(), 2);
  dpdt::SearchOptions o;
  o.cart_depth = {1};
  dpdt::CandidateGenerator g(d, o);
  const auto c = g.generate(d.sorted.data(), 6, 0);
  CHECK(c.size() == 2 && c[0].feature == 0 && c[0].left_count == 2 && c[1].feature == 0 &&
            c[1].left_count == 4,
        "expected two tied splits of x0 as candidates, got %zu", c.size());
}

// Long fronts (complexity "tests" at depth 6): the pairs of two children's
// fronts are refused with a message once they would take a quarter of the
// budget, before the memo itself fills it.
void test_front_pair_guard() {
  std::mt19937 g(9);
  Problem pr = larger_problem(g, 600, 3, 0);
  dpdt::Dataset d = dpdt::make_dataset(pr.x.data(), pr.n, pr.p, pr.y.data(), pr.w.data(), 0);
  dpdt::SearchOptions o = options(6, false, true, 1, 1);
  o.cart_depth = {2};
  o.max_memory_bytes = 4e5;
  dpdt::Search tight(d, o);
  dpdt::Runtime rt;
  std::string msg;
  try {
    tight.run(rt);
  } catch (const dpdt::ResourceLimit& e) {
    msg = e.what();
  }
  CHECK(msg.find("Pareto fronts") != std::string::npos && msg.find("splits") != std::string::npos,
        "expected the front-pairs guard, got '%s'", msg.c_str());
}

struct StopAtOnce : dpdt::Runtime {
  bool interrupt_requested() override { return true; }
};

void test_interrupt() {
  std::mt19937 g(5);
  Problem pr = larger_problem(g, 2000, 4, 2);
  dpdt::Dataset d = dpdt::make_dataset(pr.x.data(), pr.n, pr.p, pr.y.data(), pr.w.data(), 2);
  dpdt::SearchOptions o = options(4, true, true, 1, 2);
  dpdt::Search s(d, o);
  StopAtOnce rt;
  bool stopped = false;
  try {
    s.run(rt);
  } catch (const dpdt::Interrupted&) {
    stopped = true;
  }
  CHECK(stopped, "an interrupt request did not stop the search");
}

}  // namespace

template <class F>
void timed(const char* name, F f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  std::printf("%-40s %.1f s\n", name,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

int main() {
  timed("exhaustive equals brute force", test_exhaustive_matches_brute_force);
  timed("threads do not change results", test_threads_do_not_change_results);
  timed("never worse than greedy CART", test_never_worse_than_greedy);
  timed("a tied CART split is a candidate", test_tied_cart_split_is_a_candidate);
  timed("memory guard", test_memory_guard);
  timed("front pairs guard", test_front_pair_guard);
  timed("interrupt", test_interrupt);
  std::printf("core tests: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
