# "Exhaustive means exhaustive": an exhaustive front is never beaten by the
# CART front of the same call, and the fit says when optimality is proven
# and when it is not (issue 17, defect 4).

# Every point of front `b` is matched or beaten by a point of front `a`.
dominates <- function(a, b, col) {
  all(vapply(seq_len(nrow(b)), function(i) {
    any(a[[col]] <= b[[col]][i] * (1 + 1e-12) & a$train_loss <= b$train_loss[i] * (1 + 1e-12))
  }, logical(1)))
}

# Small multi-class data with character predictors of 13 to 26 levels.
many_levels <- function(seed) {
  set.seed(seed)
  n <- sample(30:60, 1)
  d <- data.frame(y = factor(sample(letters[1:sample(3:4, 1)], n, TRUE)),
                  g1 = sample(LETTERS[1:sample(13:26, 1)], n, TRUE),
                  g2 = sample(LETTERS[1:sample(13:26, 1)], n, TRUE),
                  x = round(rnorm(n), 1))
  d$w <- sample(0:2, n, TRUE)
  d
}

test_that("exhaustive fronts dominate CART fronts with many-level factors", {
  runs <- list(list(max_depth = 2, complexity = "tests", criterion = "gini"),
               list(max_depth = 2, complexity = "splits", criterion = "entropy"),
               list(max_depth = 2, complexity = "tests", min_bucket = 2))
  for (seed in 1:45) {
    d <- many_levels(seed)
    args <- runs[[seed %% length(runs) + 1]]
    fit <- function(cand) suppressWarnings(do.call(dpdt_fit, c(
      list(y ~ g1 + g2 + x, d, weights = d$w, candidates = cand, threads = 1), args)))
    ex <- fit("exhaustive")
    ca <- fit("cart")
    col <- if (args$complexity == "tests") "avg_tests" else "n_splits"
    expect_true(dominates(ex$front, ca$front, col), label = paste("seed", seed))
  }
  # depth 3 with splits and a minimum leaf size, on two of them
  for (seed in c(29, 32)) {
    d <- utils::head(many_levels(seed), 36)
    fit <- function(cand) suppressWarnings(dpdt_fit(y ~ g1 + g2 + x, d, weights = d$w,
      max_depth = 3, complexity = "splits", min_bucket = 2, candidates = cand))
    expect_true(dominates(fit("exhaustive")$front, fit("cart")$front, "n_splits"))
  }
})

test_that("the fit says whether its front is proven optimal", {
  ex <- dpdt_fit(Species ~ ., iris, max_depth = 2, candidates = "exhaustive", min_bucket = 1)
  expect_true(ex$optimality$proven)
  expect_match(paste(capture.output(print(ex)), collapse = "\n"),
               "The front is provably optimal: every split was tried")
  ca <- dpdt_fit(Species ~ ., iris, max_depth = 2, min_bucket = 1)
  expect_false(ca$optimality$proven)
  expect_match(paste(capture.output(print(ca)), collapse = "\n"),
               "The front is exact over the candidate splits \\(CART's proposals, cart_depth 5")
  el <- dpdt_fit(Species ~ ., iris, max_depth = 3, exact_levels = 2, min_bucket = 1)
  expect_match(el$optimality$statement, "every split in the last 2 levels")
  expect_true(dpdt_fit(Species ~ ., iris, max_depth = 2, exact_levels = 2, min_bucket = 1)$optimality$proven)

  # few rows per level: the fit warns that level groups can fit noise
  d <- many_levels(29)
  expect_warning(expect_warning(
    ex <- dpdt_fit(y ~ ., d, weights = w, max_depth = 2, candidates = "exhaustive", min_bucket = 1),
    "`g1` has 15 levels"), "`g2` has 14 levels")
  expect_false(ex$optimality$proven)
  expect_identical(ex$optimality$heuristic_groups, c("g1", "g2"))
  expect_match(paste(capture.output(print(ex)), collapse = "\n"),
               "not proven optimal: every split was tried, but the level groups of `g1`, `g2`")
  # two classes at depth 1: ordering the levels is exact (Breiman), so proven;
  # at depth 2 only the ordered groups are tried above the last level
  d$y2 <- factor(d$y == "a")
  expect_warning(one <- dpdt_fit(y2 ~ g1 + x, d, max_depth = 1, candidates = "exhaustive",
                                 min_bucket = 1), "`g1` has 15 levels")
  expect_true(one$optimality$proven)
  expect_warning(two <- dpdt_fit(y2 ~ g1 + x, d, max_depth = 2, candidates = "exhaustive",
                                 min_bucket = 1), "`g1` has 15 levels")
  expect_false(two$optimality$proven)
  expect_identical(two$optimality$heuristic_groups, "g1")
  # a factor of at most 12 levels: every group is tried
  k <- rpart::kyphosis
  k$grp <- cut(k$Age, 12)
  expect_true(dpdt_fit(Kyphosis ~ ., k, max_depth = 2,
                       candidates = "exhaustive", min_bucket = 1)$optimality$proven)
})

