# Numerical soundness at every scale a user's data can have: losses computed
# without cancellation, scale-equivariant fronts, exact comparisons, and
# clear refusals where a number cannot be represented.

# MSE of every front tree recomputed from its predictions on the training rows.
predicted_mse <- function(fit, data, y, w = rep(1, length(y))) {
  vapply(seq_len(nrow(fit$front)), function(i) {
    sum(w * (y - predict(fit, data, model = i))^2) / sum(w)
  }, 0)
}

# Element by element: expect_equal()'s tolerance is relative to the whole
# vector, and the root's loss would hide every other row's.
expect_each_equal <- function(a, b, tol) {
  expect_length(a, length(b))
  expect_true(all(abs(a - b) <= tol * pmax(abs(a), abs(b))),
              info = paste(format(a, digits = 15), format(b, digits = 15), collapse = "\n"))
}

test_that("regression losses are right when the response's clusters are far apart", {
  set.seed(1)
  x <- 1:40
  y <- (x > 20) * 1e12 + rnorm(40)
  d <- data.frame(x, y)
  fit <- dpdt_fit(y ~ x, d, max_depth = 2, min_bucket = 1)
  fr <- fit$front
  # the one-split tree: each cluster predicted by its own mean
  within <- (sum((y[1:20] - mean(y[1:20]))^2) +
             sum((y[21:40] - mean(y[21:40]))^2)) / 40
  expect_equal(within, 0.757, tolerance = 1e-3)
  expect_equal(fr$train_loss[fr$n_splits == 1], within, tolerance = 1e-9)
  # more splits keep lowering the loss, as at unit scale
  expect_gt(nrow(fr), 2)
  expect_true(all(diff(fr$train_loss) < 0))
  # predict() returns means rounded to doubles near 1e12 (1.2e-4 apart): its
  # squared errors differ from the exact losses by about 1e-8 relative
  expect_each_equal(fr$train_loss, predicted_mse(fit, d, y), 1e-7)
  # the same noise with the clusters 1e3 apart: the same trees, and the same
  # losses beyond the root (up to the rounding of y near 1e12, 1e-4)
  y0 <- (x > 20) * 1e3 + (y - (x > 20) * 1e12)
  fit0 <- dpdt_fit(y ~ x, data.frame(x, y = y0), max_depth = 2, min_bucket = 1)
  expect_equal(fr$n_splits, fit0$front$n_splits)
  expect_equal(fr$train_loss[-1], fit0$front$train_loss[-1], tolerance = 1e-3)
})

test_that("two N(0, 1) clusters 1e8 apart: reported losses are what predict() gives", {
  set.seed(2)
  x <- runif(1000)
  y <- (x > 0.5) * 1e8 + rnorm(1000)
  d <- data.frame(x, z = runif(1000), y)
  for (cand in c("cart", "exhaustive")) {
    fit <- dpdt_fit(y ~ x + z, d, max_depth = 2, candidates = cand, threads = 1, min_bucket = 1)
    # the one-pass formula reported 1.28 for the one-split tree, not 0.964
    expect_equal(fit$front$train_loss[2], 0.9638, tolerance = 1e-4)
    expect_each_equal(fit$front$train_loss, predicted_mse(fit, d, y), 1e-10)
    expect_true(all(diff(fit$front$train_loss) < 0))
  }
})

test_that("fronts are scale-equivariant in the response, down to 1e-150 and up to 1e150", {
  x <- 1:10
  y <- c(3, 1, 4, 1, 5, 9, 2, 6, 5, 3)
  ref <- dpdt_fit(y ~ x, data.frame(x, y), max_depth = 2, min_bucket = 1)
  expect_gt(nrow(ref$front), 3)
  for (s in c(1e150, 1e-150, 2^-1000 * 1e150)) {
    fit <- dpdt_fit(y ~ x, data.frame(x, y = y * s), max_depth = 2, min_bucket = 1)
    expect_equal(fit$front$n_splits, ref$front$n_splits)
    expect_equal(fit$front$avg_tests, ref$front$avg_tests)
    expect_equal(fit$front$rel_error, ref$front$rel_error, tolerance = 1e-12)
    expect_equal(fit$front$train_loss / s^2, ref$front$train_loss, tolerance = 1e-12)
    expect_equal(fit$front$alpha_min / s^2, ref$front$alpha_min, tolerance = 1e-9)
    expect_equal(predict(fit, data.frame(x)) / s, predict(ref, data.frame(x)),
                 tolerance = 1e-12)
  }
})

