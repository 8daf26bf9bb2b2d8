# The exhaustive search must return exactly the Pareto front found by brute
# force: every tree of depth <= D, with every feature and every threshold
# (midpoints between consecutive distinct values of the node's rows),
# respecting min_bucket. The oracle below is deliberately naive plain R.

or_leaf_loss <- function(y, w, K) {
  if (K > 0) {
    cw <- vapply(seq_len(K) - 1, function(k) sum(w[y == k]), 0)
    sum(w) - max(cw)
  } else {
    m <- sum(w * y) / sum(w)
    sum(w * (y - m)^2)
  }
}

or_splits <- function(x, idx, min_bucket) {
  out <- list()
  for (j in seq_len(ncol(x))) {
    v <- sort(unique(x[idx, j]))
    if (length(v) < 2) next
    for (thr in (v[-1] + v[-length(v)]) / 2) {
      left <- idx[x[idx, j] <= thr]
      right <- idx[x[idx, j] > thr]
      if (length(left) >= min_bucket && length(right) >= min_bucket)
        out[[length(out) + 1]] <- list(left = left, right = right)
    }
  }
  out
}

# (loss, total weighted tests, number of splits) of every tree of depth <= r
# grown on the rows idx; entry 1 is the leaf.
or_trees <- function(x, y, w, K, idx, r, min_bucket) {
  loss <- or_leaf_loss(y[idx], w[idx], K)
  tests <- 0
  splits <- 0
  if (r == 0) return(list(loss = loss, tests = tests, splits = splits))
  W <- sum(w[idx])
  for (s in or_splits(x, idx, min_bucket)) {
    L <- or_trees(x, y, w, K, s$left, r - 1, min_bucket)
    R <- or_trees(x, y, w, K, s$right, r - 1, min_bucket)
    loss <- c(loss, as.vector(outer(L$loss, R$loss, "+")))
    tests <- c(tests, as.vector(outer(L$tests, R$tests, "+")) + W)
    splits <- c(splits, as.vector(outer(L$splits, R$splits, "+")) + 1)
  }
  list(loss = loss, tests = tests, splits = splits)
}

# Non-dominated points, complexity ascending; of equal points one is kept.
or_pareto <- function(loss, comp, tol = 0) {
  o <- order(comp, loss)
  keep <- integer(0)
  best <- Inf
  for (i in o) {
    if (loss[i] < best - tol) {
      keep <- c(keep, i)
      best <- loss[i]
    }
  }
  data.frame(loss = loss[keep], complexity = comp[keep])
}

# Fits dpdt on `df` (response `y`, optional weight column `wt`, every other
# column a numeric predictor) and compares its fronts, for both complexity
# measures, with the oracle's.
expect_oracle_front <- function(df, max_depth = 2, min_bucket = 1, tol = 0) {
  xn <- setdiff(names(df), c("y", "wt"))
  x <- as.matrix(df[xn])
  w <- if (is.null(df$wt)) rep(1, nrow(df)) else df$wt
  if (is.factor(df$y)) {
    K <- nlevels(df$y)
    y <- as.integer(df$y) - 1
  } else {
    K <- 0
    y <- df$y
  }
  tr <- or_trees(x, y, w, K, seq_len(nrow(x)), max_depth, min_bucket)
  fo <- stats::reformulate(xn, response = "y")
  for (cx in c("tests", "splits")) {
    or <- or_pareto(tr$loss, tr[[cx]], tol = tol)
    fit <- if (is.null(df$wt)) {
      dpdt_fit(fo, data = df, max_depth = max_depth,
               candidates = "exhaustive", complexity = cx,
               min_bucket = min_bucket, threads = 1)
    } else {
      dpdt_fit(fo, data = df, weights = wt, max_depth = max_depth,
               candidates = "exhaustive", complexity = cx,
               min_bucket = min_bucket, threads = 1)
    }
    fr <- fit$front
    got_loss <- fr$train_loss * sum(w)
    got_comp <- if (cx == "tests") fr$avg_tests * sum(w) else fr$n_splits
    lab <- paste0("complexity = ", cx, ": dpdt front\n",
                  paste(utils::capture.output(print(data.frame(
                    loss = got_loss, complexity = got_comp))),
                    collapse = "\n"),
                  "\noracle front\n",
                  paste(utils::capture.output(print(or)), collapse = "\n"))
    expect_equal(nrow(fr), nrow(or), info = lab)
    if (nrow(fr) == nrow(or)) {
      expect_equal(got_comp, or$complexity, tolerance = 1e-9, info = lab)
      expect_equal(got_loss, or$loss, tolerance = 1e-9, info = lab)
    }
    # the complexities reported must be those of the returned trees
    expect_equal(fr$n_splits,
                 vapply(fit$trees, function(t) sum(t$feature != 0), 0))
    # CART proposals with every level exact: the exhaustive search
    exact <- dpdt_fit(fo, data = df, weights = w, max_depth = max_depth,
                      exact_levels = max_depth, complexity = cx,
                      min_bucket = min_bucket, threads = 1)
    expect_equal(exact$front, fr, info = lab)
    expect_equal(exact$trees, fit$trees, info = lab)
  }
  invisible(tr)
}

