# dpdt_prune() on rpart trees: conversion, rpart's own routing of missing
# values, the relation to prune(cp = ), as_rpart() round trips.

grow <- function(formula, data, ...) {
  rpart::rpart(formula, data = data, control = rpart::rpart.control(xval = 0, ...))
}

mlbench_like <- function(n) {
  d <- data.frame(x1 = runif(n), x2 = runif(n), x3 = rnorm(n),
                  g = factor(sample(c("a", "b", "c", "d"), n, TRUE)),
                  o = factor(sample(c("lo", "mid", "hi"), n, TRUE),
                             levels = c("lo", "mid", "hi"), ordered = TRUE))
  z <- d$x1 + d$x2 * (d$g %in% c("a", "c")) + 0.3 * (d$o == "hi") + rnorm(n, sd = 0.3)
  d$y <- factor(ifelse(z > 0.8, "yes", "no"))
  d$r <- z * 10
  d
}

test_that("every tree of rpart's cp sequence is matched size for size", {
  skip_if_not_installed("rpart")
  set.seed(1)
  d <- mlbench_like(600)
  tr <- grow(y ~ ., d, cp = 0, minsplit = 4)
  p <- dpdt_prune(tr, d)
  s <- max(p$front$n_splits)
  expect_equal(p$front$n_splits, 0:s)   # every size in between
  cps <- tr$cptable[, "CP"]
  for (cp in cps) {
    pt <- rpart::prune(tr, cp = cp)
    k <- sum(pt$frame$var != "<leaf>")
    err <- sum(predict(pt, d, type = "class") != d$y)
    row <- p$front[p$front$n_splits == k, ]
    expect_lte(row$errors, err)
  }
  # the convex hull of the front is rpart's sequence (rel error x root error)
  hull <- p$front[!is.na(p$front$alpha_min), ]
  expect_setequal(hull$n_splits, tr$cptable[, "nsplit"])
})

test_that("rpart trees convert exactly: same leaves, predictions, errors", {
  skip_if_not_installed("rpart")
  set.seed(2)
  d <- mlbench_like(400)
  for (f in list(y ~ x1 + x2 + x3 + g + o, r ~ x1 + x2 + x3 + g + o)) {
    tr <- grow(f, d, cp = 0.002, minsplit = 6)
    p <- dpdt_prune(tr, d)
    type <- if (tr$method == "class") "class" else "vector"
    # unpruned: our tree predicts what rpart predicts on every row
    expect_equal(unname(predict(tr, d, type = type)), unname(predict(p, d)))
    # every pruned tree is rpart's snip.rpart of the cut nodes
    for (m in unique(c(2, 5, nrow(p$front) %/% 2, nrow(p$front) - 1))) {
      sn <- as_rpart(p, model = m)
      expect_s3_class(sn, "rpart")
      expect_equal(sum(sn$frame$var != "<leaf>"), p$front$n_splits[m])
      expect_equal(unname(predict(sn, d, type = type)), unname(predict(p, d, model = m)))
    }
  }
})

test_that("missing values follow rpart's own routing when counting errors", {
  skip_if_not_installed("rpart")
  set.seed(3)
  d <- mlbench_like(500)
  tr <- grow(y ~ x1 + x2 + x3 + g + o, d, cp = 0.003, minsplit = 6)
  nd <- mlbench_like(300)
  nd$x1[sample(300, 60)] <- NA
  nd$g[sample(300, 40)] <- NA
  p <- dpdt_prune(tr, nd)
  expect_equal(p$nobs, 300L)                       # no row dropped
  for (m in p$front$model) {
    sn <- as_rpart(p, model = m)
    expect_equal(p$front$errors[m], sum(predict(sn, nd, type = "class") != nd$y))
  }
  # raising and predict() use one side per split, rpart's majority direction
  r <- dpdt_prune(tr, nd, method = "raise", labels = "relabel")
  for (m in r$front$model) expect_equal(r$front$errors[m], predicted_errors(r, m))
})

