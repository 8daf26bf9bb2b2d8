#' Distil any fitted model into the front of single trees that follow it
#'
#' Fits [dpdt_fit()]'s search to a model's predictions instead of the
#' response: the result is the front of trees, from the single leaf to the
#' most faithful tree of `max_depth`, each the best reproduction of the
#' model's predictions on `data` for its complexity. A forest, a boosted
#' model or a regression can then be explained by one tree whose fidelity
#' to it is measured and shown, beside its accuracy on the true response.
#'
#' The target is the model's prediction for each row of `data`:
#' * classification (the model predicts classes or class probabilities):
#'   with `target = "class"` the model's class (the most probable one,
#'   the first on ties), and a tree's training loss is the share of rows
#'   where it disagrees with the model; with `target = "probability"` each
#'   row enters once per class, weighted by the model's probability of the
#'   class, so that a tree's training loss is its expected disagreement
#'   with a draw from the model, \eqn{\frac{1}{n}\sum_i (1 - p_{i,c(x_i)})},
#'   exactly;
#' * regression (numeric predictions): the tree's training loss is its mean
#'   squared error to the model's predictions.
#'
#' The front gets these columns beside [dpdt_fit()]'s (`NA`-free, one value
#' per tree):
#' * `fidelity`: on `data`, the share of rows where the tree's class is
#'   the model's class (classification; with `target = "probability"` the
#'   model's most probable class), or the \eqn{R^2} of the tree's
#'   predictions to the model's, `1 - sum((tree - model)^2) / sum((model -
#'   mean(model))^2)` (regression);
#' * `test_fidelity`: the same on `newdata`, when given;
#' * `accuracy` (classification) or `r_squared` (regression): against the
#'   true response on `data`, when `data` has it (see `response`);
#' * `test_accuracy` or `test_r_squared`: the same on `newdata`, when it
#'   has the response.
#'
#' The model's own accuracy (or \eqn{R^2}) on `data` and `newdata` is in
#' `$distill$model_accuracy`, so that every tree can be held against the
#' model it explains. Fidelity on the rows the tree was fitted to is
#' optimistic for deep trees as training accuracy is: choose a tree by
#' `test_fidelity` on held-out rows, or by [dpdt_cv()], which refits the
#' search in each fold to the model's predictions and so cross-validates
#' fidelity (with `target = "probability"` the copies of one row stay in one
#' fold).
#'
#' The result is a fit like any other: [predict.dpdt()], [plot.dpdt()],
#' [dpdt_tree()], [dpdt_cv()], [dpdt_prune()], [as_rpart()], [tidy()] and
#' the exports work on it, its response named `predicted` (`.predicted` if
#' a predictor has that name). With `augment`, its training rows are those
#' of `data` followed by the sampled ones.
#'
#' @param model A fitted model: a `ranger` or `randomForest` forest, a
#'   `glm` (binomial glms give class probabilities; other families their
#'   mean on the response scale, as regression), an `rpart` tree, or anything whose `predict(model,
#'   newdata = data)` returns classes (a factor, character or logical
#'   vector), class probabilities (a matrix with one named column per class)
#'   or numbers. Anything else: give `predict_fun`.
#' @param data A data frame with the model's predictors, on which the trees
#'   are fitted to the model's predictions.
#' @param newdata Optional data frame of held-out rows (with the same
#'   predictors): each tree's `test_fidelity`, and `test_accuracy` when it
#'   has the response.
#' @param response The name of the true response in `data` (a string), for
#'   the `accuracy` columns; the default `NULL` takes it from the model (its
#'   formula's left side, or a ranger forest's dependent variable) when
#'   `data` has that column. `NA`: none.
#' @param predictors The predictors the trees may use (column names of
#'   `data`). The default `NULL`: the model's own predictors when it names
#'   them (terms, or a ranger forest's variables), else every column of
#'   `data` but the response.
#' @param target `"class"` (the default) or `"probability"`, for a
#'   classification model; ignored in regression.
#' @param predict_fun Optional function `function(model, data)` returning
#'   the model's predictions for the rows of a data frame, one per row, in
#'   one of the forms described for `model`.
#' @param predictions Optional: the model's predictions for the rows of
#'   `data`, in one of the forms described for `model`, used instead of
#'   predicting on `data`. A forest predicts its own training rows almost
#'   perfectly (each row is in most of its trees' samples), so a tree
#'   fitted to those predictions fits the training labels; its out-of-bag
#'   predictions (`forest$predictions` for ranger, `predict(forest)` for
#'   randomForest) are what it would say of rows it has not seen.
#' @param weights Optional non-negative case weights, one per row of
#'   `data`.
#' @param augment A whole number of rows to sample beyond `data` (default
#'   0): the trees are fitted to the model's predictions on `data` and on
#'   these rows, which show the model where `data` has no row. They are
#'   drawn by a smoothed bootstrap: a random row of `data` (by weight),
#'   each numeric predictor moved by Gaussian noise of Silverman's
#'   bandwidth for it, \eqn{1.06 \min(sd, IQR/1.34) n^{-1/5}}; factors,
#'   dates and missing values are copied. They are drawn with R's random
#'   numbers (use [set.seed()]), weighted by the mean of `weights` (1
#'   without), and count in `train_loss` but
#'   not in the `fidelity` and `accuracy` columns, which are on `data`.
#' @param ... Arguments of [dpdt_fit()] for the search (`max_depth`,
#'   `candidates`, `complexity`, `min_bucket`, `threads`, ...).
#' @return An object of class `c("dpdt_distill", "dpdt")`: a [dpdt_fit()]
#'   fit of the model's predictions, its front with the columns above, and
#'   a field `distill`: a list with `model_class`, `target`, `response` (the
#'   true response's name, or `NULL`), `predictors`, `levels` (the model's
#'   classes), `model_accuracy` (named `data` and `newdata`), `n_rows`
#'   and `augmented` (the number of sampled rows).
#' @seealso [dpdt_fit()], [dpdt_cv()].
#' @examples
#' # a model that is a depth-2 tree is recovered exactly
#' tree_model <- rpart::rpart(Species ~ ., data = iris,
#'                            control = rpart::rpart.control(maxdepth = 2))
#' d <- dpdt_distill(tree_model, iris, max_depth = 2)
#' d$front[, c("model", "n_splits", "fidelity", "accuracy")]
#'
#' # a logistic regression explained by trees; held-out rows of MASS
#' lr <- glm(type ~ ., family = binomial, data = MASS::Pima.tr)
#' dl <- dpdt_distill(lr, MASS::Pima.tr, newdata = MASS::Pima.te,
#'                    max_depth = 3, complexity = "splits")
#' dl
#' dl$distill$model_accuracy
#' @export
dpdt_distill <- function(model, data, newdata = NULL, response = NULL,
                         predictors = NULL, target = c("class", "probability"),
                         predict_fun = NULL, predictions = NULL, weights = NULL,
                         augment = 0, ...) {
  call <- match.call()
  if (missing(model)) stop_arg("`model` is missing: give a fitted model to distil.")
  if (missing(data)) stop_arg("`data` is missing: give the data frame to fit the trees on.")
  check_data(data)
  target <- check_choice(target, c("class", "probability"), "target")
  if (!is.null(predict_fun) && !is.function(predict_fun)) {
    stop_arg("`predict_fun` must be a function(model, data) returning predictions; got ",
             describe(predict_fun), ".")
  }
  if (!is.null(newdata)) check_data(newdata, "newdata")
  check_weights(weights, nrow(data))
  vars <- distill_variables(model, data, response, predictors)
  pred <- if (is.null(predictions)) model_predictions(model, data, predict_fun, "data")
          else as_model_predictions(predictions, nrow(data), "data", "predictions")
  if (target == "probability" && pred$kind == "class") {
    stop_arg("`target = \"probability\"` needs class probabilities, but the model's ",
             "predictions are classes; give a `predict_fun` that returns a matrix ",
             "with one column per class, or use target = \"class\".")
  }
  augment <- check_whole(augment, "augment", 0, 1e8)
  fitted_rows <- augment_rows(model, data, vars, pred, weights, augment, predict_fun, target)
  fit <- distill_fit(fitted_rows$data, vars, fitted_rows$pred, target, fitted_rows$weights, ...)
  held <- if (!is.null(newdata)) {
    check_distill_columns(newdata, vars$predictors, "newdata")
    model_predictions(model, newdata, predict_fun, "newdata")
  }
  fit$front <- cbind(fit$front, distill_columns(fit, data, pred, newdata, held, vars))
  fit$call <- call
  fit$distill <- list(
    model_class = class(model)[1], target = if (pred$kind == "number") "regression" else target,
    response = vars$response, predictors = vars$predictors, levels = pred$levels,
    model_accuracy = c(data = model_score(pred, data, vars$response),
                       newdata = if (is.null(held)) NA_real_
                                 else model_score(held, newdata, vars$response)),
    n_rows = nrow(data), augmented = augment)
  class(fit) <- c("dpdt_distill", "dpdt")
  fit
}

