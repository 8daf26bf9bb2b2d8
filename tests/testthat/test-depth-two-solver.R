# States of 2,048 rows or more with two levels left let the depth-two solver
# score their cuts (src/core/search/depth_two.h); the core tests check it on small
# states. Here: a fit of that size against a brute force written in R (the
# two-class fit scores cuts of both features; the three-class one solves
# them one by one, having too few cuts per feature to switch).

# Misclassified rows of the best single split of the rows `idx` (or of the
# leaf), over every feature and boundary.
best_split_loss <- function(x, y, idx) {
  leaf <- length(idx) - max(tabulate(y[idx], nlevels(y)))
  best <- leaf
  for (f in seq_along(x)) {
    o <- idx[order(x[[f]][idx])]
    v <- x[[f]][o]
    counts <- vapply(seq_len(nlevels(y)), function(k) cumsum(y[o] == levels(y)[k]), numeric(length(o)))
    counts <- matrix(counts, ncol = nlevels(y))
    total <- counts[length(o), ]
    cut <- which(diff(v) > 0)
    if (!length(cut)) next
    left <- cut - apply(counts[cut, , drop = FALSE], 1, max)
    right <- (length(o) - cut) - apply(sweep(-counts[cut, , drop = FALSE], 2, total, "+"), 1, max)
    best <- min(best, left + right)
  }
  best
}

# The exact front of depth-<= 2 trees with complexity "splits": the lowest
# loss with 0, 1, 2 and 3 splits, kept where it falls.
brute_depth_two <- function(x, y) {
  n <- length(y)
  by_splits <- c(n - max(tabulate(y, nlevels(y))), Inf, Inf, Inf)
  for (f in seq_along(x)) {
    o <- order(x[[f]])
    v <- x[[f]][o]
    for (cut in which(diff(v) > 0)) {
      l <- o[seq_len(cut)]
      r <- o[-seq_len(cut)]
      ll <- length(l) - max(tabulate(y[l], nlevels(y)))
      lr <- length(r) - max(tabulate(y[r], nlevels(y)))
      bl <- best_split_loss(x, y, l)
      br <- best_split_loss(x, y, r)
      by_splits <- pmin(by_splits, c(Inf, ll + lr, min(bl + lr, ll + br), bl + br))
    }
  }
  keep <- by_splits < cummin(c(Inf, by_splits))[seq_along(by_splits)]
  data.frame(n_splits = which(keep) - 1, loss = by_splits[keep])
}

test_that("exhaustive depth 2 on 2,100 rows equals the brute force (2 and 3 classes)", {
  set.seed(20261201)
  n <- 2100
  x <- data.frame(a = round(runif(n), 2), b = round(runif(n), 2))
  for (k in 2:3) {
    signal <- x$a + 0.5 * x$b + rnorm(n, sd = 0.3)
    y <- cut(signal, quantile(signal, seq(0, 1, length.out = k + 1)), include.lowest = TRUE,
             labels = paste0("c", seq_len(k)))
    d <- cbind(x, y = y)
    fit <- dpdt_fit(y ~ ., data = d, max_depth = 2, candidates = "exhaustive",
                    complexity = "splits")
    expect <- brute_depth_two(x, y)
    expect_equal(fit$front$n_splits, expect$n_splits)
    expect_equal(fit$front$train_loss * n, expect$loss)
    # Every tree of the front predicts its reported training loss.
    for (i in seq_len(nrow(fit$front))) {
      pred <- predict(fit, d, model = i, type = "class")
      expect_equal(sum(pred != y), expect$loss[i])
    }
  }
})