test_that("replacement fronts equal brute force on real rpart trees", {
  skip_if_not_installed("rpart")
  tr <- grow(Kyphosis ~ ., rpart::kyphosis, cp = 0.01, minsplit = 8)
  p <- dpdt_prune(tr, rpart::kyphosis, labels = "relabel")
  src <- dpdt:::rpart_source(tr)
  inp <- or_inputs(p, src$tree)
  # the brute force lists k = 0.. pruned splits; the front the other way
  expect_equal(p$front$errors,
               rev(or_replacement(src$tree, inp$x, inp$y, inp$w, inp$K, inp$keep, TRUE)))
  r <- dpdt_prune(tr, rpart::kyphosis, method = "raise")
  expect_equal(r$front$errors,
               rev(or_raising(src$tree, inp$x, inp$y, inp$w, inp$K, inp$keep, FALSE)))
  # binary classes, majority leaves, training rows: raising <= replacement
  expect_true(all(r$front$errors <= dpdt_prune(tr, rpart::kyphosis)$front$errors))
})

test_that("heavy-light routing reaches the same leaf as plain routing", {
  skip_if_not_installed("rpart")
  set.seed(5)
  d <- mlbench_like(3000)
  tr <- grow(y ~ x1 + x2 + x3 + g + o, d, cp = 0, minsplit = 2)
  src <- dpdt:::rpart_source(tr)
  mf <- stats::model.frame(tr$terms, d)
  x <- dpdt:::feature_matrix(mf, src$features, src$xlevels)
  x[sample(length(x), 300)] <- NA
  plain <- dpdt:::cpp_route_with(x, src$tree, FALSE)
  expect_identical(dpdt:::cpp_route_with(x, src$tree, TRUE), plain)
  expect_identical(dpdt:::cpp_route(x, src$tree), plain)
  fit <- dpdt_prune(tr, d, labels = "relabel")
  a <- dpdt_prune(fit, d, labels = "relabel", routing = "plain")
  b <- dpdt_prune(fit, d, labels = "relabel", routing = "heavy")
  expect_equal(b$routing, "heavy-light")
  expect_equal(a$front, b$front)
  expect_equal(a$front$errors, fit$front$errors)
})

test_that("as_rpart()'s cptable lists only trees prune(cp = CP) returns", {
  skip_if_not_installed("rpart")
  tr <- rpart::rpart(Kyphosis ~ ., rpart::kyphosis, cp = 0, minsplit = 8, maxdepth = 4)
  p <- dpdt_prune(tr, rpart::kyphosis)
  for (m in p$front$model) {
    sn <- as_rpart(p, model = m)
    cpt <- sn$cptable
    expect_false(anyDuplicated(cpt[, "CP"]) > 0)
    for (i in seq_len(nrow(cpt))) {
      kept <- rpart::prune(sn, cp = cpt[i, "CP"])
      expect_equal(sum(kept$frame$var != "<leaf>"), cpt[i, "nsplit"])
      expect_equal(sum(kept$frame$dev[kept$frame$var == "<leaf>"]) / sn$frame$dev[1],
                   cpt[i, "rel error"])
    }
  }
  # the 5-split pruning whose last split gains nothing: its own row would
  # share CP 0 with the 4-split tree, which prune(cp = 0) returns
  five <- as_rpart(p, model = which(p$front$n_splits == 5))
  expect_equal(unname(five$cptable[, "nsplit"]), c(0, 1, 3, 4))
  expect_equal(unname(five$cptable[, "CP"]), c(3, 2, 1, 0) / 17)
})

test_that("as_rpart() refuses what rpart cannot represent", {
  skip_if_not_installed("rpart")
  tr <- grow(Kyphosis ~ ., rpart::kyphosis, cp = 0.01, minsplit = 8)
  r <- dpdt_prune(tr, rpart::kyphosis, method = "raise")
  expect_error(as_rpart(r), "pruned by raising")
  expect_error(as_rpart(dpdt_prune(tr, rpart::kyphosis, labels = "relabel")),
               "labels = \"keep\"")
  expect_error(as_rpart(dpdt_prune(dpdt_fit(Species ~ ., iris, max_depth = 2))),
               "returns pruned rpart trees only")
  expect_error(as_rpart(tr), "must be a pruning front")
})

