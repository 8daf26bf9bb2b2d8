// The only file that knows both R and the engine: converts R objects to the
// core's types, runs the search, and maps engine errors to R conditions.
#include <Rcpp.h>
#include <RcppEigen.h>
#include <R_ext/Utils.h>

#include <chrono>
#include <cmath>
#include <string>

#include "core/data/binning.h"
#include "core/data/dataset.h"
#include "core/data/options.h"
#include "core/data/twin_features.h"
#include "core/fronts/scale.h"
#include "core/fronts/tree.h"
#include "core/fronts/tree_stats.h"
#include "core/runtime/runtime.h"
#include "core/search/search.h"
#include "r_runtime.h"
#include "tree_convert.h"

namespace {

dpdt::SearchOptions to_options(const Rcpp::List& o) {
  dpdt::SearchOptions opt;
  opt.max_depth = Rcpp::as<int>(o["max_depth"]);
  opt.cart_depth = Rcpp::as<std::vector<int>>(o["cart_depth"]);
  const std::string cand = Rcpp::as<std::string>(o["candidates"]);
  opt.candidates = cand == "exhaustive" ? dpdt::Candidates::exhaustive : dpdt::Candidates::cart;
  const std::string cx = Rcpp::as<std::string>(o["complexity"]);
  opt.complexity = cx == "splits" ? dpdt::Complexity::splits
                   : cx == "cost" ? dpdt::Complexity::cost
                                  : dpdt::Complexity::tests;
  const std::string cr = Rcpp::as<std::string>(o["criterion"]);
  opt.criterion = cr == "gini" ? dpdt::Criterion::gini : dpdt::Criterion::entropy;
  opt.min_bucket = Rcpp::as<int>(o["min_bucket"]);
  opt.threads = Rcpp::as<int>(o["threads"]);
  opt.max_memory_bytes = Rcpp::as<double>(o["max_memory"]) * 1e9;
  if (o.containsElementNamed("exact_levels")) opt.exact_levels = Rcpp::as<int>(o["exact_levels"]);
  if (o.containsElementNamed("best_only")) opt.best_only = Rcpp::as<bool>(o["best_only"]);
  return opt;
}

// A root's front: each point's loss and complexity in the data's units, and
// its tree, its features those of x (`kept`: x's column of each of the
// search's features, drop_twin_features()).
Rcpp::List front_trees(const dpdt::Node& root, const dpdt::Dataset& data,
                       const dpdt::SearchOptions& opt, int n_classes,
                       const std::vector<int>& kept) {
  const auto& front = root.front;
  Rcpp::NumericVector loss(front.size()), complexity(front.size());
  Rcpp::List trees(front.size());
  std::vector<dpdt::FlatTree> flat(front.size());
  std::vector<dpdt::FlatTree*> each(front.size());
  for (std::size_t i = 0; i < front.size(); ++i) {
    flat[i] = dpdt::extract_tree(root, static_cast<int>(i));
    each[i] = &flat[i];
  }
  dpdt::fill_node_stats(each, data, /*readable=*/true);
  for (std::size_t i = 0; i < front.size(); ++i) {
    loss[i] = data.unscale_loss(front[i].loss);
    complexity[i] = opt.complexity != dpdt::Complexity::splits
                        ? data.unscale_weight(front[i].complexity) : front[i].complexity;
    dpdt::FlatTree& t = flat[i];
    dpdt::unscale_node_stats(t, data);
    dpdt::default_na_sides(t);
    for (int& f : t.feature)
      if (f >= 0) f = kept[f];
    trees[i] = dpdt_glue::tree_to_r(t, n_classes);
  }
  return Rcpp::List::create(Rcpp::_["loss"] = loss, Rcpp::_["complexity"] = complexity,
                            Rcpp::_["trees"] = trees);
}

// A part of the root (options root_stage, root_first, root_last and, for
// the solve stage of a bounded root, the seeds' front in the engine's
// units: seed_loss, seed_complexity, seed_action); R/distribute.R.
dpdt::RootChunk to_chunk(const Rcpp::List& o) {
  dpdt::RootChunk chunk;
  const std::string stage = Rcpp::as<std::string>(o["root_stage"]);
  chunk.stage = stage == "plan"    ? dpdt::RootChunk::Stage::plan
                : stage == "seeds" ? dpdt::RootChunk::Stage::seeds
                                   : dpdt::RootChunk::Stage::solve;
  if (o.containsElementNamed("root_first")) {
    chunk.first = static_cast<std::size_t>(Rcpp::as<double>(o["root_first"]));
    chunk.last = static_cast<std::size_t>(Rcpp::as<double>(o["root_last"]));
  }
  if (o.containsElementNamed("seed_loss")) {
    const Rcpp::NumericVector l = o["seed_loss"], c = o["seed_complexity"];
    const Rcpp::IntegerVector a = o["seed_action"];
    for (R_xlen_t i = 0; i < l.size(); ++i) chunk.seed_front.push_back({l[i], c[i], a[i], 0, 0});
  }
  return chunk;
}

// What a chunk reports besides a whole search's result.
Rcpp::List chunk_result(const dpdt::Search& search, const dpdt::RootChunk& chunk) {
  if (chunk.stage == dpdt::RootChunk::Stage::plan)
    return Rcpp::List::create(Rcpp::_["candidates"] = static_cast<double>(search.root_candidates()),
                              Rcpp::_["bounded"] = search.root_bounded(),
                              Rcpp::_["chunkable"] = search.chunkable());
  const auto& seeds = search.chunk_seed_front();
  Rcpp::NumericVector seed_loss(seeds.size()), seed_complexity(seeds.size());
  Rcpp::IntegerVector seed_action(seeds.size());
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    seed_loss[i] = seeds[i].loss;
    seed_complexity[i] = seeds[i].complexity;
    seed_action[i] = seeds[i].action;
  }
  const auto& front = search.front();
  Rcpp::NumericVector raw_loss(front.size()), raw_complexity(front.size());
  for (std::size_t i = 0; i < front.size(); ++i) {
    raw_loss[i] = front[i].loss;
    raw_complexity[i] = front[i].complexity;
  }
  const std::vector<long> splits = search.root_splits();
  return Rcpp::List::create(Rcpp::_["seed_loss"] = seed_loss,
                            Rcpp::_["seed_complexity"] = seed_complexity,
                            Rcpp::_["seed_action"] = seed_action, Rcpp::_["raw_loss"] = raw_loss,
                            Rcpp::_["raw_complexity"] = raw_complexity,
                            Rcpp::_["root_split"] = Rcpp::wrap(std::vector<double>(splits.begin(), splits.end())));
}

