# exact_levels and time_limit: how wide the search is, and a budget that
# keeps the widest search finished within it.

test_that("exact_levels = 2 below CART proposals never loses to the default", {
  for (s in 1:4) {
    set.seed(s)
    n <- 300
    d <- data.frame(a = runif(n), b = runif(n), c = round(runif(n), 1))
    d$y <- factor((d$a > .5) != (d$b > .3) | (d$c > .8 & runif(n) < .3))
    for (cx in c("tests", "splits")) {
      one <- dpdt_fit(y ~ ., d, max_depth = 3, cart_depth = 2, complexity = cx)
      two <- dpdt_fit(y ~ ., d, max_depth = 3, cart_depth = 2, complexity = cx,
                      exact_levels = 2)
      comp <- if (cx == "tests") "avg_tests" else "n_splits"
      # every point of the default front is weakly dominated by the wider one
      for (i in seq_len(nrow(one$front))) {
        ok <- two$front[[comp]] <= one$front[[comp]][i] + 1e-12 &
          two$front$train_loss <= one$front$train_loss[i] + 1e-12
        expect_true(any(ok), info = paste("seed", s, cx, "point", i))
      }
      expect_equal(two$control$exact_levels, 2L)
      expect_match(paste(capture.output(print(two)), collapse = "\n"),
                   "exact_levels 2")
    }
  }
})

test_that("exact_levels = max_depth is the exhaustive search", {
  fit <- dpdt_fit(Species ~ ., iris, max_depth = 2, exact_levels = 2, threads = 1)
  ex <- dpdt_fit(Species ~ ., iris, max_depth = 2, candidates = "exhaustive",
                 threads = 1)
  expect_equal(fit$front, ex$front)
  expect_equal(fit$trees, ex$trees)
  expect_match(paste(capture.output(print(ex)), collapse = "\n"),
               "The front is provably optimal: every split was tried")
})

test_that("bad exact_levels and time_limit are refused with the argument named", {
  expect_error(dpdt_fit(Species ~ ., iris, max_depth = 2, exact_levels = 3),
               "`exact_levels` must be a single whole number between 1 and 2; got 3")
  expect_error(dpdt_fit(Species ~ ., iris, exact_levels = 1.5), "`exact_levels`")
  expect_error(dpdt_fit(Species ~ ., iris, time_limit = 0),
               "`time_limit` must be a single positive number of seconds")
  expect_error(dpdt_fit(Species ~ ., iris, time_limit = NA), "`time_limit`")
  expect_error(dpdt_fit(Species ~ ., iris, time_limit = "1"), "`time_limit`")
})

test_that("a time limit that is not reached changes nothing", {
  plain <- dpdt_fit(Species ~ ., iris, max_depth = 3, threads = 1)
  timed <- expect_silent(dpdt_fit(Species ~ ., iris, max_depth = 3, threads = 1,
                                  time_limit = 600))
  expect_equal(timed$front, plain$front)
  expect_equal(timed$trees, plain$trees)
  expect_true(timed$time_limit$complete)
  expect_equal(timed$time_limit$searched, "cart_depth = 5")
  ex <- dpdt_fit(Species ~ ., iris, max_depth = 2, candidates = "exhaustive",
                 time_limit = 600)
  expect_equal(ex$control$candidates, "exhaustive")
  expect_true(ex$time_limit$complete)
})

test_that("a time limit that is reached keeps the widest search that finished", {
  # depth 4 with cart_depth 5 on 20,000 rows takes seconds; cart_depth 1
  # takes milliseconds: within half a second some narrower search finishes
  set.seed(1)
  n <- 20000
  d <- data.frame(matrix(rnorm(n * 10), n))
  d$y <- factor(d$X1 + d$X2 * d$X3 + rnorm(n) > 0)
  expect_warning(
    fit <- dpdt_fit(y ~ ., d, max_depth = 4, cart_depth = 5, time_limit = 0.5,
                    threads = 1),
    "time_limit = 0.5 s reached; the front is that of the widest search that finished")
  expect_false(fit$time_limit$complete)
  expect_equal(fit$time_limit$asked, "cart_depth = 5")
  expect_true(max(fit$control$cart_depth) < 5)
  expect_equal(fit$time_limit$searched,
               paste0("cart_depth = ", max(fit$control$cart_depth)))
  # the front kept is the complete front of that narrower search
  narrow <- dpdt_fit(y ~ ., d, max_depth = 4, cart_depth = fit$control$cart_depth,
                     threads = 1)
  expect_equal(fit$front, narrow$front)
  expect_match(paste(capture.output(print(fit)), collapse = "\n"),
               "time_limit = 0.5 s reached: searched with cart_depth = [1-4], not cart_depth = 5")
  expect_equal(nrow(predict(fit, d[1:3, ], type = "prob")), 3)
})

test_that("cart_depth defaults to a schedule that narrows with max_depth", {
  fit_ctl <- function(depth, ...) {
    dpdt_fit(Species ~ ., iris, max_depth = depth, ...)$control$cart_depth
  }
  expect_equal(fit_ctl(1), 5L)
  expect_equal(fit_ctl(3), 5L)
  expect_equal(fit_ctl(4), c(4L, 3L, 2L))
  expect_equal(fit_ctl(5), 2L)
  expect_equal(fit_ctl(4, cart_depth = 5), 5L)  # given: kept
  fit <- dpdt_fit(Species ~ ., iris, max_depth = 4)
  expect_match(paste(capture.output(print(fit)), collapse = "\n"), "cart_depth 4/3/2")
  # the default is the schedule itself: the same front as asking for it
  expect_equal(fit$front, dpdt_fit(Species ~ ., iris, max_depth = 4,
                                   cart_depth = c(4, 3, 2))$front)
})