test_that("rpart trees with Date and POSIXct predictors prune on their own data (issue 17, defect 7)", {
  skip_if_not_installed("rpart")
  set.seed(1)
  n <- 200
  d <- data.frame(day = as.Date("2020-01-01") + sample(0:365, n, TRUE), x = rnorm(n),
                  t = as.POSIXct("2020-01-01", tz = "UTC") + runif(n, 0, 1e7))
  d$y <- factor(ifelse(as.numeric(d$day) > 18400 | d$x > 1, "a", "b"))
  d$v <- as.numeric(d$t) / 1e5 + (d$y == "a") * 50 + rnorm(n)
  tr <- rpart::rpart(y ~ day + x + t, d)
  p <- dpdt_prune(tr, d)
  expect_identical(p$features$kind[p$features$variable == "day"], "Date")
  # the unpruned tree predicts as rpart does, and its rule reads as a date
  expect_identical(as.character(predict(p, d)),
                   as.character(predict(tr, d, type = "class")))
  expect_match(paste(capture.output(dpdt_tree(p)), collapse = "\n"),
               "day <= 2020-05-17")
  expect_identical(dpdt_prune(tr, d, method = "raise")$front$errors, p$front$errors)
  rt <- rpart::rpart(v ~ t + x, d, cp = 0.001)
  pr <- dpdt_prune(rt, d)
  expect_identical(pr$features$kind[pr$features$variable == "t"], "POSIXct")
  expect_equal(predict(pr, d), unname(predict(rt, d)))
  d2 <- d
  d2$day <- as.character(d2$day)
  expect_error(dpdt_prune(tr, d2), "`day` is a character")
})

test_that("an rpart tree is pruned on its own training rows when `data` is missing", {
  skip_if_not_installed("rpart")
  same_front <- function(a, b) expect_equal(a$front, b$front)
  # missing predictors (rpart's surrogates route them), case weights, a subset
  st <- rpart::stagec
  st$pgstat <- factor(st$pgstat)
  st$w <- rep(1:3, length.out = nrow(st))
  tr <- rpart::rpart(pgstat ~ age + eet + g2 + grade + gleason + ploidy, data = st,
                     weights = w, subset = age > 50, cp = 0)
  expect_true(anyNA(st[st$age > 50, c("g2", "gleason")]))
  same_front(dpdt_prune(tr), dpdt_prune(tr, st[st$age > 50, ], weights = w))
  same_front(dpdt_prune(tr, labels = "relabel"),
             dpdt_prune(tr, st[st$age > 50, ], weights = w, labels = "relabel"))
  # a transformed predictor, a regression tree, the data in a function's frame
  k <- rpart::kyphosis
  lt <- rpart::rpart(Kyphosis ~ log(Age + 1) + Number + Start, data = k, cp = 0, minsplit = 5)
  same_front(dpdt_prune(lt), dpdt_prune(lt, k))
  grown <- local({
    cars <- mtcars
    rpart::rpart(mpg ~ ., data = cars, cp = 0, minsplit = 4)
  })
  same_front(dpdt_prune(grown), dpdt_prune(grown, mtcars))
  # raising routes rows by other tests: only with the tree's own model frame
  expect_error(dpdt_prune(grown, method = "raise"),
               "subtree raising routes them by tests their leaves do not check")
  kept <- rpart::rpart(mpg ~ ., data = mtcars, cp = 0, minsplit = 4, model = TRUE)
  same_front(dpdt_prune(kept, method = "raise"), dpdt_prune(kept, mtcars, method = "raise"))
  # rows that are not the training rows any more are refused, with the reason
  k2 <- k
  t2 <- rpart::rpart(Kyphosis ~ ., data = k2, cp = 0, minsplit = 5)
  k2$Age <- rev(k2$Age)
  expect_error(dpdt_prune(t2), "`data` is missing.*route to other leaves than the tree's")
  k2 <- k2[-1, ]
  expect_error(dpdt_prune(t2), "the data found have 80 rows, the tree was grown on 81")
  k2 <- k
  k2$Kyphosis <- rev(k2$Kyphosis)
  expect_error(dpdt_prune(t2), "another response than the tree's")
  w2 <- st$w
  t3 <- rpart::rpart(pgstat ~ age + g2, data = st, weights = w2, cp = 0)
  w2[1] <- 10
  expect_error(dpdt_prune(t3), "weigh the tree's leaves otherwise")
  expect_error(dpdt_prune(rpart::rpart(Kyphosis ~ ., data = k, y = FALSE)),
               "kept neither its model frame nor its response")
})
