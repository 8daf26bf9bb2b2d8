test_that("fitted() and residuals() agree with predict() and the response", {
  fit <- dpdt_fit(mpg ~ wt + hp, data = mtcars, max_depth = 2)
  m <- nrow(fit$front)
  expect_equal(fitted(fit), predict(fit, mtcars))
  expect_equal(fitted(fit, model = 2), predict(fit, mtcars, model = 2))
  expect_equal(unname(residuals(fit, model = 2)),
               mtcars$mpg - predict(fit, mtcars, model = 2))
  expect_named(residuals(fit), rownames(mtcars))
  # the residual sum of squares is the front's training loss
  for (i in seq_len(m)) {
    expect_equal(mean(residuals(fit, model = i)^2), fit$front$train_loss[i])
  }
  expect_identical(model.frame(fit), fit$model_frame)
})

test_that("classification residuals are misclassification indicators", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
  r <- residuals(fit)
  expect_setequal(unique(r), c(0, 1))
  expect_equal(mean(r), fit$front$train_loss[nrow(fit$front)])
  expect_equal(unname(r), as.numeric(fitted(fit) != iris$Species))
})

test_that("fitted() and residuals() pad rows dropped by na.exclude", {
  d <- airquality[, c("Ozone", "Temp", "Wind")]
  fit <- dpdt_fit(Ozone ~ Temp + Wind, data = d, max_depth = 2,
                  na.action = na.exclude)
  expect_length(fitted(fit), nrow(d))
  expect_length(residuals(fit), nrow(d))
  expect_identical(unname(is.na(residuals(fit))), is.na(d$Ozone))
  expect_error(residuals(fit, modle = 2), "modle")
  expect_error(fitted(fit, model = 99), "model")
})

test_that("progress = TRUE reports on stderr, and only then", {
  shown <- capture.output(
    dpdt_fit(Species ~ ., data = iris, max_depth = 3, progress = TRUE),
    type = "message")
  expect_match(paste(shown, collapse = ""), "[0-9]+ of [0-9]+ subtrees below the root")
  quiet <- capture.output(
    dpdt_fit(Species ~ ., data = iris, max_depth = 3, progress = FALSE),
    type = "message")
  expect_length(quiet, 0)
})
