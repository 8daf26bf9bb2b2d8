# Brute force for real data (issue 8): missing values whose side each test
# chooses, level groups of factors, test costs and a loss matrix. The
# exhaustive search must return exactly the front of every tree of depth
# <= D whose tests are: a numeric threshold between consecutive distinct
# non-missing values of the node's rows, or any group of the factor levels
# present in the node (a proper, non-empty subset) -- and, when the node has
# missing values on that variable, either side for them. Plain R.

orr_leaf_loss <- function(y, w, K, L) {
  if (K == 0) return(sum(w * (y - sum(w * y) / sum(w))^2))
  cw <- vapply(seq_len(K) - 1, function(k) sum(w[y == k]), 0)
  min(cw %*% L)
}

orr_splits <- function(x, idx, min_bucket) {
  out <- list()
  add <- function(goes_left, j) {
    miss <- is.na(x[[j]][idx])
    sides <- if (any(miss)) c(TRUE, FALSE) else NA
    for (na in sides) {
      gl <- goes_left
      if (!is.na(na)) gl[miss] <- na
      left <- idx[gl]
      right <- idx[!gl]
      if (length(left) >= min_bucket && length(right) >= min_bucket)
        out[[length(out) + 1]] <<- list(left = left, right = right, j = j)
    }
  }
  for (j in seq_along(x)) {
    v <- x[[j]][idx]
    if (is.factor(v)) {
      lev <- sort(unique(as.integer(v[!is.na(v)])))
      if (length(lev) < 2) next
      # every non-empty proper group; the last level present stays right
      for (g in seq_len(2^(length(lev) - 1) - 1)) {
        head <- lev[-length(lev)]
        grp <- head[bitwAnd(g, 2^(seq_along(head) - 1)) > 0]
        add(as.integer(v) %in% grp, j)
      }
    } else {
      u <- sort(unique(v[!is.na(v)]))
      if (length(u) < 2) next
      for (thr in (u[-1] + u[-length(u)]) / 2) add(!is.na(v) & v <= thr, j)
    }
  }
  out
}

orr_trees <- function(x, y, w, K, L, cost, idx, r, min_bucket) {
  loss <- orr_leaf_loss(y[idx], w[idx], K, L)
  tests <- splits <- costs <- 0
  if (r == 0) return(list(loss = loss, tests = tests, splits = splits, cost = costs))
  W <- sum(w[idx])
  for (s in orr_splits(x, idx, min_bucket)) {
    A <- orr_trees(x, y, w, K, L, cost, s$left, r - 1, min_bucket)
    B <- orr_trees(x, y, w, K, L, cost, s$right, r - 1, min_bucket)
    loss <- c(loss, as.vector(outer(A$loss, B$loss, "+")))
    tests <- c(tests, as.vector(outer(A$tests, B$tests, "+")) + W)
    splits <- c(splits, as.vector(outer(A$splits, B$splits, "+")) + 1)
    costs <- c(costs, as.vector(outer(A$cost, B$cost, "+")) + W * cost[s$j])
  }
  list(loss = loss, tests = tests, splits = splits, cost = costs)
}

orr_pareto <- function(loss, comp, tol = 1e-9) {
  o <- order(comp, loss)
  keep <- integer(0)
  best <- Inf
  last_c <- -Inf
  for (i in o) {
    if (loss[i] < best - tol) {
      if (length(keep) && comp[i] <= last_c + tol) keep <- keep[-length(keep)]
      keep <- c(keep, i)
      best <- loss[i]
      last_c <- comp[i]
    }
  }
  data.frame(loss = loss[keep], complexity = comp[keep])
}

