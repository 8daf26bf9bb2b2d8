# A front computed by hand.
#
# row  x1 x2  y        y along x1:  a b a b b b a a
#  1    1  1  a        x2 = 1: rows 1, 3 (a a)    x2 = 2: rows 2, 6 (b b)
#  2    2  2  b        x2 = 3: rows 5, 7 (b a)    x2 = 4: rows 4, 8 (b a)
#  3    3  1  a
#  4    4  4  b
#  5    5  3  b
#  6    6  2  b
#  7    7  3  a
#  8    8  4  a
#
# Leaf: 4 a, 4 b -> 4 errors, 0 tests.
# Depth 1: the best splits are x1 <= 6.5 (a b a b b b | a a: 2 + 0) and
#   x2 <= 1.5 (a a | b b b a b a: 0 + 2): 2 errors, 8 tests, 1 split.
# Depth 2, 1 error with 8 + 5 = 13 tests: x1 <= 5.5 gives a b a b b | b a a;
#   the left five (x2 = 1 2 1 4 3) split by x2 <= 1.5 into a a | b b b.
#   Nothing cheaper reaches 1 error: a root split of sizes 4/4, 5/3, 6/2 or
#   7/1 whose small side is split never leaves fewer than 2 errors.
# Depth 2, 0 errors with 8 + 6 = 14 tests: x1 <= 6.5, then x2 <= 1.5 on the
#   left six. No pure root child has 3 or more rows, so 14 is the minimum.
# Three splits cost 16 tests and cannot beat 0 errors.
# Tests front:  (errors, tests)  = (4, 0), (2, 8), (1, 13), (0, 14)
# Splits front: (errors, splits) = (4, 0), (2, 1), (0, 2)
#
# Convex hull (per-row tests c, error rate l): (0, .5), (1, .25),
#   (1.625, .125), (1.75, 0). The chord from the leaf to (1.75, 0) has slope
#   -2/7 and passes below both middle points, so the hull is the leaf and
#   the last tree: alpha intervals [2/7, Inf) and [0, 2/7], NA in between.
# Splits: (0, .5), (1, .25), (2, 0) are collinear: leaf [1/4, Inf), the
#   last tree [0, 1/4].

worked <- data.frame(
  x1 = 1:8,
  x2 = c(1, 2, 1, 4, 3, 2, 3, 4),
  y = factor(c("a", "b", "a", "b", "b", "b", "a", "a"))
)

test_that("worked example: the tests front", {
  for (threads in 1:2) {
    fit <- dpdt_fit(y ~ x1 + x2, data = worked, max_depth = 2,
                    candidates = "exhaustive", complexity = "tests",
                    threads = threads, min_bucket = 1)
    fr <- fit$front
    expect_equal(fr$model, 1:4)
    expect_equal(fr$train_loss, c(4, 2, 1, 0) / 8)
    expect_equal(fr$avg_tests, c(0, 8, 13, 14) / 8)
    expect_equal(fr$n_splits, c(0, 1, 2, 2))
    expect_equal(fr$n_leaves, c(1, 2, 3, 3))
    expect_equal(fr$depth, c(0, 1, 2, 2))
    expect_equal(fr$rel_error, c(1, .5, .25, 0))
    expect_equal(fr$alpha_max, c(Inf, NA, NA, 2 / 7))
    expect_equal(fr$alpha_min, c(2 / 7, NA, NA, 0))
    for (i in 1:4) {
      expect_equal(mean(predict(fit, model = i) != worked$y),
                   fr$train_loss[i])
    }
  }
})

test_that("worked example: the splits front", {
  fit <- dpdt_fit(y ~ x1 + x2, data = worked, max_depth = 2,
                  candidates = "exhaustive", complexity = "splits", min_bucket = 1)
  fr <- fit$front
  expect_equal(fr$train_loss, c(4, 2, 0) / 8)
  expect_equal(fr$n_splits, c(0, 1, 2))
  expect_equal(fr$avg_tests, c(0, 8, 14) / 8)
  expect_equal(fr$alpha_max[1], Inf)
  expect_equal(fr$alpha_min[1], 1 / 4)
  expect_equal(fr$alpha_max[3], 1 / 4)
  expect_equal(fr$alpha_min[3], 0)
  # the middle point lies on the hull's edge: either off the hull or a
  # degenerate interval at alpha = 1/4
  if (!is.na(fr$alpha_min[2])) {
    expect_equal(c(fr$alpha_min[2], fr$alpha_max[2]), c(1 / 4, 1 / 4))
  }
})

test_that("worked example: depth 1 and a weighted variant", {
  fit <- dpdt_fit(y ~ x1 + x2, data = worked, max_depth = 1,
                  candidates = "exhaustive", min_bucket = 1)
  expect_equal(fit$front$train_loss, c(4, 2) / 8)
  expect_equal(fit$front$avg_tests, c(0, 1))
  # Weight row 7 by 5 (total 12; a: 1 + 1 + 5 + 1 = 8, b: 4).
  # Leaf: predicts a, 4 errors. x1 <= 3.5 gives a b a | b b b a a, i.e.
  # 1 + (3 b against 6 a: 3) = 4, no gain; x1 <= 6.5 gives
  # a b a b b b | a a: 2 + 0 = 2 with 12 tests, the best single split.
  # Depth 2: x1 <= 5.5 gives a b a b b | b a(5) a: the right side errs
  # once; splitting the left five by x2 <= 1.5 -> 1 error, 12 + 5 = 17
  # tests. x1 <= 6.5, left six split by x2 <= 1.5 -> 0 errors, 12 + 6 = 18.
  # Any depth-2 improvement splits a child, costing 12 + its weight, and
  # a child of weight <= 4 (x1 <= 4.5, x1 <= 3.5, x2 <= 2.5, ...) leaves
  # at least 2 errors on the other side.
  wd <- worked
  wd$wt <- c(1, 1, 1, 1, 1, 1, 5, 1)
  fit <- dpdt_fit(y ~ x1 + x2, data = wd, weights = wt, max_depth = 2,
                  candidates = "exhaustive", min_bucket = 1)
  expect_equal(fit$front$train_loss * 12, c(4, 2, 1, 0))
  expect_equal(fit$front$avg_tests * 12, c(0, 12, 17, 18))
})

test_that("worked example: regression", {
  d <- data.frame(x = 1:5, y = c(0, 0, 4, 4, 8))
  # leaf: mean 16/5, SSE = sum(y^2) - 16^2/5 = 96 - 51.2 = 44.8
  # x <= 2.5: SSE 0 + (4, 4, 8: mean 16/3, 96 - 256/3 = 32/3): tests 5
  # x <= 4.5: (0 0 4 4: 16) + 0 = 16: worse than 32/3
  # depth 2: x <= 2.5 then x <= 4.5 on the right: 0, tests 5 + 3 = 8
  fit <- dpdt_fit(y ~ x, data = d, max_depth = 2, candidates = "exhaustive", min_bucket = 1)
  expect_equal(fit$type, "regression")
  expect_equal(fit$front$train_loss * 5, c(44.8, 32 / 3, 0))
  expect_equal(fit$front$avg_tests * 5, c(0, 5, 8))
  expect_equal(unname(predict(fit, model = 2)), c(0, 0, 16 / 3, 16 / 3, 16 / 3))
})
