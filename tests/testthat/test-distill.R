# dpdt_distill(): trees fitted to a model's predictions, with fidelity and
# accuracy columns that must equal what the trees' own predictions give.

# A "model" that is a depth-2 tree of two variables, and a predict_fun.
depth_two_model <- function(d) {
  factor(ifelse(d$x1 <= 0.3, "a", ifelse(d$x2 <= 0.6, "b", "c")), levels = c("a", "b", "c"))
}
toy_data <- function(n = 300, seed = 1) {
  set.seed(seed)
  d <- data.frame(x1 = runif(n), x2 = runif(n), x3 = runif(n))
  d$y <- depth_two_model(d)
  flip <- sample.int(n, n %/% 10)
  d$y[flip] <- sample(levels(d$y), length(flip), replace = TRUE)
  d
}

test_that("a model that is a depth-2 tree is recovered with fidelity 1", {
  d <- toy_data()
  for (cand in c("cart", "exhaustive")) {
    fit <- dpdt_distill("a tree", d, predict_fun = function(m, nd) depth_two_model(nd),
                        response = "y", max_depth = 2, candidates = cand, min_bucket = 1,
                        complexity = "splits")
    expect_s3_class(fit, "dpdt_distill")
    last <- nrow(fit$front)
    expect_equal(fit$front$fidelity[last], 1)
    expect_equal(fit$front$n_splits[last], 2)
    expect_equal(fit$front$train_loss[last], 0)
    expect_identical(as.character(predict(fit, d, model = last)),
                     as.character(depth_two_model(d)))
    rules <- dpdt_tree(fit, model = last)$nodes$rule
    expect_true(any(grepl("x1", rules)) && any(grepl("x2", rules)))
    expect_false(any(grepl("x3", rules)))
  }
})

test_that("fidelity and accuracy columns are the trees' own agreement rates", {
  d <- toy_data(seed = 2)
  nd <- toy_data(200, seed = 3)
  m <- rpart::rpart(y ~ ., data = d, control = rpart::rpart.control(cp = 0, minbucket = 1))
  fit <- dpdt_distill(m, d, newdata = nd, max_depth = 3)
  cls <- function(data) predict(m, data, type = "class")
  expect_identical(fit$distill$response, "y")
  expect_setequal(fit$distill$predictors, c("x1", "x2", "x3"))
  for (k in seq_len(nrow(fit$front))) {
    expect_equal(fit$front$fidelity[k], mean(predict(fit, d, model = k) == cls(d)))
    expect_equal(fit$front$test_fidelity[k], mean(predict(fit, nd, model = k) == cls(nd)))
    expect_equal(fit$front$accuracy[k], mean(predict(fit, d, model = k) == d$y))
    expect_equal(fit$front$test_accuracy[k], mean(predict(fit, nd, model = k) == nd$y))
  }
  # class target without weights: the training loss is the disagreement
  expect_equal(fit$front$train_loss, 1 - fit$front$fidelity)
  expect_equal(unname(fit$distill$model_accuracy),
               c(mean(cls(d) == d$y), mean(cls(nd) == nd$y)))
  expect_false(is.unsorted(fit$front$fidelity))
})

test_that("the probability target's loss is the expected disagreement, and is optimal", {
  set.seed(4)
  n <- 40
  d <- data.frame(x = sample(1:12, n, replace = TRUE), z = runif(n))
  p1 <- plogis((d$x - 6.5) / 2 + rnorm(n, sd = 0.5))
  probs <- cbind(no = 1 - p1, yes = p1)
  pf <- function(m, nd) probs[seq_len(nrow(nd)), , drop = FALSE]
  fit <- dpdt_distill(NULL, d, predict_fun = pf, predictors = "x", target = "probability",
                      max_depth = 1, candidates = "exhaustive", min_bucket = 1)
  # each tree's train_loss is mean over rows of 1 - p(row, tree's class)
  for (k in seq_len(nrow(fit$front))) {
    cl <- as.integer(predict(fit, d, model = k))
    expect_equal(fit$front$train_loss[k], mean(1 - probs[cbind(seq_len(n), cl)]))
  }
  # brute force: the best depth-1 tree over every threshold and leaf classes
  loss_leaf <- function(rows) min(sum(1 - probs[rows, 1]), sum(1 - probs[rows, 2]))
  best <- min(vapply(sort(unique(d$x)), function(t) {
    l <- d$x <= t
    if (all(l)) return(loss_leaf(seq_len(n)))
    loss_leaf(which(l)) + loss_leaf(which(!l))
  }, numeric(1))) / n
  expect_equal(min(fit$front$train_loss), best)
  # fidelity is against the most probable class
  top <- ifelse(p1 > 0.5, "yes", "no")
  k <- nrow(fit$front)
  expect_equal(fit$front$fidelity[k], mean(as.character(predict(fit, d, model = k)) == top))
  # a row's copies (one per class) stay in one fold
  set.seed(5)
  cv <- dpdt_cv(fit, folds = 4)
  expect_true(all(tapply(cv$folds, fit$row_group, function(f) length(unique(f))) == 1))
  expect_false(cv$cv_design$stratified)
  expect_output(print(fit), sprintf("Each of the %d rows enters once per class", n))
})