# df: response y, optional weights wt, other columns predictors (numeric
# with NA, or factors with NA).
expect_real_oracle <- function(df, max_depth = 2, min_bucket = 1,
                               loss_matrix = NULL, test_cost = NULL) {
  xn <- setdiff(names(df), c("y", "wt"))
  x <- df[xn]
  w <- if (is.null(df$wt)) rep(1, nrow(df)) else df$wt
  K <- if (is.factor(df$y)) nlevels(df$y) else 0
  y <- if (K) as.integer(df$y) - 1 else df$y
  L <- if (!is.null(loss_matrix)) loss_matrix else if (K) 1 - diag(K) else NULL
  cost <- rep(1, length(xn))
  names(cost) <- xn
  if (!is.null(test_cost)) cost[names(test_cost)] <- test_cost
  tr <- orr_trees(x, y, w, K, L, cost, seq_len(nrow(df)), max_depth, min_bucket)
  fo <- stats::reformulate(xn, response = "y")
  cxs <- if (is.null(test_cost)) c("tests", "splits") else "cost"
  for (cx in cxs) {
    or <- orr_pareto(tr$loss, tr[[cx]])
    args <- list(fo, data = df, max_depth = max_depth, candidates = "exhaustive",
                 complexity = cx, min_bucket = min_bucket, threads = 1,
                 loss_matrix = loss_matrix, test_cost = test_cost)
    if (!is.null(df$wt)) args$weights <- df$wt
    fit <- suppressWarnings(do.call(dpdt_fit, args))
    fr <- fit$front
    got_loss <- fr$train_loss * sum(w)
    got_comp <- switch(cx, tests = fr$avg_tests * sum(w), cost = fr$avg_cost * sum(w),
                       fr$n_splits)
    lab <- paste0(cx, ": dpdt ", paste(signif(got_loss, 5), signif(got_comp, 5), collapse = "; "),
                  " | oracle ", paste(signif(or$loss, 5), signif(or$complexity, 5), collapse = "; "))
    expect_equal(nrow(fr), nrow(or), info = lab)
    if (nrow(fr) == nrow(or)) {
      expect_equal(got_loss, or$loss, tolerance = 1e-9, info = lab)
      expect_equal(got_comp, or$complexity, tolerance = 1e-9, info = lab)
    }
    # every row is fitted, and the trees route every training row to a leaf
    expect_equal(nobs(fit), nrow(df))
    expect_false(anyNA(predict(fit, type = "node")))
  }
}

test_that("oracle with missing values: two classes, three classes, regression", {
  for (seed in 1:6) {
    set.seed(2000 + seed)
    n <- sample(8:13, 1)
    df <- data.frame(x1 = round(runif(n) * 5), x2 = round(runif(n) * 3))
    df$x1[sample(n, sample(1:3, 1))] <- NA
    if (seed %% 2) df$x2[sample(n, 2)] <- NA
    K <- c(2, 3, 0)[seed %% 3 + 1]
    df$y <- if (K) factor(sample(letters[1:K], n, TRUE)) else round(rnorm(n), 2)
    if (seed > 3) df$wt <- sample(1:3, n, TRUE)
    expect_real_oracle(df, min_bucket = 1 + (seed == 5))
  }
})

test_that("oracle with level groups (and missing levels)", {
  for (seed in 1:6) {
    set.seed(3000 + seed)
    n <- sample(9:13, 1)
    df <- data.frame(g = factor(sample(c("a", "b", "c", "d"), n, TRUE)),
                     x = round(runif(n) * 3))
    if (seed > 2) df$g[sample(n, 2)] <- NA
    K <- c(2, 3, 0)[seed %% 3 + 1]
    df$y <- if (K) factor(sample(letters[1:K], n, TRUE)) else round(rnorm(n), 2)
    expect_real_oracle(df)
  }
  # depth 1 with a five-level factor, three classes: every grouping
  set.seed(3100)
  df <- data.frame(g = factor(sample(letters[1:5], 30, TRUE)))
  df$y <- factor(sample(c("u", "v", "w"), 30, TRUE))
  expect_real_oracle(df, max_depth = 1)
})

test_that("oracle with test costs and a loss matrix", {
  for (seed in 1:4) {
    set.seed(4000 + seed)
    n <- sample(9:12, 1)
    df <- data.frame(x1 = round(runif(n) * 4), x2 = round(runif(n) * 4),
                     g = factor(sample(c("p", "q", "r"), n, TRUE)))
    df$x2[sample(n, 2)] <- NA
    df$y <- factor(sample(c("a", "b", "c"), n, TRUE))
    expect_real_oracle(df, test_cost = c(x1 = 1, x2 = 4, g = 2.5))
    L <- matrix(c(0, 1, 5, 2, 0, 1, 1, 3, 0), 3, byrow = TRUE)
    expect_real_oracle(df, loss_matrix = L)
    if (seed <= 2) expect_real_oracle(df, loss_matrix = L, test_cost = c(x2 = 0.5))
  }
  # two classes with costs
  set.seed(4100)
  df <- data.frame(x = round(runif(12) * 5), h = factor(sample(c("k", "l", "m"), 12, TRUE)))
  df$y <- factor(sample(c("no", "yes"), 12, TRUE))
  expect_real_oracle(df, loss_matrix = matrix(c(0, 4, 1, 0), 2, byrow = TRUE))
})
