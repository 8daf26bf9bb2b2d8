# Checks of a fit, a front or a converted tree handed back to the package:
# the model id, the front's columns, the routing of rows and conversions
# back to a source class; the warning for a front of one leaf.

check_model_id <- function(model, m) {
  if (is.null(model)) return(m)
  if (!(is.numeric(model) && length(model) == 1 && !is.na(model) &&
        model == round(model) && model >= 1 && model <= m)) {
    stop_arg("`model` must be a whole number between 1 and ", m,
             " (a row of the front); got ", show_value(model), ".")
  }
  as.integer(model)
}

# A front of trees: a fit, pruning or cross-validation result.
check_front <- function(x, name) {
  if (!inherits(x, "dpdt")) {
    stop_arg("`", name, "` must be a front of trees (a fit from dpdt_fit(), ",
             "or a pruning or cross-validation result); got ", describe(x), ".")
  }
}

# ---- pruning (dpdt_prune, as_rpart) ----------------------------------------

# Every row of `data` must reach a leaf: a missing value at a split with no
# side for it would drop the row from the error count.
check_routable <- function(x, src, mf) {
  tested <- unique(src$tree$feature[src$tree$feature > 0])
  if (!anyNA(x[, tested])) return(invisible())
  stuck <- which(is.na(cpp_route(x, src$tree)))
  if (!length(stuck)) return(invisible())
  vars <- unique(src$features$variable[tested][
    colSums(is.na(x[stuck, tested, drop = FALSE])) > 0])
  stop_arg("Row(s) ", paste(utils::head(stuck, 5), collapse = ", "),
           if (length(stuck) > 5) ", ..." else "", " of `data` have missing ",
           "values in ", paste0("`", vars, "`", collapse = ", "),
           " where the tree has no side for them; remove or impute those ",
           "rows (errors would not be counted on them).")
}

# as_rpart() / as.party() can only hand back what the source package can
# represent: a replacement pruning of its own tree with its own labels.
check_back_conversion <- function(x, source, fun) {
  if (!inherits(x, "dpdt_prune")) {
    stop_arg("`x` must be a pruning front from dpdt_prune(); got ",
             describe(x), ".")
  }
  if (x$source != source) {
    stop_arg("`x` prunes ", if (x$source == "dpdt") "a dpdt" else
             paste(if (x$source == "rpart") "an" else "a", x$source),
             " tree; ", fun, "() returns pruned ", source,
             " trees only. Use dpdt_tree(x, model) for the pruned tree.")
  }
  if (x$method != "replace") {
    stop_arg("`x` was pruned by raising; raised trees are not subtrees of the ",
             source, " tree, so ", fun, "() cannot return them. Use ",
             "dpdt_tree(x, model) or predict(x, newdata, model = ) instead.")
  }
  if (x$labels != "keep") {
    stop_arg("`x` relabels its leaves by `data` (labels = \"relabel\"), but ",
             "a pruned ", source, " tree keeps the labels it was grown with; ",
             "prune with labels = \"keep\" to get one back.")
  }
}

# After the search: a front holding only the single leaf, and why.
warn_leaf_only <- function(front, prepared, control) {
  if (nrow(front) > 1) return(invisible())
  y <- prepared$y
  name <- prepared$response
  why <- if (prepared$n_classes > 0 && length(unique(y)) == 1) {
    paste0("the response `", name, "` has a single class (\"",
           prepared$levels[y[1] + 1], "\") in the fitted rows, so no test can ",
           "lower the loss")
  } else if (prepared$n_classes == 0 && length(unique(y)) == 1) {
    paste0("the response `", name, "` is constant in the fitted rows")
  } else if (length(y) < 2 * control$min_bucket) {
    paste0("there are ", length(y), " fitted rows, fewer than 2 * min_bucket = ",
           2 * control$min_bucket, "; lower `min_bucket`")
  } else if (all(vapply(prepared$x, function(col) length(unique(col)) <= 1, logical(1)))) {
    "every predictor is constant in the fitted rows"
  } else {
    paste0("no tree of depth <= max_depth = ", control$max_depth,
           " built from the candidate tests has a lower training loss than ",
           "the single leaf",
           if (control$max_depth == 1) paste0(
             " (one split often leaves the majority class on both sides); ",
             "try a larger `max_depth`")
           else " (rows with equal predictors but different responses?)")
  }
  warning("The front holds only the single leaf: ", why, ".", call. = FALSE)
}