# The true response (a column of `data`, or NULL) and the predictors the
# trees use: the user's, else the model's own where it names them, else
# every other column of `data`.
distill_variables <- function(model, data, response, predictors) {
  known <- model_variable_names(model)
  if (is.null(response)) {
    response <- if (!is.null(known$response) && known$response %in% names(data)) known$response
  } else if (identical(response, NA)) {
    response <- NULL
  } else {
    check_string(response, "response")
    if (!response %in% names(data)) {
      stop_arg("`response` \"", response, "\" is not a column of `data`; give the ",
               "name of the true response, or NA for none.")
    }
  }
  if (is.null(predictors)) {
    predictors <- if (!is.null(known$predictors)) known$predictors
                  else setdiff(names(data), response)
  } else if (!is.character(predictors) || !length(predictors) || anyNA(predictors)) {
    stop_arg("`predictors` must be a character vector of column names of `data`; got ",
             describe(predictors), ".")
  }
  predictors <- setdiff(predictors, response)
  if (!length(predictors)) {
    stop_arg("No predictor is left for the trees: give `predictors`, column names of ",
             "`data` other than the response.")
  }
  check_distill_columns(data, predictors, "data")
  list(response = response, predictors = predictors)
}

check_distill_columns <- function(d, predictors, name) {
  miss <- setdiff(predictors, names(d))
  if (length(miss)) {
    stop_arg("`", name, "` lacks the model's predictor(s) ",
             paste0("`", miss, "`", collapse = ", "), "; give a data frame with ",
             "every variable the model uses (or choose `predictors`).")
  }
}

