# dpdt_prune() of an ensemble: a list of trees, or a ranger or randomForest
# forest, voting by majority (classification) or averaged (regression),
# pruned by subtree replacement to every total number of splits kept. The
# problem is NP-hard for two trees (Harviainen et al., 2025): exact by
# enumeration of the joint prunings up to max_states of them, beyond that a
# heuristic (block-coordinate descent, src/core/prune/ensemble.h) with a
# proven lower bound beside each point. A node made a leaf predicts the
# source tree's label of it.

# Is `tree` a list of trees (an ensemble), rather than one tree?
is_tree_list <- function(tree) {
  is.list(tree) && !is.data.frame(tree) && is.null(attr(tree, "class")) &&
    length(tree) >= 1 && all(vapply(tree, function(t)
      inherits(t, c("rpart", "dpdt", "party")), logical(1)))
}

prune_ensemble <- function(trees, data, w, max_states, call) {
  forest <- is_forest(trees)
  if (forest) {
    srcs <- forest_sources(trees, data, w)
  } else {
    if (length(trees) < 2) {
      stop_arg("`tree` is a list of ", length(trees), " tree: an ensemble needs at least ",
               "two; prune a single tree with dpdt_prune(tree[[1]], data).")
    }
    srcs <- lapply(trees, prune_source, model = NULL)
  }
  check_ensemble_members(srcs)
  classif <- srcs[[1]]$type == "classification"
  vars <- unique(unlist(lapply(srcs, function(s) all.vars(stats::delete.response(s$terms)))))
  tt <- stats::terms(stats::reformulate(paste0("`", vars, "`"),
                                        response = as.name(srcs[[1]]$response)))
  mf <- prune_frame(list(terms = tt), data)
  check_weights(w, nrow(mf))
  if (is.null(w)) w <- rep(1, nrow(mf))
  if (sum(w) <= 0) stop_arg("`weights` sum to zero; give at least one row a positive weight.")
  mf[["(weights)"]] <- as.double(w)
  y <- prune_response(srcs[[1]], mf)
  if (classif) y <- y + 1
  # counted before any is listed: a tree of 60 splits has more prunings
  # than memory holds
  raw <- vapply(srcs, function(s) count_prunings(s$tree), numeric(1))
  joint <- prod(raw)
  if (joint > max_states) {
    return(prune_ensemble_heuristic(srcs, mf, tt, y, w, classif, call, joint, forest))
  }
  members <- lapply(srcs, function(s) ensemble_member(s, mf))
  n_prunings <- vapply(members, function(m) ncol(m$pred), numeric(1))
  joint <- prod(n_prunings)
  start <- proc.time()[["elapsed"]]
  best <- ensemble_search(members, y, w, classif, length(srcs[[1]]$levels))
  seconds <- proc.time()[["elapsed"]] - start
  ensemble_front_object(best, members, srcs, mf, tt, w, call, seconds, joint, n_prunings)
}

check_ensemble_members <- function(srcs) {
  types <- vapply(srcs, `[[`, "", "type")
  if (length(unique(types)) > 1) {
    stop_arg("The trees of the ensemble mix classification and regression (",
             paste(types, collapse = ", "), "); give trees of one kind.")
  }
  resp <- vapply(srcs, `[[`, "", "response")
  if (length(unique(resp)) > 1) {
    stop_arg("The trees of the ensemble predict different responses (",
             paste0("`", unique(resp), "`", collapse = ", "), "); give trees of one response.")
  }
  if (types[1] == "classification") {
    lev <- lapply(srcs, `[[`, "levels")
    if (!all(vapply(lev, identical, logical(1), lev[[1]]))) {
      stop_arg("The trees of the ensemble have different classes; give trees fitted ",
               "to the same response levels.")
    }
  }
}

# One tree of the ensemble: the node each row of `mf` ends in (one side per
# split for missing values, as predict() routes), and its replacement
# prunings (columns of `pred`), one for each distinct pair of prediction
# vector and number of splits kept (`kept`), with the nodes cut (`cuts`).
# Prunings that predict alike but keep different numbers of splits are all
# kept: the front holds the least loss at every number of splits, and a
# pruning with more splits than another of the same predictions may be the
# one a budget needs (keeping only the fewest, a joint pruning of 5 splits
# was missed and a worse one reported).
ensemble_member <- function(src, mf) {
  x <- feature_matrix(mf, src$features, src$xlevels)
  check_routable(x, src, mf)
  tr <- src$tree
  check_preorder(tr)
  end <- as.integer(cpp_route(x, tr))
  cuts <- prunings_of(tr, 1L)
  pred <- matrix(0, length(end), length(cuts))
  kept <- numeric(length(cuts))
  for (i in seq_along(cuts)) {
    eff <- member_effective(list(tree = tr), cuts[[i]])
    pred[, i] <- tr$value[eff[end]]
    # inner nodes still splitting: neither cut nor below a cut
    kept[i] <- sum(tr$feature > 0 & eff == seq_along(eff)) - length(cuts[[i]])
  }
  # the same predictions with the same splits kept: the first of them
  # (predictions compared exactly, as hexadecimal doubles)
  o <- order(kept)
  exact <- apply(pred[, o, drop = FALSE], 2, function(v) paste(sprintf("%a", v), collapse = ","))
  first <- o[!duplicated(paste(kept[o], exact))]
  list(pred = pred[, first, drop = FALSE], kept = kept[first], cuts = cuts[first],
       end = end, tree = tr, features = src$features, xlevels = src$xlevels)
}