test_that("oracle is sane on a hand-checkable case", {
  # a 4-row data set: y = 0 0 1 1 along x, perfectly split once
  x <- matrix(c(1, 2, 3, 4), ncol = 1)
  tr <- or_trees(x, c(0, 0, 1, 1), rep(1, 4), 2, 1:4, 1, 1)
  expect_equal(length(tr$loss), 4)  # leaf + 3 thresholds
  expect_equal(or_pareto(tr$loss, tr$tests),
               data.frame(loss = c(2, 0), complexity = c(0, 4)))
})

test_that("exhaustive depth 2 = brute force: two classes, ties, unit weights", {
  set.seed(101)
  n <- 20
  df <- data.frame(x1 = round(runif(n) * 6), x2 = round(rnorm(n), 1))
  df$y <- factor(ifelse(df$x1 + df$x2 + rnorm(n) > 3, "yes", "no"))
  df <- rbind(df, df[1:3, ])  # duplicated rows
  expect_oracle_front(df)
})

test_that("exhaustive depth 2 = brute force: three classes, three features", {
  set.seed(202)
  n <- 18
  df <- data.frame(x1 = sample(1:5, n, TRUE), x2 = runif(n),
                   x3 = round(runif(n) * 3))
  df$y <- factor(sample(c("a", "b", "c"), n, TRUE))
  expect_oracle_front(df)
})

test_that("exhaustive depth 2 = brute force: integer weights", {
  set.seed(303)
  n <- 16
  df <- data.frame(x1 = round(runif(n) * 8), x2 = round(runif(n) * 4))
  df$y <- factor(sample(c("a", "b", "c"), n, TRUE, prob = c(.5, .3, .2)))
  df$wt <- sample(1:4, n, TRUE)
  expect_oracle_front(df)
})

test_that("exhaustive depth 2 = brute force: min_bucket = 2", {
  set.seed(404)
  n <- 22
  df <- data.frame(x1 = round(runif(n) * 10), x2 = rnorm(n))
  df$y <- factor(ifelse(df$x1 > 5 & df$x2 > 0 | runif(n) < .2, "p", "q"))
  expect_oracle_front(df, min_bucket = 2)
  df$y <- factor(sample(c("a", "b", "c"), n, TRUE))
  expect_oracle_front(df, min_bucket = 3)
})

test_that("exhaustive depth 2 = brute force: regression", {
  set.seed(505)
  n <- 16
  df <- data.frame(x1 = round(runif(n) * 5), x2 = runif(n))
  df$y <- 2 * df$x1 + 3 * (df$x2 > .5) + rnorm(n)
  expect_oracle_front(df, tol = 1e-9)
})

test_that("exhaustive depth 2 = brute force: weighted regression, min_bucket", {
  set.seed(606)
  n <- 15
  df <- data.frame(x1 = round(runif(n) * 4), x2 = round(runif(n) * 6),
                   x3 = rnorm(n))
  df$y <- df$x1 * df$x2 / 4 + rnorm(n)
  df$wt <- sample(1:3, n, TRUE)
  expect_oracle_front(df, tol = 1e-9)
  expect_oracle_front(df[c("x1", "x2", "y")], min_bucket = 2, tol = 1e-9)
})

test_that("exhaustive depth 1 = brute force", {
  set.seed(707)
  n <- 25
  df <- data.frame(x1 = round(runif(n) * 5), x2 = rnorm(n), x3 = runif(n))
  df$y <- factor(sample(c("a", "b", "c"), n, TRUE))
  expect_oracle_front(df, max_depth = 1)
  df$y <- df$x1 + rnorm(n)
  expect_oracle_front(df, max_depth = 1, tol = 1e-9)
  df$wt <- sample(1:5, n, TRUE)
  expect_oracle_front(df, max_depth = 1, min_bucket = 4, tol = 1e-9)
})

