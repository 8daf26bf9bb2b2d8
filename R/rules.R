#' The leaves of a tree as rules
#'
#' One row per leaf of one tree of a front: the rule that leads to it (the
#' tests on the path from the root, in the original variable names and
#' levels, joined by `" & "`, as [dpdt_tree()] prints them; of two tests
#' of one variable in the same direction only the tighter one, so
#' `x > 7.58 & x > 15` reads `x > 15`), its prediction, and its training
#' statistics.
#'
#' @param x A front of trees (class `"dpdt"`): a fit, pruning or
#'   cross-validation result.
#' @param model Which tree: a row of `x$front`; `NULL` is the object's
#'   default tree.
#' @return A data frame with one row per leaf, left to right: `leaf` (the
#'   node id, as `predict(type = "node")` returns it), `rule` (`"TRUE"` for
#'   a tree that is a single leaf), `prediction` (class or mean), `n`
#'   (training rows), `weight` (their total weight), `loss` (misclassified
#'   weight, or sum of squared errors, in the leaf); for classification
#'   also one column `prob_<level>` per class with the leaf's class
#'   proportions.
#' @seealso [dpdt_sql()] for the same tree as SQL, [dpdt_importance()].
#' @examples
#' fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
#' dpdt_rules(fit)
#' dpdt_rules(dpdt_fit(mpg ~ wt + factor(cyl), data = mtcars, max_depth = 2))
#' @export
dpdt_rules <- function(x, model = NULL) {
  check_front(x, "x")
  model <- resolve_model(x, model)
  tr <- front_tree(x, model)
  paths <- leaf_paths(x, tr)
  leaves <- as.integer(names(paths))
  rule <- vapply(paths, function(p) {
    if (!length(p)) return("TRUE")
    p <- tightest_bounds(p)
    paste(vapply(p, function(step) split_labels(step$split)[step$side], character(1)),
          collapse = " & ")
  }, character(1))
  classif <- x$type == "classification"
  out <- data.frame(leaf = leaves, rule = unname(rule), stringsAsFactors = FALSE)
  out$prediction <- if (classif) factor(x$levels[tr$value[leaves]], levels = x$levels)
                    else tr$value[leaves]
  out$n <- tr$n[leaves]
  out$weight <- tr$weight[leaves]
  out$loss <- tr$loss[leaves]
  if (classif) {
    p <- tr$class_weight[leaves, , drop = FALSE] / pmax(tr$weight[leaves], .Machine$double.xmin)
    for (k in seq_along(x$levels)) out[[paste0("prob_", x$levels[k])]] <- p[, k]
  }
  rownames(out) <- NULL
  out
}

# A path without the numeric tests another test of the same variable and
# direction implies: of `x > a` and `x > b` only the larger bound, of
# `x <= a` and `x <= b` the smaller. Tests whose label names a side for
# missing values are kept as they are.
tightest_bounds <- function(path) {
  key <- vapply(path, function(step) {
    s <- step$split
    if (s$kind != "numeric" || (isTRUE(s$na_learned) && !is.na(s$na_left))) return(NA_character_)
    paste(s$variable, step$side)
  }, character(1))
  keep <- rep(TRUE, length(path))
  for (k in unique(key[!is.na(key)])) {
    at <- which(key == k)
    t <- vapply(path[at], function(step) step$split$threshold, numeric(1))
    tight <- if (path[[at[1L]]]$side == 1L) at[which.min(t)] else at[which.max(t)]
    keep[setdiff(at, tight)] <- FALSE
  }
  path[keep]
}

# The path from the root to every leaf: a list named by leaf id, each a
# list of steps list(node, split = node_split(...), side = 1 left / 2
# right), root first. Leaves come left to right.
leaf_paths <- function(x, tr) {
  out <- list()
  walk <- function(i, path) {
    if (tr$feature[i] == 0L) {
      out[[as.character(i)]] <<- path
      return(invisible())
    }
    s <- node_split(tr, i, x$features, x$xlevels)
    walk(tr$left[i], c(path, list(list(node = i, split = s, side = 1L))))
    walk(tr$right[i], c(path, list(list(node = i, split = s, side = 2L))))
  }
  walk(1L, list())
  out
}