test_that("a response whose squared errors leave the range of double is refused", {
  d <- data.frame(x = 1:10, y = rep(c(-1, 1), each = 5) * 1e200)
  expect_error(dpdt_fit(y ~ x, d, max_depth = 2, min_bucket = 1),
               "response `y` has values up to 1e\\+200.*Divide the response")
  # a weight-0 row counts too: predict() gives its squared error
  d <- data.frame(x = 1:4, y = c(-6.8, -3.5, -6, 2.1) * 1e236)
  expect_error(dpdt_fit(y ~ x, d, weights = c(0, 0, 1, 0), max_depth = 2, min_bucket = 1),
               "values up to 6.8e\\+236")
  # just below the limit of 2^510 the front is that of the unit scale
  d <- data.frame(x = 1:10, y = c(3, 1, 4, 1, 5, 9, 2, 6, 5, 3))
  big <- dpdt_fit(y ~ x, transform(d, y = y * 2^506), max_depth = 2, min_bucket = 1)
  expect_equal(big$front$n_splits, dpdt_fit(y ~ x, d, max_depth = 2, min_bucket = 1)$front$n_splits)
  expect_true(all(is.finite(big$front$train_loss)))
  # weights can still push the loss beyond a double
  expect_error(dpdt_fit(y ~ x, transform(d, y = y * 1e150), weights = rep(1e20, 10), min_bucket = 1),
               "mean squared error is about 1e301.*Divide the weights")
  d$y <- rep(c(-1, 1), each = 5) * 1e-160
  expect_error(dpdt_fit(y ~ x, d, max_depth = 2, min_bucket = 1),
               "below the smallest normal double.*Multiply the response")
})

test_that("large responses with tiny weights: a valid front, alpha columns without NA", {
  # squared errors about 1e315: refused, not R's "missing value where
  # TRUE/FALSE needed" from the hull of Inf losses
  d <- data.frame(x = 1:12, y = c(5, 1, 7, 2, 8, 3, 9, 4, 6, 2, 7, 1) * 1e157)
  expect_error(dpdt_fit(y ~ x, d, weights = rep(1e-20, 12), max_depth = 3, min_bucket = 1),
               "values up to 9e\\+157.*Divide the response")
  set.seed(3)
  d <- data.frame(x = 1:12, y = c(5, 1, 7, 2, 8, 3, 9, 4, 6, 2, 7, 1) * 1e152)
  fit <- dpdt_fit(y ~ x, d, weights = rep(1e-20, 12), max_depth = 3,
                  complexity = "splits", min_bucket = 1)
  ref <- dpdt_fit(y ~ x, transform(d, y = y / 1e152), max_depth = 3,
                  complexity = "splits", min_bucket = 1)
  expect_equal(fit$front$n_splits, ref$front$n_splits)
  expect_equal(is.na(fit$front$alpha_min), is.na(ref$front$alpha_min))
  expect_equal(fit$front$alpha_min / 1e304, ref$front$alpha_min, tolerance = 1e-9)
})

