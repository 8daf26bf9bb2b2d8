# Every tree of a ranger or randomForest forest in the shared representation
# (one source per tree, shaped like rpart_source()'s), so that the ensemble
# pruning (prune-ensemble.R) can prune whole forests. Messages name `tree`
# and `data`: the forest reaches us as dpdt_prune()'s `tree`.
#
# Splits, as each package's predict() routes (checked against
# predict(predict.all = TRUE) in the tests):
#   - numeric, logical (0/1), Date and POSIXct columns: x <= split goes left
#     in both packages, as ours;
#   - ordered factors: both split the level codes (data.matrix()), x <= split
#     left: our "ordered" kind on the same codes;
#   - unordered factors, one "categorical" feature with the levels going
#     left, by ranger's respect.unordered.factors:
#       "ignore"    the codes split as numbers: codes <= split go left;
#       "order"     the levels re-ordered at fit time (kept in the forest's
#                   covariate.levels; predict() puts levels it never saw
#                   after them), then split as numbers;
#       "partition" the split value is a bitmask, bit i - 1 set sends code i
#                   right (so the clear bits go left);
#     randomForest: a bitmask of the positions in its xlevels going left.
#   ranger keeps no levels under "ignore" and "partition": its predict()
#   codes the levels of the data it is given, and so do we (those of `mf`).
# Neither package routes missing values, so `mf` must have none in the
# forest's predictors; na_left is TRUE at every split and never used.
#
# Labels: a leaf keeps the forest's own prediction (class index into the
# forest's levels, or value). The inner nodes of a forest carry no label a
# pruning could fall back to, so replacement gives them one from the rows
# of `mf`: the weighted majority class (ties: the first level) or weighted
# mean of the rows reaching the node; a node no weight reaches takes its
# parent's label (the root's is that of all rows).

is_forest <- function(x) inherits(x, c("ranger", "randomForest"))

# One source per tree in `trees` (default: all), in that order.
forest_sources <- function(forest, mf, w, trees = NULL) {
  spec <- if (inherits(forest, "ranger")) ranger_spec(forest) else randomForest_spec(forest)
  if (is.null(w)) w <- rep(1, nrow(mf))
  check_weights(w, nrow(mf))
  if (sum(w) <= 0) stop_arg("`weights` sum to zero; give at least one row a positive weight.")
  trees <- if (is.null(trees)) seq_len(spec$n_trees)
           else check_whole(trees, "trees", 1, spec$n_trees, vector = TRUE)
  check_forest_frame(spec, mf)
  xlevels <- spec$xlevels(mf)
  features <- feature_table(mf, spec$vars, xlevels)
  x <- feature_matrix(mf, features, xlevels)
  y <- forest_response(spec, mf)
  tt <- stats::terms(stats::reformulate(paste0("`", spec$vars, "`"),
                                        response = as.name(spec$response)))
  classif <- spec$type == "classification"
  lapply(trees, function(k) {
    nodes <- spec$nodes(k)
    tr <- forest_tree(nodes, features, xlevels, spec)
    tr$tree$value <- inner_labels(tr$tree, as.integer(cpp_route(x, tr$tree)), y, w,
                                  if (classif) length(spec$levels) else 0L)
    list(tree = tr$tree, features = features, xlevels = xlevels, terms = tt,
         type = spec$type, levels = spec$levels, response = spec$response,
         source = spec$source, node_label = tr$node_label,
         end_nodes = NULL, original = NULL, data = NULL, weights = NULL)
  })
}

# ---- ranger ----------------------------------------------------------------

