// Features whose every split is a split of an earlier feature: the same
// order of the rows with the same ties (a feature and its increasing
// transform: bean's Area and EquivDiameter), or that order reversed with
// no missing values (a decreasing transform). A twin's split sends the
// same rows to its two sides as a split of the earlier feature (reversed:
// each to the other side), so every tree with it has the same loss and
// complexity as one with the earlier feature's split, which comes first
// among the candidates (feature order) and wins every tie. Where every
// split is tried, the search without the twins therefore finds the same
// fronts and trees, with less work at every state (bean, 3 twins of 16
// features: exhaustive depth 3 37.9 -> 23.0 s, exact_levels = 2 7.6 ->
// 5.4 s, the same trees). Where CART proposes splits it keeps two of those
// tied for its best, and a twin no longer takes one of the two places:
// there its proposals can only gain a split, and the front only improve.
// Only numeric features of the same test cost; the core tests and the
// fuzzer compare searches with and without.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/data/dataset.h"

namespace dpdt {

// Drops from a presorted dataset (Dataset::sorted) every twin of an
// earlier feature, in place, and returns the original index of each
// feature kept (ascending): the caller maps the trees' features back.
// A dataset without the presort is left alone.
inline std::vector<int> drop_twin_features(Dataset& d) {
  std::vector<int> kept(d.p);
  for (int f = 0; f < d.p; ++f) kept[f] = f;
  if (d.p < 2 || d.sorted.empty() || d.n == 0) return kept;
  const std::size_t n = static_cast<std::size_t>(d.n);
  auto block = [&](int f) { return d.sorted.data() + f * n; };
  // Each feature's highest rank of a value, and whether it has missing
  // values (they sort last, with kMissingRank).
  std::vector<int> top(d.p, 0);
  std::vector<char> missing(d.p, 0);
  for (int f = 0; f < d.p; ++f) {
    missing[f] = holds_missing(block(f), d.n);
    for (std::size_t i = n; i-- > 0;)
      if (block(f)[i].rank != kMissingRank) {
        top[f] = block(f)[i].rank;
        break;
      }
  }
  // Order-sensitive fingerprints of a feature's ranks by row, as they are
  // and reversed, in one pass: each row's key is computed from its index
  // (a table read in the block's order would be read at random: 0.5 s of
  // 5e6 rows x 10 features, a quarter of their presort).
  auto key = [](std::uint64_t row) {
    std::uint64_t z = row * 0x9e3779b97f4a7c15ull + 0x5eed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  auto fingerprints = [&](int f) {
    std::uint64_t as_is = 0, reversed = 0;
    const std::uint64_t up = static_cast<std::uint64_t>(top[f]) + 1;
    for (std::size_t i = 0; i < n; ++i) {
      const Entry& e = block(f)[i];
      const std::uint64_t v = static_cast<std::uint64_t>(e.rank);
      const std::uint64_t k = key(static_cast<std::uint64_t>(e.row));
      as_is += k * (v + 1);
      reversed += k * (up - v);
    }
    return std::make_pair(as_is, reversed);
  };
  std::vector<int> rank_of(n);  // an earlier feature's rank of each row
  auto same_order = [&](int f, int g, bool reversed) {
    if (top[f] != top[g]) return false;
    for (std::size_t i = 0; i < n; ++i) rank_of[block(f)[i].row] = block(f)[i].rank;
    for (std::size_t i = 0; i < n; ++i) {
      const Entry& e = block(g)[i];
      if ((reversed ? top[g] - e.rank : e.rank) != rank_of[e.row]) return false;
    }
    return true;
  };
  std::vector<char> twin(d.p, 0);
  std::unordered_multimap<std::uint64_t, int> earlier;  // fingerprint -> feature
  for (int g = 0; g < d.p; ++g) {
    if (d.categorical(g)) continue;
    const auto [as_is, reversed_order] = fingerprints(g);
    for (bool reversed : {false, true}) {
      if (twin[g] || (reversed && missing[g])) continue;
      const auto range = earlier.equal_range(reversed ? reversed_order : as_is);
      for (auto it = range.first; it != range.second && !twin[g]; ++it) {
        const int f = it->second;
        twin[g] = d.cost(f) == d.cost(g) && missing[f] == missing[g] &&
                  d.is_binned(f) == d.is_binned(g) && same_order(f, g, reversed);
      }
    }
    if (!twin[g]) earlier.emplace(as_is, g);
  }
  if (std::none_of(twin.begin(), twin.end(), [](char t) { return t != 0; })) return kept;
  // Compact every per-feature field.
  kept.clear();
  for (int f = 0; f < d.p; ++f) {
    if (twin[f]) continue;
    const int to = static_cast<int>(kept.size());
    kept.push_back(f);
    if (to == f) continue;
    d.column[to] = d.column[f];
    std::copy(d.sorted.begin() + f * n, d.sorted.begin() + (f + 1) * n, d.sorted.begin() + to * n);
    if (!d.binned.empty()) d.binned[to] = d.binned[f];
    if (!d.n_levels.empty()) d.n_levels[to] = d.n_levels[f];
    if (!d.feature_cost.empty()) d.feature_cost[to] = d.feature_cost[f];
  }
  d.p = static_cast<int>(kept.size());
  d.column.resize(d.p);
  d.sorted.resize(static_cast<std::size_t>(d.p) * n);
  if (!d.binned.empty()) d.binned.resize(d.p);
  if (!d.n_levels.empty()) d.n_levels.resize(d.p);
  if (!d.feature_cost.empty()) d.feature_cost.resize(d.p);
  return kept;
}

}  // namespace dpdt
