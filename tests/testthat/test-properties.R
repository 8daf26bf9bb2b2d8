# Properties every fit must have, on real and generated data.

gen_class <- function(n = 200, seed = 1) {
  set.seed(seed)
  d <- data.frame(a = runif(n), b = rnorm(n), c = round(runif(n) * 10))
  d$y <- factor(ifelse(d$a + .3 * d$b + rnorm(n, sd = .3) > .6, "up",
                       ifelse(d$c > 5, "mid", "down")))
  d
}

gen_reg <- function(n = 150, seed = 2) {
  set.seed(seed)
  d <- data.frame(a = runif(n), b = rnorm(n), c = round(runif(n) * 10))
  d$y <- 3 * (d$a > .4) + d$b * (d$c > 5) + rnorm(n, sd = .5)
  d
}

front_complexity <- function(fit) {
  if (fit$control$complexity == "tests") fit$front$avg_tests
  else fit$front$n_splits
}

expect_valid_front <- function(fit) {
  fr <- fit$front
  m <- nrow(fr)
  expect_s3_class(fr, "data.frame")
  expect_true(all(c("model", "n_splits", "n_leaves", "depth", "avg_tests",
                    "train_loss", "rel_error", "alpha_min", "alpha_max")
                  %in% names(fr)))
  expect_identical(as.data.frame(fit), fr)
  expect_equal(fr$model, seq_len(m))
  expect_length(fit$trees, m)
  # first row: the single leaf
  expect_equal(fr$n_splits[1], 0)
  expect_equal(fr$n_leaves[1], 1)
  expect_equal(fr$depth[1], 0)
  expect_equal(fr$avg_tests[1], 0)
  # strictly ordered: complexity up, loss down, hence non-dominated
  cx <- front_complexity(fit)
  if (m > 1) {
    # (beyond rounding: two rows a few ulps apart are the same complexity)
    expect_true(all(diff(cx) > 1e-9 * max(cx)))
    expect_true(all(diff(fr$train_loss) < -1e-12 * fr$train_loss[1]))
  }
  expect_true(all(fr$n_leaves == fr$n_splits + 1))
  expect_true(all(fr$depth <= fit$control$max_depth))
  if (fr$train_loss[1] > 0) {
    expect_equal(fr$rel_error, fr$train_loss / fr$train_loss[1])
  }
}

# predict() on the training data reproduces every front row (checked for
# every row, asserted once per quantity to keep the suite fast).
expect_predict_reproduces <- function(fit, data, y, w = rep(1, length(y))) {
  fr <- fit$front
  m <- nrow(fr)
  loss <- tests <- splits <- leaves <- depth <- numeric(m)
  in_leaf <- leaf_n_ok <- leaf_w_ok <- logical(m)
  for (i in seq_len(m)) {
    p <- predict(fit, newdata = data, model = i)
    expect_length(p, length(y))
    if (fit$type == "classification") {
      expect_true(is.factor(p))
      expect_equal(levels(p), fit$levels)
      loss[i] <- sum(w * (as.character(p) != as.character(y))) / sum(w)
    } else {
      loss[i] <- sum(w * (y - p)^2) / sum(w)
    }
    tr <- fit$trees[[i]]
    nd <- predict(fit, newdata = data, model = i, type = "node")
    in_leaf[i] <- all(tr$feature[nd] == 0)  # every row ends in a leaf
    tests[i] <- sum(w * tr$depth[nd]) / sum(w)
    splits[i] <- sum(tr$feature != 0)
    leaves[i] <- sum(tr$feature == 0)
    depth[i] <- max(tr$depth)
    # leaves' n and weight agree with the routing
    lv <- which(tr$feature == 0)
    leaf_n_ok[i] <- all(tr$n[lv] == tabulate(nd, length(tr$feature))[lv])
    leaf_w_ok[i] <- isTRUE(all.equal(
      tr$weight[lv], vapply(lv, function(l) sum(w[nd == l]), 0)))
  }
  expect_equal(loss, fr$train_loss, tolerance = 1e-10)
  expect_equal(tests, fr$avg_tests, tolerance = 1e-10)
  expect_equal(splits, fr$n_splits)
  expect_equal(leaves, fr$n_leaves)
  expect_equal(depth, fr$depth)
  expect_true(all(in_leaf))
  expect_true(all(leaf_n_ok))
  expect_true(all(leaf_w_ok))
  # the default model is the tree rpart's cp = 0.01 keeps
  v <- fr$rel_error + 0.01 * fr$n_splits
  expect_identical(fit$default_model, which(v <= min(v) + 1e-10)[1])
  expect_equal(predict(fit, newdata = data),
               predict(fit, newdata = data, model = fit$default_model))
  # newdata missing = the training data
  expect_equal(predict(fit), predict(fit, newdata = data))
}

