#' Take one tree out of a dpdt front
#'
#' @param fit A front of trees: a `"dpdt"` fit from [dpdt_fit()] (or any
#'   object of class `"dpdt"`, such as a pruning or cross-validation result).
#' @param model Which tree, a row number of `fit$front`; `NULL` (default)
#'   is the object's default tree (for a fit, the one rpart's default
#'   `cp = 0.01` keeps; see [predict.dpdt()]).
#' @param x A `"dpdt_tree"`.
#' @param digits Significant digits for means and losses (thresholds are
#'   always written exactly, in the fewest digits that read back as them).
#' @param ... Not used.
#' @return An object of class `"dpdt_tree"`: a list with `nodes`, a data
#'   frame with one row per node in preorder (`node` id as returned by
#'   `predict(type = "node")`, `parent`, `depth`, `rule` leading to the
#'   node, `is_leaf`, `n`, `weight`, `prediction`, `error`: weighted
#'   misclassification rate or mean squared error in the node), and the
#'   tree's row of the front; also what plots and exports read: `tree` (the
#'   tree list of the front object), `features`, `xlevels` and `levels`.
#'   `print()` shows it as indented rules; leaves are marked with `*`;
#'   [plot()][plot.dpdt_tree] draws it.
#' @examples
#' fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
#' dpdt_tree(fit)
#' dpdt_tree(fit, model = 2)$nodes
#' @export
dpdt_tree <- function(fit, model = NULL) {
  if (!inherits(fit, "dpdt")) {
    stop_arg("`fit` must be a dpdt fit from dpdt_fit(); got ", describe(fit), ".")
  }
  model <- resolve_model(fit, model)
  tr <- front_tree(fit, model)
  m <- length(tr$feature)
  parent <- integer(m)
  rule <- character(m)
  rule[1] <- "root"
  for (i in which(tr$feature > 0)) {
    lab <- split_labels(node_split(tr, i, fit$features, fit$xlevels))
    parent[c(tr$left[i], tr$right[i])] <- i
    rule[c(tr$left[i], tr$right[i])] <- lab
  }
  prediction <- if (fit$type == "classification") fit$levels[tr$value]
                else tr$value
  nodes <- data.frame(
    node = seq_len(m), parent = parent, depth = tr$depth, rule = rule,
    is_leaf = tr$feature == 0L, n = tr$n, weight = tr$weight,
    prediction = prediction, error = tr$loss / tr$weight,
    stringsAsFactors = FALSE)
  structure(list(nodes = nodes, model = model, n_models = nrow(fit$front),
                 front = fit$front[model, ], loss = front_loss(fit)[model],
                 type = fit$type, response = fit$response, tree = tr,
                 features = fit$features, xlevels = fit$xlevels,
                 levels = fit$levels, terms = fit$terms,
                 model_frame = fit$model_frame,
                 ordered_response = isTRUE(fit$ordered_response)),
            class = "dpdt_tree")
}

# The tree as a front of one tree (for the methods written for fronts).
tree_as_front <- function(x) {
  front <- x$front
  front$model <- 1L
  structure(list(front = front, trees = list(x$tree), default_model = 1L,
                 loss_column = if ("train_loss" %in% names(front)) "train_loss" else "loss",
                 type = x$type, levels = x$levels, response = x$response,
                 features = x$features, xlevels = x$xlevels, terms = x$terms,
                 model_frame = x$model_frame, na.action = NULL), class = "dpdt")
}

#' @rdname dpdt_tree
#' @export
print.dpdt_tree <- function(x, digits = getOption("digits") - 3, ...) {
  f <- x$front
  err <- if (x$type == "classification")
    sprintf("error %.1f%%", 100 * x$loss)
  else paste("MSE", readable_number(x$loss, digits))
  cat(sprintf("dpdt tree %d of %d: %d splits, %d leaves, depth %d, %s\n",
              x$model, x$n_models, f$n_splits, f$n_leaves, f$depth, err))
  nd <- x$nodes
  pred <- if (x$type == "classification")
    sprintf("%s  err %.1f%%", nd$prediction, 100 * nd$error)
  else paste("mean", as.character(signif(nd$prediction, digits)))
  cat(if (x$type == "classification")
        "node) rule  n  predicted class  error;  * leaf\n"
      else paste0("node) rule  n  mean of ", x$response, ";  * leaf\n"))
  cat(paste0(strrep("  ", nd$depth), nd$node, ") ", nd$rule, "  n=", nd$n,
             "  ", pred, ifelse(nd$is_leaf, " *", ""), "\n"), sep = "")
  invisible(x)
}
