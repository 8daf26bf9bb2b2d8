#' Variable importance of one tree of a front
#'
#' The importance of a variable in a tree is the total decrease of the
#' tree's training loss achieved by the splits on that variable: for each
#' internal node, its loss minus the losses of its two children, summed
#' over the nodes that test the variable. The loss is the one the tree was
#' chosen for: the misclassified weight (classification) or the sum of
#' squared errors (regression), both in the training rows' weights. This is
#' rpart's definition (`variable.importance`) without its surrogate splits
#' (dpdt has none) and with the tree's own loss instead of rpart's impurity
#' (Gini or information; for regression both are the sum of squares, so
#' the numbers then agree with rpart's for the same tree without
#' surrogates).
#'
#' The importances add up to the loss of the root minus that of the
#' leaves. A split may decrease the misclassified weight by 0 (both
#' children predict the parent's class): its variable is still listed.
#'
#' @param x A front of trees (class `"dpdt"`).
#' @param model Which tree: a row of `x$front`; `NULL` is the object's
#'   default tree.
#' @param scale If `TRUE`, divide by the sum so the importances add up to
#'   1 (a tree that is a single leaf has none to scale).
#' @return A named numeric vector, one element per variable the tree
#'   tests, in decreasing order (empty for a single leaf).
#' @seealso [dpdt_rules()].
#' @examples
#' fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3)
#' dpdt_importance(fit)
#' dpdt_importance(fit, model = nrow(fit$front), scale = TRUE)
#' @export
dpdt_importance <- function(x, model = NULL, scale = FALSE) {
  check_front(x, "x")
  model <- resolve_model(x, model)
  check_flag(scale, "scale")
  tr <- front_tree(x, model)
  inner <- which(tr$feature > 0L)
  if (!length(inner)) return(stats::setNames(numeric(0), character(0)))
  gain <- tr$loss[inner] - tr$loss[tr$left[inner]] - tr$loss[tr$right[inner]]
  vars <- vapply(inner, function(i) node_split(tr, i, x$features, x$xlevels)$variable,
                 character(1))
  imp <- tapply(gain, factor(vars, levels = unique(vars)), sum)
  imp <- stats::setNames(as.double(imp), names(imp))
  if (scale && sum(imp) > 0) imp <- imp / sum(imp)
  imp[order(-imp, match(names(imp), vars))]
}