test_that("fronts are valid and predict() reproduces them (classification)", {
  d <- gen_class()
  d$wt <- rep(c(1, 2, 0.5, 3), length.out = nrow(d))
  for (cx in c("tests", "splits")) {
    fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3, complexity = cx, min_bucket = 1)
    expect_equal(fit$type, "classification")
    expect_equal(fit$levels, levels(iris$Species))
    expect_equal(nobs(fit), 150)
    expect_valid_front(fit)
    expect_predict_reproduces(fit, iris, iris$Species)

    fit <- dpdt_fit(y ~ a + b + c, data = d, weights = wt, max_depth = 3,
                    complexity = cx, criterion = "gini", min_bucket = 1)
    expect_valid_front(fit)
    expect_predict_reproduces(fit, d, d$y, d$wt)
  }
})

test_that("fronts are valid and predict() reproduces them (regression)", {
  d <- gen_reg()
  d$wt <- rep(c(1, 2, 0.5), length.out = nrow(d))
  for (cx in c("tests", "splits")) {
    fit <- dpdt_fit(y ~ a + b + c, data = d, weights = wt, max_depth = 3,
                    complexity = cx, min_bucket = 1)
    expect_equal(fit$type, "regression")
    expect_null(fit$levels)
    expect_valid_front(fit)
    expect_predict_reproduces(fit, d, d$y, d$wt)
    fit <- dpdt_fit(mpg ~ ., data = mtcars, max_depth = 4, complexity = cx, min_bucket = 1)
    expect_valid_front(fit)
    expect_predict_reproduces(fit, mtcars, mtcars$mpg)
    expect_equal(fit$front$train_loss[1], mean((mtcars$mpg - mean(mtcars$mpg))^2))
  }
})

test_that("predict() types", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  pr <- predict(fit, iris[c(1, 51, 101), ], type = "prob")
  expect_true(is.matrix(pr))
  expect_equal(dim(pr), c(3L, 3L))
  expect_equal(colnames(pr), levels(iris$Species))
  expect_equal(unname(rowSums(pr)), rep(1, 3))
  cl <- predict(fit, iris[c(1, 51, 101), ], type = "class")
  expect_equal(as.character(cl), colnames(pr)[max.col(pr, "first")])
  expect_equal(predict(fit, iris, type = "response"), predict(fit, iris))
  # leaf probabilities are the leaf's class weights
  tr <- fit$trees[[nrow(fit$front)]]
  nd <- predict(fit, iris, type = "node")
  pr <- predict(fit, iris, type = "prob")
  expect_equal(unname(pr),
               unname(tr$class_weight[nd, ] / rowSums(tr$class_weight[nd, ])))
  # the leaf's value is the majority class (lowest index on ties)
  leaves <- which(tr$feature == 0)
  expect_equal(tr$value[leaves],
               apply(tr$class_weight[leaves, , drop = FALSE], 1, which.max))

  rf <- dpdt_fit(mpg ~ wt + hp, data = mtcars, max_depth = 2, min_bucket = 1)
  expect_error(predict(rf, mtcars, type = "class"))
  expect_error(predict(rf, mtcars, type = "prob"))
  expect_true(is.numeric(predict(rf, mtcars)))
  expect_equal(predict(rf, mtcars, model = 1), rep(mean(mtcars$mpg), 32),
               ignore_attr = TRUE)
})