# The response and predictor names a fitted model states, where it does:
# its terms (lm, glm, rpart, randomForest's formula interface) or a ranger
# forest's variable names (its response from the formula in its call). NULLs when it does not.
model_variable_names <- function(model) {
  if (inherits(model, "ranger")) {
    # ranger(formula) keeps the formula only in its call
    f <- tryCatch(match.call(ranger::ranger, model$call)$formula, error = function(e) NULL)
    resp <- if (!is.null(model$dependent.variable.name)) model$dependent.variable.name
            else if (is.call(f) && identical(f[[1L]], as.name("~")) && length(f) == 3L)
              all.vars(f[[2L]])[1]
    return(list(response = resp, predictors = model$forest$independent.variable.names))
  }
  tt <- tryCatch(stats::terms(model), error = function(e) NULL)
  if (!inherits(tt, "terms")) return(list(response = NULL, predictors = NULL))
  lhs <- if (attr(tt, "response") > 0) attr(tt, "variables")[[2L]]
  # a transformed response (log(y), I(y == "a")) is not a column of data
  resp <- if (is.name(lhs)) as.character(lhs)
  list(response = resp,
       predictors = setdiff(all.vars(stats::delete.response(tt)), "."))
}

# The model's predictions for the rows of `d`, as
# list(kind = "class" | "probability" | "number", value, levels):
# classes as a factor, probabilities as a matrix with a column per level.
model_predictions <- function(model, d, predict_fun, name) {
  raw <- tryCatch(
    if (!is.null(predict_fun)) predict_fun(model, d) else default_predictions(model, d),
    error = function(e) {
      stop_arg("Predicting with `model` on `", name, "` failed: ", conditionMessage(e),
               "\nGive rows the model can predict (many models cannot predict rows ",
               "with missing values: na.omit()), or `predict_fun`, a function(model, ",
               "data) returning one prediction per row.")
    })
  as_model_predictions(raw, nrow(d), name)
}

