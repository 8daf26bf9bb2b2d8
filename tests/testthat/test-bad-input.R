# Bad input: a clear error naming the argument. Legal edge cases: a sensible
# front. The session must never crash or hang.

toy <- function(n = 30, seed = 1) {
  set.seed(seed)
  d <- data.frame(x1 = runif(n), x2 = round(runif(n) * 4),
                  g = factor(sample(c("u", "v"), n, TRUE)))
  d$y <- factor(ifelse(d$x1 > .5, "a", "b"))
  d$r <- d$x1 * 2 + rnorm(n)
  d
}

test_that("data must be a data frame", {
  d <- toy()
  expect_error(dpdt_fit(y ~ x1, data = as.matrix(d[c("x1", "x2")]), min_bucket = 1), "data")
  expect_error(dpdt_fit(y ~ x1, data = "d", min_bucket = 1), "data")
  expect_error(dpdt_fit(y ~ x1, data = 1:10, min_bucket = 1), "data")
})

test_that("unknown columns are named", {
  d <- toy()
  expect_error(dpdt_fit(y ~ x1 + nosuchcol, data = d, min_bucket = 1), "nosuchcol")
  expect_error(dpdt_fit(nosuchresp ~ x1, data = d, min_bucket = 1), "nosuchresp")
})

test_that("responses of unsupported types are refused", {
  d <- toy()
  d$when <- as.Date("2020-01-01") + seq_len(nrow(d))
  expect_error(dpdt_fit(when ~ x1, data = d, min_bucket = 1), "[Rr]esponse.*when|when.*[Rr]esponse")
  d$cplx <- complex(real = d$x1, imaginary = 1)
  expect_error(dpdt_fit(cplx ~ x1, data = d, min_bucket = 1), "[Rr]esponse|cplx")
  d$lst <- I(as.list(d$x1))
  expect_error(dpdt_fit(lst ~ x1, data = d, min_bucket = 1), "[Rr]esponse")
  expect_error(dpdt_fit(~ x1, data = d, min_bucket = 1), "[Rr]esponse")
})

test_that("non-finite predictors are refused; NA predictors are kept", {
  d <- toy()
  d$x1[3] <- NA
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, na.action = na.fail, min_bucket = 1))
  # the default keeps the row (the search learns where NA goes); na.omit drops it
  fit <- dpdt_fit(y ~ x1 + x2, data = d, max_depth = 1, min_bucket = 1)
  expect_equal(nobs(fit), nrow(d))
  fit <- dpdt_fit(y ~ x1 + x2, data = d, max_depth = 1, na.action = na.omit, min_bucket = 1)
  expect_equal(nobs(fit), nrow(d) - 1)
  d <- toy()
  d$x2[5] <- Inf
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, min_bucket = 1), "x2")
  d$x2[5] <- -Inf
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, min_bucket = 1), "x2")
  d <- toy()
  d$r[4] <- Inf
  expect_error(dpdt_fit(r ~ x1 + x2, data = d, min_bucket = 1), "[Rr]esponse|`r`|finite")
  d <- toy()
  d$r[4] <- NA
  expect_error(dpdt_fit(r ~ x1, data = d, na.action = na.pass, min_bucket = 1),
               "[Rr]esponse|`r`|NA|missing")
})

test_that("zero rows are refused", {
  d <- toy()
  expect_error(dpdt_fit(y ~ x1 + x2, data = d[0, ], min_bucket = 1), "row|observation")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, subset = x1 > 2, min_bucket = 1),
               "row|observation")
  d$wt <- 0
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, weights = wt, min_bucket = 1),
               "weight|row|observation")
})

test_that("bad weights are refused", {
  d <- toy()
  d$wneg <- 1
  d$wneg[2] <- -1
  expect_error(dpdt_fit(y ~ x1, data = d, weights = wneg, min_bucket = 1), "weights")
  d$wna <- 1
  d$wna[2] <- NA
  expect_error(dpdt_fit(y ~ x1, data = d, weights = wna,
                        na.action = na.pass, min_bucket = 1), "weights")
  d$winf <- 1
  d$winf[2] <- Inf
  expect_error(dpdt_fit(y ~ x1, data = d, weights = winf, min_bucket = 1), "weights")
  d$wchr <- "1"
  expect_error(dpdt_fit(y ~ x1, data = d, weights = wchr, min_bucket = 1), "weights")
  expect_error(dpdt_fit(y ~ x1, data = d, weights = c(1, 2, 3), min_bucket = 1), "weights")
})