# What forest_sources() needs of a forest: its kind, classes, response and
# predictors, its trees as node tables (nodes()), the levels of its factor
# predictors (xlevels()), and how a categorical split's value reads as the
# codes going left (levels_left()).
ranger_spec <- function(forest) {
  check_installed("ranger", "convert a ranger forest")
  type <- switch(forest$treetype, Classification = "classification", Regression = "regression",
                 "Probability estimation" = stop_arg(
                   "`tree` is a ranger probability forest (probability = TRUE): it ",
                   "averages class probabilities, which the pruning does not do. ",
                   "Refit it with probability = FALSE (a majority vote)."),
                 stop_arg("`tree` is a ranger forest of type \"", forest$treetype, "\"; ",
                          "only classification and regression forests can be pruned."))
  f <- forest$forest
  if (is.null(f)) {
    stop_arg("`tree` is a ranger forest fitted with write.forest = FALSE; ",
             "refit it with write.forest = TRUE (the trees are needed).")
  }
  vars <- f$independent.variable.names
  mode <- ranger_factor_mode(forest)
  levels <- if (type == "classification") {
    if (is.null(f$levels)) as.character(sort(f$class.values)) else as.character(f$levels)
  }
  cov <- f$covariate.levels
  list(
    source = "ranger", type = type, levels = levels, response = ranger_response(forest),
    vars = vars, n_trees = forest$num.trees,
    # under "partition" the unordered factors are those not split in order
    unordered = if (mode == "partition") vars[!f$is.ordered],
    nodes = function(k) {
      ti <- ranger::treeInfo(forest, k)
      leaf <- ti$terminal
      kid <- function(v) ifelse(leaf, 0L, as.integer(v) + 1L)
      # the raw split values: treeInfo() prints partition bitmasks as text
      # a leaf's class is its split value, an index into the forest's
      # levels, as predict() reads it (treeInfo() of ranger 0.14 maps it
      # through class.values, the classes in order of first appearance:
      # every class swapped when the first training row is not of the
      # first level)
      raw <- f$split.values[[k]]
      class <- rep(NA_character_, length(raw))
      if (type == "classification") {
        class[leaf] <- if (is.null(f$levels)) as.character(raw[leaf]) else f$levels[raw[leaf]]
      }
      list(left = kid(ti$leftChild), right = kid(ti$rightChild),
           var = ifelse(leaf, NA_character_, ti$splitvarName),
           split = raw, label = ti$nodeID,
           prediction = if (type == "classification") class else as.double(ti$prediction))
    },
    xlevels = function(mf) {
      lapply(factor_vars(mf, vars), function(v) {
        own <- levels(as.factor(mf[[v]]))
        # predict() appends the levels it never saw after the forest's order
        if (mode == "order" && !is.null(cov[[v]])) c(cov[[v]], setdiff(own, cov[[v]])) else own
      })
    },
    levels_left = function(v, split, n_levels) {
      if (mode == "partition") which(bit_matrix(split, n_levels) == 0, arr.ind = TRUE)
      else which(outer(split, seq_len(n_levels), `>=`), arr.ind = TRUE)
    }
  )
}

# "ignore", "order" or "partition", as ranger resolved it at fit time. The
# forest tells them apart only by its unordered factors (split as sets
# under "partition", re-ordered levels kept under "order"); without any,
# all three split the same numbers.
ranger_factor_mode <- function(forest) {
  f <- forest$forest
  if (!all(f$is.ordered)) return("partition")
  if (!is.null(f$covariate.levels) && !all(vapply(f$covariate.levels, is.null, logical(1)))) {
    return("order")
  }
  "ignore"
}

# The response's name: kept by newer ranger versions; 0.14 keeps only the
# call, so its formula (or dependent.variable.name) is read from there.
ranger_response <- function(forest) {
  name <- forest$dependent.variable.name
  if (is.character(name) && length(name) == 1 && nzchar(name)) return(name)
  call <- tryCatch(match.call(ranger::ranger, forest$call), error = function(e) NULL)
  fo <- call$formula
  if (is.character(fo) && length(fo) == 1) {
    fo <- tryCatch(stats::as.formula(fo), error = function(e) NULL)
  }
  if (is.call(fo) && identical(fo[[1L]], as.name("~")) && length(fo) == 3) {
    return(lhs_name(fo[[2L]]))
  }
  dep <- call$dependent.variable.name
  if (is.character(dep) && length(dep) == 1 && nzchar(dep)) return(dep)
  stop_arg("`tree` is a ranger forest whose response is unknown (fitted with x and y, ",
           "or a formula not written in the call); refit it with a formula, such as ",
           "ranger(y ~ ., data).")
}

# ---- randomForest ----------------------------------------------------------