// The estimate before the search, the row visits it made and, for a
// measured root, its projections: a data frame made as a list with its
// attributes (Rcpp::DataFrame::create() calls R's as.data.frame(), 0.14 ms
// of every fit).
Rcpp::List work_estimate(const dpdt_glue::RRuntime& runtime, double visits_made) {
  const auto& p = runtime.projections();
  Rcpp::List projections = Rcpp::List::create(
      Rcpp::_["elapsed"] = p.elapsed, Rcpp::_["runs_done"] = p.done, Rcpp::_["runs"] = p.total,
      Rcpp::_["runs_are"] = p.runs, Rcpp::_["projected_seconds"] = p.seconds,
      Rcpp::_["row_visits"] = p.visits, Rcpp::_["projected_row_visits"] = p.projected_visits);
  projections.attr("class") = "data.frame";
  projections.attr("row.names") =
      Rcpp::IntegerVector::create(NA_INTEGER, -static_cast<int>(p.elapsed.size()));
  return Rcpp::List::create(
      Rcpp::_["row_visits"] = runtime.estimated_visits(),
      Rcpp::_["seconds"] = runtime.estimated_seconds(), Rcpp::_["measured"] = runtime.measured(),
      Rcpp::_["visits_made"] = visits_made, Rcpp::_["projections"] = projections);
}

}  // namespace