test_that("absurd sizes fail fast", {
  d <- toy()
  tm <- system.time(
    expect_error(dpdt_fit(y ~ x1 + x2, data = d, max_depth = 1e6, min_bucket = 1), "max_depth")
  )
  expect_lt(tm[["elapsed"]], 5)
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, max_depth = 0, min_bucket = 1), "max_depth")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, max_depth = 2.5, min_bucket = 1), "max_depth")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, max_depth = NA, min_bucket = 1), "max_depth")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, max_depth = "3", min_bucket = 1), "max_depth")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, cart_depth = 0, min_bucket = 1), "cart_depth")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, cart_depth = c(3, 0), min_bucket = 1),
               "cart_depth")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, cart_depth = 1e6, min_bucket = 1),
               "cart_depth")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, min_bucket = 0), "min_bucket")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, min_bucket = -1), "min_bucket")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, threads = 0, min_bucket = 1), "threads")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, threads = "two", min_bucket = 1), "threads")
  # the memory guard names max_memory and what to lower
  expect_error(dpdt_fit(Species ~ ., data = iris, max_depth = 4,
                        max_memory = 1e-9, min_bucket = 1),
               "max_memory")
  expect_error(dpdt_fit(y ~ x1 + x2, data = d, max_memory = -1, min_bucket = 1), "max_memory")
  # the guard on the memo of solved states: stops early, names what to lower
  set.seed(2)
  big <- data.frame(a = runif(300), b = rnorm(300), c = runif(300))
  big$y <- factor(sample(letters[1:3], 300, TRUE))
  for (th in 1:2) {
    tm <- system.time(
      expect_error(dpdt_fit(y ~ ., data = big, max_depth = 3, threads = th,
                            candidates = "exhaustive", max_memory = 2e-4, min_bucket = 1),
                   "max_memory.*max_depth|max_depth.*max_memory")
    )
    expect_lt(tm[["elapsed"]], 5)
  }
  # and the session goes on
  expect_equal(nrow(dpdt_fit(y ~ x1, data = d, max_depth = 1, min_bucket = 1)$front), 2)
})

test_that("unknown option values name the argument", {
  d <- toy()
  expect_error(dpdt_fit(y ~ x1, data = d, candidates = "greedy", min_bucket = 1), "candidates")
  expect_error(dpdt_fit(y ~ x1, data = d, complexity = "leaves", min_bucket = 1), "complexity")
  expect_error(dpdt_fit(y ~ x1, data = d, criterion = "mse", min_bucket = 1), "criterion")
  expect_error(dpdt_fit(y ~ x1, data = d, progress = "yes", min_bucket = 1), "progress")
})

test_that("unknown arguments in ... are named", {
  d <- toy()
  expect_error(dpdt_fit(y ~ x1, data = d, maxdepth = 3, min_bucket = 1),
               "`maxdepth`.*not matched")
  expect_error(dpdt_fit(y ~ x1, data = d, foo = 1, bar = 2, min_bucket = 1), "foo.*bar")
})

test_that("interactions and offsets are refused", {
  d <- toy()
  expect_error(dpdt_fit(y ~ x1 * x2, data = d, min_bucket = 1), "[Ii]nteraction")
  expect_error(dpdt_fit(y ~ x1:x2, data = d, min_bucket = 1), "[Ii]nteraction")
  expect_error(dpdt_fit(r ~ x1 + offset(x2), data = d, min_bucket = 1), "[Oo]ffset")
})

