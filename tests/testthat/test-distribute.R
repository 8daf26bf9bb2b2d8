# One search spread over futures (parallel = "future", issue 21): the front
# and every tree are those of the search in one process, whatever the plan
# and the chunking (the option dpdt.chunks sets the number of chunks).

same_fit <- function(a, b) {
  expect_identical(b$front, a$front)
  for (i in seq_len(nrow(a$front))) expect_identical(dpdt_tree(b, i), dpdt_tree(a, i))
}

with_chunks <- function(k, code) {
  old <- options(dpdt.chunks = k)
  on.exit(options(old))
  code
}

fit_both <- function(args, chunks) {
  one <- do.call(dpdt_fit, c(args, list(parallel = "none")))
  for (k in chunks) {
    cut <- with_chunks(k, do.call(dpdt_fit, c(args, list(parallel = "future"))))
    expect_false(is.null(cut$distributed))
    expect_lte(cut$distributed$chunks, k)
    same_fit(one, cut)
  }
  invisible(one)
}

test_that("chunks of the root merge into the one-process front (sequential plan, any chunking)", {
  set.seed(20261202)
  for (case in 1:40) {
    n <- sample(30:150, 1)
    p <- sample(1:4, 1)
    d <- as.data.frame(matrix(round(rnorm(n * p), sample(0:2, 1)), n, p))
    if (runif(1) < 0.3) d$V1[sample(n, 4)] <- NA
    if (runif(1) < 0.3) d$g <- factor(sample(letters[1:sample(2:5, 1)], n, TRUE))
    d$y <- factor(sample(sample(2:3, 1), n, TRUE))
    args <- list(formula = y ~ ., data = d, max_depth = sample(2:3, 1),
                 candidates = sample(c("cart", "exhaustive"), 1),
                 complexity = sample(c("tests", "splits"), 1),
                 min_bucket = sample(c(1, 1, 3), 1), best_only = runif(1) < 0.15,
                 max_bins = if (runif(1) < 0.15) 4 else Inf)
    if (runif(1) < 0.3) args$weights <- sample(1:3, n, TRUE)
    if (args$candidates == "cart" && args$max_depth == 3 && runif(1) < 0.5) args$exact_levels <- 2
    # one chunk, a few, and one candidate per chunk (cuts of a feature apart)
    fit_both(args, c(1, 3, 10000))
  }
})

test_that("a search that holds its states as rows (many binned rows) merges alike", {
  # 12,000 rows, two classes, binned: the engine's rows layout, chunked
  set.seed(4)
  n <- 12000
  d <- data.frame(a = rnorm(n), b = runif(n), c = rexp(n))
  d$y <- factor(xor(d$a + d$b > 0.8 | d$c > 2, runif(n) < 0.1))
  fit_both(list(formula = y ~ ., data = d, max_depth = 3, max_bins = 32, min_bucket = 1,
                complexity = "splits"), c(2, 7))
})

test_that("a real set: exhaustive depth 3 cut in many ways, and the chunks' work is recorded", {
  args <- list(formula = Kyphosis ~ ., data = rpart::kyphosis, max_depth = 3,
               candidates = "exhaustive", complexity = "splits", min_bucket = 1)
  one <- fit_both(args, c(2, 5, 17))
  cut <- with_chunks(4, do.call(dpdt_fit, c(args, list(parallel = "future"))))
  d <- cut$distributed
  expect_equal(d$rounds, 2L)  # seeds, then the bounded sweep
  expect_equal(nrow(d$chunk_seconds), d$chunks)
  expect_true(all(d$chunk_seconds$solve >= 0))
  expect_equal(d$chunk_seconds$first[1], 1)
  # the chunks cover the candidates without gaps
  expect_equal(d$chunk_seconds$first[-1], d$chunk_seconds$last[-d$chunks] + 1)
  expect_null(one$distributed)
  # the row visits made are the plan's and every chunk's: at least the
  # plan's alone, and of the order of the one-process search's (the chunks
  # repeat the seeds and share no memo)
  made <- cut$work_estimate$visits_made
  expect_true(is.finite(made) && made >= one$work_estimate$visits_made / 2 &&
                made <= 20 * one$work_estimate$visits_made)
  # predictions reproduce the reported training loss
  best <- nrow(cut$front)
  pred <- predict(cut, rpart::kyphosis, model = best, type = "class")
  expect_equal(mean(pred != rpart::kyphosis$Kyphosis), cut$front$train_loss[best])
})

