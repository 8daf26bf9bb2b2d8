# dpdt_cv(): scoring against a brute-force refit per fold, exact values on a
# case computed by hand, folds, plans, validation sets and bad input.

# Brute force: the hand-made CV of helper-cv.R, with the weights given as a
# column of `data`.
brute_cv <- function(formula, data, fold, wcol = NULL, ...) {
  args <- c(list(formula = formula), list(...))
  if (!is.null(wcol)) args$weights <- as.name(wcol)
  oracle_cv(args, data, fold)
}

sim_reg <- function(n = 60, seed = 2) {
  set.seed(seed)
  d <- data.frame(a = round(runif(n) * 10), b = runif(n), c = rnorm(n))
  d$y <- 2 * (d$a > 5) + d$b + rnorm(n, sd = .5)
  d$w <- sample(c(0.5, 1, 2), n, TRUE)
  d
}

# The hand-computed case: x1 carries a real step; 10 rows at (x1, x2) =
# (-1, 1) labelled 1, all in fold 1, and one row labelled 0 there in each of
# folds 2 and 3. On all 42 rows the front is 0 splits: 17/42, 1 split (the
# step): 10/42, 2 splits (step + x2): 2/42 — the 1-split tree lies above the
# chord, off the convex hull. By hand, per fold (held-out weights 20, 11,
# 11) the budget-0/1/2 trees err on 15/10/10, 6/0/1 and 6/0/1 rows.
hand_data <- function() {
  rows <- list()
  for (f in 1:3) {
    rows[[length(rows) + 1]] <- data.frame(x1 = -1, x2 = 0, y = 0, fold = f + 0 * 1:5)
    rows[[length(rows) + 1]] <- data.frame(x1 = 1, x2 = 0, y = 1, fold = f + 0 * 1:5)
  }
  rows[[length(rows) + 1]] <- data.frame(x1 = -1, x2 = 1, y = 1, fold = rep(1, 10))
  rows[[length(rows) + 1]] <- data.frame(x1 = -1, x2 = 1, y = 0, fold = 2:3)
  d <- do.call(rbind, rows)
  d$y <- factor(d$y)
  d
}

test_that("hand-computed case: exact CV losses, and budget scoring picks a tree off the hull", {
  d <- hand_data()
  cv <- dpdt_cv(y ~ x1 + x2, data = d, fold_id = d$fold, max_depth = 2,
                complexity = "splits", candidates = "exhaustive")
  f <- cv$front
  expect_equal(f$n_splits, 0:2)
  expect_equal(f$train_loss, c(17, 10, 2) / 42)
  expect_true(is.na(f$alpha_min[2]))              # off the hull
  expect_equal(cv$cv_fold_weight, c(20, 11, 11))
  expect_equal(cv$cv_fold_loss,
               rbind(c(15, 10, 10) / 20, c(6, 0, 1) / 11, c(6, 0, 1) / 11))
  expect_equal(f$cv_loss, c(27, 10, 12) / 42)
  se1 <- sqrt((20 * (10 / 20 - 10 / 42)^2 + 22 * (10 / 42)^2) / 42 / 2)
  expect_equal(f$cv_se[2], se1)
  # penalty scoring: the leaf at alpha = Inf, the last tree at alpha = 0
  expect_equal(f$cv_loss_alpha, c(27 / 42, NA, 12 / 42))
  expect_equal(cv$model_min, 2L)
  expect_true(is.na(f$alpha_min[cv$model_min]))
  expect_lt(f$cv_loss[2], min(f$cv_loss[!is.na(f$alpha_min)]))
  expect_identical(cv$model_1se, 2L)
  # rpart-style penalty scoring can only reach the hull trees
  cva <- dpdt_cv(y ~ x1 + x2, data = d, fold_id = d$fold, max_depth = 2,
                 complexity = "splits", candidates = "exhaustive",
                 method = "alpha")
  expect_identical(cva$model_min, 3L)
  expect_identical(cva$cv_method, "alpha")
  expect_equal(cva$front$cv_loss, f$cv_loss)
})

test_that("budget and penalty picks equal a naive search over the fold front", {
  set.seed(8)
  for (rep in 1:200) {
    m <- sample(1:12, 1)
    cx <- c(0, sort(sample(1:30, m - 1)) / sample(c(1, 10), 1))
    loss <- sort(runif(m), decreasing = TRUE)
    if (m > 2 && runif(1) < 0.3) loss[m] <- loss[m - 1]   # a tie
    o <- sample(m)                                          # any order
    job <- list(complexity = cx[o], train_loss = loss[o])
    budget <- c(0, runif(5, 0, max(cx) + 1), cx)
    naive_b <- vapply(budget, function(b) {
      ok <- which(job$complexity <= b + 1e-9 * max(1, b))
      ok <- ok[job$train_loss[ok] == min(job$train_loss[ok])]
      ok[which.min(job$complexity[ok])]
    }, integer(1))
    expect_identical(dpdt:::pick_budget(job, budget), naive_b)
    alpha <- c(Inf, 0, runif(5, 0, 0.2))
    naive_a <- vapply(alpha, function(a) {
      obj <- if (is.infinite(a)) job$complexity else job$train_loss + a * job$complexity
      ok <- which(obj <= min(obj) + 1e-12)
      ok[which.min(job$complexity[ok])]
    }, integer(1))
    expect_identical(dpdt:::pick_alpha(job, alpha), naive_a)
  }
})

