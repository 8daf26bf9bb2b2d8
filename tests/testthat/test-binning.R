# max_bins: numeric predictors cut only between quantile bins (issue 21).

# The documented rule, written out independently of the engine: each
# numeric column's bin code (1, 2, ...), NA kept; columns with at most B
# distinct values are left as they are.
bin_codes <- function(x, B) {
  v <- sort(x[!is.na(x)])
  m <- length(v)
  if (length(unique(v)) <= B) return(x)
  edges <- unique(v[ceiling(seq_len(B - 1) * m / B)])
  findInterval(x, edges, left.open = TRUE) + 1
}

binned_frame <- function(d, B, response) {
  for (v in setdiff(names(d), response))
    if (is.numeric(d[[v]])) d[[v]] <- bin_codes(d[[v]], B)
  d
}

# What a front is made of, without thresholds (which differ between a fit
# on the data and one on its bin codes): losses, complexities, and each
# tree's tested features and node sizes.
front_shape <- function(fit) {
  list(front = fit$front[c("n_splits", "avg_tests", "train_loss")],
       trees = lapply(fit$trees, function(t) t[c("feature", "n", "weight", "loss")]))
}

test_that("a worked example: 10 values in 3 bins, the stump cuts at a bin's edge", {
  d <- data.frame(x = c(7, 2, 9, 4, 1, 10, 5, 3, 8, 6))
  d$y <- factor(ifelse(d$x <= 5, "a", "b"))
  # edges at v(ceiling(10 / 3)) = 4 and v(ceiling(20 / 3)) = 7
  f <- dpdt_fit(y ~ x, d, max_depth = 1, min_bucket = 1, max_bins = 3)
  expect_equal(f$front$train_loss, c(0.5, 0.1))
  expect_equal(unname(f$bins), 3L)
  thr <- f$trees[[2]]$threshold[1]
  expect_true(thr >= 4 && thr < 5)
  # without bins the cut at 5 is perfect
  expect_equal(dpdt_fit(y ~ x, d, max_depth = 1, min_bucket = 1)$front$train_loss, c(0.5, 0))
})

test_that("binned searches of every split equal them on the bin codes (the documented rule)", {
  cases <- list(
    list(d = MASS::Pima.tr, y = "type", B = 8, args = list(max_depth = 2, candidates = "exhaustive")),
    list(d = MASS::Pima.tr, y = "type", B = 5,
         args = list(max_depth = 3, candidates = "exhaustive", complexity = "splits")),
    list(d = rpart::kyphosis, y = "Kyphosis", B = 4,
         args = list(max_depth = 3, candidates = "exhaustive", min_bucket = 3)),
    # missing values and a factor among the predictors
    list(d = airquality, y = "Ozone", B = 6, args = list(max_depth = 2, candidates = "exhaustive")),
    list(d = transform(iris, grp = factor(rep(c("u", "v", "w"), 50))), y = "Species", B = 3,
         args = list(max_depth = 3, candidates = "exhaustive", weights = rep(1:3, 50))))
  for (k in seq_along(cases)) {
    cs <- cases[[k]]
    form <- stats::as.formula(paste(cs$y, "~ ."))
    binned <- do.call(dpdt_fit, c(list(form, cs$d, max_bins = cs$B), cs$args))
    coded <- do.call(dpdt_fit, c(list(form, binned_frame(cs$d, cs$B, cs$y)), cs$args))
    expect_equal(front_shape(binned), front_shape(coded), info = paste("case", k))
    expect_true(any(binned$bins > 0), info = paste("case", k))
  }
})

test_that("an exhaustive binned stump is the best over the bins' edges (brute force)", {
  d <- MASS::Pima.tr
  B <- 6
  f <- dpdt_fit(type ~ ., d, max_depth = 1, candidates = "exhaustive", min_bucket = 1,
                max_bins = B)
  best <- Inf
  for (v in setdiff(names(d), "type")) {
    code <- bin_codes(d[[v]], B)
    for (k in sort(unique(code))[-1]) {
      left <- code < k
      err <- sum(d$type[left] != names(which.max(table(d$type[left])))) +
        sum(d$type[!left] != names(which.max(table(d$type[!left]))))
      best <- min(best, err)
    }
  }
  expect_equal(min(f$front$train_loss) * nrow(d), best)
})

test_that("binned trees reproduce their training loss on the original values", {
  fc <- dpdt_fit(type ~ ., MASS::Pima.tr, max_depth = 3, max_bins = 7, min_bucket = 2)
  for (m in seq_len(nrow(fc$front))) {
    p <- predict(fc, MASS::Pima.tr, model = m, type = "class")
    expect_equal(mean(p != MASS::Pima.tr$type), fc$front$train_loss[m])
  }
  fr <- dpdt_fit(medv ~ ., MASS::Boston, max_depth = 3, max_bins = 10)
  for (m in seq_len(nrow(fr$front))) {
    p <- predict(fr, MASS::Boston, model = m)
    expect_equal(mean((p - MASS::Boston$medv)^2), fr$front$train_loss[m], tolerance = 1e-10)
  }
  # each test on a binned predictor keeps the bins of its node's rows whole
  # (CART's proposals are chosen in their own nodes, then moved to bins' edges)
  X <- MASS::Boston[fr$features$name]
  codes <- lapply(X, bin_codes, B = 10)
  whole <- 0
  check_node <- function(t, v, rows) {
    if (t$feature[v] == 0) return()
    f <- t$feature[v]
    left <- X[[f]][rows] <= t$threshold[v]
    expect_true(max(codes[[f]][rows][left]) < min(codes[[f]][rows][!left]))
    whole <<- whole + 1
    check_node(t, t$left[v], rows[left])
    check_node(t, t$right[v], rows[!left])
  }
  for (t in fr$trees) check_node(t, 1, seq_len(nrow(X)))
  expect_gt(whole, 20)
})

