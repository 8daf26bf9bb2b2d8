// Glue (knows R): the engine's FlatTree to and from the R list that holds a
// tree in every front object. One conversion, shared by all glue files.
// R side: 1-based node and feature ids, feature 0 at a leaf; `levels_left`
// a list (NULL for numeric tests and leaves, else the 1-based level codes
// sent left); `na_left` logical, NA where no side is known; `na_learned`
// logical, TRUE where the side was learned from rows with a missing value
// (absent in converted trees: there every known side counts as learned).
#pragma once
#include <Rcpp.h>

#include <algorithm>
#include <vector>

#include "core/fronts/tree.h"

namespace dpdt_glue {

inline Rcpp::IntegerVector one_based(const std::vector<int>& v) {
  Rcpp::IntegerVector out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i] + 1;
  return out;
}

// Structure only (the part routing needs), from the R list of a tree.
inline dpdt::FlatTree tree_from_r(const Rcpp::List& tree) {
  const Rcpp::IntegerVector feature = tree["feature"], left = tree["left"], right = tree["right"];
  const Rcpp::NumericVector threshold = tree["threshold"];
  const int size = feature.size();
  if (threshold.size() != size || left.size() != size || right.size() != size || size == 0)
    Rcpp::stop("a tree's node vectors must be non-empty and of equal length");
  const bool has_na = tree.containsElementNamed("na_left") && !Rf_isNull(tree["na_left"]);
  const bool has_lev = tree.containsElementNamed("levels_left") && !Rf_isNull(tree["levels_left"]);
  const Rcpp::LogicalVector na_left = has_na ? Rcpp::LogicalVector(tree["na_left"]) : Rcpp::LogicalVector();
  const Rcpp::List levels_left = has_lev ? Rcpp::List(tree["levels_left"]) : Rcpp::List();
  const bool has_learned = tree.containsElementNamed("na_learned") && !Rf_isNull(tree["na_learned"]);
  const Rcpp::LogicalVector na_learned = has_learned ? Rcpp::LogicalVector(tree["na_learned"]) : Rcpp::LogicalVector();
  if (has_learned && na_learned.size() != size)
    Rcpp::stop("a tree's na_learned must have one element per node");
  if ((has_na && na_left.size() != size) || (has_lev && levels_left.size() != size))
    Rcpp::stop("a tree's na_left and levels_left must have one element per node");
  dpdt::FlatTree t;
  for (int v = 0; v < size; ++v) {
    t.add(0);
    t.feature[v] = feature[v] - 1;
    t.threshold[v] = threshold[v];
    t.left[v] = left[v] - 1;
    t.right[v] = right[v] - 1;
    if (t.feature[v] >= 0 && (t.left[v] <= v || t.right[v] <= v || t.left[v] >= size ||
                              t.right[v] >= size))
      Rcpp::stop("node %d of the tree has invalid children", v + 1);
    if (has_na && na_left[v] != NA_LOGICAL) t.na_left[v] = na_left[v] ? 1 : 0;
    t.na_learned[v] = has_learned ? na_learned[v] == TRUE : t.na_left[v] != dpdt::kNaNoSide;
    if (has_lev && !Rf_isNull(levels_left[v])) {
      const Rcpp::IntegerVector lev = levels_left[v];
      t.left_levels[v].assign(lev.begin(), lev.end());
      std::sort(t.left_levels[v].begin(), t.left_levels[v].end());
    }
  }
  return t;
}

// The whole tree, with its training statistics, as the R list.
inline Rcpp::List tree_to_r(const dpdt::FlatTree& t, int n_classes) {
  Rcpp::NumericVector value(t.value.begin(), t.value.end());
  if (n_classes > 0) value = value + 1.0;
  Rcpp::NumericVector thr(t.threshold.begin(), t.threshold.end());
  Rcpp::LogicalVector na_left(t.size());
  Rcpp::List levels_left(t.size());
  Rcpp::LogicalVector na_learned(t.size());
  for (int v = 0; v < t.size(); ++v) {
    if (t.feature[v] < 0 || !t.left_levels[v].empty()) thr[v] = NA_REAL;  // R's NA, not NaN
    na_left[v] = t.na_left[v] == dpdt::kNaNoSide ? NA_LOGICAL : t.na_left[v];
    na_learned[v] = t.feature[v] < 0 ? NA_LOGICAL : t.na_learned[v] != 0;
    if (!t.left_levels[v].empty())
      levels_left[v] = Rcpp::IntegerVector(t.left_levels[v].begin(), t.left_levels[v].end());
  }
  Rcpp::List out = Rcpp::List::create(
      Rcpp::_["feature"] = one_based(t.feature), Rcpp::_["threshold"] = thr,
      Rcpp::_["levels_left"] = levels_left, Rcpp::_["na_left"] = na_left,
      Rcpp::_["na_learned"] = na_learned,
      Rcpp::_["left"] = one_based(t.left), Rcpp::_["right"] = one_based(t.right),
      Rcpp::_["depth"] = Rcpp::IntegerVector(t.depth.begin(), t.depth.end()),
      Rcpp::_["n"] = Rcpp::IntegerVector(t.count.begin(), t.count.end()),
      Rcpp::_["weight"] = Rcpp::NumericVector(t.weight.begin(), t.weight.end()),
      Rcpp::_["value"] = value,
      Rcpp::_["loss"] = Rcpp::NumericVector(t.loss.begin(), t.loss.end()),
      Rcpp::_["class_weight"] = R_NilValue);
  if (n_classes > 0) {
    Rcpp::NumericMatrix cw(t.size(), n_classes);
    for (int v = 0; v < t.size(); ++v)
      for (int c = 0; c < n_classes; ++c)
        cw(v, c) = t.class_weight[static_cast<std::size_t>(v) * n_classes + c];
    out["class_weight"] = cw;
  }
  return out;
}

}  // namespace dpdt_glue