test_that("regression: fidelity is the R^2 to the model's predictions", {
  m <- lm(mpg ~ wt + hp + qsec, data = mtcars)
  fit <- dpdt_distill(m, mtcars, max_depth = 2, min_bucket = 2)
  expect_identical(fit$distill$target, "regression")
  mp <- predict(m, mtcars)
  for (k in seq_len(nrow(fit$front))) {
    tp <- predict(fit, mtcars, model = k)
    expect_equal(fit$front$fidelity[k], 1 - sum((tp - mp)^2) / sum((mp - mean(mp))^2))
    expect_equal(fit$front$r_squared[k],
                 1 - sum((tp - mtcars$mpg)^2) / sum((mtcars$mpg - mean(mtcars$mpg))^2))
    expect_equal(fit$front$train_loss[k], mean((tp - mp)^2))
  }
  expect_equal(fit$front$fidelity[1], 0)
  expect_setequal(fit$distill$predictors, c("wt", "hp", "qsec"))
})

test_that("a binomial glm is distilled by its classes of probability above one half", {
  lr <- glm(type ~ glu + bmi + age, family = binomial, data = MASS::Pima.tr)
  fit <- dpdt_distill(lr, MASS::Pima.tr, newdata = MASS::Pima.te, max_depth = 2)
  expect_identical(fit$levels, c("No", "Yes"))
  cls <- ifelse(predict(lr, MASS::Pima.te, type = "response") > 0.5, "Yes", "No")
  k <- nrow(fit$front)
  expect_equal(fit$front$test_fidelity[k],
               mean(as.character(predict(fit, MASS::Pima.te, model = k)) == cls))
  expect_equal(unname(fit$distill$model_accuracy["newdata"]), mean(cls == MASS::Pima.te$type))
  expect_output(print(fit), "Distilled from a `glm` model")
})

test_that("a glm is distilled on its response scale; a transformed response is no column", {
  m <- glm(count ~ spray, family = poisson, data = InsectSprays)
  fit <- dpdt_distill(m, InsectSprays, max_depth = 2, min_bucket = 1)
  mu <- predict(m, InsectSprays, type = "response")
  k <- nrow(fit$front)
  # spray's six means: a depth-2 tree of level groups reproduces at most
  # four of them, and its loss is its squared error to the counts' means
  expect_equal(fit$front$train_loss[k], mean((predict(fit, InsectSprays, model = k) - mu)^2))
  expect_equal(fit$front$fidelity[1], 0)
  expect_true("r_squared" %in% names(fit$front))
  m2 <- glm(I(Species == "versicolor") ~ Sepal.Length + Sepal.Width, family = binomial, data = iris)
  f2 <- dpdt_distill(m2, iris, max_depth = 1)
  expect_null(f2$distill$response)
  expect_setequal(f2$distill$predictors, c("Sepal.Length", "Sepal.Width"))
  expect_false("accuracy" %in% names(f2$front))
  expect_identical(f2$levels, c("FALSE", "TRUE"))
})

test_that("forests: ranger and randomForest, class and probability targets", {
  skip_if_not_installed("ranger")
  set.seed(6)
  rf <- ranger::ranger(Species ~ ., data = iris, num.trees = 50)
  fit <- dpdt_distill(rf, iris, max_depth = 2)
  cls <- predict(rf, data = iris)$predictions
  k <- nrow(fit$front)
  expect_identical(fit$distill$response, "Species")
  expect_equal(fit$front$fidelity[k], mean(predict(fit, iris, model = k) == cls))
  expect_equal(fit$front$train_loss, 1 - fit$front$fidelity)
  rp <- ranger::ranger(Species ~ ., data = iris, num.trees = 50, probability = TRUE)
  fp <- dpdt_distill(rp, iris, max_depth = 2, target = "probability")
  pr <- predict(rp, data = iris)$predictions
  cl <- match(as.character(predict(fp, iris, model = nrow(fp$front))), colnames(pr))
  expect_equal(min(fp$front$train_loss), mean(1 - pr[cbind(seq_len(150), cl)]))
  skip_if_not_installed("randomForest")
  set.seed(7)
  f2 <- randomForest::randomForest(Species ~ ., data = iris, ntree = 50)
  fr <- dpdt_distill(f2, iris, max_depth = 2, target = "probability")
  expect_true(all(fr$front$fidelity >= 0 & fr$front$fidelity <= 1))
  expect_identical(fr$distill$response, "Species")
})

test_that("a distilled fit works with cv, prune, plots and exports", {
  d <- toy_data(seed = 8)
  m <- rpart::rpart(y ~ ., data = d)
  fit <- dpdt_distill(m, d, max_depth = 3)
  set.seed(9)
  cv <- dpdt_cv(fit, folds = 3)
  expect_true(all(is.finite(cv$front$cv_loss)))
  expect_true("fidelity" %in% names(cv$front))
  expect_match(dpdt_sql(fit), "CASE")
  expect_true(all(names(dpdt_importance(fit)) %in% c("x1", "x2", "x3")))
  expect_silent(plot(fit))
  expect_s3_class(dpdt_prune(fit, model = nrow(fit$front)), "dpdt")
})

