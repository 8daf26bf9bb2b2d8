# Checks of the costs a fit is given: test costs, the loss matrix, the
# priors and the cost-complexity penalties.

# Test costs: a named numeric vector, one non-negative cost per predictor
# (predictors not named cost 1). Returns one cost per engine feature, or
# NULL when complexity is not "cost".
check_test_cost <- function(test_cost, complexity, features) {
  if (is.null(test_cost)) return(NULL)
  vars <- unique(features$variable)
  if (!is.numeric(test_cost) || is.null(names(test_cost)) ||
      anyNA(test_cost) || any(!is.finite(test_cost)) || any(test_cost < 0) ||
      any(!nzchar(names(test_cost)))) {
    stop_arg("`test_cost` must be a named numeric vector of finite costs >= 0, ",
             "one per predictor, such as c(", vars[1], " = 5); got ",
             show_value(test_cost), ".")
  }
  bad <- setdiff(names(test_cost), vars)
  if (length(bad)) {
    stop_arg("`test_cost` names ", paste0("`", bad, "`", collapse = ", "),
             ", not predictor(s) of the formula; use names among ",
             paste0("`", utils::head(vars, 6), "`", collapse = ", "), ".")
  }
  if (anyDuplicated(names(test_cost))) {
    stop_arg("`test_cost` names a predictor twice; give one cost per predictor.")
  }
  if (complexity != "cost") {
    stop_arg("`test_cost` is used only with complexity = \"cost\" (got \"",
             complexity, "\"); drop `complexity` or set it to \"cost\".")
  }
  cost <- rep(1, length(vars))
  names(cost) <- vars
  cost[names(test_cost)] <- test_cost
  unname(cost[features$variable])
}

# Misclassification costs, as rpart's parms$loss: K x K, zero diagonal,
# non-negative, rows the true class and columns the prediction.
check_loss_matrix <- function(L, prepared) {
  if (is.null(L)) return(NULL)
  if (prepared$type != "classification") {
    stop_arg("`loss_matrix` needs a classification response; `",
             prepared$response, "` is numeric.")
  }
  K <- length(prepared$levels)
  if (!is.matrix(L) || !is.numeric(L) || !all(dim(L) == K) || anyNA(L) ||
      any(!is.finite(L)) || any(L < 0) || any(diag(L) != 0)) {
    stop_arg("`loss_matrix` must be a ", K, " x ", K, " numeric matrix (one ",
             "row and column per level of `", prepared$response, "`: ",
             paste(prepared$levels, collapse = ", "), ") of finite costs >= 0 ",
             "with a zero diagonal; rows are the true class, columns the ",
             "prediction.")
  }
  for (dn in dimnames(L)) {
    if (!is.null(dn) && !identical(as.character(dn), prepared$levels)) {
      stop_arg("`loss_matrix` has dimnames that are not the levels of `",
               prepared$response, "` in order (", paste(prepared$levels, collapse = ", "),
               "); reorder it or drop its dimnames.")
    }
  }
  unname(L) + 0
}

# Class priors, as rpart's parms$prior: positive, one per class, sum 1.
check_prior <- function(prior, prepared) {
  if (is.null(prior)) return(NULL)
  if (prepared$type != "classification") {
    stop_arg("`prior` needs a classification response; `", prepared$response,
             "` is numeric.")
  }
  K <- length(prepared$levels)
  if (!is.numeric(prior) || length(prior) != K || anyNA(prior) ||
      any(prior <= 0) || abs(sum(prior) - 1) > 1e-8) {
    stop_arg("`prior` must be ", K, " positive numbers summing to 1, one per ",
             "level of `", prepared$response, "` (",
             paste(prepared$levels, collapse = ", "), "); got ",
             show_value(prior), ".")
  }
  if (!is.null(names(prior)) && !identical(names(prior), prepared$levels)) {
    stop_arg("`prior` has names that are not the levels of `",
             prepared$response, "` in order; reorder it or drop its names.")
  }
  as.double(unname(prior))
}

# rpart's cp: one number >= 0 for a fit; several for multi_predict().
check_cost_complexity <- function(x, vector = FALSE) {
  ok <- is.numeric(x) && length(x) >= 1 && (vector || length(x) == 1) &&
    !anyNA(x) && all(is.finite(x)) && all(x >= 0)
  if (!ok) {
    stop_arg("`cost_complexity` must be ",
             if (vector) "finite numbers >= 0" else "a single finite number >= 0",
             " (a penalty per split relative to the loss of the single ",
             "leaf, as rpart's cp); got ", show_value(x), ".")
  }
  as.double(x)
}
