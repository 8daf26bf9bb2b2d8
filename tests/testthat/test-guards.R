# Searches that cannot finish are refused before they start, with the
# estimate and what to lower; limits never overflow.

test_that("a search far beyond reach is refused at once, with what to lower", {
  set.seed(1)
  n <- 200000
  d <- as.data.frame(matrix(runif(n * 20), n, 20))
  d$y <- factor(d$V1 + d$V2 > 1)
  t <- system.time(err <- tryCatch(
    dpdt_fit(y ~ ., d, max_depth = 5, candidates = "exhaustive", threads = 2, min_bucket = 1),
    error = function(e) conditionMessage(e)))
  expect_match(err, "estimated at .* row visits")
  expect_match(err, "4e\\+06 candidate splits at the root")
  expect_match(err, "years with 2 thread")
  expect_match(err, "Lower max_depth, use candidates = \"cart\"")
  expect_match(err, "raise max_work")
  expect_lt(t[["elapsed"]], 30)  # refused, not started (the search takes years)
})

test_that("max_work is a documented, checked override", {
  expect_error(dpdt_fit(Species ~ ., iris, max_depth = 3, max_work = 1e4, min_bucket = 1),
               "about .* seconds with 2 thread\\(s\\), beyond max_work = 1e\\+04. Lower max_depth or cart_depth")
  fit <- dpdt_fit(Species ~ ., iris, max_depth = 2, max_work = Inf, min_bucket = 1)
  expect_s3_class(fit, "dpdt")
  expect_equal(fit$control$max_work, Inf)
  expect_error(dpdt_fit(Species ~ ., iris, max_work = -1, min_bucket = 1),
               "`max_work` must be a single positive number")
  expect_error(dpdt_fit(Species ~ ., iris, max_work = "a lot", min_bucket = 1),
               "`max_work` must be a single positive number")
})

test_that("max_depth = 1 needs one workspace whatever the threads", {
  # 150 rows x 4 features: a buffer of rows is (600 + 2 x 4 of slack) x 8 =
  # 4,864 bytes. Depth 1 needs the root's only; depth 2 with two threads 7
  # (the root's, four CART levels at the root, one depth-1 buffer per
  # thread): 34,048 bytes, and per thread the children at the last level
  # written by position: 600 codes and 4 features' 600 positions and 151
  # counts, 4 x (600 + 3,004) = 14,416 bytes: 62,880 bytes
  fit <- dpdt_fit(Species ~ ., iris, max_depth = 1, threads = 2,
                  max_memory = 1e-5, min_bucket = 1)
  expect_equal(nrow(fit$front), 2)
  expect_error(dpdt_fit(Species ~ ., iris, max_depth = 2, threads = 2,
                        max_memory = 1e-5, min_bucket = 1),
               "row buffers alone need about 6.288e-05 GB")
  expect_equal(nrow(dpdt_fit(Species ~ ., iris, max_depth = 2, threads = 2,
                             max_memory = 6.3e-5, min_bucket = 1)$front), 7)
})

test_that("min_bucket near the integer limit gives the single leaf", {
  for (mb in c(2^30, .Machine$integer.max)) {
    expect_warning(fit <- dpdt_fit(Species ~ ., iris, max_depth = 2, min_bucket = mb),
                   "fewer than 2 \\* min_bucket")
    expect_equal(nrow(fit$front), 1)
    expect_warning(fit <- dpdt_fit(Species ~ ., iris, max_depth = 1, min_bucket = mb,
                                   candidates = "exhaustive"),
                   "fewer than 2 \\* min_bucket")
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
    dpdt_fit(y ~ ., d, max_depth = 5, cart_depth = 5, threads = 2, min_bucket = 1)
    "finished"
  }, error = function(e) e, interrupt = function(e) "interrupt")
  setTimeLimit()
  expect_s3_class(res, "error")
  expect_match(conditionMessage(res), "elapsed time limit")
})

# The engine's estimate of a search, read from its refusal under max_work = 1
# or, for a search measured as it runs (refused by its estimate only a
# ten million times beyond max_work), from its fit.
estimated_visits <- function(...) {
  msg <- tryCatch({dpdt_fit(..., max_work = 1, min_bucket = 1); ""}, error = conditionMessage)
  if (grepl("estimated at", msg))
    return(as.numeric(sub(".*estimated at ([0-9.e+]+) row visits.*", "\\1", msg)))
  dpdt_fit(..., max_work = Inf, min_bucket = 1)$work_estimate$row_visits
}

