# best_only = TRUE: the leaf and the most accurate tree, whose training loss
# is the least of the whole front's (the exhaustive search's, proven), with
# fewer states searched where the bounds apply.

test_that("best_only gives the leaf and the least loss of the exhaustive front", {
  for (data in list(rpart::kyphosis, iris, MASS::Pima.tr)) {
    y <- names(data)[vapply(data, is.factor, logical(1))][1]
    f <- stats::reformulate(".", y)
    args <- list(f, data, max_depth = 3, candidates = "exhaustive", min_bucket = 1,
                 complexity = "splits", threads = 1)
    full <- do.call(dpdt_fit, args)
    best <- do.call(dpdt_fit, c(args, best_only = TRUE))
    expect_equal(nrow(best$front), 2)
    expect_equal(best$front$n_splits[1], 0)
    expect_equal(best$front$train_loss[1], full$front$train_loss[1])
    expect_equal(best$front$train_loss[2], min(full$front$train_loss))
    expect_lt(best$n_states, full$n_states)
    # the default model is the most accurate tree, and predicts with its loss
    expect_identical(best$default_model, 2L)
    expect_equal(mean(predict(best, data) != data[[y]]), best$front$train_loss[2])
    expect_true(best$optimality$proven)
    expect_match(best$optimality$statement, "least loss of all trees")
  }
})

test_that("best_only does not depend on the threads, and keeps a CART front's best", {
  set.seed(3)
  d <- MASS::Pima.tr
  args <- list(type ~ ., d, max_depth = 3, candidates = "exhaustive", min_bucket = 1,
               complexity = "splits", best_only = TRUE)
  one <- do.call(dpdt_fit, c(args, threads = 1))
  two <- do.call(dpdt_fit, c(args, threads = 2))
  expect_identical(one$front, two$front)
  expect_identical(one$trees, two$trees)
  cart <- dpdt_fit(type ~ ., d, max_depth = 3, threads = 1)
  cart_best <- dpdt_fit(type ~ ., d, max_depth = 3, threads = 1, best_only = TRUE)
  expect_equal(cart_best$front$train_loss, cart$front$train_loss[c(1, nrow(cart$front))])
})

test_that("best_only is checked, and dpdt_cv() refuses it before searching", {
  expect_error(dpdt_fit(Species ~ ., iris, best_only = NA),
               "`best_only` must be TRUE or FALSE; got NA")
  expect_error(dpdt_fit(Species ~ ., iris, best_only = "yes"),
               "`best_only` must be TRUE or FALSE")
  expect_error(dpdt_cv(Species ~ ., iris, best_only = TRUE),
               "best_only = TRUE` holds only the leaf and the most accurate tree")
  fit <- dpdt_fit(Species ~ ., iris, max_depth = 2, best_only = TRUE)
  expect_error(dpdt_cv(fit), "cross-validate a fit without best_only")
})
