# Oracles for dpdt_prune(), deliberately naive plain R: route rows with an R
# reading of the tree list, enumerate every set of cut nodes (replacement)
# or every tree reachable by raising, and count errors.

# Side of value xv at node i of tree list tr: TRUE left, FALSE right.
or_side <- function(tr, i, xv) {
  if (is.na(xv)) return(isTRUE(tr$na_left[i]))
  lev <- tr$levels_left[[i]]
  if (!is.null(lev)) return(xv %in% lev)
  xv <= tr$threshold[i]
}

# Every node a row passes, root to the end.
or_path <- function(tr, xrow) {
  v <- 1L
  path <- v
  while (tr$feature[v] > 0) {
    v <- if (or_side(tr, v, xrow[tr$feature[v]])) tr$left[v] else tr$right[v]
    path <- c(path, v)
  }
  path
}

or_label <- function(y, w, K) {
  if (!length(y)) return(NA)
  if (K > 0) which.max(vapply(seq_len(K) - 1, function(k) sum(w[y == k]), 0)) - 1
  else sum(w * y) / sum(w)
}

or_loss <- function(y, w, value, K) {
  if (K > 0) sum(w[y != value]) else sum(w * (y - value)^2)
}

# Best errors for every k over every set of cut nodes. `keep`: the tree's
# own label of each node (0-based classes); relabel: majority / mean.
or_replacement <- function(tr, x, y, w, K, keep, relabel) {
  paths <- lapply(seq_len(nrow(x)), function(i) or_path(tr, x[i, ]))
  inner <- which(tr$feature > 0)
  c <- length(inner)
  best <- rep(Inf, c + 1)
  for (mask in 0:(2^c - 1)) {
    cut <- inner[bitwAnd(mask, 2^(seq_len(c) - 1)) > 0]
    end <- vapply(paths, function(p) {
      hit <- p[p %in% cut]
      if (length(hit)) hit[1] else p[length(p)]
    }, 1L)
    # inner nodes removed: at or below a cut
    removed <- sum(vapply(inner, function(v) is_below(tr, v, cut), TRUE))
    err <- 0
    for (v in unique(end)) {
      rows <- end == v
      lab <- keep[v]
      if (relabel) {
        under <- vapply(paths, function(p) v %in% p, TRUE)
        lab <- or_label(y[under], w[under], K)
      }
      err <- err + or_loss(y[rows], w[rows], lab, K)
    }
    best[removed + 1] <- min(best[removed + 1], err)
  }
  best
}

# Is node v at or below one of the nodes `cut`?
is_below <- function(tr, v, cut) {
  parent <- integer(length(tr$feature))
  for (i in which(tr$feature > 0)) parent[c(tr$left[i], tr$right[i])] <- i
  while (v > 0) {
    if (v %in% cut) return(TRUE)
    v <- parent[v]
  }
  FALSE
}

# Trees reachable by raising, as nested lists list(v, kids).
or_shape <- function(tr, v) {
  if (tr$feature[v] == 0) return(list(v = v, kids = NULL))
  list(v = v, kids = list(or_shape(tr, tr$left[v]), or_shape(tr, tr$right[v])))
}
or_key <- function(s) {
  if (is.null(s$kids)) return(as.character(s$v))
  paste0(s$v, "(", or_key(s$kids[[1]]), ",", or_key(s$kids[[2]]), ")")
}
or_raises <- function(s) {
  if (is.null(s$kids)) return(list())
  out <- list(s$kids[[1]], s$kids[[2]])
  for (c in 1:2) for (r in or_raises(s$kids[[c]])) {
    s2 <- s
    s2$kids[[c]] <- r
    out[[length(out) + 1]] <- s2
  }
  out
}
or_inner <- function(s) if (is.null(s$kids)) 0 else 1 + or_inner(s$kids[[1]]) + or_inner(s$kids[[2]])

# Errors of shape s on the rows: route by the source nodes' tests.
or_shape_errors <- function(tr, s, x, y, w, K, keep, relabel) {
  leaf <- vapply(seq_len(nrow(x)), function(i) {
    node <- s
    while (!is.null(node$kids)) {
      node <- if (or_side(tr, node$v, x[i, tr$feature[node$v]])) node$kids[[1]] else node$kids[[2]]
    }
    node$v
  }, 1)
  err <- 0
  for (v in unique(leaf)) {
    rows <- leaf == v
    lab <- if (relabel) or_label(y[rows], w[rows], K) else keep[v]
    err <- err + or_loss(y[rows], w[rows], lab, K)
  }
  err
}

or_raising <- function(tr, x, y, w, K, keep, relabel) {
  s0 <- or_shape(tr, 1L)
  c <- or_inner(s0)
  best <- rep(Inf, c + 1)
  seen <- character(0)
  todo <- list(s0)
  while (length(todo)) {
    s <- todo[[length(todo)]]
    todo[[length(todo)]] <- NULL
    k <- or_key(s)
    if (k %in% seen) next
    seen <- c(seen, k)
    j <- c - or_inner(s)
    best[j + 1] <- min(best[j + 1], or_shape_errors(tr, s, x, y, w, K, keep, relabel))
    todo <- c(todo, or_raises(s))
  }
  best
}

# Engine inputs of a pruning result's source tree and rows.
or_inputs <- function(p, tree) {
  mf <- p$model_frame
  x <- dpdt:::feature_matrix(mf, p$features, p$xlevels)
  yr <- stats::model.response(mf)
  K <- if (p$type == "classification") length(p$levels) else 0
  y <- if (K > 0) match(as.character(yr), p$levels) - 1 else yr
  w <- stats::model.weights(mf)
  if (is.null(w)) w <- rep(1, nrow(mf))
  keep <- if (K > 0) tree$value - 1 else tree$value
  list(x = x, y = y, w = w, K = K, keep = keep)
}

# Weighted errors of tree `model` of front p from its own predictions.
predicted_errors <- function(p, model, data = NULL) {
  mf <- p$model_frame
  pred <- predict(p, model = model)
  y <- stats::model.response(mf)
  w <- stats::model.weights(mf)
  if (is.null(w)) w <- rep(1, nrow(mf))
  if (p$type == "classification") sum(w[as.character(pred) != as.character(y)])
  else sum(w * (y - pred)^2)
}