# The routing loop above needs parents numbered before their children.
check_preorder <- function(tr) {
  inner <- which(tr$feature > 0L)
  if (any(tr$left[inner] <= inner) || any(tr$right[inner] <= inner)) {
    stop("internal: tree nodes are not numbered parents first", call. = FALSE)
  }
}

# The number of replacement prunings of a tree: at each node, it cut, or
# any pruning of each child (children numbered after their parents).
count_prunings <- function(tr) {
  count <- rep(1, length(tr$feature))
  for (v in rev(which(tr$feature > 0L))) count[v] <- 1 + count[tr$left[v]] * count[tr$right[v]]
  count[1L]
}

# Every replacement pruning of the subtree of node v, as the nodes cut
# (each becomes a leaf): v itself, or a pruning of each child.
prunings_of <- function(tr, v) {
  if (tr$feature[v] == 0L) return(list(integer(0)))
  l <- prunings_of(tr, tr$left[v])
  r <- prunings_of(tr, tr$right[v])
  both <- unlist(lapply(l, function(a) lapply(r, function(b) c(a, b))), recursive = FALSE)
  c(list(v), both)
}

# The least loss for every total number of splits kept, over every joint
# pruning: the members but the last are enumerated, the last one's
# prunings scored at once (a matrix of rows x prunings). Majority vote with
# ties to the first class in level order; regression: the mean. The first
# joint pruning found keeps a tie of losses.
ensemble_search <- function(members, y, w, classif, n_classes) {
  last <- members[[length(members)]]
  rest <- members[-length(members)]
  total <- sum(vapply(members, function(m) max(m$kept), numeric(1)))
  best_loss <- rep(Inf, total + 1)
  best_pick <- matrix(NA_integer_, total + 1, length(members))
  grid <- as.matrix(expand.grid(lapply(rest, function(m) seq_len(ncol(m$pred)))))
  for (g in seq_len(nrow(grid))) {
    pick <- grid[g, ]
    kept_rest <- sum(vapply(seq_along(rest), function(t) rest[[t]]$kept[pick[t]], numeric(1)))
    loss <- if (classif) {
      votes <- matrix(0, length(y), n_classes)
      for (t in seq_along(rest)) {
        p <- rest[[t]]$pred[, pick[t]]
        votes[cbind(seq_along(y), p)] <- votes[cbind(seq_along(y), p)] + 1
      }
      vote_losses(votes, last$pred, y, w)
    } else {
      s <- Reduce(`+`, lapply(seq_along(rest), function(t) rest[[t]]$pred[, pick[t]]))
      colSums(w * ((s + last$pred) / length(members) - y)^2)
    }
    k <- kept_rest + last$kept + 1
    for (j in seq_along(loss)) {
      if (loss[j] < best_loss[k[j]]) {
        best_loss[k[j]] <- loss[j]
        best_pick[k[j], ] <- c(pick, j)
      }
    }
  }
  list(loss = best_loss, pick = best_pick)
}

# Misclassified weight of the vote `votes` (rows x classes, the other
# trees) plus each column of `last` (the last tree's class per row).
vote_losses <- function(votes, last, y, w) {
  n <- nrow(last)
  win <- matrix(1L, n, ncol(last))
  top <- votes[, 1] + (last == 1)
  for (k in seq_len(ncol(votes))[-1]) {
    ck <- votes[, k] + (last == k)
    better <- ck > top
    top[better] <- ck[better]
    win[better] <- k
  }
  colSums(w * (win != y))
}