test_that("predict() sends NA the larger child's way where training saw none", {
  # (issue 8: before, such rows got an NA prediction)
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  tr <- fit$trees[[nrow(fit$front)]]
  root_var <- names(iris)[tr$feature[1]]
  nd <- iris[1:5, ]
  nd[[root_var]][2] <- NA
  p <- predict(fit, nd, type = "node")
  expect_length(p, 5)
  big <- if (tr$weight[tr$left[1]] >= tr$weight[tr$right[1]]) tr$left[1] else tr$right[1]
  expect_identical(tr$na_left[1], big == tr$left[1])
  expect_false(anyNA(p))
  path <- p[2]
  while (path > 1 && !(path %in% c(tr$left[1], tr$right[1]))) {
    path <- which(tr$left == path | tr$right == path)
  }
  expect_equal(path, big)
  # the leaf-only tree tests nothing: no NA
  expect_false(anyNA(predict(fit, nd, model = 1)))
})

rpart_stats <- function(rp, y, w = rep(1, length(y))) {
  fr <- rp$frame
  node <- as.integer(rownames(fr))
  depth <- floor(log2(node))
  leaf_depth <- depth[rp$where]
  if (is.factor(y)) {
    p <- predict(rp, type = "class")
    loss <- sum(w * (as.character(p) != as.character(y))) / sum(w)
  } else {
    loss <- sum(w * (y - predict(rp))^2) / sum(w)
  }
  list(loss = loss, splits = sum(fr$var != "<leaf>"),
       tests = sum(w * leaf_depth) / sum(w))
}

expect_not_worse_than_rpart <- function(formula, data, depth, crit, method,
                                        weighted = FALSE) {
  ctrl <- rpart::rpart.control(maxdepth = depth, cp = 0, minsplit = 2,
                               minbucket = 1, xval = 0, maxcompete = 0,
                               maxsurrogate = 0)
  if (weighted) {
    rp <- rpart::rpart(formula, data = data, weights = wt, method = method,
                       parms = if (method == "class") list(
                         split = if (crit == "entropy") "information"
                         else "gini"),
                       control = ctrl)
  } else if (method == "class") {
    rp <- rpart::rpart(formula, data = data, method = "class",
                       parms = list(split = if (crit == "entropy")
                         "information" else "gini"),
                       control = ctrl)
  } else {
    rp <- rpart::rpart(formula, data = data, method = "anova", control = ctrl)
  }
  y <- stats::model.response(stats::model.frame(formula, data))
  w <- if (weighted) data$wt else rep(1, nrow(data))
  rs <- rpart_stats(rp, y, w)
  tol <- 1e-9 * max(1, rs$loss)
  lab <- sprintf("%s, depth %d, %s", deparse(formula), depth, crit)
  fit_w <- function(cx) {
    if (weighted) {
      dpdt_fit(formula, data = data, weights = wt, max_depth = depth,
               criterion = crit, complexity = cx, min_bucket = 1)
    } else {
      dpdt_fit(formula, data = data, max_depth = depth, criterion = crit,
               complexity = cx, min_bucket = 1)
    }
  }
  fs <- fit_w("splits")
  expect_true(any(fs$front$n_splits <= rs$splits &
                    fs$front$train_loss <= rs$loss + tol),
              label = paste("splits front dominates rpart:", lab))
  ft <- fit_w("tests")
  expect_true(any(ft$front$avg_tests <= rs$tests + 1e-12 &
                    ft$front$train_loss <= rs$loss + tol),
              label = paste("tests front dominates rpart:", lab))
  # the most accurate tree is at least as accurate as rpart's
  expect_lte(min(ft$front$train_loss), rs$loss + tol)
}

test_that("the front is never worse than rpart's greedy tree (classification)", {
  skip_if_not_installed("rpart")
  kyph <- rpart::kyphosis
  gd <- gen_class(n = 300, seed = 11)
  for (depth in 2:4) {
    for (crit in c("entropy", "gini")) {
      expect_not_worse_than_rpart(Species ~ ., iris, depth, crit, "class")
      expect_not_worse_than_rpart(Kyphosis ~ Age + Number + Start, kyph,
                                  depth, crit, "class")
      expect_not_worse_than_rpart(y ~ a + b + c, gd, depth, crit, "class")
    }
  }
  # fractional case weights (>= 1, so rpart's minimum counts do not bind)
  set.seed(13)
  gd$wt <- round(1 + 2 * runif(nrow(gd)), 2)
  ir <- iris
  ir$wt <- round(1 + 2 * runif(nrow(ir)), 2)
  for (depth in 2:3) {
    for (crit in c("entropy", "gini")) {
      expect_not_worse_than_rpart(y ~ a + b + c, gd, depth, crit, "class",
                                  weighted = TRUE)
      expect_not_worse_than_rpart(Species ~ Sepal.Length + Sepal.Width +
                                    Petal.Length + Petal.Width, ir, depth,
                                  crit, "class", weighted = TRUE)
    }
  }
})

