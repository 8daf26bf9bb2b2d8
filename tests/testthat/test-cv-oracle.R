# dpdt_cv() against the cross-validation made by hand of helper-cv.R, for
# every option dpdt_fit() takes: factors and level groups, missing values,
# weights, loss matrix, prior, test costs, regression, exhaustive search,
# exact levels, min_bucket.

test_that("factor predictors are split as level groups in every fold (issue 17, defect 1)", {
  set.seed(1)
  n <- 600
  g <- factor(sample(sprintf("L%02d", 1:20), n, TRUE))
  d <- data.frame(y = factor(ifelse(as.integer(g) %% 2 == 0, "yes", "no")), g)
  set.seed(2)
  cv <- dpdt_cv(y ~ g, data = d, folds = 5, max_depth = 2)
  # one level group separates the classes in every fold: no held-out error
  expect_equal(cv$front$n_splits, 0:1)
  expect_equal(cv$front$cv_loss[2], 0)
  expect_cv_matches(list(formula = y ~ g, max_depth = 2), d, cv$folds)
})

test_that("folds use the loss matrix, the prior and test costs (issue 17, defect 2)", {
  d <- MASS::Pima.tr
  fold <- rep(1:5, length.out = nrow(d))
  L <- matrix(c(0, 10, 1, 0), 2)
  cv <- expect_cv_matches(list(formula = type ~ ., max_depth = 2, loss_matrix = L), d, fold)
  plain <- dpdt_cv(type ~ ., data = d, fold_id = fold, max_depth = 2)
  # missing a diabetic costs 10: the CV losses are costs, not error rates
  expect_false(isTRUE(all.equal(cv$front$cv_loss, plain$front$cv_loss)))
  expect_cv_matches(list(formula = type ~ ., max_depth = 2, loss_matrix = L,
                         prior = c(0.5, 0.5)), d, fold)
  expect_cv_matches(list(formula = type ~ ., max_depth = 2, prior = c(0.3, 0.7),
                         complexity = "splits"), d, fold)
  # test costs: folds choose their trees by avg_cost budgets
  cc <- expect_cv_matches(list(formula = type ~ ., max_depth = 2,
                               test_cost = c(glu = 5, bmi = 0.5)), d, fold)
  expect_true("avg_cost" %in% names(cc$front))
})

test_that("folds keep missing values, unseen levels, weights and ordered factors", {
  aq <- airquality
  aq$Month <- factor(month.abb[aq$Month])
  aq <- aq[!is.na(aq$Ozone), ]
  aq$w <- rep(c(1, 2, 0.5), length.out = nrow(aq))
  fold <- rep(1:4, length.out = nrow(aq))
  expect_cv_matches(list(formula = Ozone ~ ., max_depth = 2, weights = quote(w)),
                    aq, fold)
  expect_cv_matches(list(formula = Ozone ~ Solar.R + Wind + Temp + Month, max_depth = 3,
                         complexity = "splits", min_bucket = 5), aq, fold)
  # a level present in one fold only is unseen by the other folds' fits
  k <- rpart::kyphosis
  k$grp <- as.character(cut(k$Age, c(-1, 20, 60, 100, 150, 300)))
  k$grp[1] <- "rare"
  k$ord <- factor(cut(k$Start, c(0, 5, 10, 15, 20)), ordered = TRUE)
  fold <- rep(1:3, length.out = nrow(k))
  expect_cv_matches(list(formula = Kyphosis ~ grp + ord + Number, max_depth = 2), k, fold)
  expect_cv_matches(list(formula = Kyphosis ~ ., max_depth = 3, criterion = "gini",
                         exact_levels = 2), k, fold)
})

test_that("folds search as the fit did: exhaustive, exact levels, regression, offsets", {
  d <- MASS::Pima.tr[1:120, c("type", "glu", "bmi", "age")]
  fold <- rep(1:3, length.out = nrow(d))
  expect_cv_matches(list(formula = type ~ ., max_depth = 2, candidates = "exhaustive",
                         complexity = "splits"), d, fold)
  b <- MASS::Boston[1:200, c("medv", "lstat", "rm", "chas", "rad")]
  b$rad <- factor(b$rad)
  fold <- rep(1:4, length.out = nrow(b))
  expect_cv_matches(list(formula = medv ~ ., max_depth = 3), b, fold)
  expect_cv_matches(list(formula = medv ~ ., max_depth = 3, exact_levels = 2,
                         complexity = "splits"), b, fold)
  b$medv <- b$medv + 1e12
  expect_cv_matches(list(formula = medv ~ ., max_depth = 2), b, fold)
})