test_that("multisession and PSOCK cluster plans give the one-process front", {
  skip_if_not_installed("future")
  skip_if_not_installed("parallelly")
  args <- list(formula = Species ~ ., data = iris, max_depth = 3,
               candidates = "exhaustive", complexity = "splits", min_bucket = 1)
  one <- do.call(dpdt_fit, c(args, list(parallel = "none")))
  old <- future::plan()
  on.exit(future::plan(old), add = TRUE)
  future::plan(future::multisession, workers = 2)
  ms <- do.call(dpdt_fit, c(args, list(parallel = "future")))
  expect_equal(ms$distributed$workers, 2)
  expect_equal(ms$distributed$chunks, 8)  # 4 per worker
  same_fit(one, ms)
  cart <- dpdt_fit(Kyphosis ~ ., rpart::kyphosis, max_depth = 3, parallel = "future")
  same_fit(dpdt_fit(Kyphosis ~ ., rpart::kyphosis, max_depth = 3, parallel = "none"), cart)
  cl <- parallelly::makeClusterPSOCK(2)
  on.exit(parallel::stopCluster(cl), add = TRUE)
  future::plan(future::cluster, workers = cl)
  same_fit(one, do.call(dpdt_fit, c(args, list(parallel = "future"))))
  # "auto": a search estimated under 10 s stays in this process
  expect_null(dpdt_fit(Species ~ ., iris, max_depth = 2)$distributed)
})

test_that("auto never distributes on one worker; none never does", {
  old <- future::plan(future::sequential)
  on.exit(future::plan(old))
  expect_null(dpdt_fit(Species ~ ., iris, max_depth = 3, candidates = "exhaustive")$distributed)
  expect_null(dpdt_fit(Species ~ ., iris, max_depth = 3, parallel = "none")$distributed)
})

test_that("what cannot be cut runs in one process, and says so when it was asked for", {
  # regression: losses compared with a tolerance, so merged ties could differ
  f <- NULL
  expect_warning(f <- dpdt_fit(mpg ~ ., mtcars, max_depth = 2, parallel = "future"),
                 "ran in one process")
  expect_null(f$distributed)
  expect_identical(f$front, dpdt_fit(mpg ~ ., mtcars, max_depth = 2, parallel = "none")$front)
  expect_warning(dpdt_fit(Species ~ ., iris, max_depth = 2, weights = rep(c(0.3, 1.7), 75),
                          parallel = "future"), "exact sums")
  # a single leaf (max_depth 1 has no subproblems worth a future; a pure
  # response has no split): no chunks, no warning
  expect_null(dpdt_fit(Species ~ ., iris, max_depth = 1, parallel = "future")$distributed)
  d <- data.frame(x = 1:10, y = factor(rep("a", 10)))
  expect_null(suppressWarnings(dpdt_fit(y ~ x, d, max_depth = 2, parallel = "future"))$distributed)
})

test_that("bad parallel settings are refused with what to do", {
  expect_error(dpdt_fit(Species ~ ., iris, parallel = "cluster"),
               "`parallel` must be one of \"auto\", \"future\", \"none\"")
  expect_error(dpdt_fit(Species ~ ., iris, parallel = NA), "`parallel` must be one of")
  expect_error(dpdt_fit(Species ~ ., iris, parallel = "future", time_limit = 5),
               "does not combine with a finite `time_limit`")
  old <- options(future.globals.maxSize = 1000)
  on.exit(options(old))
  expect_error(dpdt_fit(Species ~ ., iris, max_depth = 2, parallel = "future"),
               "exceed option future.globals.maxSize .* parallel = \"none\"")
})

test_that("cross-validation of a distributed fit refits its folds in one process each", {
  f <- with_chunks(3, dpdt_fit(Kyphosis ~ ., rpart::kyphosis, max_depth = 2,
                               candidates = "exhaustive", parallel = "future"))
  expect_false(is.null(f$distributed))
  set.seed(1)
  cv <- dpdt_cv(f, folds = 3)
  set.seed(1)
  cv_none <- dpdt_cv(dpdt_fit(Kyphosis ~ ., rpart::kyphosis, max_depth = 2,
                              candidates = "exhaustive", parallel = "none"), folds = 3)
  expect_identical(cv$front, cv_none$front)
})

test_that("the merge keeps the earliest candidate's point on ties", {
  # (loss, complexity, root candidate): two ties at complexity 1, one point
  # dominated, one equal in loss to a simpler one
  loss <- c(10, 4, 4, 5, 3, 3)
  cx <- c(0, 1, 1, 1, 2, 3)
  rank <- c(-1, 7, 2, 1, 5, 0)
  expect_equal(dpdt:::pareto_keep(loss, cx, rank), c(1, 3, 5))
})