test_that("the front is never worse than rpart's greedy tree (regression)", {
  skip_if_not_installed("rpart")
  gd <- gen_reg(n = 200, seed = 12)
  for (depth in 2:4) {
    expect_not_worse_than_rpart(mpg ~ ., mtcars, depth, "entropy", "anova")
    expect_not_worse_than_rpart(y ~ a + b + c, gd, depth, "entropy", "anova")
  }
  set.seed(14)
  gd$wt <- round(1 + 2 * runif(nrow(gd)), 2)
  for (depth in 2:3) {
    expect_not_worse_than_rpart(y ~ a + b + c, gd, depth, "entropy", "anova",
                                weighted = TRUE)
  }
})

expect_weakly_dominates <- function(f_better, f_worse, cx) {
  cb <- if (cx == "tests") f_better$avg_tests else f_better$n_splits
  cw <- if (cx == "tests") f_worse$avg_tests else f_worse$n_splits
  for (i in seq_len(nrow(f_worse))) {
    expect_true(any(cb <= cw[i] + 1e-12 &
                      f_better$train_loss <= f_worse$train_loss[i] + 1e-12),
                label = sprintf("point %d (%g, %g) weakly dominated", i,
                                cw[i], f_worse$train_loss[i]))
  }
}

test_that("exhaustive at depth 2 is never worse than cart candidates", {
  kyph <- if (requireNamespace("rpart", quietly = TRUE)) rpart::kyphosis
  cases <- list(list(Species ~ ., iris), list(y ~ a + b + c, gen_class(150)),
                list(y ~ a + b + c, gen_reg(120)))
  if (!is.null(kyph)) cases <- c(cases, list(list(Kyphosis ~ ., kyph)))
  for (cs in cases) {
    for (cx in c("tests", "splits")) {
      fe <- dpdt_fit(cs[[1]], data = cs[[2]], max_depth = 2,
                     candidates = "exhaustive", complexity = cx, min_bucket = 1)
      for (cd in c(1, 3)) {
        fc <- dpdt_fit(cs[[1]], data = cs[[2]], max_depth = 2,
                       candidates = "cart", cart_depth = cd, complexity = cx, min_bucket = 1)
        expect_weakly_dominates(fe$front, fc$front, cx)
      }
    }
  }
})

test_that("a larger cart_depth never hurts at depth 2; depth 3 front dominates depth 2", {
  d <- gen_class(200, seed = 5)
  f2 <- dpdt_fit(y ~ a + b + c, data = d, max_depth = 2, min_bucket = 1)
  f3 <- dpdt_fit(y ~ a + b + c, data = d, max_depth = 3, min_bucket = 1)
  expect_weakly_dominates(f3$front, f2$front, "tests")
  # cart_depth may be a vector by depth
  fv <- dpdt_fit(y ~ a + b + c, data = d, max_depth = 3, cart_depth = c(4, 2, 1), min_bucket = 1)
  expect_valid_front(fv)
  expect_predict_reproduces(fv, d, d$y)
})

test_that("results do not depend on the number of threads", {
  d <- gen_class(250, seed = 8)
  r <- gen_reg(200, seed = 9)
  cases <- list(
    list(Species ~ ., iris, list(max_depth = 3)),
    list(y ~ a + b + c, d, list(max_depth = 3, criterion = "gini")),
    list(y ~ a + b + c, d, list(max_depth = 2, candidates = "exhaustive",
                                complexity = "splits")),
    list(y ~ a + b + c, r, list(max_depth = 3))
  )
  for (cs in cases) {
    fits <- lapply(c(1, 2, 3), function(th) {
      do.call(dpdt_fit, c(list(cs[[1]], data = cs[[2]], threads = th), cs[[3]]))
    })
    for (k in 2:3) {
      expect_identical(fits[[k]]$front, fits[[1]]$front)
      expect_identical(fits[[k]]$trees, fits[[1]]$trees)
    }
  }
})