# predict() with the arguments each common model class needs for classes,
# probabilities or numbers.
default_predictions <- function(model, d) {
  if (inherits(model, "ranger")) {
    check_installed("ranger", "predict with a ranger forest")
    return(stats::predict(model, data = d)$predictions)
  }
  if (inherits(model, "randomForest")) {
    check_installed("randomForest", "predict with a randomForest forest")
    type <- if (identical(model$type, "classification")) "prob" else "response"
    return(stats::predict(model, newdata = d, type = type))
  }
  if (inherits(model, "rpart")) {
    return(stats::predict(model, newdata = d,
                          type = if (identical(model$method, "class")) "prob" else "vector"))
  }
  if (inherits(model, "glm")) {
    # the mean, not the linear predictor: a poisson glm's counts, a
    # binomial glm's probability of its second class
    p <- stats::predict(model, newdata = d, type = "response")
    if (!identical(model$family$family, "binomial")) return(p)
    lev <- binomial_levels(model)
    return(matrix(c(1 - p, p), ncol = 2, dimnames = list(NULL, lev)))
  }
  stats::predict(model, newdata = d)
}

# The two classes of a binomial glm, in the order glm() codes them.
binomial_levels <- function(model) {
  y <- stats::model.response(stats::model.frame(model))
  if (is.factor(y)) return(levels(y)[1:2])
  if (is.logical(y)) return(c("FALSE", "TRUE"))
  c("0", "1")
}

# `given`: "predictions" when the user passed them (the message then names
# that argument), else how they were computed.
as_model_predictions <- function(raw, n, name, given = "predict_fun") {
  bad <- function(what) {
    stop_arg("The model's predictions on `", name, "` ", what, "; give `", given, "` ",
             if (given == "predict_fun") "as a function(model, data) returning " else "as ",
             "one class, number or row of class probabilities per row.")
  }
  if (is.data.frame(raw)) raw <- as.matrix(raw)
  if (is.matrix(raw) && ncol(raw) == 1) raw <- raw[, 1]
  out <- if (is.matrix(raw)) {
    if (!is.numeric(raw) || is.null(colnames(raw))) {
      bad("are a matrix without one named numeric column per class")
    }
    if (nrow(raw) != n) bad(paste0("have ", nrow(raw), " rows for ", n, " rows of data"))
    list(kind = "probability", value = unname(raw), levels = colnames(raw))
  } else if (is.factor(raw) || is.character(raw) || is.logical(raw)) {
    f <- if (is.factor(raw)) factor(raw, levels = levels(raw)) else factor(raw)
    list(kind = "class", value = f, levels = levels(f))
  } else if (is.numeric(raw) && is.null(dim(raw))) {
    list(kind = "number", value = as.double(raw), levels = NULL)
  } else {
    bad(paste0("are ", describe(raw)))
  }
  len <- if (is.matrix(out$value)) nrow(out$value) else length(out$value)
  if (len != n) bad(paste0("have length ", len, " for ", n, " rows"))
  miss <- if (is.matrix(out$value)) which(rowSums(!is.finite(out$value)) > 0)
          else which(is.na(out$value) | (is.numeric(out$value) & !is.finite(out$value)))
  if (length(miss)) {
    stop_arg("The model's predictions on `", name, "` are missing or not finite for ",
             length(miss), " row(s) (", paste(utils::head(miss, 5), collapse = ", "),
             if (length(miss) > 5) ", ..." else "", "); remove or impute those rows, ",
             "or give a `predict_fun` that predicts them.")
  }
  if (out$kind == "probability") {
    p <- out$value
    if (any(p < 0) || any(abs(rowSums(p) - 1) > 1e-6)) {
      bad("are a matrix whose rows are not probabilities (non-negative, summing to 1)")
    }
  }
  out
}