test_that("dpdt_cv equals a brute-force refit per fold (classification)", {
  d <- iris[c(1:30, 51:80, 101:130), ]
  d$Sepal.Length <- round(d$Sepal.Length)  # ties between candidate splits
  fold <- rep(1:4, length.out = nrow(d))
  for (cx in c("tests", "splits")) {
    cv <- dpdt_cv(Species ~ ., data = d, fold_id = fold, max_depth = 2,
                  complexity = cx)
    bf <- brute_cv(Species ~ ., d, fold, max_depth = 2, complexity = cx)
    expect_equal(cv$front$cv_loss, bf$budget$mean)
    expect_equal(cv$front$cv_se, bf$budget$se)
    expect_equal(cv$front$cv_loss_alpha, bf$alpha$mean)
    expect_equal(cv$front$cv_se_alpha, bf$alpha$se)
    expect_identical(cv$folds, as.integer(fold))
  }
})

test_that("dpdt_cv equals a brute-force refit per fold (weighted regression)", {
  d <- sim_reg()
  fold <- rep(1:3, each = 20)
  cv <- dpdt_cv(y ~ a + b + c, data = d, fold_id = fold, weights = w,
                max_depth = 2)
  bf <- brute_cv(y ~ a + b + c, d, fold, wcol = "w", max_depth = 2)
  expect_equal(cv$front$cv_loss, bf$budget$mean)
  expect_equal(cv$front$cv_se, bf$budget$se)
  expect_equal(cv$front$cv_loss_alpha, bf$alpha$mean)
  # held-out weights are the folds' weight sums
  expect_equal(cv$cv_fold_weight, as.vector(tapply(d$w, fold, sum)))
})

test_that("min and one-SE choices follow the rule", {
  set.seed(4)
  cv <- dpdt_cv(type ~ ., data = MASS::Pima.tr, folds = 5, max_depth = 2)
  f <- cv$front
  expect_identical(cv$model_min, which(f$cv_loss == min(f$cv_loss))[1])
  bound <- f$cv_loss[cv$model_min] + f$cv_se[cv$model_min]
  expect_identical(cv$model_1se, which(f$cv_loss <= bound)[1])
  expect_lte(cv$model_1se, cv$model_min)
  expect_identical(cv$default_model, cv$model_1se)
  expect_identical(cv$cv_method, "budget")
  # hull trees get penalty scores, the others NA
  expect_identical(is.na(f$cv_loss_alpha), is.na(f$alpha_min))
})

test_that("reproducible under set.seed(); other seeds give other folds", {
  set.seed(11)
  a <- dpdt_cv(Species ~ ., data = iris, folds = 4, max_depth = 2)
  set.seed(11)
  b <- dpdt_cv(Species ~ ., data = iris, folds = 4, max_depth = 2)
  expect_identical(a$folds, b$folds)
  expect_identical(a$front, b$front)
  expect_identical(a$cv_fold_loss, b$cv_fold_loss)
  set.seed(12)
  c2 <- dpdt_cv(Species ~ ., data = iris, folds = 4, max_depth = 2)
  expect_false(identical(a$folds, c2$folds))
})

test_that("sequential and multisession plans give identical results", {
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  set.seed(5)
  a <- dpdt_cv(Species ~ ., data = iris, folds = 3, max_depth = 2)
  future::plan(future::multisession, workers = 2)
  set.seed(5)
  b <- dpdt_cv(Species ~ ., data = iris, folds = 3, max_depth = 2)
  future::plan(future::sequential)
  expect_identical(a$folds, b$folds)
  expect_identical(a$front, b$front)
  expect_identical(a$cv_fold_loss, b$cv_fold_loss)
  expect_identical(a$model_1se, b$model_1se)
})

test_that("results do not depend on the threads per fold", {
  fold <- rep(1:3, 50)
  a <- dpdt_cv(Species ~ ., data = iris, fold_id = fold, max_depth = 3)
  b <- dpdt_cv(Species ~ ., data = iris, fold_id = fold, max_depth = 3,
               threads = 2)
  expect_identical(a$front, b$front)
})