# Lower convex hull of a front (points ordered by complexity, loss falling);
# returns "vertex", "edge" (on a hull segment, collinear) or "off" per point.
hull_status <- function(cx, loss) {
  m <- length(cx)
  status <- rep("off", m)
  h <- 1L
  for (i in seq_len(m)[-1]) {
    while (length(h) >= 2) {
      a <- h[length(h) - 1]
      b <- h[length(h)]
      cross <- (cx[b] - cx[a]) * (loss[i] - loss[a]) -
        (loss[b] - loss[a]) * (cx[i] - cx[a])
      if (cross <= 1e-12 * max(1, abs(loss[1]) * max(cx))) h <- h[-length(h)]
      else break
    }
    h <- c(h, i)
  }
  status[h] <- "vertex"
  for (k in seq_len(length(h) - 1)) {
    a <- h[k]
    b <- h[k + 1]
    for (i in seq_len(m)) {
      if (cx[i] > cx[a] && cx[i] < cx[b]) {
        on_line <- loss[a] + (loss[b] - loss[a]) * (cx[i] - cx[a]) / (cx[b] - cx[a])
        if (abs(loss[i] - on_line) <= 1e-9 * max(1, abs(loss[1])))
          status[i] <- "edge"
      }
    }
  }
  list(status = status, hull = h)
}

expect_alpha_intervals <- function(fit) {
  fr <- fit$front
  cx <- front_complexity(fit)
  hs <- hull_status(cx, fr$train_loss)
  st <- hs$status
  expect_true(all(is.na(fr$alpha_min[st == "off"])))
  expect_true(all(is.na(fr$alpha_max[st == "off"])))
  expect_false(anyNA(fr$alpha_min[st == "vertex"]))
  expect_false(anyNA(fr$alpha_max[st == "vertex"]))
  # collinear points: NA, or a degenerate interval
  e <- which(st == "edge" & !is.na(fr$alpha_min))
  expect_equal(fr$alpha_min[e], fr$alpha_max[e])
  # vertices: contiguous intervals covering [0, Inf)
  h <- hs$hull
  expect_equal(fr$alpha_max[1], Inf)
  expect_equal(fr$alpha_min[h[length(h)]], 0)
  expect_equal(h[length(h)], nrow(fr))
  if (length(h) > 1) {
    expect_equal(fr$alpha_min[h[-length(h)]], fr$alpha_max[h[-1]])
    slopes <- -diff(fr$train_loss[h]) / diff(cx[h])
    expect_equal(fr$alpha_min[h[-length(h)]], slopes)
    expect_true(all(diff(slopes) < 0))
  }
  expect_true(all(fr$alpha_min <= fr$alpha_max, na.rm = TRUE))
  # a hull tree minimises loss + alpha * complexity inside its interval
  for (i in h) {
    a <- if (is.finite(fr$alpha_max[i])) (fr$alpha_min[i] + fr$alpha_max[i]) / 2
         else fr$alpha_min[i] + 1
    obj <- fr$train_loss + a * cx
    expect_equal(min(obj), obj[i])
  }
}

test_that("alpha intervals exist exactly for hull points and tile [0, Inf)", {
  d <- gen_class(200, seed = 3)
  r <- gen_reg(150, seed = 4)
  for (cx in c("tests", "splits")) {
    expect_alpha_intervals(dpdt_fit(Species ~ ., data = iris, max_depth = 4,
                                    complexity = cx, min_bucket = 1))
    expect_alpha_intervals(dpdt_fit(y ~ a + b + c, data = d, max_depth = 3,
                                    complexity = cx, min_bucket = 1))
    expect_alpha_intervals(dpdt_fit(y ~ a + b + c, data = r, max_depth = 3,
                                    complexity = cx, min_bucket = 1))
  }
})

