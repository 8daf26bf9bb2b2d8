#' Fit dpdt for parsnip: one front, the tree chosen by `cost_complexity`
#'
#' The fitting function behind `parsnip::decision_tree(engine = "dpdt")`
#' (see [dpdt-tidymodels]); it can also be called directly. It runs
#' [dpdt_fit()] once and marks as the default tree (the one `predict()` uses
#' when `model = NULL`) the tree that rpart's cost-complexity criterion
#' chooses for `cost_complexity`. The whole front stays in the object, so
#' `parsnip::multi_predict()` serves every other penalty without refitting.
#'
#' @section Mapping of `cost_complexity`:
#' rpart's `cp` is relative to the error of the root and counts splits: the
#' subtree `T` kept for `cp` minimises `R(T) + cp * |T| * R(root)`, where `R`
#' is the training loss and `|T|` the number of splits. Divided by
#' `R(root)` this is `rel_error + cp * n_splits`, with the columns of the
#' front. The chosen tree is the tree of the front minimising
#' `rel_error + cost_complexity * n_splits`, the one with fewest splits on
#' ties (rpart also prunes a split whose improvement equals `cp`). In the
#' units of the front this is the penalty `alpha = cost_complexity *
#' train_loss[1]` (`train_loss[1]` being the loss of the single leaf): the
#' chosen tree is the one whose interval `[alpha_min, alpha_max]` contains
#' that `alpha`. On the same sequence of trees the choice is rpart's; the
#' front has, for each number of splits, the best tree dpdt found, so the
#' same `cost_complexity` means the same trade-off as in rpart's engine.
#' That is why the engine searches with `complexity = "splits"` by default.
#' With `complexity = "tests"` the front trades loss against the mean
#' number of tests per row instead, and `cost_complexity` then penalises
#' that: the tree minimising `rel_error + cost_complexity * avg_tests`.
#'
#' @param formula,data,weights As in [dpdt_fit()] (parsnip passes them).
#' @param cost_complexity The penalty per split relative to the loss of the
#'   single leaf, as rpart's `cp`: a single number >= 0. Default 0.01, as in
#'   rpart.
#' @param max_depth,min_bucket As in [dpdt_fit()]; parsnip's `tree_depth`
#'   and `min_n`.
#' @param complexity As in [dpdt_fit()], but `"splits"` by default (see
#'   the mapping above).
#' @param ... Further arguments of [dpdt_fit()] (`cart_depth`,
#'   `candidates`, `criterion`, `threads`, `max_memory`, `progress`);
#'   `progress` defaults to `FALSE` here.
#' @return A `"dpdt"` fit (see [dpdt_fit()]) whose `default_model` is the
#'   tree chosen for `cost_complexity`, kept in field `cost_complexity`.
#' @examples
#' fit <- dpdt_parsnip_fit(Species ~ ., data = iris, max_depth = 3,
#'                         cost_complexity = 0.02)
#' fit$front[, c("model", "n_splits", "rel_error")]
#' fit$default_model
#' table(predict(fit), iris$Species)
#' @export
dpdt_parsnip_fit <- function(formula, data, weights = NULL,
                             cost_complexity = 0.01, max_depth = 3,
                             min_bucket = 5, complexity = "splits", ...) {
  cost_complexity <- check_cost_complexity(cost_complexity)
  args <- list(...)
  if (is.null(args$progress)) args$progress <- FALSE
  # weights go in by value: dpdt_fit() looks its `weights` up in `data`
  # first, where a column of the same name would take their place.
  fit <- do.call(dpdt_fit, c(list(formula = formula, data = data,
                                  weights = weights, max_depth = max_depth,
                                  min_bucket = min_bucket,
                                  complexity = complexity), args))
  fit$call <- match.call()
  fit$cost_complexity <- cost_complexity
  fit$default_model <- cp_model(fit, cost_complexity)
  fit
}

# Rows of the front of fit `object` chosen for penalties `cp` (a vector):
# each minimises rel_error + cp * complexity (the front's own measure:
# avg_tests, n_splits or avg_cost), the least complex on ties.
cp_model <- function(object, cp) {
  front <- object$front
  cp_choice(front$rel_error, front_complexity(front, object$control$complexity), cp)
}

# The cost-complexity choice on any sequence of trees given by their
# relative errors and complexities. Ties (up to rounding) go to the least
# complex tree, as rpart prunes a split whose improvement equals cp.
cp_choice <- function(rel_error, comp, cp) {
  vapply(cp, function(a) {
    v <- rel_error + a * comp
    tied <- which(v <= min(v) + 1e-10 * max(1, abs(min(v))))
    tied[which.min(comp[tied])]
  }, integer(1))
}

# parsnip::multi_predict() for a dpdt model_fit (class "_dpdt"): predictions
# of the trees chosen for every value of `cost_complexity`, from the one
# fit. Registered on parsnip's generic by register_parsnip_engine().
multi_predict_dpdt <- function(object, new_data, type = NULL,
                               cost_complexity = NULL, ...) {
  check_dots(match.call(expand.dots = FALSE)$..., character(0),
             "multi_predict")
  fit <- object$fit
  classif <- fit$type == "classification"
  if (is.null(cost_complexity)) cost_complexity <- fit$cost_complexity
  cp <- sort(check_cost_complexity(cost_complexity, vector = TRUE))
  type <- if (is.null(type)) if (classif) "class" else "numeric"
          else check_choice(type, c("class", "prob", "numeric"), "type")
  if (classif == (type == "numeric")) {
    stop_arg("`type = \"", type, "\"` does not fit a ", fit$type, " model; ",
             "use ", if (classif) "\"class\" or \"prob\"" else "\"numeric\"",
             ".")
  }
  mf <- newdata_frame(fit, as.data.frame(new_data))
  n <- nrow(mf)
  k <- length(cp)
  if (n == 0) return(tibble::tibble(.pred = list()))
  models <- cp_model(fit, cp)
  engine_type <- switch(type, numeric = "response", type)
  preds <- lapply(unique(models),
                  function(m) predict_frame(fit, mf, m, engine_type))
  pred_of <- preds[match(models, unique(models))]
  # one column per penalty, then read row by row: row 1 at every penalty,
  # row 2 at every penalty, ...
  long <- function(column) c(t(vapply(pred_of, column, numeric(n))))
  cols <- switch(type,
    class = list(.pred_class = factor(
      fit$levels[long(function(p) as.numeric(as.integer(p)))],
      levels = fit$levels)),
    prob = stats::setNames(
      lapply(seq_along(fit$levels), function(j) long(function(p) p[, j])),
      paste0(".pred_", fit$levels)),
    numeric = list(.pred = long(function(p) p)))
  res <- tibble::new_tibble(c(list(cost_complexity = rep(cp, n)), cols),
                            nrow = n * k)
  rows <- split(seq_len(n * k), rep(seq_len(n), each = k))
  tibble::tibble(.pred = unname(vctrs::vec_chop(res, unname(rows))))
}