// [[Rcpp::export]]
Rcpp::List cpp_search(Rcpp::List x, Rcpp::NumericVector y, Rcpp::NumericVector w,
                      int n_classes, Rcpp::List options) {
  // The features: one double vector per column, read in place (not copied).
  const int n = y.size(), p = x.size();
  std::vector<const double*> columns(p);
  for (int f = 0; f < p; ++f) {
    SEXP col = x[f];
    if (TYPEOF(col) != REALSXP || Rf_xlength(col) != n)
      Rcpp::stop("x must be a list of double vectors, one value per row of y");
    columns[f] = REAL(col);
  }
  if (w.size() != n) Rcpp::stop("x, y and w must describe the same rows");
  dpdt::SearchOptions opt = to_options(options);
  if (options.containsElementNamed("max_work")) opt.max_work = Rcpp::as<double>(options["max_work"]);
  if (options.containsElementNamed("max_seconds"))
    opt.max_seconds = Rcpp::as<double>(options["max_seconds"]);
  const bool show = Rcpp::as<bool>(options["progress"]);
  dpdt::Dataset data =
      dpdt::make_dataset(std::move(columns), n, y.begin(), w.begin(), n_classes, false);
  // Optional: level counts of categorical columns, a loss matrix (K x K,
  // column-major from R: transposed to the engine's row-major), test costs.
  if (options.containsElementNamed("n_levels") && !Rf_isNull(options["n_levels"]))
    data.n_levels = Rcpp::as<std::vector<int>>(options["n_levels"]);
  if (options.containsElementNamed("loss_matrix") && !Rf_isNull(options["loss_matrix"])) {
    const Rcpp::NumericMatrix L = options["loss_matrix"];
    data.loss_matrix.resize(static_cast<std::size_t>(n_classes) * n_classes);
    for (int t = 0; t < n_classes; ++t)
      for (int j = 0; j < n_classes; ++j) data.loss_matrix[t * n_classes + j] = L(t, j);
  }
  if (options.containsElementNamed("test_cost") && !Rf_isNull(options["test_cost"]))
    data.feature_cost = Rcpp::as<std::vector<double>>(options["test_cost"]);
  if ((!data.n_levels.empty() && static_cast<int>(data.n_levels.size()) != p) ||
      (!data.feature_cost.empty() && static_cast<int>(data.feature_cost.size()) != p))
    Rcpp::stop("n_levels and test_cost must have one value per column of x");
  // Optional: quantile bins of the numeric columns (max_bins; Inf: none).
  const double max_bins =
      options.containsElementNamed("max_bins") ? Rcpp::as<double>(options["max_bins"]) : R_PosInf;
  // A search that holds its states as rows needs only the rows' codes (one
  // byte per row and feature), made without presorting every feature (eight).
  const int bin_limit = std::isfinite(max_bins) ? static_cast<int>(max_bins) : 0;
  std::vector<int> bins;
  if (!(dpdt::rows_layout_allowed(data, opt) && dpdt::code_features(data, bin_limit, bins))) {
    dpdt::presort_features(data);
    bins = dpdt::bin_numeric_features(data, bin_limit);
  }
  // x's column of each feature the search keeps (all without the presort).
  const std::vector<int> kept = dpdt::drop_twin_features(data);

  const auto start = std::chrono::steady_clock::now();
  dpdt::Search search(data, opt);
  dpdt_glue::RRuntime runtime(show, options.containsElementNamed("time_limit")
                             ? Rcpp::as<double>(options["time_limit"])
                             : R_PosInf,
                             options.containsElementNamed("terminal") &&
                                 Rcpp::as<bool>(options["terminal"]),
                             options.containsElementNamed("announce") &&
                                 Rcpp::as<bool>(options["announce"]));
  runtime.set_stop_beyond(dpdt::RootProjection::kMargin * opt.max_seconds);
  if (options.containsElementNamed("announce_after"))
    runtime.set_announce_after(Rcpp::as<double>(options["announce_after"]));
  if (options.containsElementNamed("long_hint") && !Rf_isNull(options["long_hint"]))
    runtime.set_hint(Rcpp::as<std::string>(options["long_hint"]));
  if (options.containsElementNamed("measured_hint") && !Rf_isNull(options["measured_hint"]))
    runtime.set_measured_hint(Rcpp::as<std::string>(options["measured_hint"]));
  const bool chunked = options.containsElementNamed("root_stage");
  const dpdt::RootChunk chunk = chunked ? to_chunk(options) : dpdt::RootChunk();
  try {
    search.run(runtime, chunked ? &chunk : nullptr);
  } catch (const dpdt::Interrupted&) {
    if (runtime.timed_out()) {
      // What the splits solved before the deadline prove (NA: nothing), and
      // the front of their trees (partial: none when nothing was solved).
      const double lb = search.stopped_lower_bound();
      Rcpp::List out = Rcpp::List::create(
          Rcpp::_["timed_out"] = true,
          Rcpp::_["lower_bound"] = std::isnan(lb) ? NA_REAL : data.unscale_loss(lb));
      if (search.partial_root()) out["partial"] = front_trees(*search.partial_root(), data, opt, n_classes, kept);
      return out;
    }
    // An error (a time limit) goes back to R to be raised as it was; an
    // interrupt is R's interrupt again.
    if (Rf_inherits(runtime.condition(), "error"))
      return Rcpp::List::create(Rcpp::_["condition"] = runtime.condition());
    throw Rcpp::internal::InterruptedException();
  } catch (const dpdt::SearchTooLarge& e) {
    // The estimate's hint is about the estimate, which a measured search
    // does not use; a measured one stopped says what slows it.
    Rcpp::stop(std::string("dpdt_fit(): ") + e.what() +
               (runtime.measured() ? runtime.measured_hint() : runtime.estimate_hint()));
  } catch (const dpdt::ResourceLimit& e) {
    Rcpp::stop(std::string("dpdt_fit(): ") + e.what());
  } catch (const std::invalid_argument& e) {
    Rcpp::stop(std::string("dpdt_fit(): ") + e.what());
  } catch (const std::bad_alloc&) {
    Rcpp::stop("dpdt_fit(): out of memory; lower max_depth or cart_depth, or use fewer threads.");
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const Rcpp::List front = front_trees(search.root(), data, opt, n_classes, kept);
  Rcpp::IntegerVector heuristic;
  for (int f = 0; f < data.p; ++f)
    if (search.heuristic_groups().used(f)) heuristic.push_back(kept[f] + 1);
  Rcpp::List out = Rcpp::List::create(Rcpp::_["loss"] = front["loss"],
                            Rcpp::_["complexity"] = front["complexity"],
                            Rcpp::_["trees"] = front["trees"],
                            Rcpp::_["n_states"] = static_cast<double>(search.all_states()),
                            Rcpp::_["seconds"] = seconds,
                            Rcpp::_["heuristic_features"] = heuristic,
                            Rcpp::_["bins"] = Rcpp::wrap(bins),
                            Rcpp::_["work_estimate"] = work_estimate(runtime, search.visits_made()));
  if (chunked) out["chunk"] = chunk_result(search, chunk);
  return out;
}

// [[Rcpp::export]]
Rcpp::IntegerVector cpp_route(Rcpp::NumericMatrix x, Rcpp::List tree) {
  const dpdt::FlatTree t = dpdt_glue::tree_from_r(tree);
  for (int v = 0; v < t.size(); ++v)
    if (t.feature[v] >= x.ncol()) Rcpp::stop("the tree tests feature %d but x has %d columns", t.feature[v] + 1, x.ncol());
  const std::size_t n = x.nrow();
  Rcpp::IntegerVector leaf(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int v = dpdt::route_row(t, x.begin(), n, static_cast<int>(i));
    leaf[i] = v < 0 ? NA_INTEGER : v + 1;
  }
  return leaf;
}