test_that("augment adds sampled rows the model predicts, reproducibly", {
  d <- toy_data(200, seed = 11)
  pf <- function(m, nd) depth_two_model(nd)
  set.seed(12)
  fit <- dpdt_distill(NULL, d, predict_fun = pf, response = "y", augment = 300,
                      max_depth = 2, min_bucket = 1)
  expect_equal(fit$nobs, 500)
  expect_equal(fit$distill$augmented, 300)
  mf <- model.frame(fit)
  # the sampled rows carry the model's predictions at their own values
  expect_identical(as.character(mf$predicted), as.character(depth_two_model(mf)))
  # each is a row of data moved by noise of Silverman's bandwidth: two
  # clusters of x1 far apart, so that each sampled value's source is known
  two <- data.frame(x1 = rep(c(0, 1e6), each = 100) + runif(200, 0, 1e-3),
                    x2 = runif(200), x3 = runif(200))
  set.seed(14)
  f2 <- dpdt_distill(NULL, two, predict_fun = function(m, nd) factor(nd$x2 > 0.5),
                     augment = 2000, max_depth = 1)
  s1 <- model.frame(f2)$x1[201:2200]
  noise <- s1 - ifelse(s1 > 5e5, 1e6, 0)
  h <- 1.06 * min(sd(two$x1), IQR(two$x1) / 1.34) * 200^(-1 / 5)
  expect_equal(sd(noise), h, tolerance = 0.06)
  expect_equal(mean(s1 > 5e5), 0.5, tolerance = 0.1)
  # fidelity columns are on data alone
  k <- nrow(fit$front)
  expect_equal(fit$front$fidelity[k], mean(predict(fit, d, model = k) == depth_two_model(d)))
  set.seed(12)
  again <- dpdt_distill(NULL, d, predict_fun = pf, response = "y", augment = 300,
                        max_depth = 2, min_bucket = 1)
  expect_identical(again$front, fit$front)
  # predictions given for data, the sampled rows predicted by the model
  rp <- rpart::rpart(y ~ ., data = d)
  probs <- predict(rp, d, type = "prob")
  set.seed(13)
  fp <- dpdt_distill(rp, d, predictions = probs, augment = 50, target = "probability",
                     max_depth = 2)
  expect_equal(fp$distill$augmented, 50)
  expect_error(dpdt_distill(rp, d, augment = -1), "`augment` must be a single whole number")
  expect_error(dpdt_distill(rp, d, predictions = d$y, augment = 5, target = "probability"),
               "needs class probabilities")
})

test_that("bad input to dpdt_distill() gets a clear error", {
  d <- toy_data(50, seed = 10)
  m <- rpart::rpart(y ~ ., data = d)
  expect_error(dpdt_distill(m, as.matrix(d[1:3])), "`data` must be a data frame")
  expect_error(dpdt_distill(m, d[c("x1", "y")]), "lacks the model's predictor\\(s\\) `x2`, `x3`")
  expect_error(dpdt_distill(m, d, newdata = d["x1"]), "`newdata` lacks the model's predictor")
  expect_error(dpdt_distill(structure(list(), class = "nomodel"), d),
               "Predicting with `model` on `data` failed.*predict_fun")
  expect_error(dpdt_distill(m, d, predict_fun = function(m, x) stop("boom")), "boom")
  expect_error(dpdt_distill(m, d, predict_fun = function(m, x) 1:3), "length 3 for 50 rows")
  expect_error(dpdt_distill(m, d, predict_fun = function(m, x) c(NA, d$y[-1])),
               "missing or not finite for 1 row")
  expect_error(dpdt_distill(m, d, predict_fun = function(m, x) matrix(0.5, nrow(x), 2)),
               "without one named numeric column per class")
  expect_error(dpdt_distill(m, d, predict_fun = function(m, x)
    matrix(0.7, nrow(x), 2, dimnames = list(NULL, c("a", "b")))), "not probabilities")
  expect_error(dpdt_distill(m, d, predict_fun = function(m, x) list(1)), "give `predict_fun`")
  expect_error(dpdt_distill(m, d, target = "probability",
                            predict_fun = function(m, x) d$y),
               "needs class probabilities")
  expect_error(dpdt_distill(m, d, target = "odds"), "`target`")
  expect_error(dpdt_distill(m, d, predict_fun = "predict"), "`predict_fun` must be a function")
  expect_error(dpdt_distill(m, d, response = "nope"), "`response` \"nope\" is not a column")
  expect_error(dpdt_distill(m, d, predictors = "y"), "No predictor is left")
  expect_error(dpdt_distill(m, d, weights = -(1:50)), "`weights` must be finite and >= 0")
  expect_error(dpdt_distill(m), "`data` is missing")
  expect_error(dpdt_distill(m, d, max_depth = 0), "max_depth")
})