# The front object: one row per total number of splits kept that some
# joint pruning reaches, from the fewest (every tree a leaf) to the most.
ensemble_front_object <- function(best, members, srcs, mf, tt, w, call, seconds, joint,
                                  n_prunings) {
  ok <- which(is.finite(best$loss))
  picks <- best$pick[ok, , drop = FALSE]
  tests <- vapply(seq_along(ok), function(i) {
    sum(vapply(seq_along(members), function(t) ensemble_member_tests(members[[t]], picks[i, t], w),
               numeric(1)))
  }, numeric(1))
  s <- list(n_splits = ok - 1,
            n_leaves = (ok - 1) + length(members),
            depth = vapply(seq_along(ok), function(i) max(vapply(seq_along(members), function(t)
              member_depth(members[[t]], picks[i, t]), numeric(1))), numeric(1)),
            tests = tests)
  front <- prune_front(best$loss[ok], s, sum(w))
  front$n_pruned <- NULL
  front$splits_by_tree <- apply(picks, 1, function(p) paste(vapply(seq_along(members), function(t)
    members[[t]]$kept[p[t]], numeric(1)), collapse = "+"))
  structure(list(
    front = front, trees = NULL, tree_cuts = NULL,
    ensemble = list(members = lapply(members, function(m) m[c("tree", "features", "xlevels")]),
                    cuts = lapply(seq_along(ok), function(i) lapply(seq_along(members), function(t)
                      members[[t]]$cuts[[picks[i, t]]])),
                    vote = if (srcs[[1]]$type == "classification") "majority" else "mean",
                    joint_prunings = joint, distinct_prunings = n_prunings,
                    exact = TRUE),
    default_model = nrow(front), loss_column = "loss",
    type = srcs[[1]]$type, levels = srcs[[1]]$levels, response = srcs[[1]]$response,
    features = NULL, xlevels = NULL, terms = tt,
    model_frame = mf, na.action = NULL, nobs = nrow(mf), call = call,
    method = "replace", labels = "keep", source = "ensemble",
    original = lapply(srcs, `[[`, "original"), seconds = seconds
  ), class = c("dpdt_prune_ensemble", "dpdt"))
}

# An ensemble beyond enumeration (`joint` prunings > max_states): the
# engine's block-coordinate descent from the whole ensemble, under a
# penalty per split kept that rises from below what any row weighs (no
# split's loss is traded) to what every tree a leaf loses, each step from
# the last one's pruning; every joint pruning a pass ends with is real, and
# the front is their Pareto set with every tree a leaf, each point beside
# the engine's lower bound of the least loss at its number of splits.
prune_ensemble_heuristic <- function(srcs, mf, tt, y, w, classif, call, joint, forest,
                                     steps = 40L, passes = 4L) {
  members <- lapply(srcs, function(s) {
    x <- feature_matrix(mf, s$features, s$xlevels)
    check_routable(x, s, mf)
    check_preorder(s$tree)
    list(tree = s$tree, features = s$features, xlevels = s$xlevels,
         end = as.integer(cpp_route(x, s$tree)))
  })
  splits <- sum(vapply(members, function(m) sum(m$tree$feature > 0L), numeric(1)))
  # the top penalty: what every tree a leaf loses at most (classification:
  # the total weight; regression: the squared error of the roots' mean)
  top <- sum(w)
  if (!classif) {
    roots <- mean(vapply(members, function(m) m$tree$value[1], numeric(1)))
    top <- max(top, sum(w * (roots - y)^2))
  }
  penalties <- exp(seq(log(min(w[w > 0]) / (10 * max(1, splits))), log(top), length.out = steps))
  start <- proc.time()[["elapsed"]]
  res <- cpp_prune_ensemble(lapply(members, function(m) {
    list(left = as.integer(m$tree$left), right = as.integer(m$tree$right),
         depth = as.integer(m$tree$depth), value = as.double(m$tree$value), end = m$end)
  }), as.double(y), as.double(w), if (classif) length(srcs[[1]]$levels) else 0L,
  penalties, passes)
  if (!is.null(res$condition)) stop(res$condition)
  seconds <- proc.time()[["elapsed"]] - start
  n_trees <- length(members)
  s <- list(n_splits = as.double(res$splits), n_leaves = as.double(res$splits) + n_trees,
            depth = as.double(res$depth), tests = res$tests)
  front <- prune_front(res$loss, s, sum(w))
  front$n_pruned <- NULL
  front$lower_bound <- res$lower_bound / sum(w)
  front$gap <- front$loss - front$lower_bound
  if (n_trees <= 20) {
    front$splits_by_tree <- vapply(res$kept, paste, "", collapse = "+")
  } else {
    front$trees_split <- vapply(res$kept, function(k) sum(k > 0), numeric(1))
  }
  structure(list(
    front = front, trees = NULL, tree_cuts = NULL,
    ensemble = list(members = lapply(members, function(m) m[c("tree", "features", "xlevels")]),
                    cuts = res$cuts,
                    vote = if (classif) "majority" else "mean",
                    joint_prunings = joint, exact = FALSE,
                    whole_loss = res$whole_loss / sum(w), penalties = penalties,
                    passes = passes),
    default_model = nrow(front), loss_column = "loss",
    type = srcs[[1]]$type, levels = srcs[[1]]$levels, response = srcs[[1]]$response,
    features = NULL, xlevels = NULL, terms = tt,
    model_frame = mf, na.action = NULL, nobs = nrow(mf), call = call,
    method = "replace", labels = "keep", source = if (forest) srcs[[1]]$source else "ensemble",
    original = if (forest) NULL else lapply(srcs, `[[`, "original"), seconds = seconds
  ), class = c("dpdt_prune_ensemble", "dpdt"))
}

