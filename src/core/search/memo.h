// Solved states, shared by all threads. A state is its set of rows (hashed by
// summing random 64-bit keys, one per row) at a depth: the same rows reached
// by splits taken in another order are the same sub-problem.
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/fronts/node.h"

namespace dpdt {

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

// Sharded by the key's hash, each shard an open-addressing table (linear
// probing, at most half full) of keys and node pointers: a lookup reads one
// or two adjacent slots, where a node-based map follows a pointer per entry.
class Memo {
 public:
  const Node* find(const StateKey& key) {
    Shard& s = shard(key);
    std::lock_guard<std::mutex> lock(s.mu);
    return s.slots.empty() ? nullptr : s.slots[s.position(key)].node;
  }

  // Another thread may have solved the same state meanwhile; both answers are
  // identical, the first one stored is kept.
  const Node* insert(const StateKey& key, std::unique_ptr<Node> node) {
    const double size = footprint(*node);
    Shard& s = shard(key);
    std::lock_guard<std::mutex> lock(s.mu);
    if (2 * (s.owned.size() + 1) > s.slots.size()) s.grow();
    Slot& slot = s.slots[s.position(key)];
    if (slot.node) return slot.node;
    slot = {key, node.get()};
    s.owned.push_back(std::move(node));
    states_.fetch_add(1, std::memory_order_relaxed);
    add_bytes(size);
    return slot.node;
  }

  // A state solved and not stored (StateSolver::memoised()): counted among
  // the states solved.
  void count_unstored() { states_.fetch_add(1, std::memory_order_relaxed); }

  // The states solved: stored, or counted.
  std::size_t states() const { return states_.load(); }
  // The states stored.
  std::size_t stored() {
    std::size_t n = 0;
    for (Shard& s : shards_) {
      std::lock_guard<std::mutex> lock(s.mu);
      n += s.owned.size();
    }
    return n;
  }
  double bytes() const { return bytes_.load(); }

 private:
  static constexpr int kShards = 64;
  struct Slot {
    StateKey key;
    const Node* node;  // nullptr: empty
  };
  struct Shard {
    std::mutex mu;
    std::vector<Slot> slots;  // a power of two in size
    int bits = 0;             // log2 of slots.size()
    std::vector<std::unique_ptr<Node>> owned;

    // The key's slot, or the empty slot where it would go. The top bits of
    // a multiplicative hash: the shard's choice fixed some bits of the key.
    std::size_t position(const StateKey& key) const {
      const std::size_t mask = slots.size() - 1;
      std::size_t i = static_cast<std::size_t>(
          (static_cast<std::uint64_t>(StateKeyHash{}(key)) * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
      while (slots[i].node && !(slots[i].key == key)) i = (i + 1) & mask;
      return i;
    }
    void grow() {
      bits = std::max(6, bits + 1);
      std::vector<Slot> old(std::size_t(1) << bits, Slot{{0, 0, 0}, nullptr});
      old.swap(slots);
      for (const Slot& e : old)
        if (e.node) slots[position(e.key)] = e;
    }
  };
  Shard& shard(const StateKey& key) {
    return shards_[(key.hash >> 7) % kShards];
  }
  // A stored node's bytes, with those of the unstored states its actions
  // own (which own none: they have one level left).
  static double footprint(const Node& n) {
    const double map_entry = 64.0;
    double bytes = map_entry + own_bytes(n);
    for (const Action& a : n.actions)
      for (const ChildRef* c : {&a.left, &a.right})
        if (c->owns()) bytes += own_bytes(*c->node);
    return bytes;
  }
  static double own_bytes(const Node& n) {
    return sizeof(Node) + n.front.capacity() * sizeof(FrontPoint) +
           n.actions.capacity() * sizeof(Action) +
           (n.relaxed ? sizeof(RelaxedBound) + n.relaxed->front.capacity() * sizeof(FrontPoint)
                      : 0);
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
