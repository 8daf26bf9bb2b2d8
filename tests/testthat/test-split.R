# node_split() / split_labels(): the one reader of a tree's split fields.

test_that("numeric, indicator, level-group and NA-side splits read as rules", {
  features <- data.frame(name = c("x", "gb", "o", "l", "g"),
                         variable = c("x", "g", "o", "l", "g"),
                         kind = c("numeric", "factor", "ordered", "logical", "factor"),
                         level = c(NA, "b", NA, "TRUE", NA))
  xlevels <- list(g = c("a", "b", "c"), o = c("lo", "mid", "hi"))
  tree <- list(feature = c(1L, 2L, 3L, 4L, 5L), threshold = c(2.5, 0.5, 2.7, 0.5, NA),
               levels_left = list(NULL, NULL, NULL, NULL, c(1L, 3L)),
               na_left = c(TRUE, NA, FALSE, NA, NA))
  s1 <- node_split(tree, 1, features, xlevels)
  expect_identical(s1$kind, "numeric")
  expect_identical(split_labels(s1), c("x <= 2.5 or NA", "x > 2.5"))
  s2 <- node_split(tree, 2, features, xlevels)
  expect_identical(s2$left_levels, c("a", "c"))
  expect_identical(s2$right_levels, "b")
  expect_identical(split_labels(s2), c("g != b", "g = b"))
  s3 <- node_split(tree, 3, features, xlevels)
  expect_identical(s3$left_levels, c("lo", "mid"))
  expect_identical(split_labels(s3), c("o <= mid", "o > mid or NA"))
  expect_identical(split_labels(node_split(tree, 4, features, xlevels)),
                   c("l = FALSE", "l = TRUE"))
  s5 <- node_split(tree, 5, features, xlevels)
  expect_identical(s5$left_levels, c("a", "c"))
  expect_identical(split_labels(s5), c("g != b", "g = b"))
  features$kind[5] <- "categorical"   # one column of level codes
  expect_identical(split_labels(node_split(tree, 5, features, xlevels)),
                   c("g != b", "g = b"))
  xlevels$g <- c("a", "b", "c", "d")
  expect_identical(split_labels(node_split(tree, 5, features, xlevels)),
                   c("g in {a, c}", "g in {b, d}"))
})

test_that("routing follows level groups and learned NA sides", {
  # root: x <= 1 (NA left); left child: g in {1, 3} (NA right)
  tree <- list(feature = c(1L, 2L, 0L, 0L, 0L), threshold = c(1, NA, NA, NA, NA),
               levels_left = list(NULL, c(3L, 1L), NULL, NULL, NULL),
               na_left = c(TRUE, FALSE, NA, NA, NA),
               left = c(2L, 3L, 0L, 0L, 0L), right = c(5L, 4L, 0L, 0L, 0L))
  x <- cbind(c(0, 0, 0, 2, NA, NA, 0), c(1, 2, 3, 1, 3, NA, NA))
  expect_identical(cpp_route(x, tree), c(3L, 4L, 3L, 5L, 3L, 4L, 4L))
  tree$na_left[1] <- NA   # no side learned: the row reaches no leaf
  expect_identical(cpp_route(x, tree)[5:7], c(NA, NA, 4L))
})