test_that("exhaustive depth 3 on Pima.tr: its proven front, from few states, whatever the threads", {
  d <- MASS::Pima.tr
  args <- list(type ~ ., d, max_depth = 3, candidates = "exhaustive", min_bucket = 1,
               complexity = "splits")
  one <- do.call(dpdt_fit, c(args, threads = 1))
  two <- do.call(dpdt_fit, c(args, threads = 2))
  expect_identical(one$front, two$front)
  expect_identical(one$trees, two$trees)
  # the least misclassifications of 200 rows with 0 to 7 splits
  expect_identical(as.integer(round(one$front$train_loss * nrow(d))),
                   c(68L, 49L, 41L, 37L, 32L, 27L, 26L, 24L))
  expect_identical(as.integer(one$front$n_splits), 0:7)
  for (i in seq_len(nrow(one$front)))
    expect_equal(mean(predict(one, d, model = i) != d$type), one$front$train_loss[i])
  # every root cut's sides' one-split losses seed the sweep and bound it,
  # and splits that can only tie are skipped: 59,325 states before, 23,957
  expect_lt(one$n_states, 35000)
})

test_that("with missing values the proof names what its search space leaves out", {
  # Every observed x is "a", every missing one "b": only a test that
  # separates missing from observed values makes no error, and a test cuts
  # between observed values, so the proven front keeps one error in ten
  # rows at one split, and its statement says why.
  d <- data.frame(x = c(1, 2, 3, 4, 5, 6, NA, NA, NA, NA), z = c(1:9, 10),
                  y = factor(rep(c("a", "b"), c(6, 4))))
  fit <- dpdt_fit(y ~ x, d, max_depth = 1, min_bucket = 1, candidates = "exhaustive")
  expect_equal(fit$front$train_loss, c(0.4, 0.1))
  expect_true(fit$optimality$proven)
  expect_match(fit$optimality$statement,
               "`x` has missing values: .* only separates missing from observed values is not")
  # the indicator the help suggests offers that split
  d$x_missing <- is.na(d$x)
  with_flag <- dpdt_fit(y ~ x + x_missing, d, max_depth = 1, min_bucket = 1,
                        candidates = "exhaustive")
  expect_equal(min(with_flag$front$train_loss), 0)
  # no missing value, no such clause
  complete <- dpdt_fit(y ~ z, d, max_depth = 1, candidates = "exhaustive")
  expect_false(grepl("missing", complete$optimality$statement))
  # of several predictors, the one with missing values is named
  aq <- suppressMessages(dpdt_fit(Ozone ~ Solar.R + Wind + Temp, airquality[1:60, ],
                                  max_depth = 1, candidates = "exhaustive"))
  expect_match(aq$optimality$statement, "`Solar.R` has missing values")
})