# The rows the trees are fitted to: `data`, and with `augment = m`, m more
# rows drawn by a smoothed bootstrap (a sample of the product-Gaussian
# kernel density estimate): each a random row of `data` (by weight) whose
# numeric predictors get Gaussian noise of Silverman's bandwidth for that
# predictor, 1.06 min(sd, IQR / 1.34) n^(-1/5); other predictors and
# missing values are copied. The model predicts them, as it predicts new
# rows.
augment_rows <- function(model, data, vars, pred, weights, augment, predict_fun, target) {
  x <- data[vars$predictors]
  if (augment == 0) return(list(data = x, pred = pred, weights = weights))
  w <- if (is.null(weights)) rep(1, nrow(x)) else weights
  drawn <- sample.int(nrow(x), augment, replace = TRUE, prob = w / sum(w))
  extra <- x[drawn, , drop = FALSE]
  for (v in names(extra)) {
    col <- x[[v]]
    if (!is.numeric(col) || is.object(col)) next
    h <- silverman_bandwidth(col[!is.na(col)])
    extra[[v]] <- extra[[v]] + stats::rnorm(augment, sd = h)
  }
  rownames(extra) <- NULL
  more <- model_predictions(model, cbind(extra, data[drawn, setdiff(names(data), names(x)),
                                                     drop = FALSE]),
                            predict_fun, "the sampled rows")
  list(data = rbind(x, extra), pred = bind_predictions(pred, more, target),
       weights = if (!is.null(weights)) c(weights, rep(mean(weights), augment)))
}

silverman_bandwidth <- function(v) {
  if (length(v) < 2) return(0)
  s <- min(stats::sd(v), stats::IQR(v) / 1.34)
  if (!(s > 0)) s <- stats::sd(v)
  if (!(s > 0)) return(0)
  1.06 * s * length(v)^(-1 / 5)
}

# The predictions for `data` followed by those for the sampled rows. The
# two can differ in form when `predictions` were given: probabilities are
# then taken to classes (or classes refused for target = "probability").
bind_predictions <- function(a, b, target) {
  if (a$kind != b$kind) {
    if (target == "class" && a$kind != "number" && b$kind != "number") {
      a <- list(kind = "class", value = model_classes(a), levels = a$levels)
      b <- list(kind = "class", value = model_classes(b), levels = b$levels)
    } else {
      stop_arg("`predictions` are ", a$kind, " predictions but the model predicts the ",
               "sampled rows as ", b$kind, " predictions; give `predictions` in the ",
               "model's own form (or a `predict_fun`).")
    }
  }
  if (a$kind == "number") return(list(kind = "number", value = c(a$value, b$value), levels = NULL))
  lev <- union(a$levels, b$levels)
  if (a$kind == "class") {
    v <- factor(c(as.character(a$value), as.character(b$value)), levels = lev)
    return(list(kind = "class", value = v, levels = lev))
  }
  pad <- function(p, from) {
    out <- matrix(0, nrow(p), length(lev))
    out[, match(from, lev)] <- p
    out
  }
  list(kind = "probability", value = rbind(pad(a$value, a$levels), pad(b$value, b$levels)),
       levels = lev)
}

# The model's class per row (the most probable class, the first on ties).
model_classes <- function(pred) {
  if (pred$kind == "class") return(pred$value)
  factor(pred$levels[max.col(pred$value, ties.method = "first")], levels = pred$levels)
}

# dpdt_fit() on the predictors and the model's predictions. With
# probabilities, row i enters once per class k of positive probability,
# weighted p_ik (times its weight): the weighted misclassification is then
# the expected disagreement.
distill_fit <- function(data, vars, pred, target, weights, ...) {
  d <- data[vars$predictors]
  target_name <- if ("predicted" %in% vars$predictors) ".predicted" else "predicted"
  w <- if (is.null(weights)) rep(1, nrow(d)) else as.double(weights)
  group <- NULL
  if (pred$kind == "probability" && target == "probability") {
    k <- length(pred$levels)
    idx <- rep(seq_len(nrow(d)), each = k)
    cls <- rep(seq_len(k), times = nrow(d))
    pw <- as.vector(t(pred$value)) * w[idx]
    keep <- pw > 0
    d <- d[idx[keep], , drop = FALSE]
    d[[target_name]] <- factor(pred$levels[cls[keep]], levels = pred$levels)
    w <- pw[keep]
    group <- idx[keep]
  } else {
    d[[target_name]] <- if (pred$kind == "number") pred$value else model_classes(pred)
  }
  rownames(d) <- NULL
  f <- stats::reformulate(paste0("`", vars$predictors, "`"), response = target_name)
  fit <- if (is.null(weights) && is.null(group)) dpdt_fit(f, data = d, ...) else {
    d$.dpdt_distill_weight <- w
    dpdt_fit(f, data = d, weights = .dpdt_distill_weight, ...)
  }
  fit$row_group <- group
  fit
}
utils::globalVariables(".dpdt_distill_weight")