test_that("the work estimate counts level groups and the memo (issue 17, defect 6)", {
  set.seed(1)
  n <- 10000
  d <- data.frame(y = factor(sample(c("a", "b"), n, TRUE)),
                  g = factor(sample(sprintf("L%04d", 1:3000), n, TRUE)), x = runif(n))
  # 2,999 ordered groups at the root, each a search of its levels per row
  # (it was estimated at 2.9e7 row visits, and took 19 to 31 s)
  expect_warning(ex <- estimated_visits(y ~ g, d, max_depth = 2, candidates = "exhaustive"),
                 "`g` has 2896 levels for 10000 rows")
  expect_gt(ex, 3e8)
  expect_lt(ex, 1e10)
  # every group of 12 levels is a candidate: far more than 11 cuts
  d12 <- data.frame(y = d$y, g = factor(as.integer(d$g) %% 12), x = as.integer(d$g) %% 12)
  expect_gt(estimated_visits(y ~ g, d12, max_depth = 3, candidates = "exhaustive"),
            50 * estimated_visits(y ~ x, d12, max_depth = 3, candidates = "exhaustive"))
  # one factor of 10 levels: at most 2^10 row sets per depth, whatever the
  # depth (it was estimated at hours; the search takes a fraction of a second)
  set.seed(2)
  d57 <- data.frame(y = factor(sample(c("a", "b", "c"), 57, TRUE)),
                    g = sample(letters[1:10], 57, TRUE))
  expect_lt(estimated_visits(y ~ g, d57, max_depth = 5, candidates = "exhaustive"), 1e9)
})

test_that("a fit records the work estimate made before its search", {
  fit <- dpdt_fit(Species ~ ., iris, max_depth = 3, threads = 1)
  e <- fit$work_estimate
  expect_named(e, c("row_visits", "seconds", "measured", "visits_made", "projections"))
  expect_false(e$measured)  # a CART search: not timed as it runs
  # iris at depth 3: at least one scan of every row and feature, far below
  # the minute that would announce it; seconds at 1e9 row visits per second
  expect_gt(e$row_visits, 150 * 4)
  expect_lt(e$seconds, 60)
  expect_equal(e$seconds, e$row_visits / 1e9)
  # the estimate grows with the search asked for
  wider <- dpdt_fit(Species ~ ., iris, max_depth = 3, threads = 1, candidates = "exhaustive")
  expect_gt(wider$work_estimate$row_visits, e$row_visits)
})

