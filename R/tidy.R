#' Tidy, glance at and augment a front of trees
#'
#' broom-style summaries of any front of trees: a fit from [dpdt_fit()], a
#' pruning result or a cross-validation result (any object of class
#' `"dpdt"`). `tidy()` describes one tree node by node, `glance()` the
#' whole front tree by tree, `augment()` adds one tree's predictions to
#' data. The generics come from the small `generics` package and are
#' re-exported, so they work without loading broom.
#'
#' @param x A front of trees (class `"dpdt"`), e.g. from [dpdt_fit()].
#' @param model Which tree: a row number of the front; `NULL` (default) is
#'   the object's default tree (for a fit, the one rpart's default cp keeps).
#' @param newdata A data frame with the predictors used in the fit. `NULL`
#'   (default) uses the model frame of the rows the object was fitted on.
#' @param ... Not used; anything passed is an error.
#'
#' @return A tibble if the tibble package is installed, else a data frame.
#'
#'   `tidy()`: one row per node of the tree, in preorder, with columns
#'   `model` (the tree), `node` (the id returned by
#'   `predict(type = "node")` and `.leaf`), `parent` (`NA` at the root),
#'   `depth`, `is_leaf`, `variable` (the variable the node tests, `NA` at a
#'   leaf), `split` (the test as text; rows satisfying it go to the left
#'   child, e.g. `x <= 2.5`, `g in {a, b}`; the side that takes missing
#'   values says `or NA`), `threshold` (numeric tests), `rule` (the tests
#'   from the root to the node, joined by `&`; `"root"` for the root), `n`
#'   (training rows), `weight` (their total weight), `prediction` (class, as
#'   a factor, or mean), `loss` (weighted misclassified weight, or sum of
#'   weighted squared errors, in the node) and `error` (`loss / weight`).
#'
#'   `glance()`: the front, one row per tree (the columns of `x$front`, see
#'   [dpdt_fit()]; a pruning or cross-validation result has its own extra
#'   columns), plus `default`, `TRUE` for the tree used when `model = NULL`.
#'
#'   `augment()`: `newdata` with `.pred_class` and one `.pred_<level>`
#'   column per response level (class proportions of the leaf) for a
#'   classification tree, or `.pred` (the leaf mean) for a regression tree,
#'   and `.leaf`, the node id of the leaf reached. Rows with a missing value
#'   where the tree has no side for it get `NA`.
#' @seealso [dpdt_tree()] to print one tree as rules.
#' @examples
#' fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
#' tidy(fit)
#' tidy(fit, model = 2)
#' glance(fit)
#' head(augment(fit, newdata = iris[c(1, 51, 101), ]))
#' @name dpdt-tidiers
NULL

#' @importFrom generics tidy
#' @export
generics::tidy

#' @importFrom generics glance
#' @export
generics::glance

#' @importFrom generics augment
#' @export
generics::augment

#' @rdname dpdt-tidiers
#' @export
tidy.dpdt <- function(x, model = NULL, ...) {
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "tidy")
  model <- resolve_model(x, model)
  tr <- front_tree(x, model)
  m <- length(tr$feature)
  parent <- rep(NA_integer_, m)
  variable <- split <- rep(NA_character_, m)
  threshold <- rep(NA_real_, m)
  rule <- character(m)
  rule[1] <- "root"
  # Preorder: a parent always comes before its children, so its rule is
  # complete when the children's rules are built from it.
  for (i in which(tr$feature > 0)) {
    s <- node_split(tr, i, x$features, x$xlevels)
    lab <- split_labels(s)
    kids <- c(tr$left[i], tr$right[i])
    parent[kids] <- i
    variable[i] <- s$variable
    split[i] <- lab[1]
    threshold[i] <- if (s$kind == "numeric") s$threshold else NA_real_
    rule[kids] <- if (i == 1L) lab else paste(rule[i], "&", lab)
  }
  prediction <- if (x$type == "classification")
    factor(x$levels[tr$value], levels = x$levels) else tr$value
  as_tidy_frame(data.frame(
    model = rep(model, m), node = seq_len(m), parent = parent,
    depth = as.integer(tr$depth), is_leaf = tr$feature == 0L,
    variable = variable, split = split, threshold = threshold, rule = rule,
    n = as.integer(tr$n), weight = tr$weight, prediction = prediction,
    loss = tr$loss, error = tr$loss / tr$weight,
    stringsAsFactors = FALSE))
}

#' @rdname dpdt-tidiers
#' @export
glance.dpdt <- function(x, ...) {
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "glance")
  front <- x$front
  rownames(front) <- NULL
  front$default <- front$model == resolve_model(x, NULL)
  as_tidy_frame(front)
}

#' @rdname dpdt-tidiers
#' @export
augment.dpdt <- function(x, newdata = NULL, model = NULL, ...) {
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "augment")
  model <- resolve_model(x, model)
  if (is.null(newdata)) {
    if (is.null(x$model_frame)) {
      stop_arg("`newdata` is missing and `x` keeps no training data; pass ",
               "the data to augment as `newdata`.")
    }
    mf <- x$model_frame
    out <- mf
  } else {
    check_newdata(newdata)
    mf <- newdata_frame(x, newdata)
    out <- newdata
  }
  out <- as.data.frame(out, stringsAsFactors = FALSE)
  if (x$type == "classification") {
    out$.pred_class <- predict_frame(x, mf, model, "class")
    prob <- predict_frame(x, mf, model, "prob")
    for (k in seq_along(x$levels)) {
      out[[paste0(".pred_", x$levels[k])]] <- prob[, k]
    }
  } else {
    out$.pred <- predict_frame(x, mf, model, "response")
  }
  out$.leaf <- predict_frame(x, mf, model, "node")
  rownames(out) <- NULL
  as_tidy_frame(out)
}

# Tidiers return tibbles when the tibble package is there (it prints
# better and is what tidyverse users expect), data frames otherwise.
as_tidy_frame <- function(df) {
  if (requireNamespace("tibble", quietly = TRUE)) tibble::as_tibble(df) else df
}