test_that("predict() refuses bad newdata and model ids", {
  d <- toy()
  fit <- dpdt_fit(y ~ x1 + x2 + g, data = d, max_depth = 2, min_bucket = 1)
  m <- nrow(fit$front)
  expect_error(predict(fit, d[c("x1", "g")]), "x2")
  expect_error(predict(fit, d["g"]), "x1.*x2|x2.*x1")
  nd <- d[1:3, ]
  nd$g <- factor(c("u", "zz", "v"))
  expect_error(predict(fit, nd), "g")
  expect_error(predict(fit, nd), "zz")
  nd$g <- c("u", "zz", "v")
  expect_error(predict(fit, nd), "zz")
  expect_error(predict(fit, d, model = m + 1), "model")
  expect_error(predict(fit, d, model = m + 1), as.character(m))
  expect_error(predict(fit, d, model = 0), "model")
  expect_error(predict(fit, d, model = "a"), "model")
  expect_error(predict(fit, d, model = 1:2), "model")
  expect_error(predict(fit, d, type = "bogus"), "type|should be one of")
  expect_error(dpdt_tree(fit, model = m + 1), "model")
  # extra columns are fine; a reordered frame is fine
  nd <- d[3:1, rev(names(d))]
  nd$extra <- 1
  expect_equal(predict(fit, nd), predict(fit, d[3:1, ]))
  # a level subset is fine
  nd <- d[d$g == "u", ]
  nd$g <- factor(as.character(nd$g))
  expect_equal(predict(fit, nd), predict(fit, d[d$g == "u", ]))
})

test_that("a single-class response gives the leaf only", {
  d <- toy()
  d$one <- factor(rep("a", nrow(d)))
  expect_warning(fit <- dpdt_fit(one ~ x1 + x2, data = d, min_bucket = 1),
                 "single leaf: the response `one` has a single class \\(\"a\"\\)")
  expect_equal(nrow(fit$front), 1)
  expect_equal(fit$front$train_loss, 0)
  expect_equal(fit$front$n_splits, 0)
  expect_equal(as.character(predict(fit)), rep("a", nrow(d)))
  # an unused level in the response
  d$one2 <- factor(rep("a", nrow(d)), levels = c("a", "b"))
  expect_warning(fit <- dpdt_fit(one2 ~ x1 + x2, data = d, min_bucket = 1), "single class")
  expect_equal(nrow(fit$front), 1)
  expect_equal(fit$front$train_loss, 0)
  expect_equal(colnames(predict(fit, type = "prob")), c("a", "b"))
  # a constant numeric response
  d$cst <- 7
  expect_warning(fit <- dpdt_fit(cst ~ x1 + x2, data = d, min_bucket = 1),
                 "the response `cst` is constant")
  expect_equal(nrow(fit$front), 1)
  expect_equal(fit$front$train_loss, 0)
  expect_equal(unname(predict(fit)), rep(7, nrow(d)))
  # a logical response that is always TRUE
  d$tt <- TRUE
  expect_warning(fit <- dpdt_fit(tt ~ x1, data = d, min_bucket = 1), "single class")
  expect_equal(nrow(fit$front), 1)
})

test_that("one row, constant features and duplicated rows are legal", {
  d <- toy()
  expect_warning(fit <- dpdt_fit(y ~ x1 + x2, data = d[1, ], min_bucket = 1), "single leaf")
  expect_equal(nrow(fit$front), 1)
  expect_equal(fit$front$train_loss, 0)
  expect_equal(nobs(fit), 1)
  expect_warning(fit <- dpdt_fit(r ~ x1 + x2, data = d[1, ], min_bucket = 1), "single leaf")
  expect_equal(nrow(fit$front), 1)
  expect_equal(unname(predict(fit)), d$r[1])

  d$c1 <- 3
  d$c2 <- factor("k")
  expect_warning(fit <- dpdt_fit(y ~ c1 + c2, data = d, min_bucket = 1),
                 "every predictor is constant")
  expect_equal(nrow(fit$front), 1)
  expect_equal(fit$front$train_loss, min(table(d$y)) / nrow(d))
  fit <- dpdt_fit(y ~ x1 + c1, data = d, max_depth = 2, min_bucket = 1)
  expect_equal(min(fit$front$train_loss), 0)
  for (tr in fit$trees) {
    expect_true(all(fit$features$name[tr$feature[tr$feature > 0]] == "x1"))
  }

  # every row twice: same rates, same average tests
  d2 <- d[rep(seq_len(nrow(d)), each = 2), ]
  f1 <- dpdt_fit(y ~ x1 + x2 + g, data = d, max_depth = 2, min_bucket = 1)
  f2 <- dpdt_fit(y ~ x1 + x2 + g, data = d2, max_depth = 2, min_bucket = 1)
  expect_equal(f2$front$train_loss, f1$front$train_loss)
  expect_equal(f2$front$avg_tests, f1$front$avg_tests)
  # identical x with different y: a loss no tree can remove
  d3 <- data.frame(x = c(1, 1, 2, 2), y = factor(c("a", "b", "a", "a")))
  expect_warning(fit <- dpdt_fit(y ~ x, data = d3, max_depth = 3, min_bucket = 1),
                 "no tree of depth <= max_depth = 3")
  expect_equal(nrow(fit$front), 1)
  expect_equal(fit$front$train_loss, 1 / 4)
})