test_that("a long search that tries every split says what its bounds do to the estimate", {
  set.seed(1)
  n <- 1100
  d <- as.data.frame(matrix(rnorm(n * 4), n))
  d$y <- factor(d$V1 + d$V2 > 0)
  # the last two levels exact under CART proposals at depth 5 (an
  # exhaustive root is timed as it runs and says so itself): estimated
  # beyond a minute, not refused (max_work = Inf); a memo of 1 MB stops it
  # at once
  small <- function(...) dpdt_fit(y ~ ., d, max_depth = 5, exact_levels = 2, cart_depth = 6,
                                  max_memory = 0.001, threads = 1, max_work = Inf, ...)
  expect_message(try(small(), silent = TRUE),
                 "up to about .* does not count the splits its bounds skip.* With min_bucket = 5 one of its two bounds is weaker; min_bucket = 1 is often several times faster")
  expect_error(suppressMessages(small()), "memo.*With min_bucket = 5 one of its two bounds is weaker")
  # min_bucket = 1 (both bounds apply): without the min_bucket sentence; the
  # CART search: neither
  said <- function(expr) {
    out <- character(0)
    withCallingHandlers(try(expr, silent = TRUE), message = function(m) {
      out <<- c(out, conditionMessage(m))
      invokeRestart("muffleMessage")
    })
    paste(out, collapse = "")
  }
  one <- said(small(min_bucket = 1))
  expect_match(one, "up to about .* the estimate does not count the splits its bounds skip")
  expect_no_match(one, "With min_bucket")
  # complexity "tests" (the default) makes long fronts: said, and not for "splits"
  expect_match(one, 'With complexity = "tests" its fronts are long; complexity = "splits" is faster \\(1.4 to 17 times')
  expect_no_match(said(small(min_bucket = 1, complexity = "splits")), "complexity = \"splits\" is")
  # the same sentences go with a search timed as it runs (an exhaustive
  # root), which does not use the estimate's
  hint <- dpdt:::slow_settings_hint(list(candidates = "exhaustive", exact_levels = 1L,
                                         min_bucket = 5L, complexity = "tests"),
                                    list(n_classes = 2L))
  expect_match(hint, "^ With min_bucket = 5 .* With complexity = \"tests\"")
  # neither slow setting: one empty string, which the engine takes (the
  # fuzzer found character(0) refused by every such fit)
  expect_identical(dpdt:::slow_settings_hint(list(candidates = "exhaustive", exact_levels = 1L,
                                                  min_bucket = 1L, complexity = "splits"),
                                             list(n_classes = 2L)), "")
  # missing values in a predictor weaken the bounds where they are:
  # said, with what to do, by the hint and by a search stopped for max_work;
  # not without them
  na_hint <- dpdt:::slow_settings_hint(list(candidates = "exhaustive", exact_levels = 1L,
                                            min_bucket = 1L, complexity = "splits"),
                                       list(n_classes = 2L, x = list(c(1, 2), c(3, NA))))
  expect_match(na_hint, "^ The predictors hold missing values: .*na.action = na.omit")
  dna <- d
  dna$V3[c(5, 50, 500)] <- NA
  refused_na <- tryCatch(dpdt_fit(y ~ ., dna, max_depth = 3, exact_levels = 2, max_work = 1e4,
                                  complexity = "splits", threads = 1), error = conditionMessage)
  # (a measured search now: stopped as it ran, and saying why it is slow)
  expect_match(refused_na, "max_work = 1e\\+04.*hold missing values.*na.action = na.omit")
  expect_no_match(tryCatch(dpdt_fit(y ~ ., d, max_depth = 3, exact_levels = 2, max_work = 1e4,
                                    complexity = "splits", threads = 1), error = conditionMessage),
                  "missing values")
  # a factor of more than 12 levels leaves nothing bounded: the refusal
  # says nothing of bounds, and still what to do
  d13 <- d
  d13$g <- factor(rep(letters[1:13], length.out = n))
  many <- tryCatch(dpdt_fit(y ~ ., d13, max_depth = 3, exact_levels = 2, max_work = 1e4,
                            threads = 1), error = conditionMessage)
  expect_match(many, "beyond max_work = 1e\\+04.*raise max_work")
  expect_no_match(many, "bounds")
  # nor do fractional weights with complexity "tests" (sums of complexities
  # compared with a tolerance); with "splits" the bounds apply, and it is said
  w <- 1 / (3 + seq_len(n) %% 5)  # thirds, fifths, sevenths: no exact sums (runif's are)
  refusal <- function(cx) tryCatch(dpdt_fit(y ~ ., d, weights = w, max_depth = 3, exact_levels = 2,
                                            complexity = cx, max_work = 1e4, threads = 1),
                                   error = conditionMessage)
  expect_match(refusal("tests"), "beyond max_work = 1e\\+04.*raise max_work")
  expect_no_match(refusal("tests"), "bounds")
  expect_match(refusal("splits"), "beyond max_work = 1e\\+04.*the splits its bounds skip")
  quick <- dpdt_fit(y ~ ., d[1:200, ], max_depth = 2, candidates = "exhaustive",
                    min_bucket = 1, complexity = "splits", threads = 1)
  expect_s3_class(quick, "dpdt")
  expect_gt(nrow(as.data.frame(quick)), 1)
  expect_identical(dpdt:::slow_settings_hint(list(candidates = "cart", exact_levels = 1L,
                                                  min_bucket = 5L, complexity = "tests"),
                                             list(n_classes = 2L)), "")
  cart <- said(dpdt_fit(y ~ ., d[rep(seq_len(n), 20), ], max_depth = 4, cart_depth = 6,
                        max_memory = 1e-6))
  expect_match(cart, "up to about")
  expect_no_match(cart, "With min_bucket|does not count the splits")
})