# The fidelity and accuracy columns of the front, one value per tree; each
# tree predicts each data set once.
distill_columns <- function(fit, data, pred, newdata, held, vars) {
  acc <- if (fit$type == "classification") "accuracy" else "r_squared"
  on_data <- tree_outputs(fit, data)
  cols <- list(fidelity = tree_scores(on_data, model_target(pred), fit$type))
  if (!is.null(held)) {
    on_new <- tree_outputs(fit, newdata)
    cols$test_fidelity <- tree_scores(on_new, model_target(held), fit$type)
  }
  if (!is.null(y <- true_response(data, vars$response))) {
    cols[[acc]] <- tree_scores(on_data, y, fit$type)
  }
  if (!is.null(held) && !is.null(y <- true_response(newdata, vars$response))) {
    cols[[paste0("test_", acc)]] <- tree_scores(on_new, y, fit$type)
  }
  as.data.frame(cols)
}

# The true response column of `d`, or NULL when there is none.
true_response <- function(d, response) {
  if (!is.null(response) && response %in% names(d)) d[[response]]
}

# What the trees are scored against for fidelity: the model's classes or
# numbers.
model_target <- function(pred) if (pred$kind == "number") pred$value else model_classes(pred)

# Every tree's predictions for the rows of `d` (a list, one per tree).
tree_outputs <- function(fit, d) {
  x <- feature_matrix(newdata_frame(fit, d), fit$features, fit$xlevels, unseen = "missing")
  lapply(seq_len(nrow(fit$front)), function(m) {
    tree_predictions(fit, front_tree(fit, m), x,
                     if (fit$type == "classification") "class" else "response")
  })
}

# For every tree: the share of rows where its class equals `y`
# (classification), or its R^2 to `y` (regression). Rows where `y` is
# missing are left out.
tree_scores <- function(outputs, y, type) {
  ok <- !is.na(y)
  vapply(outputs, function(p) score_against(p[ok], y[ok], type), numeric(1))
}

score_against <- function(p, y, type) {
  if (type == "classification") return(mean(as.character(p) == as.character(y)))
  y <- plain_numeric(y, "The response")
  1 - sum((p - y)^2) / sum((y - mean(y))^2)
}

# The model's own accuracy (or R^2) against the true response of `d`.
model_score <- function(pred, d, response) {
  y <- true_response(d, response)
  if (is.null(y)) return(NA_real_)
  ok <- !is.na(y)
  p <- model_target(pred)
  score_against(p[ok], y[ok], if (pred$kind == "number") "regression" else "classification")
}

#' @rdname dpdt_distill
#' @param x A `"dpdt_distill"` result.
#' @param digits Significant digits of the front's numbers.
#' @export
print.dpdt_distill <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  print_fit_header(x)
  dl <- x$distill
  what <- if (dl$target == "regression") "R^2" else "accuracy"
  acc <- dl$model_accuracy
  if (!is.null(x$row_group)) {
    cat(sprintf("Each of the %d rows enters once per class of positive probability (%d weighted rows)\n",
                dl$n_rows, length(x$row_group)))
  }
  cat(sprintf("Distilled from a `%s` model (target: %s)%s\n", dl$model_class, dl$target,
              if (all(is.na(acc))) ""
              else paste0("; the model's ", what, ": ",
                          paste(sprintf("%s on %s", signif(acc[!is.na(acc)], 3),
                                        names(acc)[!is.na(acc)]), collapse = ", "))))
  cat("\n")
  print_front(x$front, digits)
  invisible(x)
}