test_that("case weights: integer weights equal duplicated rows, zero weights equal dropped rows", {
  set.seed(21)
  d <- gen_class(60, seed = 21)
  d$wt <- sample(1:3, nrow(d), TRUE)
  dup <- d[rep(seq_len(nrow(d)), d$wt), ]
  f1 <- dpdt_fit(y ~ a + b + c, data = d, weights = wt, max_depth = 2,
                 candidates = "exhaustive", min_bucket = 1)
  f2 <- dpdt_fit(y ~ a + b + c, data = dup, max_depth = 2,
                 candidates = "exhaustive", min_bucket = 1)
  expect_equal(f1$front[c("train_loss", "avg_tests", "n_splits")],
               f2$front[c("train_loss", "avg_tests", "n_splits")])
  d$wt0 <- ifelse(seq_len(nrow(d)) %% 4 == 0, 0, 1)
  f3 <- dpdt_fit(y ~ a + b + c, data = d, weights = wt0, max_depth = 3, min_bucket = 1)
  f4 <- dpdt_fit(y ~ a + b + c, data = d[d$wt0 > 0, ], max_depth = 3, min_bucket = 1)
  expect_equal(f3$front[c("train_loss", "avg_tests", "n_splits")],
               f4$front[c("train_loss", "avg_tests", "n_splits")])
  # scaling all weights changes nothing in the front
  d$wt2 <- d$wt * 2.5
  f5 <- dpdt_fit(y ~ a + b + c, data = d, weights = wt2, max_depth = 2,
                 candidates = "exhaustive", min_bucket = 1)
  expect_equal(f5$front[c("train_loss", "avg_tests", "n_splits")],
               f1$front[c("train_loss", "avg_tests", "n_splits")])
})

test_that("min_bucket is respected by every tree", {
  d <- gen_class(120, seed = 31)
  for (mb in c(5, 20)) {
    fit <- dpdt_fit(y ~ a + b + c, data = d, max_depth = 3, min_bucket = mb)
    for (tr in fit$trees) expect_true(all(tr$n[tr$feature == 0] >= mb))
  }
})

test_that("factor, character and logical variables; rules print g = u / g != u", {
  set.seed(41)
  n <- 90
  d <- data.frame(g = factor(sample(c("u", "v", "w"), n, TRUE)),
                  h = sample(c("p", "q"), n, TRUE),
                  o = factor(sample(c("lo", "mid", "hi"), n, TRUE),
                             levels = c("lo", "mid", "hi"), ordered = TRUE),
                  l = sample(c(TRUE, FALSE), n, TRUE),
                  x = runif(n), stringsAsFactors = FALSE)
  d$y <- d$g == "u"
  fit <- dpdt_fit(y ~ g + h + x, data = d, max_depth = 2, min_bucket = 1)
  expect_equal(fit$type, "classification")
  expect_equal(fit$levels, c("FALSE", "TRUE"))
  expect_equal(nrow(fit$front), 2)
  expect_equal(fit$front$train_loss, c(mean(d$y), 0))
  expect_equal(fit$front$n_splits, c(0, 1))
  out <- paste(capture.output(print(dpdt_tree(fit))), collapse = "\n")
  expect_match(out, "g = u", fixed = TRUE)
  expect_match(out, "g != u", fixed = TRUE)
  expect_no_match(out, "or NA", fixed = TRUE)   # no NA in training: not said
  expect_equal(as.character(predict(fit)), as.character(d$y))
  ft <- fit$features
  expect_true(all(c("name", "variable", "kind", "level") %in% names(ft)))
  # one column of level codes per factor (issue 8: tests on level groups)
  expect_equal(sum(ft$variable == "g"), 1)
  expect_equal(sum(ft$variable == "h"), 1)
  expect_equal(ft$kind[ft$variable == "g"], "categorical")
  expect_equal(ft$kind[ft$variable == "h"], "categorical")
  expect_equal(ft$kind[ft$variable == "x"], "numeric")

  # a character predictor
  d$y2 <- factor(ifelse(d$h == "q", "yes", "no"))
  fit2 <- dpdt_fit(y2 ~ h + x, data = d, max_depth = 2, min_bucket = 1)
  expect_equal(min(fit2$front$train_loss), 0)
  out <- paste(capture.output(print(dpdt_tree(fit2))), collapse = "\n")
  expect_match(out, "h = q", fixed = TRUE)
  expect_match(out, "h = p", fixed = TRUE)   # two levels: each side named
  expect_equal(as.character(predict(fit2, data.frame(h = c("q", "p"), x = .5))),
               c("yes", "no"))

  # an ordered factor is used through its codes: o <= lo / o > lo
  d$y3 <- factor(d$o > "lo")
  fit3 <- dpdt_fit(y3 ~ o + x, data = d, max_depth = 1, min_bucket = 1)
  expect_equal(min(fit3$front$train_loss), 0)
  expect_equal(fit3$features$kind[fit3$features$variable == "o"], "ordered")
  out <- paste(capture.output(print(dpdt_tree(fit3))), collapse = "\n")
  expect_match(out, "o <= lo", fixed = TRUE)
  expect_match(out, "o > lo", fixed = TRUE)

  # a logical predictor
  d$y4 <- factor(ifelse(d$l, "T", "F"))
  fit4 <- dpdt_fit(y4 ~ l + x, data = d, max_depth = 1, min_bucket = 1)
  expect_equal(min(fit4$front$train_loss), 0)
  expect_equal(fit4$features$kind[fit4$features$variable == "l"], "logical")
  expect_equal(as.character(predict(fit4, d)), as.character(d$y4))
})