test_that("many-level factors are fast and safe", {
  set.seed(51)
  n <- 480
  d <- data.frame(f = factor(rep(sprintf("L%03d", 1:120), 4)), x = runif(n))
  d$y <- factor(ifelse(d$f %in% c("L007", "L050"), "a", "b"))
  tm <- system.time(expect_warning(fit <- dpdt_fit(y ~ f + x, data = d, max_depth = 2, min_bucket = 1),
                                    "`f` has 120 levels for 480 rows"))
  expect_lt(tm[["elapsed"]], 20)
  expect_true(all(diff(fit$front$train_loss) < 0))
  # one level group separates both levels at once (issue 8: level groups)
  expect_equal(fit$front$train_loss, c(8, 0) / n)
  expect_equal(sum(fit$features$variable == "f"), 1)
  out <- paste(capture.output(print(dpdt_tree(fit))), collapse = "\n")
  expect_match(out, "f in {L007, L050}", fixed = TRUE)
  expect_match(out, "f not in {L007, L050}", fixed = TRUE)
})

test_that("messages name the right argument and show values as typed", {
  d <- data.frame(x = c(1, 2, Inf, 4), y = c(1, 2, 3, 4))
  expect_error(dpdt_fit(y ~ x, d, min_bucket = 1),
               "Predictor `x` has infinite values \\(1 row\\(s\\), the first is row 3\\)")
  expect_error(dpdt_fit(y ~ x, d, min_bucket = 1), "na.action does not drop")
  err <- tryCatch(dpdt_fit(y ~ x, d, min_bucket = 1), error = conditionMessage)
  expect_false(grepl("na.omit", err))
  d <- data.frame(x = 1:4, y = c(1, -Inf, 3, 4))
  err <- tryCatch(dpdt_fit(y ~ x, d, min_bucket = 1), error = conditionMessage)
  expect_match(err, "The response `y` has infinite values")
  expect_false(grepl("na.omit", err))
  fit <- dpdt_fit(Species ~ ., iris, max_depth = 1, min_bucket = 1)
  expect_error(predict(fit, as.matrix(iris[1:3, 1:4])),
               "^`newdata` must be a data frame; got a matrix")
  expect_error(dpdt_fit(Species ~ ., as.matrix(iris), min_bucket = 1),
               "^`data` must be a data frame; got a matrix")
  for (md in list(0, 0L)) {
    err <- tryCatch(dpdt_fit(Species ~ ., iris, max_depth = md, min_bucket = 1),
                    error = conditionMessage)
    expect_match(err, "got 0\\.$")
  }
  expect_error(predict(fit, iris, model = 5L), "got 5\\.$")
})

test_that("integer64 responses and predictors are numbers (issue 17, defect 8)", {
  skip_if_not_installed("bit64")
  d <- data.frame(x = 1:20, z = bit64::as.integer64(c(1:10, 101:110)))
  d$y <- bit64::as.integer64(c(rep(1, 10), rep(5, 10)))
  fit <- dpdt_fit(y ~ x, d, min_bucket = 1)
  ref <- dpdt_fit(y ~ x, transform(d, y = as.numeric(y)), min_bucket = 1)
  expect_identical(fit$front, ref$front)
  expect_identical(fit$type, "regression")
  fz <- dpdt_fit(x ~ z, d, min_bucket = 1)
  expect_identical(fz$front, dpdt_fit(x ~ z, transform(d, z = as.numeric(z)), min_bucket = 1)$front)
  expect_equal(predict(fz, d), predict(fz, transform(d, z = as.numeric(z))))
  big <- d
  big$y <- big$y + bit64::as.integer64("9007199254740993")
  expect_error(dpdt_fit(y ~ x, big, min_bucket = 1), "response `y` is an integer64 with values beyond 2\\^53")
  big$z <- big$z + bit64::as.integer64("9007199254740993")
  expect_error(dpdt_fit(x ~ z, big, min_bucket = 1), "Predictor `z` is an integer64")
})