test_that("classification folds are stratified, regression folds balanced", {
  set.seed(7)
  d <- MASS::Pima.tr
  cv <- dpdt_cv(type ~ ., data = d, folds = 7, max_depth = 1)
  tab <- table(cv$folds, d$type)
  expect_equal(nrow(tab), 7)
  expect_true(all(apply(tab, 2, function(v) max(v) - min(v)) <= 1))
  expect_lte(diff(range(rowSums(tab))), 1)
  expect_true(cv$cv_design$stratified)
  # a rare class still spreads over the folds
  d2 <- iris[c(1:50, 51:55), ]
  d2$Species <- droplevels(d2$Species)
  cv2 <- dpdt_cv(Species ~ ., data = d2, folds = 5, max_depth = 1)
  expect_equal(as.vector(table(cv2$folds[d2$Species == "versicolor"])),
               rep(1L, 5))
  r <- dpdt_cv(mpg ~ wt + hp, data = mtcars, folds = 5, max_depth = 1)
  expect_lte(diff(range(table(r$folds))), 1)
  expect_false(r$cv_design$stratified)
})

test_that("given fold ids are per row of data, through subset and na.action", {
  d <- sim_reg()
  d$c[4] <- NA                          # dropped by na.omit
  d$w[9] <- 0                           # zero weight: no fold
  fid <- rep(c("u", "v", "w"), 20)
  cv <- dpdt_cv(y ~ a + b + c, data = d, fold_id = fid, weights = w,
                max_depth = 2, na.action = na.omit)
  kept <- setdiff(seq_len(nrow(d)), 4)
  expected <- as.integer(factor(fid[kept]))
  expected[kept == 9] <- NA
  expect_identical(cv$folds, expected)
  bf <- brute_cv(y ~ a + b + c, d[kept, ][-8, ], fid[kept][-8], wcol = "w",
                 max_depth = 2)
  expect_equal(cv$front$cv_loss, bf$budget$mean)
  # from a fit: one fold per row of its model frame
  fit <- dpdt_fit(y ~ a + b + c, data = d, weights = w, max_depth = 2,
                  na.action = na.omit)
  cv2 <- dpdt_cv(fit, fold_id = fid[kept])
  expect_identical(cv2$front, cv$front)
  # subset
  cv3 <- dpdt_cv(y ~ a + b, data = d, subset = a > 1, fold_id = fid,
                 max_depth = 1)
  expect_identical(cv3$folds, as.integer(factor(fid[d$a > 1])))
})

test_that("a fit can be cross-validated with its own settings", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2,
                  complexity = "splits", criterion = "gini")
  set.seed(3)
  a <- dpdt_cv(fit, folds = 3)
  set.seed(3)
  b <- dpdt_cv(Species ~ ., data = iris, folds = 3, max_depth = 2,
               complexity = "splits", criterion = "gini")
  expect_identical(a$front, b$front)
  expect_identical(a$control[c("max_depth", "complexity", "criterion")],
                   fit$control[c("max_depth", "complexity", "criterion")])
  # re-running on a CV result starts from its fit
  set.seed(3)
  c2 <- dpdt_cv(a, folds = 3)
  expect_identical(c2$front, a$front)
})

test_that("predict(), dpdt_tree() and fitted() use the one-SE tree", {
  set.seed(2)
  cv <- dpdt_cv(type ~ ., data = MASS::Pima.tr, folds = 5, max_depth = 2)
  te <- MASS::Pima.te
  expect_identical(predict(cv, te), predict(cv, te, model = cv$model_1se))
  fit <- dpdt_fit(type ~ ., data = MASS::Pima.tr, max_depth = 2)
  expect_identical(predict(cv, te), predict(fit, te, model = cv$model_1se))
  expect_identical(predict(cv, te, type = "prob"),
                   predict(fit, te, model = cv$model_1se, type = "prob"))
  expect_identical(predict(cv, te, model = cv$model_min),
                   predict(fit, te, model = cv$model_min))
  expect_identical(dpdt_tree(cv)$model, cv$model_1se)
  expect_identical(fitted(cv), predict(fit, model = cv$model_1se))
  expect_s3_class(cv, c("dpdt_cv", "dpdt"), exact = TRUE)
})