test_that("exhaustive depth 3 = brute force on tiny data", {
  set.seed(808)
  n <- 12
  df <- data.frame(x1 = round(runif(n) * 5), x2 = round(runif(n) * 3),
                   x3 = runif(n))
  df$y <- factor(sample(c("a", "b", "c"), n, TRUE))
  expect_oracle_front(df, max_depth = 3)
  df$y <- df$x1 - df$x2 + rnorm(n)
  expect_oracle_front(df, max_depth = 3, tol = 1e-9)
  df$wt <- sample(1:3, n, TRUE)
  expect_oracle_front(df[c("x1", "x2", "y", "wt")], max_depth = 3,
                      min_bucket = 2, tol = 1e-9)
})

test_that("cart candidates on tiny data: any cart_depth, never beyond the exact front", {
  # A CART deeper than the data allows must not crash; the cart front can
  # never beat the oracle, and with max_depth = 1 it is exact.
  # (This one once crashed the session: a CART of depth 3 on 4 rows.)
  d4 <- data.frame(x = 1:4, y = c(2, 4, 1, 3))
  fit <- dpdt_fit(y ~ x, data = d4, max_depth = 2, cart_depth = 3, min_bucket = 1)
  expect_equal(fit$front$train_loss[nrow(fit$front)], 0)
  for (seed in 1:6) {
    set.seed(seed)
    n <- sample(3:10, 1)
    df <- data.frame(x1 = sample(1:4, n, TRUE), x2 = runif(n))
    df$y <- if (seed %% 2) factor(sample(c("a", "b"), n, TRUE)) else rnorm(n)
    K <- if (is.factor(df$y)) 2 else 0
    yy <- if (K) as.integer(df$y) - 1 else df$y
    x <- as.matrix(df[c("x1", "x2")])
    tr <- or_trees(x, yy, rep(1, n), K, seq_len(n), 2, 1)
    or <- or_pareto(tr$loss, tr$tests, tol = 1e-9)
    for (cd in 1:6) {
      # (a random response may have one class: the fit warns so)
      fit <- suppressWarnings(dpdt_fit(y ~ x1 + x2, data = df, max_depth = 2,
                                       cart_depth = cd, threads = 1, min_bucket = 1))
      got <- fit$front$train_loss * n
      comp <- fit$front$avg_tests * n
      # every cart point is a real tree: the exact front weakly dominates it
      for (i in seq_along(got)) {
        expect_true(any(or$complexity <= comp[i] + 1e-9 &
                          or$loss <= got[i] + 1e-9))
      }
      expect_equal(fit$front$train_loss[1] * n, or$loss[1], tolerance = 1e-9)
      f1 <- suppressWarnings(dpdt_fit(y ~ x1 + x2, data = df, max_depth = 1,
                                      cart_depth = cd, min_bucket = 1))
      t1 <- or_trees(x, yy, rep(1, n), K, seq_len(n), 1, 1)
      o1 <- or_pareto(t1$loss, t1$tests, tol = 1e-9)
      expect_equal(f1$front$train_loss * n, o1$loss, tolerance = 1e-9)
    }
  }
})

test_that("exhaustive depth 2 = brute force: fractional weights", {
  set.seed(909)
  n <- 18
  df <- data.frame(x1 = round(runif(n) * 6), x2 = runif(n))
  df$y <- factor(sample(c("a", "b", "c"), n, TRUE))
  df$wt <- round(runif(n, 0.2, 3), 3)
  expect_oracle_front(df, tol = 1e-9)
  df$y <- df$x1 + rnorm(n)
  expect_oracle_front(df, tol = 1e-9)
})

test_that("exhaustive depth 2 = brute force: a sweep of random small problems", {
  for (seed in 1:8) {
    set.seed(1000 + seed)
    n <- sample(6:16, 1)
    p <- sample(1:3, 1)
    df <- as.data.frame(matrix(round(runif(n * p) * sample(c(3, 8, 100), 1)),
                               n, p))
    names(df) <- paste0("x", seq_len(p))
    K <- sample(c(0, 2, 4), 1)
    df$y <- if (K) factor(sample(letters[1:K], n, TRUE)) else round(rnorm(n), 2)
    if (seed %% 2 == 0) df$wt <- sample(1:3, n, TRUE)
    expect_oracle_front(df, min_bucket = sample(1:2, 1), tol = 1e-9)
  }
})
