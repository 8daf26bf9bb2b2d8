# Runs one fuzz case (see generate.R) and checks every result: what a
# correct dpdt_fit() and its methods must satisfy on any input. Sourced in
# the child processes started by run.R, with dpdt attached.
#
# fz_run_case(case) returns list(id, outcome, findings, seconds): outcome is
# "fit" (a fit, checked), "input_error" (dpdt refused the input with its own
# message naming the argument) or "refused" (dpdt_fit() refused a search
# beyond its memory budget); findings is a data frame (category, message),
# empty when all is well. Categories:
#   error             an R error that is not one of dpdt's input errors, in
#                     the fit or in a method (predict, print, ...)
#   warning           a warning from the fit or a method, except the fit's
#                     documented "The front holds only the single leaf"
#                     warning when the front is that one row (a one-row
#                     front without it, or it with more rows, is a finding),
#                     and the documented warning on a factor that "looks like
#                     an identifier"
#   accepted_invalid  an input that must be refused was fitted
#   front             the front is malformed: row 1 not the single leaf
#                     (alpha_max Inf), not strictly monotone, dominated rows
#   tree              a tree's own statistics disagree (counts, depths,
#                     min_bucket, leaf losses), or a test is malformed: an
#                     inner node has neither or both of a threshold and a
#                     level group, a group is not a proper subset of its
#                     factor's levels, or the side of missing values is unset
#   predict           predict() on the training rows (rows with missing
#                     predictors included: na.action = NULL keeps them)
#                     does not give back the front's avg_tests (and avg_cost
#                     with complexity = "cost"), a classification
#                     train_loss, the trees' leaf counts, or the same for
#                     newdata; or returns NA for a training row
#   loss              regression: predict() misses train_loss by more than
#                     1e-9 of the single leaf's loss (a gross error)
#   loss_precision    regression: ... by more than 1e-9 of the tree's own
#                     loss (rounding would be far less; issue 9, defect 1)
#   alpha_order       a hull row with alpha_min > alpha_max (issue 9, defect 3;
#                     fixed on main: strict since)
#   alpha_tiling      the alpha intervals do not tile [0, Inf) over the hull
#                     rows with each row optimal inside its own interval
#   threads           threads = 1 and threads = 2 give different fronts/trees
# run.R adds crash and timeout, and prefixes "magnitude:" to the categories
# of cases tagged with extreme magnitudes (fz_magnitude_tags).

fz_call <- function(case, threads = NULL) {
  env <- new.env(parent = globalenv())
  env$d <- if ("data_matrix" %in% case$tags) as.matrix(case$data) else case$data
  a <- list(formula = str2lang(case$formula), data = quote(d))
  if (is.character(case$weights) && length(case$weights) == 1 &&
      case$weights %in% names(case$data)) {
    a$weights <- as.name(case$weights)
  } else if (!is.null(case$weights)) {
    env$.w <- case$weights
    a$weights <- quote(.w)
  }
  if (is.logical(case$subset)) {
    env$.s <- case$subset
    a$subset <- quote(.s)
  } else if (is.character(case$subset)) {
    a$subset <- str2lang(case$subset)
  }
  args <- case$args
  if (!is.null(args$na.action)) args$na.action <- as.name(args$na.action)
  if (!is.null(threads)) args$threads <- threads
  list(call = as.call(c(list(as.name("dpdt_fit")), a, args)), env = env)
}

