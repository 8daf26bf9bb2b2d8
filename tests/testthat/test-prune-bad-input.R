# Bad input to dpdt_prune() gets clear errors naming the argument.

test_that("unsupported objects and empty trees are refused", {
  expect_error(dpdt_prune(lm(mpg ~ wt, mtcars), mtcars),
               "`tree` must be a dpdt front .* got a lm")
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
  expect_error(dpdt_prune(fit, model = 1), "single leaf")
  expect_error(dpdt_prune(fit, model = 99), "`model` must be a whole number")
  skip_if_not_installed("rpart")
  stump <- rpart::rpart(Species ~ ., data = iris, cp = 1)
  expect_error(dpdt_prune(stump, iris), "single leaf")
  expect_error(dpdt_prune(stump, iris, model = 2), "leave `model` NULL")
  pois <- rpart::rpart(count ~ x, data.frame(count = rpois(50, 3), x = 1:50),
                       method = "poisson")
  expect_error(dpdt_prune(pois, data.frame(count = rpois(50, 3), x = 1:50)),
               "\"class\" and \"anova\" trees only")
})

test_that("data that does not match the tree is refused", {
  fit <- dpdt_fit(Species ~ Petal.Length + Petal.Width, data = iris, max_depth = 2)
  expect_error(dpdt_prune(fit, iris[, -4]), "lacks column\\(s\\) `Petal.Width`")
  expect_error(dpdt_prune(fit, iris[, -5]), "lacks column\\(s\\) `Species`")
  expect_error(dpdt_prune(fit, as.matrix(iris[, 1:4])), "`data` must be a data frame")
  expect_error(dpdt_prune(fit, iris[0, ]), "`data` has no rows")
  bad <- iris
  bad$Species <- factor(ifelse(iris$Species == "setosa", "rose", "other"))
  expect_error(dpdt_prune(fit, bad), "class\\(es\\) \"other\", \"rose\"|class\\(es\\) \"rose\", \"other\"")
  na_y <- iris
  na_y$Species[3] <- NA
  expect_error(dpdt_prune(fit, na_y), "response `Species` has NA")
  na_x <- iris
  na_x$Petal.Length[c(2, 7)] <- NA
  # dpdt trees know a side for missing values at every test: no row is dropped
  pr <- dpdt_prune(fit, na_x)
  expect_equal(front_tree(pr, 1)$weight[1], 150)
  expect_error(dpdt_prune(fit, iris, weights = rep(1, 3)), "`weights` must be a numeric vector")
  expect_error(dpdt_prune(fit, iris, weights = rep(0, 150)), "`weights` sum to zero")
  reg <- dpdt_fit(mpg ~ wt, data = mtcars, max_depth = 2)
  m2 <- mtcars
  m2$mpg <- as.character(m2$mpg)
  expect_error(dpdt_prune(reg, m2), "must be finite numbers")
})

test_that("bad options are refused", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
  expect_error(dpdt_prune(fit, method = "cut"), "`method` must be one of \"replace\", \"raise\"")
  expect_error(dpdt_prune(fit, labels = "x"), "`labels` must be one of")
  expect_error(dpdt_prune(fit, max_states = -1), "`max_states` must be a single number")
  expect_error(dpdt_prune(fit, cp = 0.1), "Argument\\(s\\) `cp` not matched by dpdt_prune")
  expect_error(dpdt_prune(fit, index = "both"), "`index` must be one of")
  expect_error(dpdt_prune(fit, lazy = NA), "`lazy` must be")
  skip_if_not_installed("rpart")
  tr <- rpart::rpart(Species ~ ., data = iris, y = FALSE)
  expect_error(dpdt_prune(tr), "`data` is missing; pass the rows")
})
