// Solved states, shared by all threads. A state is its set of rows (hashed by
// summing random 64-bit keys, one per row) at a depth: the same rows reached
// by splits taken in another order are the same sub-problem.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "pareto.h"

namespace dpdt {

struct Node;

// A child of a split: a solved state, or (node == nullptr) a state that can
// only be a leaf (maximum depth, pure, or too small to split).
struct ChildRef {
  const Node* node = nullptr;
  double leaf_loss = 0.0;  // the leaf's loss; read only when node == nullptr
};

struct Action {
  int feature;
  double threshold;
  ChildRef left, right;
  std::vector<int> levels;  // categorical test: level codes going left
  signed char na_left;      // 1, 0, or -1: the state had no missing value
};

struct Node {
  std::vector<FrontPoint> front;
  std::vector<Action> actions;
};

struct StateKey {
  std::uint64_t hash;
  std::int32_t depth;
  std::int32_t count;
  bool operator==(const StateKey& o) const {
    return hash == o.hash && depth == o.depth && count == o.count;
  }
};

struct StateKeyHash {
  std::size_t operator()(const StateKey& k) const {
    return static_cast<std::size_t>(k.hash ^ (static_cast<std::uint64_t>(k.depth) << 56) ^
                                    (static_cast<std::uint64_t>(k.count) * 0x9E3779B97F4A7C15ULL));
  }
};

class Memo {
 public:
  const Node* find(const StateKey& key) {
    Shard& s = shard(key);
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.map.find(key);
    return it == s.map.end() ? nullptr : it->second.get();
  }

  // Another thread may have solved the same state meanwhile; both answers are
  // identical, the first one stored is kept.
  const Node* insert(const StateKey& key, std::unique_ptr<Node> node) {
    const double size = footprint(*node);
    Shard& s = shard(key);
    std::lock_guard<std::mutex> lock(s.mu);
    auto res = s.map.emplace(key, std::move(node));
    if (res.second) {
      states_.fetch_add(1, std::memory_order_relaxed);
      add_bytes(size);
    }
    return res.first->second.get();
  }

  std::size_t states() const { return states_.load(); }
  double bytes() const { return bytes_.load(); }

 private:
  static constexpr int kShards = 64;
  struct Shard {
    std::mutex mu;
    std::unordered_map<StateKey, std::unique_ptr<Node>, StateKeyHash> map;
  };
  Shard& shard(const StateKey& key) {
    return shards_[(key.hash >> 7) % kShards];
  }
  static double footprint(const Node& n) {
    const double map_entry = 64.0;
    return sizeof(Node) + map_entry + n.front.capacity() * sizeof(FrontPoint) +
           n.actions.capacity() * sizeof(Action);
  }
  void add_bytes(double b) {
    double cur = bytes_.load();
    while (!bytes_.compare_exchange_weak(cur, cur + b)) {
    }
  }
  std::array<Shard, kShards> shards_;
  std::atomic<std::size_t> states_{0};
  std::atomic<double> bytes_{0.0};
};

}  // namespace dpdt