# Evaluates f(), collecting warnings; an error is returned as the condition.
fz_try <- function(f) {
  warns <- character(0)
  value <- withCallingHandlers(
    tryCatch(f(), error = function(e) e),
    warning = function(w) {
      warns <<- c(warns, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  list(value = value, warnings = warns, failed = inherits(value, "error"))
}

# dpdt's own refusals: a message naming the argument (raised with call. =
# FALSE), or the engine's budget refusal; na.fail's own error when the user
# asked for na.fail.
fz_error_kind <- function(e, na_action = NULL) {
  msg <- conditionMessage(e)
  if (grepl("^dpdt_fit\\(\\): ", msg)) return("refused")
  if (is.null(conditionCall(e)) && grepl("`[^`]+`", msg)) return("input_error")
  if (identical(na_action, "na.fail") && grepl("missing values in object", msg, fixed = TRUE))
    return("input_error")
  "error"
}

fz_fmt <- function(x) format(x, digits = 17)

fz_run_case <- function(case) {
  start <- proc.time()[["elapsed"]]
  found <- list()
  add <- function(category, ...) {
    found[[length(found) + 1L]] <<- data.frame(category = category, message = paste0(...),
                                              stringsAsFactors = FALSE)
  }
  cl <- fz_call(case)
  out <- utils::capture.output(
    r <- fz_try(function() eval(cl$call, cl$env)), type = "message")
  outcome <- "fit"
  leaf_only <- grepl("^The front holds only the single leaf", r$warnings)
  one_row <- !r$failed && is.data.frame(r$value$front) && nrow(r$value$front) == 1L
  if (one_row && !any(leaf_only))
    add("warning", "dpdt_fit(): a one-row front without the single-leaf warning")
  if (!one_row && any(leaf_only))
    add("warning", "dpdt_fit(): the single-leaf warning with a front of several rows")
  # the documented warning on a factor with about one level per row
  id_like <- grepl("looks like an identifier", r$warnings, fixed = TRUE) |
    grepl("rows per level): its level groups can fit noise", r$warnings, fixed = TRUE)
  others <- r$warnings[!leaf_only & !id_like]
  if (length(others)) add("warning", "dpdt_fit(): ", paste(others, collapse = " | "))
  if (r$failed) {
    kind <- fz_error_kind(r$value, case$args$na.action)
    outcome <- kind
    if (kind == "error") add("error", "dpdt_fit(): ", conditionMessage(r$value))
  } else if (!is.null(case$expect_error)) {
    add("accepted_invalid", "expected an input error (", case$expect_error, "), got a fit")
  } else {
    fit <- r$value
    res <- tryCatch(fz_check_fit(fit, case, add), error = function(e) {
      add("error", "while checking the fit: ", conditionMessage(e))
    })
    fz_check_threads(fit, case, add)
    compared <- fz_check_relations(fit, case, add)
  }
  findings <- if (length(found)) do.call(rbind, found)
              else data.frame(category = character(0), message = character(0))
  list(id = case$id, outcome = outcome, findings = findings,
       seconds = proc.time()[["elapsed"]] - start,
       relations = if (exists("compared", inherits = FALSE)) compared else character(0))
}

# Every check of one fit; add(category, message) records a failure.
fz_check_fit <- function(fit, case, add) {
  fr <- fit$front
  need <- c("model", "n_splits", "n_leaves", "depth", "avg_tests", "train_loss",
            "rel_error", "alpha_min", "alpha_max")
  if (!inherits(fit, "dpdt") || !is.data.frame(fr) || !all(need %in% names(fr)) ||
      nrow(fr) < 1 || length(fit$trees) != nrow(fr)) {
    add("front", "malformed fit or front")
    return(invisible())
  }
  m <- nrow(fr)
  ctl <- fit$control
  comp <- switch(ctl$complexity, tests = fr$avg_tests, splits = fr$n_splits,
                 cost = fr$avg_cost)
  if (is.null(comp) || (ctl$complexity == "cost") != ("avg_cost" %in% names(fr))) {
    add("front", "the avg_cost column does not match complexity = \"", ctl$complexity, "\"")
    return(invisible())
  }
  loss <- fr$train_loss

  # ---- the front --------------------------------------------------------------
  # With test costs of 0, trees of free tests cost 0 too: row 1 is then the
  # best tree of cost 0, not necessarily the single leaf.
  free_tests <- ctl$complexity == "cost" && any(fit$test_cost == 0)
  if (free_tests) {
    if (!isTRUE(fr$avg_cost[1] == 0 && identical(fr$alpha_max[1], Inf)))
      add("front", "row 1 does not have avg_cost 0 and alpha_max = Inf")
  } else if (!isTRUE(fr$n_splits[1] == 0 && fr$n_leaves[1] == 1 && fr$depth[1] == 0 &&
                     fr$avg_tests[1] == 0 && identical(fr$alpha_max[1], Inf))) {
    add("front", "row 1 is not the single leaf with alpha_max = Inf")
  }
  if (!all(is.finite(loss)) || any(loss < 0) || !all(is.finite(fr$avg_tests))) {
    add("front", "train_loss or avg_tests not finite and >= 0: ",
        paste(utils::head(fz_fmt(loss), 4), collapse = ", "))
    return(invisible())
  }
  if (m > 1) {
    if (!all(diff(comp) > 0)) add("front", "complexity not strictly increasing")
    if (!all(diff(loss) < 0)) add("front", "train_loss not strictly decreasing")
  }
  if (m <= 3000) {
    dominated <- vapply(seq_len(m), function(i) {
      any(comp <= comp[i] & loss <= loss[i] & (comp < comp[i] | loss < loss[i]))
    }, logical(1))
    if (any(dominated)) add("front", "dominated rows: ", paste(which(dominated), collapse = " "))
  }
  if (!identical(fr$model, seq_len(m))) add("front", "model column is not 1..", m)
  if (any(fr$n_leaves != fr$n_splits + 1L)) add("front", "n_leaves != n_splits + 1")
  if (any(fr$depth > ctl$max_depth)) add("front", "a tree deeper than max_depth")
  if (loss[1] > 0 && !isTRUE(all(abs(fr$rel_error - loss / loss[1]) <= 1e-12 * fr$rel_error)))
    add("front", "rel_error != train_loss / train_loss[1]")
  fz_check_alpha(fr, comp, add)

  # ---- the trees and predictions on the training rows -------------------------
  mf <- fit$model_frame
  y <- stats::model.response(mf)
  w <- stats::model.weights(mf)
  if (is.null(w)) w <- rep(1, nrow(mf))
  # with a prior, each row weighs its weight times its class's factor
  if (!is.null(fit$prior_scale)) w <- w * fit$prior_scale[match(as.character(y), fit$levels)]
  pos <- w > 0
  W <- sum(w[pos])
  if (!identical(nobs(fit), sum(pos))) add("front", "nobs() is not the number of positive weights")
  excl <- if (inherits(fit$na.action, "exclude")) as.integer(fit$na.action) else integer(0)
  unpad <- function(v) if (length(excl)) v[-excl] else v
  rows <- fz_models(m)
  for (i in rows) fz_check_model(fit, case, i, mf, y, w, pos, W, unpad, excl, add)

  # ---- the other methods run ---------------------------------------------------
  methods <- fz_try(function() {
    utils::capture.output(print(fit), print(summary(fit)), print(summary(fit, model = 1)))
    for (i in rows) utils::capture.output(print(dpdt_tree(fit, model = i)))
    stopifnot(identical(as.data.frame(fit), fr))
    f <- formula(fit)
    n_out <- nrow(mf) + length(excl)
    stopifnot(length(fitted(fit)) == n_out, length(residuals(fit, model = 1)) == n_out)
    TRUE
  })
  if (methods$failed) add("error", "methods: ", conditionMessage(methods$value))
  if (length(methods$warnings)) add("warning", "methods: ", paste(methods$warnings, collapse = " | "))
  invisible()
}

# Which trees of a front of m get the (slower) per-tree checks.
fz_models <- function(m) {
  if (m <= 10) return(seq_len(m))
  sort(unique(c(1:3, m - 2:0, round(seq(4, m - 3, length.out = 4)))))
}

fz_check_model <- function(fit, case, i, mf, y, w, pos, W, unpad, excl, add) {
  fr <- fit$front
  tr <- fit$trees[[i]]
  sz <- length(tr$feature)
  leaf <- tr$feature == 0L
  inner <- which(!leaf)
  # ---- the tree's own statistics ----
  bad <- character(0)
  if (sz != 2L * fr$n_splits[i] + 1L) bad <- c(bad, "node count")
  if (length(inner)) {
    l <- tr$left[inner]; r <- tr$right[inner]
    if (any(l <= inner | r <= inner | l > sz | r > sz)) bad <- c(bad, "child ids")
    else {
      if (any(tr$n[inner] != tr$n[l] + tr$n[r])) bad <- c(bad, "n of children")
      if (any(tr$depth[l] != tr$depth[inner] + 1L | tr$depth[r] != tr$depth[inner] + 1L))
        bad <- c(bad, "depths")
      if (any(tr$n[leaf] < fit$control$min_bucket)) bad <- c(bad, "a leaf below min_bucket")
    }
    # a test: a threshold (numeric) or a level group (categorical), never both
    groups <- if (is.null(tr$levels_left)) vector("list", sz) else tr$levels_left
    has_group <- lengths(groups) > 0
    if (any(is.na(tr$threshold[inner]) == !has_group[inner]))
      bad <- c(bad, "an inner node with neither or both of a threshold and a level group")
    feats <- fit$features
    for (v in inner[has_group[inner]]) {
      fe <- tr$feature[v]
      nl <- length(fit$xlevels[[feats$variable[fe]]])
      g <- groups[[v]]
      if (!identical(feats$kind[fe], "categorical") || anyDuplicated(g) || any(g < 1 | g > nl) ||
          length(g) >= nl) {
        bad <- c(bad, paste0("level group {", paste(g, collapse = " "), "} at node ", v))
        break
      }
    }
    if (!is.null(tr$na_left) && anyNA(tr$na_left[inner])) bad <- c(bad, "na_left unset")
  }
  if (!is.null(tr$levels_left) && any(lengths(tr$levels_left[leaf]) > 0))
    bad <- c(bad, "a level group at a leaf")
  if (any(tr$left[leaf] != 0L | tr$right[leaf] != 0L) || !all(is.na(tr$threshold[leaf])))
    bad <- c(bad, "leaves")
  if (tr$n[1] != sum(pos)) bad <- c(bad, "root n")
  if (!isTRUE(abs(tr$weight[1] - W) <= 1e-9 * W)) bad <- c(bad, "root weight")
  if (max(tr$depth) != fr$depth[i]) bad <- c(bad, "depth column")
  if (length(bad)) add("tree", "model ", i, ": ", paste(bad, collapse = ", "))

  # ---- predictions on the training rows ----
  pr <- fz_try(function() list(
    value = predict(fit, model = i),
    node = predict(fit, model = i, type = "node"),
    prob = if (fit$type == "classification") predict(fit, model = i, type = "prob"),
    new_node = predict(fit, newdata = case$data[rownames(mf), , drop = FALSE], model = i,
                       type = "node")))
  if (pr$failed) {
    add("error", "predict(model = ", i, "): ", conditionMessage(pr$value))
    return(invisible())
  }
  if (length(pr$warnings)) add("warning", "predict: ", paste(pr$warnings, collapse = " | "))
  p <- pr$value
  n_out <- nrow(mf) + length(excl)
  if (length(p$value) != n_out || length(p$node) != n_out) {
    add("predict", "model ", i, ": predict() gives ", length(p$value), " values for ",
        n_out, " rows")
    return(invisible())
  }
  value <- unpad(p$value)[pos]
  node <- unpad(p$node)
  if (anyNA(node) || !all(leaf[node])) {
    add("predict", "model ", i, ": a training row does not end in a leaf")
    return(invisible())
  }
  if (!identical(as.integer(p$new_node), as.integer(node)))
    add("predict", "model ", i, ": predict(newdata = the training rows) routes differently")
  node <- node[pos]
  # Sums are taken in units of the largest weight and response, so that the
  # reference values do not overflow where the true ones fit in a double.
  wp <- w[pos]
  sw <- max(wp)
  u <- wp / sw
  U <- sum(u)
  counts <- tabulate(node, sz)
  if (any(counts[leaf] != tr$n[leaf])) add("predict", "model ", i, ": leaf counts differ from tree$n")
  wsum <- vapply(seq_len(sz), function(v) sum(u[node == v]), 0) * sw
  if (!isTRUE(all(abs(wsum[leaf] - tr$weight[leaf]) <= 1e-9 * tr$weight[leaf])))
    add("predict", "model ", i, ": leaf weights differ from tree$weight")
  tests <- sum(u * tr$depth[node]) / U
  if (!isTRUE(abs(tests - fr$avg_tests[i]) <= 1e-10 * max(1, tests)))
    add("predict", "model ", i, ": avg_tests ", fz_fmt(fr$avg_tests[i]),
        ", predict() gives ", fz_fmt(tests))
  if (!is.null(fr$avg_cost)) {
    # the cost of the tests on each node's path, summed root to node
    path <- numeric(sz)
    for (v in which(!leaf)) {  # parents come before their children
      step <- path[v] + fit$test_cost[tr$feature[v]]
      path[tr$left[v]] <- step
      path[tr$right[v]] <- step
    }
    cost <- sum(u * path[node]) / U
    if (!isTRUE(abs(cost - fr$avg_cost[i]) <= 1e-10 * max(1, cost)))
      add("predict", "model ", i, ": avg_cost ", fz_fmt(fr$avg_cost[i]),
          ", predict() gives ", fz_fmt(cost))
  }
  yy <- y[pos]
  b <- fr$train_loss[i]
  leaves_loss <- sum(tr$loss[leaf] / sw) / U
  if (fit$type == "classification") {
    # the misclassified weight, or the loss matrix's cost of the prediction
    K <- length(fit$levels)
    L <- if (is.null(fit$loss_matrix)) 1 - diag(K) else fit$loss_matrix
    got <- sum(u * L[cbind(match(as.character(yy), fit$levels),
                           match(as.character(value), fit$levels))]) / U
    for (v in list(list("train_loss", b), list("the leaves' loss", leaves_loss))) {
      if (!isTRUE(abs(got - v[[2]]) <= 1e-9))
        add("predict", "model ", i, ": ", v[[1]], " ", fz_fmt(v[[2]]), ", predict() gives ",
            fz_fmt(got))
    }
    pb <- p$prob
    if (length(excl)) pb <- pb[-excl, , drop = FALSE]
    if (is.null(pb) || nrow(pb) != nrow(mf) || !isTRUE(all(abs(rowSums(pb) - 1) <= 1e-9))) {
      add("predict", "model ", i, ": type = \"prob\" rows do not sum to 1")
    } else {
      pb <- pb[pos, , drop = FALSE]
      # the predicted class has the least expected cost (the most probable
      # one without a loss matrix)
      cost <- pb %*% L
      mine <- cost[cbind(seq_len(nrow(pb)), match(as.character(value), colnames(pb)))]
      if (!isTRUE(all(mine <= apply(cost, 1, min) + 1e-12 * max(L))))
        add("predict", "model ", i, ": the predicted class ",
            if (is.null(fit$loss_matrix)) "is not a most probable one"
            else "does not have the least expected cost")
    }
  } else {
    sy <- max(abs(yy))
    if (sy == 0) sy <- 1
    got <- sum(u * ((yy - value) / sy)^2) / U * sy^2
    # Rounding: the leaf means are off by a few ulps of max|y|, adding
    # about (1e-13 max|y|)^2 per unit weight; sums are off by ~n ulps.
    floor_tol <- (1e-13 * sy)^2 + 1e-300
    for (v in list(list("train_loss", b), list("the leaves' loss", leaves_loss))) {
      diff <- abs(got - v[[2]])
      if (!is.finite(got) && !is.finite(v[[2]])) next  # beyond doubles either way
      if (!isTRUE(diff <= 1e-9 * got + floor_tol)) {
        gross <- !isTRUE(diff <= 1e-9 * max(got, fr$train_loss[1]) + floor_tol)
        add(if (gross) "loss" else "loss_precision", "model ", i, ": ", v[[1]], " ",
            fz_fmt(v[[2]]), ", predict() gives ", fz_fmt(got),
            if (!gross) paste0(" (relative error ", format(diff / got, digits = 3), ")"))
      }
    }
  }
  invisible()
}

# The alpha intervals of the hull rows tile [0, Inf): row 1 has alpha_max
# Inf, the last row alpha_min 0, neighbours share their end points, each
# interval is ordered, and inside it its row is the one selected by
# alpha_min <= a <= alpha_max and minimises train_loss + a * complexity.
fz_check_alpha <- function(fr, comp, add) {
  # While an interval is inverted by rounding (alpha_min > alpha_max by a
  # few ulps: issue 9, defect 3), its neighbours overlap: the tiling
  # failures of such a front are reported with the inversion, as alpha_order.
  found <- list()
  add_alpha <- function(category, ...) found[[length(found) + 1L]] <<- list(category, paste0(...))
  fz_check_alpha_(fr, comp, add_alpha)
  cats <- vapply(found, `[[`, "", 1L)
  if ("alpha_order" %in% cats) cats[cats == "alpha_tiling"] <- "alpha_order"
  for (k in seq_along(found)) add(cats[k], found[[k]][[2]])
  invisible()
}

fz_check_alpha_ <- function(fr, comp, add) {
  am <- fr$alpha_min
  aM <- fr$alpha_max
  loss <- fr$train_loss
  m <- nrow(fr)
  if (!identical(is.na(am), is.na(aM))) {
    add("alpha_tiling", "alpha_min and alpha_max are NA in different rows")
    return(invisible())
  }
  h <- which(!is.na(am))
  if (!length(h) || h[1] != 1L || h[length(h)] != m) {
    add("alpha_tiling", "the hull rows do not start at row 1 and end at row ", m)
    return(invisible())
  }
  if (am[m] != 0) add("alpha_tiling", "the last row's alpha_min is ", fz_fmt(am[m]), ", not 0")
  if (any(is.nan(c(am[h], aM[h]))) || any(am[h] < 0))
    add("alpha_tiling", "NaN or negative alpha")
  k <- length(h)
  if (k > 1 && !identical(am[h[-k]], aM[h[-1]]))
    add("alpha_tiling", "neighbouring hull rows do not share their alpha end points")
  inv <- am[h] > aM[h]
  inv[is.na(inv)] <- FALSE
  if (any(inv)) {
    r <- h[inv]
    rel <- max((am[r] - aM[r]) / aM[r])
    msg <- paste0("alpha_min > alpha_max in hull row(s) ", paste(utils::head(r, 5), collapse = " "),
                  " (relative gap ", format(rel, digits = 3), ")")
    add(if (rel <= 1e-6) "alpha_order" else "alpha_tiling", msg)
  }
  for (r in h) {
    lo <- am[r]
    hi <- aM[r]
    if (!isTRUE(lo < hi)) next
    a <- if (is.infinite(hi)) 2 * lo + 1 else lo + (hi - lo) / 2
    if (!(lo < a && a < hi)) next  # no double strictly inside (an ulp-wide interval)
    sel <- which(!is.na(am) & am <= a & a <= aM)
    if (!identical(sel, r)) {
      add("alpha_tiling", "at alpha = ", fz_fmt(a), " the rows selected are {",
          paste(sel, collapse = " "), "}, not ", r)
    }
    obj <- loss + a * comp
    if (obj[r] > min(obj) + 1e-9 * max(abs(obj[r]), 1e-300)) {
      add("alpha_tiling", "row ", r, " does not minimise loss + alpha * complexity at alpha = ",
          fz_fmt(a), " (row ", which.min(obj), " does)")
    }
  }
  invisible()
}

# The same search with the other number of threads gives the same fronts
# and trees. Refusals (memory budgets count per thread) may differ.
fz_check_threads <- function(fit, case, add) {
  t <- fit$control$threads
  other <- if (t == 1L) 2L else 1L
  cl <- fz_call(case, threads = other)
  utils::capture.output(r <- fz_try(function() eval(cl$call, cl$env)), type = "message")
  if (r$failed) {
    if (fz_error_kind(r$value) != "refused")
      add("threads", "threads = ", other, " failed: ", conditionMessage(r$value))
    return(invisible())
  }
  if (!identical(fit$front, r$value$front) || !identical(fit$trees, r$value$trees))
    add("threads", "threads = ", t, " and threads = ", other, " give different ",
        if (!identical(fit$front, r$value$front)) "fronts" else "trees")
  invisible()
}

# ---- metamorphic relations (DESIGN.md section 4b) ----------------------------
# The same problem in another form gives the same front; a wider search never
# loses to a narrower one. Each relation refits the case in another form and
# compares the fronts as points (complexity, loss), since a tie between trees
# may be resolved by another tree. Run on cases whose fit took under half a
# second, two relations per case (by its id), categories:
#   shift      regression: y + c (y on a grid so that the shift is exact)
#   scale      regression: y * 2^k (exact: the same fronts, losses * 4^k)
#   rows       rows permuted (searches whose sums do not depend on order:
#              exhaustive, or whole weights in classification)
#   weight2    a row of weight 2 against the row twice (min_bucket 1; not
#              with max_bins: a repeated row moves the quantile bins)
#   levels     a factor's levels permuted (exhaustive searches)
#   wider      exhaustive (or cart_depth + 1, or exact_levels + 1) dominates
#              the case's own search
fz_relations <- c("shift", "scale", "rows", "weight2", "levels", "wider")

# Returns the relations actually compared (the others did not apply).
fz_check_relations <- function(fit, case, add) {
  if (!is.null(case$expect_error) || "data_matrix" %in% case$tags) return(character(0))
  if (!isTRUE(fit$seconds < 0.5) || any(fz_magnitude_tags %in% case$tags) ||
      "extreme_x" %in% case$tags) return(character(0))
  picks <- fz_relations[c(case$id %% 6 + 1, (case$id %/% 6) %% 6 + 1)]
  compared <- character(0)
  for (rel in unique(picks)) {
    fz_compared$done <- FALSE
    r <- tryCatch(fz_relation(rel, fit, case), error = function(e) {
      add("error", "relation ", rel, ": ", conditionMessage(e))
      NULL
    })
    if (is.character(r)) add(rel, r)
    if (fz_compared$done) compared <- c(compared, rel)
  }
  compared
}
# Set by the comparisons, so that a relation that did not apply is told apart.
fz_compared <- new.env()

# Refits `case` with `data`, `weights`, `subset` and extra arguments changed;
# NULL when that fit is refused or is an input error (the relation is then
# not checked).
fz_refit <- function(case, data = case$data, weights = case$weights,
                     subset = case$subset, args = list()) {
  cs <- case
  cs$data <- data
  cs$weights <- weights
  cs$subset <- subset
  cs$args <- utils::modifyList(cs$args, args)
  cl <- fz_call(cs)
  utils::capture.output(r <- fz_try(function() eval(cl$call, cl$env)), type = "message")
  if (r$failed) {
    if (fz_error_kind(r$value, cs$args$na.action) == "error") stop(conditionMessage(r$value))
    return(NULL)
  }
  r$value
}

fz_complexity <- function(fit) {
  switch(fit$control$complexity, tests = fit$front$avg_tests,
         splits = as.double(fit$front$n_splits), cost = fit$front$avg_cost)
}

# NULL when fronts a and b hold the same points (losses of b times `scale`).
fz_same_points <- function(a, b, what, scale = 1, tol = 1e-9) {
  fz_compared$done <- TRUE
  ca <- fz_complexity(a)
  cb <- fz_complexity(b)
  la <- a$front$train_loss * scale
  lb <- b$front$train_loss
  floor <- tol * max(abs(la))
  if (length(ca) != length(cb) ||
      !isTRUE(all(abs(ca - cb) <= tol * pmax(1, abs(ca)))) ||
      !isTRUE(all(abs(la - lb) <= tol * pmax(abs(la), abs(lb)) + floor))) {
    return(paste0(what, ": fronts differ: (", paste(fz_fmt(utils::head(ca, 6)), collapse = " "),
                  " | ", paste(fz_fmt(utils::head(la, 6)), collapse = " "), ") vs (",
                  paste(fz_fmt(utils::head(cb, 6)), collapse = " "), " | ",
                  paste(fz_fmt(utils::head(lb, 6)), collapse = " "), ")"))
  }
  NULL
}

# NULL when every point of `narrow` is matched or beaten by one of `wide`.
fz_dominated_by <- function(wide, narrow, what) {
  fz_compared$done <- TRUE
  cw <- fz_complexity(wide)
  cn <- fz_complexity(narrow)
  lw <- wide$front$train_loss
  ln <- narrow$front$train_loss
  tol <- 1e-9 * max(lw, ln)
  beaten <- vapply(seq_along(cn), function(i) {
    !any(cw <= cn[i] * (1 + 1e-12) + 1e-12 & lw <= ln[i] + tol)
  }, logical(1))
  if (any(beaten)) {
    i <- which(beaten)[1]
    return(paste0(what, " loses to the narrower search at complexity ", fz_fmt(cn[i]),
                  ": loss ", fz_fmt(ln[i]), ", its best there ",
                  fz_fmt(min(c(Inf, lw[cw <= cn[i] * (1 + 1e-12) + 1e-12])))))
  }
  NULL
}

fz_relation <- function(rel, fit, case) {
  d <- case$data
  args <- case$args
  regression <- fit$type == "regression"
  exhaustive <- identical(fit$control$candidates, "exhaustive")
  exact_sums <- !regression && (is.null(case$weights) || "w_whole" %in% case$tags)
  switch(rel,
    shift = {
      if (!regression || !is.numeric(d$y)) return(NULL)
      top <- max(abs(d$y), na.rm = TRUE)
      if (!is.finite(top) || top == 0) return(NULL)
      s <- 2^(ceiling(log2(top)) - 20)
      d$y <- round(d$y / s) * s              # multiples of s below 2^20 s
      a <- fz_refit(case, d)
      d$y <- d$y + s * 2^32 * 3              # exact (transform() would
      b <- fz_refit(case, d)                 # rename odd column names)
      if (is.null(a) || is.null(b)) return(NULL)
      fz_same_points(a, b, "y + c")
    },
    scale = {
      if (!regression || !is.numeric(d$y)) return(NULL)
      k <- sample(c(-30, -7, 3, 25), 1)
      d$y <- d$y * 2^k
      b <- fz_refit(case, d)
      if (is.null(b)) return(NULL)
      fz_same_points(fit, b, paste0("y * 2^", k), scale = 4^k, tol = 1e-15)
    },
    rows = {
      if (!exhaustive && !exact_sums) return(NULL)
      o <- sample(nrow(d))
      w <- case$weights
      if (is.numeric(w) && length(w) == nrow(d)) w <- w[o]
      sub <- case$subset
      if (is.logical(sub)) sub <- sub[o]
      b <- fz_refit(case, d[o, , drop = FALSE], w, sub)
      if (is.null(b)) return(NULL)
      fz_same_points(fit, b, "rows permuted")
    },
    weight2 = {
      if (!is.null(case$weights) || !is.null(case$subset) || fit$control$min_bucket != 1 ||
          (regression && !exhaustive) || nrow(d) < 2 || is.finite(fit$control$max_bins))
        return(NULL)
      twice <- sample(nrow(d), max(1, nrow(d) %/% 4))
      a <- fz_refit(case, rbind(d, d[twice, , drop = FALSE]))
      w <- rep(1, nrow(d))
      w[twice] <- 2
      b <- fz_refit(case, d, w)
      if (is.null(a) || is.null(b)) return(NULL)
      fz_same_points(a, b, "weight 2 against the row twice")
    },
    levels = {
      f <- names(d)[vapply(d, function(v) is.factor(v) && !is.ordered(v) && nlevels(v) > 1, TRUE)]
      f <- setdiff(f, "y")
      if (!exhaustive || !length(f)) return(NULL)
      v <- f[1]
      d[[v]] <- factor(d[[v]], levels = rev(levels(d[[v]])))
      b <- fz_refit(case, d)
      if (is.null(b)) return(NULL)
      fz_same_points(fit, b, paste0("levels of ", v, " reversed"))
    },
    wider = {
      ctl <- fit$control
      if (exhaustive) return(NULL)
      wider <- if (nrow(d) <= 300 && ctl$max_depth <= 3) list(candidates = "exhaustive")
               else if (ctl$exact_levels < ctl$max_depth && nrow(d) <= 600)
                 list(exact_levels = ctl$exact_levels + 1L)
               else if (max(ctl$cart_depth) < 6) list(cart_depth = ctl$cart_depth + 1L)
      if (is.null(wider)) return(NULL)
      b <- fz_refit(case, args = c(wider, list(max_work = 3e9)))
      if (is.null(b)) return(NULL)
      fz_dominated_by(b, fit, paste(names(wider), unlist(wider), sep = " = "))
    })
}
