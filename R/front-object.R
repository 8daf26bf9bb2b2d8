# One object for every front of trees (DESIGN.md §2b). A fit (dpdt_fit), a
# pruning result (dpdt_prune) and a cross-validation result (dpdt_cv) are all
# lists of class c(<producer class>, "dpdt") with these fields, so that
# predict(), dpdt_tree(), fitted(), plots, exports and tidiers are written
# once for all of them:
#
#   front         data frame, one row per tree: `model` (1..m), `n_splits`,
#                 `n_leaves`, `depth`, `avg_tests`, the loss column named by
#                 `loss_column`, plus the producer's own columns
#   trees         list of m tree lists (see src/tree_convert.h): feature
#                 (row of `features`, 0 at a leaf), threshold, levels_left,
#                 na_left, left, right, depth, n, weight, value (class index
#                 or mean), loss (weighted errors / squared error in the
#                 node), class_weight (nodes x classes, classification) --
#                 or NULL for a lazy front, which holds instead
#   tree_cuts     (lazy replacement-pruning fronts) list(base, node, start):
#                 `base` the unpruned tree list with its statistics, and
#                 model k's base nodes made leaves node[start[k] + 1 ..
#                 start[k + 1]]; front_tree() builds tree k from them
#   default_model the tree used when `model = NULL`
#   loss_column   "train_loss" for fits, "loss" for pruning fronts
#   type          "classification" or "regression"
#   levels        response levels (classification)
#   response      name of the response
#   features      engine feature table (name, variable, kind, level)
#   xlevels       training levels of factor-like predictors
#   terms         terms of the model (to rebuild frames from new data)
#   model_frame   model frame of the rows the losses were computed on, or
#                 NULL when predict() needs newdata
#   na.action     what na.action removed from those rows (or NULL)
#
# Contract: code reads a tree ONLY through front_tree(object, model) (the
# model already resolved by resolve_model()), never object$trees, which may
# be NULL. Code that summarises every tree of a front uses the front's
# columns (n_splits, n_leaves, depth, avg_tests, the loss column), not a
# loop over front_tree(): a pruning front of an rpart tree grown with
# cp = 0 has 1,500 trees of 3,000 nodes each.

# `model = NULL` means the object's default tree; anything else must be a
# row of its front.
resolve_model <- function(object, model) {
  m <- nrow(object$front)
  if (is.null(model)) {
    return(if (is.null(object$default_model)) m else object$default_model)
  }
  check_model_id(model, m)
}

# The front's loss column (its name differs between producers).
front_loss <- function(object) {
  col <- if (is.null(object$loss_column)) "train_loss" else object$loss_column
  object$front[[col]]
}

# Tree `model` (a resolved row of the front) as a tree list. A pruning front
# by replacement builds it from the unpruned tree and the model's cut nodes
# (the same list an eager front would hold); every other front returns its
# stored tree.
front_tree <- function(object, model) {
  if (!is.null(object$trees)) return(object$trees[[model]])
  if (!is.null(object$ensemble)) {
    stop_arg("Model ", model, " of this front is an ensemble of ",
             length(object$ensemble$members), " pruned trees, not one tree; ",
             "predict() with it, or see its nodes cut in `$ensemble$cuts[[", model, "]]`.")
  }
  cuts <- object$tree_cuts
  if (is.null(cuts)) {
    stop("internal: a front object holds neither `trees` nor `tree_cuts`",
         call. = FALSE)
  }
  from <- cuts$start[model]
  node <- cuts$node[seq.int(from + 1L, length.out = cuts$start[model + 1L] - from)]
  cpp_prune_tree(cuts$base, node,
                 if (object$type == "classification") length(object$levels) else 0L)
}