randomForest_spec <- function(forest) {
  check_installed("randomForest", "convert a randomForest forest")
  if (!forest$type %in% c("classification", "regression")) {
    stop_arg("`tree` is a randomForest forest of type \"", forest$type, "\"; only ",
             "classification and regression forests can be pruned.")
  }
  if (is.null(forest$forest)) {
    stop_arg("`tree` is a randomForest forest fitted with keep.forest = FALSE; ",
             "refit it with keep.forest = TRUE (the trees are needed).")
  }
  if (is.null(forest$terms)) {
    stop_arg("`tree` is a randomForest forest fitted without a formula, so its response ",
             "is unknown; refit it with a formula, such as randomForest(y ~ ., data).")
  }
  f <- forest$forest
  vars <- names(f$xlevels)
  # ncat > 1: an unordered factor (ordered factors are split as codes)
  unordered <- vars[f$ncat > 1]
  classif <- forest$type == "classification"
  list(
    source = "randomForest", type = forest$type,
    levels = if (classif) as.character(forest$classes),
    response = lhs_name(forest$terms[[2L]]), vars = vars, n_trees = forest$ntree,
    unordered = unordered,
    nodes = function(k) {
      g <- randomForest::getTree(forest, k, labelVar = TRUE)
      leaf <- g$status == -1
      list(left = as.integer(g[["left daughter"]]), right = as.integer(g[["right daughter"]]),
           var = ifelse(leaf, NA_character_, as.character(g[["split var"]])),
           split = g[["split point"]], label = seq_len(nrow(g)),
           prediction = if (classif) as.character(g$prediction) else as.double(g$prediction))
    },
    xlevels = function(mf) {
      # the training levels, in whose positions the bitmasks are written
      lapply(factor_vars(mf, vars), function(v) {
        if (v %in% unordered) f$xlevels[[v]] else levels(as.factor(mf[[v]]))
      })
    },
    levels_left = function(v, split, n_levels) {
      which(bit_matrix(split, n_levels) == 1, arr.ind = TRUE)
    }
  )
}

# ---- shared ----------------------------------------------------------------

# A formula's response as the name of its column (`my y` without backticks).
lhs_name <- function(e) if (is.name(e)) as.character(e) else paste(deparse(e), collapse = "")

# The factor-like predictors of `vars` in `mf`, named.
factor_vars <- function(mf, vars) {
  fv <- vars[vapply(vars, function(v) is.factor(mf[[v]]) || is.character(mf[[v]]), logical(1))]
  stats::setNames(fv, fv)
}

# Bit j (1-based) of each mask, as a masks x n matrix of 0/1. Masks are
# doubles (up to 53 levels), so the bits are read arithmetically.
bit_matrix <- function(mask, n) {
  floor(outer(mask, 2^(seq_len(n) - 1L), `/`)) %% 2
}

# `mf` must hold the forest's predictors and response, without missing
# predictor values, and with unordered factors where the forest split them
# as sets of levels (their bitmasks mean nothing on numbers).
check_forest_frame <- function(spec, mf) {
  miss <- setdiff(c(spec$response, spec$vars), names(mf))
  if (length(miss)) {
    stop_arg("`data` lacks column(s) ", paste0("`", miss, "`", collapse = ", "),
             " used by the forest (its response or predictors); add them.")
  }
  na <- spec$vars[vapply(spec$vars, function(v) anyNA(mf[[v]]), logical(1))]
  if (length(na)) {
    stop_arg("`data` has missing values in ", paste0("`", na, "`", collapse = ", "),
             "; a ", spec$source, " forest sends them to no side. Remove or impute ",
             "those rows.")
  }
  unord <- vapply(spec$vars, function(v) {
    x <- mf[[v]]
    (is.factor(x) && !is.ordered(x)) || is.character(x)
  }, logical(1))
  bad <- spec$vars[xor(spec$vars %in% spec$unordered, unord)]
  if (!is.null(spec$unordered) && length(bad)) {
    stop_arg("Predictor(s) ", paste0("`", bad, "`", collapse = ", "), " of `data` ",
             "are not of the kind the forest was fitted to (unordered factor or not); ",
             "give the columns as in training.")
  }
}

# The response of `mf`: a class index into the forest's levels, or a number.
forest_response <- function(spec, mf) {
  y <- mf[[spec$response]]
  if (anyNA(y)) {
    stop_arg("The response `", spec$response, "` has NA in `data`; errors cannot be ",
             "counted on those rows. Remove them first.")
  }
  if (spec$type == "regression") {
    if (!is.numeric(y) || any(!is.finite(y))) {
      stop_arg("The response `", spec$response, "` must be finite numbers for a ",
               "regression forest; got ", describe(y), ".")
    }
    return(as.double(y))
  }
  code <- match(as.character(y), spec$levels)
  if (anyNA(code)) {
    bad <- unique(as.character(y)[is.na(code)])
    stop_arg("The response `", spec$response, "` has class(es) ",
             paste0("\"", utils::head(bad, 5), "\"", collapse = ", "),
             " that the forest does not know (its classes: ",
             paste0("\"", spec$levels, "\"", collapse = ", "), ").")
  }
  code
}

