#' dpdt with tidymodels: the `"dpdt"` engine of `parsnip::decision_tree()`
#'
#' When the parsnip package is installed, dpdt registers the engine
#' `"dpdt"` of `parsnip::decision_tree()` for classification and regression
#' (as soon as both dpdt and parsnip are loaded, in either order), so that a
#' dpdt tree can be fitted, predicted and tuned in a tidymodels workflow.
#' One fit holds the best tree for every penalty, and the engine uses
#' tune's submodel trick: `tune_grid()` fits once per resample and set of
#' other parameters, and scores every value of `cost_complexity` from that
#' fit with `multi_predict()`. (For this dpdt also registers a
#' `generics::min_grid()` method for `decision_tree` specifications, which
#' tune lacks, unless another package provides one; it changes nothing for
#' engines without a submodel parameter, such as rpart's.)
#'
#' @section Arguments:
#' * `tree_depth` is `max_depth` of [dpdt_fit()] (default 3). The search
#'   grows quickly with depth: tune it over a small range, e.g.
#'   `dials::tree_depth(c(1, 4))`, not the default range of
#'   `dials::tree_depth()` (up to 15).
#' * `min_n` is `min_bucket`, the minimum number of training rows in a
#'   *leaf* (default 5, as dpdt_fit()). Beware: in rpart's engine `min_n` is `minsplit`,
#'   the minimum number of rows in a node for a split to be tried (rpart's
#'   leaves then have at least `round(minsplit / 3)` rows).
#' * `cost_complexity` (default 0.01, as rpart's `cp`) chooses the tree of
#'   the front: the one minimising `rel_error + cost_complexity * n_splits`,
#'   i.e. rpart's criterion, with penalty `alpha = cost_complexity *` the
#'   loss of the single leaf in the units of the front. See the mapping in
#'   [dpdt_parsnip_fit()]. It is a submodel parameter.
#' * Engine arguments (`set_engine("dpdt", ...)`) go to [dpdt_fit()]:
#'   `cart_depth`, `candidates`, `complexity` (`"splits"` by default in
#'   the engine, so that `cost_complexity` counts splits as rpart's does),
#'   `criterion`, `threads`, `max_memory`, `progress`.
#'
#' @section Data, weights and predictions:
#' Factors are passed as factors (no dummy variables), as for rpart. Case
#' weights (`hardhat::importance_weights()` or
#' `hardhat::frequency_weights()`, via `fit(case_weights = )` or
#' `workflows::add_case_weights()`) become `weights` of [dpdt_fit()], so
#' `parsnip::case_weights_allowed()` is `TRUE`. `predict()` gives
#' `.pred_class` (`type = "class"`), `.pred_<level>` (`type = "prob"`:
#' class proportions of the leaf) or `.pred` (`type = "numeric"`), from the
#' tree chosen for `cost_complexity`. `parsnip::multi_predict(fit,
#' new_data, type, cost_complexity = c(...))` returns a tibble with one row
#' per row of `new_data` and a list column `.pred` holding, for each, one
#' row per penalty (`cost_complexity` and the prediction columns).
#' `parsnip::extract_fit_engine()` returns the `"dpdt"` fit, with its whole
#' front; [tidy()], [glance()] and [augment()] work on it.
#'
#' @examplesIf requireNamespace("parsnip", quietly = TRUE)
#' spec <- parsnip::decision_tree(tree_depth = 2, cost_complexity = 0.05,
#'                                mode = "classification")
#' spec <- parsnip::set_engine(spec, "dpdt")
#' fit <- parsnip::fit(spec, Species ~ ., data = iris)
#' predict(fit, iris[c(1, 51, 101), ], type = "prob")
#' parsnip::multi_predict(fit, iris[c(1, 51), ],
#'                        cost_complexity = c(0, 0.3, 1))$.pred[[2]]
#' @name dpdt-tidymodels
NULL

# Register the engine with parsnip. Called when dpdt loads if parsnip is
# loaded already, else by a hook when parsnip loads: dpdt does not load
# parsnip (and its dependencies) for users who do not use it. Idempotent.
register_parsnip_engine <- function(...) {
  if (!requireNamespace("parsnip", quietly = TRUE)) return(invisible(FALSE))
  engines <- parsnip::get_from_env("decision_tree")
  if (!any(engines$engine == "dpdt")) {
    for (mode in c("classification", "regression")) register_mode(mode)
    register_args()
  }
  registerS3method("multi_predict", "_dpdt", multi_predict_dpdt,
                   envir = asNamespace("parsnip"))
  # tune asks min_grid() which fits a grid needs; without a method for
  # decision_tree it fits every grid point, submodel parameter or not.
  # Unless another package provides one, ours applies tune's rule for
  # submodels (other engines have no submodel parameter: nothing changes).
  current <- utils::getS3method("min_grid", "decision_tree", optional = TRUE,
                                envir = asNamespace("generics"))
  if (is.null(current) || identical(current, min_grid_decision_tree)) {
    registerS3method("min_grid", "decision_tree", min_grid_decision_tree,
                     envir = asNamespace("generics"))
  }
  invisible(TRUE)
}

# generics::min_grid() for parsnip's decision_tree specifications: one fit
# per combination of the other parameters, the values of cost_complexity
# (a submodel parameter of the "dpdt" engine) predicted from it. Only tune
# calls it, so tune is loaded then.
min_grid_decision_tree <- function(x, grid, ...) {
  tune::fit_max_value(x, grid, ...)
}

register_mode <- function(mode) {
  parsnip::set_model_engine("decision_tree", mode = mode, eng = "dpdt")
  parsnip::set_dependency("decision_tree", eng = "dpdt", pkg = "dpdt",
                          mode = mode)
  parsnip::set_fit(
    model = "decision_tree", eng = "dpdt", mode = mode,
    value = list(
      interface = "formula",
      protect = c("formula", "data", "weights"),
      func = c(pkg = "dpdt", fun = "dpdt_parsnip_fit"),
      defaults = list()
    )
  )
  parsnip::set_encoding(
    model = "decision_tree", eng = "dpdt", mode = mode,
    options = list(predictor_indicators = "none", compute_intercept = FALSE,
                   remove_intercept = FALSE, allow_sparse_x = FALSE)
  )
  pred <- function(type, engine_type, post = NULL) {
    parsnip::set_pred(
      model = "decision_tree", eng = "dpdt", mode = mode, type = type,
      value = list(pre = NULL, post = post, func = c(fun = "predict"),
                   args = list(object = quote(object$fit),
                               newdata = quote(new_data),
                               type = engine_type))
    )
  }
  if (mode == "classification") {
    pred("class", "class")
    pred("prob", "prob", post = function(x, object) {
      tibble::as_tibble(as.data.frame(x, optional = TRUE))
    })
  } else {
    pred("numeric", "response")
  }
}

register_args <- function() {
  arg <- function(parsnip, original, has_submodel = FALSE) {
    parsnip::set_model_arg(
      model = "decision_tree", eng = "dpdt", parsnip = parsnip,
      original = original, func = list(pkg = "dials", fun = parsnip),
      has_submodel = has_submodel
    )
  }
  arg("tree_depth", "max_depth")
  arg("min_n", "min_bucket")
  arg("cost_complexity", "cost_complexity", has_submodel = TRUE)
}