# Effective node of each node under the cuts: the highest cut ancestor it
# merges into, or itself. Parents are numbered before their children.
member_effective <- function(m, cut) {
  tr <- m$tree
  eff <- seq_along(tr$feature)
  for (v in which(tr$feature > 0L)) {
    if (eff[v] != v || v %in% cut) eff[c(tr$left[v], tr$right[v])] <- eff[v]
  }
  eff
}

# Depth of a pruned member: its deepest leaf, which is where some leaf of
# the unpruned tree now ends.
member_depth <- function(m, pick) {
  eff <- member_effective(m, m$cuts[[pick]])
  max(m$tree$depth[eff[m$tree$feature == 0L]])
}

# Weighted tests on the rows' paths in one pruned member (its depth at the
# node each row now ends in).
ensemble_member_tests <- function(m, pick, w) {
  eff <- member_effective(m, m$cuts[[pick]])
  sum(w * m$tree$depth[eff[m$end]])
}

# Predictions of joint pruning `model` for model frame `mf`: the majority
# class of the pruned trees (ties: the first class), their vote shares
# ("prob"), or their mean (regression).
ensemble_predictions <- function(object, mf, model, type) {
  ens <- object$ensemble
  if (type == "node") {
    stop_arg("`type = \"node\"` is for one tree; an ensemble's point has ",
             length(ens$members), " trees.")
  }
  preds <- lapply(seq_along(ens$members), function(t) {
    m <- ens$members[[t]]
    x <- feature_matrix(mf, m$features, m$xlevels, unseen = "error")
    end <- as.integer(cpp_route(x, m$tree))
    m$tree$value[member_effective(m, ens$cuts[[model]][[t]])[end]]
  })
  if (object$type == "regression") return(Reduce(`+`, preds) / length(preds))
  k <- length(object$levels)
  votes <- matrix(0, nrow(mf), k, dimnames = list(NULL, object$levels))
  for (p in preds) votes[cbind(seq_len(nrow(mf)), p)] <- votes[cbind(seq_len(nrow(mf)), p)] + 1
  if (type == "prob") return(votes / length(preds))
  factor(object$levels[max.col(votes, ties.method = "first")], levels = object$levels)
}

#' @rdname dpdt_prune
#' @export
print.dpdt_prune_ensemble <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  e <- x$ensemble
  vote <- if (e$vote == "majority") "majority vote, ties to the first class" else "mean"
  cat("\nCall:  ", paste(deparse(x$call), collapse = "\n"), "\n\n", sep = "")
  if (isTRUE(e$exact)) {
    cat(sprintf("Exact replacement pruning of an ensemble of %d trees (%s) on %d rows of `%s`\n",
                length(e$members), vote, x$nobs, x$response))
    cat(sprintf("%s joint prunings tried (distinct prunings per tree: %s) in %s s\n",
                format(e$joint_prunings, big.mark = ","),
                paste(e$distinct_prunings, collapse = ", "), format(x$seconds, digits = 2)))
    cat("The least loss for every total number of splits kept, proven by enumeration\n\n")
  } else {
    cat(sprintf("Heuristic replacement pruning of an ensemble of %d trees (%s) on %d rows of `%s`\n",
                length(e$members), vote, x$nobs, x$response))
    joint <- if (is.finite(e$joint_prunings)) format(e$joint_prunings, big.mark = ",", digits = 3)
             else "More than 1e308"
    cat(sprintf(paste("%s joint prunings, beyond enumeration: block-coordinate descent",
                      "(%d penalties per split, up to %d passes each) in %s s\n"),
                joint, length(e$penalties), e$passes, format(x$seconds, digits = 2)))
    cat(sprintf(paste0("Not proven optimal: lower_bound is a proven floor of the least loss",
                       " at each number of splits, gap how far the point may be from it",
                       " (whole ensemble: loss %s)\n\n"), format(e$whole_loss, digits = digits)))
  }
  print_front(x$front, digits)
  invisible(x)
}