# One tree's node table (rows numbered from the root, children as row
# numbers, 0 at leaves) as our tree, nodes renumbered in preorder. Inner
# values are left NA for inner_labels().
forest_tree <- function(nodes, features, xlevels, spec) {
  m <- length(nodes$left)
  inner <- which(nodes$left > 0L)
  feature <- integer(m)
  feature[inner] <- match(nodes$var[inner], features$variable)
  kind <- features$kind[feature[inner]]
  threshold <- rep(NA_real_, m)
  levels_left <- vector("list", m)
  cat_nodes <- inner[kind == "categorical"]
  threshold[setdiff(inner, cat_nodes)] <- nodes$split[setdiff(inner, cat_nodes)]
  # the categorical splits, one variable at a time (one bit matrix each)
  for (v in unique(nodes$var[cat_nodes])) {
    at <- cat_nodes[nodes$var[cat_nodes] == v]
    hit <- spec$levels_left(v, nodes$split[at], length(xlevels[[v]]))
    groups <- split(as.integer(hit[, 2L]), factor(hit[, 1L], levels = seq_along(at)))
    levels_left[at] <- lapply(groups, unname)
  }
  value <- rep(NA_real_, m)
  leaves <- which(nodes$left == 0L)
  value[leaves] <- if (spec$type == "classification") {
    match(nodes$prediction[leaves], spec$levels)
  } else {
    nodes$prediction[leaves]
  }
  o <- preorder(nodes$left, nodes$right)
  id <- integer(m)
  id[o$row] <- seq_len(m)
  kid <- function(k) ifelse(k > 0L, id[pmax(k, 1L)], 0L)[o$row]
  list(tree = list(feature = feature[o$row], threshold = threshold[o$row],
                   levels_left = levels_left[o$row],
                   na_left = ifelse(feature > 0L, TRUE, NA)[o$row],
                   left = kid(nodes$left), right = kid(nodes$right),
                   depth = o$depth[o$row], value = value[o$row]),
       node_label = nodes$label[o$row])
}

# Preorder of a binary tree given by children row numbers (0 at leaves),
# the root row 1: `row` lists the rows in preorder, `depth` is per row.
# Vectorised one depth at a time (a forest has hundreds of trees).
preorder <- function(left, right) {
  m <- length(left)
  depth <- integer(m)
  by_depth <- list(1L)
  repeat {
    at <- by_depth[[length(by_depth)]]
    at <- at[left[at] > 0L]
    if (!length(at)) break
    kids <- c(left[at], right[at])
    depth[kids] <- length(by_depth)
    by_depth[[length(by_depth) + 1L]] <- kids
  }
  size <- rep(1L, m)
  for (d in rev(seq_along(by_depth))) {
    at <- by_depth[[d]]
    at <- at[left[at] > 0L]
    size[at] <- 1L + size[left[at]] + size[right[at]]
  }
  pos <- integer(m)
  pos[1L] <- 1L
  for (d in seq_along(by_depth)) {
    at <- by_depth[[d]]
    at <- at[left[at] > 0L]
    pos[left[at]] <- pos[at] + 1L
    pos[right[at]] <- pos[at] + 1L + size[left[at]]
  }
  row <- integer(m)
  row[pos] <- seq_len(m)
  list(row = row, depth = depth)
}

# Leaves keep their value; inner nodes get the weighted majority class
# (ties: the first) or weighted mean of the rows ending below them, or
# their parent's label when no weight reaches them. `end`: each row's leaf.
inner_labels <- function(tr, end, y, w, n_classes) {
  m <- length(tr$feature)
  k <- if (n_classes > 0) n_classes else 2L
  # per node: weight by class, or weight and weighted sum of y
  s <- matrix(0, m, k)
  if (n_classes > 0) {
    agg <- rowsum(w, (y - 1L) * m + end)
  } else {
    agg <- rowsum(c(w, w * y), c(end, m + end))
  }
  s[as.integer(rownames(agg))] <- agg
  inner <- which(tr$feature > 0L)
  levels_by_depth <- split(inner, tr$depth[inner])
  for (at in rev(levels_by_depth)) {
    s[at, ] <- s[tr$left[at], , drop = FALSE] + s[tr$right[at], , drop = FALSE]
  }
  value <- tr$value
  total <- if (n_classes > 0) rowSums(s) else s[, 1L]
  reached <- inner[total[inner] > 0]
  value[reached] <- if (n_classes > 0) max.col(s[reached, , drop = FALSE], ties.method = "first")
                    else s[reached, 2L] / s[reached, 1L]
  # unreached inner nodes, top down: the parent's label (the root is
  # reached, the weights summing to more than zero)
  parent <- integer(m)
  parent[tr$left[inner]] <- inner
  parent[tr$right[inner]] <- inner
  for (at in levels_by_depth) {
    lost <- at[total[at] <= 0]
    value[lost] <- value[parent[lost]]
  }
  as.double(value)
}