test_that("classification fronts do not depend on the scale of the weights", {
  d <- data.frame(x = 1:10, z = c(2, 9, 4, 7, 1, 8, 3, 10, 6, 5),
                  y = factor(c("a", "b", "a", "a", "b", "b", "a", "b", "b", "a")))
  for (crit in c("gini", "entropy")) {
    ref <- dpdt_fit(y ~ x + z, d, max_depth = 3, criterion = crit, min_bucket = 1)
    expect_gt(nrow(ref$front), 2)
    for (s in c(1e160, 1e300, 1e-200, 1e-300)) {
      fit <- dpdt_fit(y ~ x + z, d, weights = rep(s, 10), max_depth = 3,
                      criterion = crit, min_bucket = 1)
      expect_equal(fit$front[c("n_splits", "avg_tests", "train_loss", "alpha_min")],
                   ref$front[c("n_splits", "avg_tests", "train_loss", "alpha_min")])
      expect_equal(fit$trees[[nrow(ref$front)]]$weight / s,
                   ref$trees[[nrow(ref$front)]]$weight)
    }
  }
  expect_error(dpdt_fit(y ~ x, d, weights = rep(1e308, 10), min_bucket = 1),
               "`weights` sum to more than the largest double")
  # the sum fits, but avg_tests (weight times depth) would not: it was Inf,
  # and the hull stopped with "missing value where TRUE/FALSE needed"
  expect_error(dpdt_fit(y ~ x, d, weights = rep(1.5e307, 10), max_depth = 3, min_bucket = 1),
               "`weights` are too large: their sum \\(1.5e\\+308\\) times max_depth")
  expect_error(dpdt_fit(y ~ x, d, weights = rep(1e306, 10), max_depth = 3,
                        test_cost = c(x = 100), min_bucket = 1),
               "times max_depth and the largest test cost or loss")
  fit <- dpdt_fit(y ~ x + z, d, weights = rep(1e306, 10), max_depth = 3, min_bucket = 1)
  expect_true(all(is.finite(unlist(fit$front[c("avg_tests", "train_loss", "alpha_min")]))))
})

test_that("a leaf's reported loss is exact with weights of many orders of magnitude", {
  # one pass about the first row's response (weight 0.06 beside 8e5) was
  # off by 2.7e-10 relative; two passes about the mean are exact to rounding
  d <- data.frame(x = 1:3, y = c(4749089.3, -5386632.1, -5058618.7))
  w <- c(0.06202642, 786785.1, 0.006767726)
  fit <- dpdt_fit(y ~ x, d, weights = w, max_depth = 1, min_bucket = 1)
  m <- sum(w * d$y) / sum(w)
  exact <- sum(w * (d$y - m)^2)
  expect_lt(abs(fit$trees[[1]]$loss[1] / exact - 1), 1e-14)
  expect_lt(abs(fit$front$train_loss[1] * sum(w) / exact - 1), 1e-14)
})

test_that("weights spanning 12 orders of magnitude: depth 2 never loses to depth 1", {
  # with a tolerance of 1e-9 of the total weight, splits gaining less than
  # that were dropped: depth 2 came out worse than depth 1 (seed 85)
  for (s in c(85, 1:10)) {
    set.seed(s)
    n <- 30
    d <- data.frame(a = runif(n), b = runif(n))
    d$y <- factor(ifelse(d$a + rnorm(n, sd = .3) > .5, "u", "v"))
    d$wt <- 10^runif(n, -6, 6)
    f1 <- dpdt_fit(y ~ a + b, d, weights = wt, max_depth = 1,
                   candidates = "exhaustive", threads = 1, min_bucket = 1)
    f2 <- dpdt_fit(y ~ a + b, d, weights = wt, max_depth = 2,
                   candidates = "exhaustive", threads = 1, min_bucket = 1)
    expect_lte(min(f2$front$train_loss), min(f1$front$train_loss))
    # the smallest weight still counts: every front step gains more than it
    expect_true(all(-diff(f2$front$train_loss) * sum(d$wt) > min(d$wt) / 2))
  }
})

test_that("subnormal weights are refused with advice on the weights", {
  d <- data.frame(x = 1:10, y = c(3, 1, 4, 1, 5, 9, 2, 6, 5, 3))
  expect_error(dpdt_fit(y ~ x, d, weights = rep(1e-310, 10), min_bucket = 1),
               "below the smallest normal double.*Multiply the weights")
  d$y <- factor(d$y > 3)
  expect_error(dpdt_fit(y ~ x, d, weights = rep(1e-310, 10), min_bucket = 1),
               "misclassification rate.*Multiply the weights")
})