test_that("subset, na.action, formula() and nobs()", {
  fit <- dpdt_fit(Species ~ Petal.Length + Sepal.Width, data = iris,
                  subset = Species != "setosa", max_depth = 2, min_bucket = 1)
  expect_equal(nobs(fit), 100)
  expect_equal(formula(fit), Species ~ Petal.Length + Sepal.Width,
               ignore_attr = TRUE)
  aq <- airquality
  # (issue 8: the default keeps rows with a missing predictor)
  expect_message(fit <- dpdt_fit(Ozone ~ Temp + Wind + Solar.R, data = aq,
                                 max_depth = 2, min_bucket = 1),
                 "dropped 37 row\\(s\\) with a missing response `Ozone`")
  expect_equal(nobs(fit), sum(!is.na(aq$Ozone)))
  expect_s3_class(fit$na.action, "omit")
  fit <- dpdt_fit(Ozone ~ Temp + Wind + Solar.R, data = aq, max_depth = 2,
                  na.action = na.omit, min_bucket = 1)
  expect_equal(nobs(fit), sum(complete.cases(aq[c("Ozone", "Temp", "Wind",
                                                  "Solar.R")])))
  expect_s3_class(fit$na.action, "omit")
  expect_equal(fit$front$train_loss[1],
               mean((na.omit(aq[c("Ozone", "Temp", "Wind", "Solar.R")])$Ozone -
                       mean(na.omit(aq[c("Ozone", "Temp", "Wind",
                                         "Solar.R")])$Ozone))^2))
})

test_that("threads default comes from the dpdt.threads option", {
  old <- options(dpdt.threads = 1)
  on.exit(options(old), add = TRUE)
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  expect_equal(as.integer(fit$control$threads), 1L)
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, threads = 2, min_bucket = 1)
  expect_equal(as.integer(fit$control$threads), 2L)
  # no option: the DPDT_THREADS environment variable, else 2
  options(dpdt.threads = NULL)
  old_env <- Sys.getenv("DPDT_THREADS", unset = NA)
  on.exit(if (is.na(old_env)) Sys.unsetenv("DPDT_THREADS")
          else Sys.setenv(DPDT_THREADS = old_env), add = TRUE)
  Sys.setenv(DPDT_THREADS = "1")
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  expect_equal(as.integer(fit$control$threads), 1L)
  Sys.unsetenv("DPDT_THREADS")
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  expect_equal(as.integer(fit$control$threads), 2L)
})

test_that("fronts stay non-dominated with fractional weights", {
  d <- gen_class(150, seed = 61)
  set.seed(61)
  d$wt <- round(runif(nrow(d), 0.2, 3), 3)
  r <- gen_reg(120, seed = 62)
  r$wt <- d$wt[seq_len(nrow(r))]
  for (cx in c("tests", "splits")) {
    fit <- dpdt_fit(y ~ a + b + c, data = d, weights = wt, max_depth = 3,
                    complexity = cx, min_bucket = 1)
    expect_valid_front(fit)
    fit <- dpdt_fit(y ~ a + b + c, data = r, weights = wt, max_depth = 3,
                    complexity = cx, min_bucket = 1)
    expect_valid_front(fit)
  }
  # no two rows share a complexity (up to rounding)
  fit <- dpdt_fit(y ~ a + b + c, data = d, weights = wt, max_depth = 2,
                  candidates = "exhaustive", min_bucket = 1)
  expect_true(all(diff(fit$front$avg_tests) > 1e-9))
})
