# Searches that cannot finish are refused before they start, with the
# estimate and what to lower; limits never overflow.

test_that("a search far beyond reach is refused at once, with what to lower", {
  set.seed(1)
  n <- 200000
  d <- as.data.frame(matrix(runif(n * 20), n, 20))
  d$y <- factor(d$V1 + d$V2 > 1)
  t <- system.time(err <- tryCatch(
    dpdt_fit(y ~ ., d, max_depth = 5, candidates = "exhaustive", threads = 2),
    error = function(e) conditionMessage(e)))
  expect_match(err, "estimated at .* row visits")
  expect_match(err, "4e\\+06 candidate splits at the root")
  expect_match(err, "years with 2 thread")
  expect_match(err, "Lower max_depth, use candidates = \"cart\"")
  expect_match(err, "raise max_work")
  expect_lt(t[["elapsed"]], 30)  # refused, not started (the search takes years)
})

test_that("max_work is a documented, checked override", {
  expect_error(dpdt_fit(Species ~ ., iris, max_depth = 3, max_work = 1e4),
               "about .* seconds with 2 thread\\(s\\), beyond max_work = 1e\\+04. Lower max_depth or cart_depth")
  fit <- dpdt_fit(Species ~ ., iris, max_depth = 2, max_work = Inf)
  expect_s3_class(fit, "dpdt")
  expect_equal(fit$control$max_work, Inf)
  expect_error(dpdt_fit(Species ~ ., iris, max_work = -1),
               "`max_work` must be a single positive number")
  expect_error(dpdt_fit(Species ~ ., iris, max_work = "a lot"),
               "`max_work` must be a single positive number")
})

test_that("max_depth = 1 needs one workspace whatever the threads", {
  # 150 rows x 4 features: a buffer of rows is 4,816 bytes. Depth 1 needs the
  # root's only; depth 2 with two threads 7 (the root's, four CART levels at
  # the root, one depth-1 buffer per thread): 33.7 kB
  fit <- dpdt_fit(Species ~ ., iris, max_depth = 1, threads = 2,
                  max_memory = 1e-5)
  expect_equal(nrow(fit$front), 2)
  expect_error(dpdt_fit(Species ~ ., iris, max_depth = 2, threads = 2,
                        max_memory = 1e-5),
               "row buffers alone need about 3.3712e-05 GB")
  expect_equal(nrow(dpdt_fit(Species ~ ., iris, max_depth = 2, threads = 2,
                             max_memory = 3.4e-5)$front), 7)
})

test_that("min_bucket near the integer limit gives the single leaf", {
  for (mb in c(2^30, .Machine$integer.max)) {
    fit <- dpdt_fit(Species ~ ., iris, max_depth = 2, min_bucket = mb)
    expect_equal(nrow(fit$front), 1)
    fit <- dpdt_fit(Species ~ ., iris, max_depth = 1, min_bucket = mb,
                    candidates = "exhaustive")
    expect_equal(nrow(fit$front), 1)
  }
})

test_that("setTimeLimit() during a fit raises R's time-limit error, not an interrupt", {
  set.seed(1)
  n <- 20000
  d <- as.data.frame(matrix(runif(n * 10), n, 10))
  d$y <- factor(d$V1 + d$V2 + rnorm(n, sd = 0.3) > 1)
  # a search of hours (estimated 6e12 row visits), stopped after a second
  res <- tryCatch({
    setTimeLimit(elapsed = 1, transient = TRUE)
    dpdt_fit(y ~ ., d, max_depth = 5, cart_depth = 5, threads = 2)
    "finished"
  }, error = function(e) e, interrupt = function(e) "interrupt")
  setTimeLimit()
  expect_s3_class(res, "error")
  expect_match(conditionMessage(res), "elapsed time limit")
})