test_that("max_bins above the distinct values changes nothing; threads do not matter", {
  d <- MASS::Pima.tr
  a <- dpdt_fit(type ~ ., d, max_depth = 2, candidates = "exhaustive")
  b <- dpdt_fit(type ~ ., d, max_depth = 2, candidates = "exhaustive", max_bins = 1000)
  expect_identical(a$front, b$front)
  expect_identical(a$trees, b$trees)
  expect_true(all(b$bins == 0))
  expect_length(b$optimality$binned, 0)
  b1 <- dpdt_fit(type ~ ., d, max_depth = 3, max_bins = 16, threads = 1)
  b2 <- dpdt_fit(type ~ ., d, max_depth = 3, max_bins = 16, threads = 2)
  expect_identical(b1$front, b2$front)
  expect_identical(b1$trees, b2$trees)
})

test_that("what a binned search proves is said, and printed", {
  f <- dpdt_fit(type ~ glu + bmi + npreg, MASS::Pima.tr, max_depth = 2,
                candidates = "exhaustive", max_bins = 4)
  expect_true(f$optimality$proven)
  expect_setequal(f$optimality$binned, c("glu", "bmi", "npreg"))
  expect_match(f$optimality$statement, "only between their quantile bins \\(max_bins = 4\\)")
  expect_equal(unname(f$bins), c(4L, 4L, 4L))
  out <- capture.output(print(f))
  expect_true(any(grepl("max_bins 4", out)))
  g <- dpdt_fit(type ~ glu + bmi, MASS::Pima.tr, max_depth = 3, max_bins = 4)
  expect_match(g$optimality$statement, "not over every tree; `glu`, `bmi` cut only between")
})

test_that("cross-validation refits each fold with the fit's bins", {
  f <- dpdt_fit(type ~ ., MASS::Pima.tr, max_depth = 2, max_bins = 5, threads = 1)
  fold_id <- rep_len(1:4, nrow(MASS::Pima.tr))
  cv <- dpdt_cv(f, folds = 4, fold_id = fold_id)
  cv2 <- dpdt_cv(type ~ ., MASS::Pima.tr, folds = 4, fold_id = fold_id, max_depth = 2,
                 max_bins = 5, threads = 1)
  unbinned <- dpdt_cv(type ~ ., MASS::Pima.tr, folds = 4, fold_id = fold_id, max_depth = 2,
                      threads = 1)
  expect_equal(cv$front, cv2$front)
  expect_false(isTRUE(all.equal(cv$front$cv_loss, unbinned$front$cv_loss)))
})

test_that("bad max_bins gets a clear error", {
  for (bad in list(1, 0, -3, 2.5, NA, "a", c(4, 8), NULL, NaN))
    expect_error(dpdt_fit(type ~ ., MASS::Pima.tr, max_depth = 1, max_bins = bad),
                 "`max_bins` must be Inf \\(no binning\\) or a single whole number >= 2")
})

test_that("large binned fits (their last level from rows' codes) reproduce their training loss", {
  set.seed(3)
  n <- 3000
  d <- data.frame(a = rnorm(n), b = runif(n), c = rexp(n))
  d$y <- factor(ifelse(d$a + d$b > 0.8 | d$c > 2, "yes", "no"))
  flip <- sample(n, 300)
  d$y[flip] <- ifelse(d$y[flip] == "yes", "no", "yes")
  for (args in list(list(max_depth = 3), list(max_depth = 2, candidates = "exhaustive"))) {
    f <- do.call(dpdt_fit, c(list(y ~ ., d, max_bins = 32, min_bucket = 1), args))
    for (m in seq_len(nrow(f$front)))
      expect_equal(mean(predict(f, d, model = m, type = "class") != d$y), f$front$train_loss[m])
  }
  # the exhaustive front is the one on the bin codes
  e <- dpdt_fit(y ~ ., d, max_depth = 2, candidates = "exhaustive", max_bins = 32, min_bucket = 1)
  coded <- dpdt_fit(y ~ ., binned_frame(d, 32, "y"), max_depth = 2, candidates = "exhaustive",
                    min_bucket = 1)
  expect_equal(front_shape(e), front_shape(coded))
})

test_that("the default search on many binned rows (states held as rows) reproduces its losses", {
  # 12,000 rows, two classes, binned: the engine holds each state as its
  # rows and codes (from 10,000 rows on); its trees must route the data as
  # it counted them, and threads change nothing.
  set.seed(11)
  n <- 12000
  d <- data.frame(a = rnorm(n), b = runif(n), c = rexp(n), e = rnorm(n))
  d$y <- factor(ifelse(d$a + d$b > 0.8 | d$c > 2, "yes", "no"))
  flip <- sample(n, 1500)
  d$y[flip] <- ifelse(d$y[flip] == "yes", "no", "yes")
  w <- rep(c(1, 2), length.out = n)
  for (weighted in c(FALSE, TRUE)) {
    f <- dpdt_fit(y ~ ., d, max_depth = 3, max_bins = 64, min_bucket = 1,
                  weights = if (weighted) w, threads = 1)
    expect_gt(nrow(f$front), 3)
    ww <- if (weighted) w else rep(1, n)
    for (m in seq_len(nrow(f$front))) {
      miss <- predict(f, d, model = m, type = "class") != d$y
      expect_equal(sum(ww * miss) / sum(ww), f$front$train_loss[m])
    }
    f2 <- dpdt_fit(y ~ ., d, max_depth = 3, max_bins = 64, min_bucket = 1,
                   weights = if (weighted) w, threads = 2)
    expect_identical(f2$front, f$front)
    expect_identical(f2$trees, f$trees)
  }
})