test_that("a validation set scores every tree on its rows", {
  tr <- MASS::Pima.tr
  te <- MASS::Pima.te
  fit <- dpdt_fit(type ~ ., data = tr, max_depth = 2)
  cv <- dpdt_cv(fit, validation = te)
  err <- vapply(seq_len(nrow(fit$front)), function(m)
    mean(predict(fit, te, model = m) != te$type), numeric(1))
  expect_equal(cv$front$cv_loss, err)
  n <- nrow(te)
  expect_equal(cv$front$cv_se, sqrt(err * (1 - err) / (n - 1)))
  expect_identical(cv$model_min, which(err == min(err))[1])
  expect_null(cv$folds)
  expect_identical(cv$cv_design$kind, "validation")
  hull <- !is.na(fit$front$alpha_min)
  expect_equal(cv$front$cv_loss_alpha[hull], err[hull])
  expect_true(all(is.na(cv$front$cv_loss_alpha[!hull])))
  # from a formula too, weighted, with NA rows dropped
  d <- sim_reg()
  v <- sim_reg(40, seed = 9)
  v$a[1] <- NA
  cvr <- dpdt_cv(y ~ a + b, data = d, weights = w, max_depth = 2,
                 validation = v)
  f <- dpdt_fit(y ~ a + b, data = d, weights = w, max_depth = 2)
  vv <- v[-1, ]
  mse <- vapply(seq_len(nrow(f$front)), function(m)
    sum(vv$w * (predict(f, vv, model = m) - vv$y)^2) / sum(vv$w), numeric(1))
  expect_equal(cvr$front$cv_loss, mse)
})

test_that("print() shows the choices and the CV columns", {
  set.seed(1)
  cv <- dpdt_cv(Species ~ ., data = iris, folds = 3, max_depth = 2)
  out <- capture.output(res <- print(cv))
  expect_identical(res, cv)
  txt <- paste(out, collapse = "\n")
  expect_match(txt, "3-fold cross-validation \\(stratified\\)")
  expect_match(txt, sprintf("minimum CV loss: model %d", cv$model_min))
  expect_match(txt, sprintf("one-SE rule: +model %d", cv$model_1se))
  expect_match(txt, "cv_loss")
  expect_match(txt, "cv_se_alpha")
  expect_match(txt, "dpdt_cv\\(")
  # long fronts show their hull trees, plus the chosen ones even off the hull
  cv2 <- dpdt_cv(type ~ ., data = MASS::Pima.tr, max_depth = 3,
                 fold_id = rep(1:3, length.out = 200))
  off <- which(is.na(cv2$front$alpha_min))[1]
  tab <- cv2$front[c("model", "alpha_min", "cv_loss")]
  out2 <- capture.output(dpdt:::print_front(tab, 4, max_rows = 5L, keep = off))
  shown <- as.integer(sub("^ *([0-9]+) .*", "\\1", out2[-(1:2)]))
  expect_identical(shown, sort(c(which(!is.na(cv2$front$alpha_min)), off)))
  expect_match(out2[1], "and the chosen ones")
})

test_that("bad input to dpdt_cv() is refused with the argument named", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 1)
  expect_error(dpdt_cv(iris), "`x` must be a formula")
  expect_error(dpdt_cv("Species ~ ."), "`x` must be a formula")
  expect_error(dpdt_cv(fit, data = iris), "`data` must be NULL")
  expect_error(dpdt_cv(fit, max_depth = 3), "`max_depth`.*fit")
  expect_error(dpdt_cv(Species ~ ., data = iris, maxdepth = 3), "maxdepth")
  expect_error(dpdt_cv(Species ~ ., iris, folds = 1), "`folds`")
  expect_error(dpdt_cv(Species ~ ., iris, folds = 2.5), "`folds`")
  expect_error(dpdt_cv(Species ~ ., iris, folds = 151), "`folds`")
  expect_error(dpdt_cv(Species ~ ., iris, folds = "ten"), "`folds`")
  expect_error(dpdt_cv(Species ~ ., iris, fold_id = 1:3), "`fold_id`.*150")
  expect_error(dpdt_cv(Species ~ ., iris, fold_id = rep(1, 150)),
               "`fold_id`.*2 distinct")
  expect_error(dpdt_cv(Species ~ ., iris, fold_id = c(NA, rep(1:2, 75)[-1])),
               "`fold_id`.*NA")
  expect_error(dpdt_cv(fit, fold_id = matrix(1:2, 150, 2)), "`fold_id`")
  expect_error(dpdt_cv(Species ~ ., iris, threads = 0), "`threads`")
  expect_error(dpdt_cv(Species ~ ., iris, method = "best"), "`method`")
  expect_error(dpdt_cv(fit, validation = as.matrix(iris[1:4])),
               "`validation` must be a data frame")
  expect_error(dpdt_cv(fit, validation = iris[-1]),
               "`validation` lacks.*Sepal.Length")
  expect_error(dpdt_cv(fit, validation = iris, fold_id = rep(1:2, 75)),
               "`validation` or `fold_id`")
  v <- iris
  v$Species <- as.character(v$Species)
  v$Species[1] <- "virginia"
  expect_error(dpdt_cv(fit, validation = v), "`validation`.*virginia")
  d <- sim_reg()
  fw <- dpdt_fit(y ~ a + b, data = d, weights = w, max_depth = 1)
  expect_error(dpdt_cv(fw, validation = d[c("a", "b", "y")]), "`validation`")
  expect_error(dpdt_cv(fit, validation = iris[0, ]), "`validation`")
})
