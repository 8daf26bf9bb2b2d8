# Fronts are strictly decreasing in loss even where the losses are rounding
# noise (found by tools/fuzz: with a constant response and scaled weights,
# the depth-one split whose scanned score beat the leaf's loss by rounding
# was stored with its children's loss, which did not).

test_that("a constant response never gives a front with a non-decreasing loss", {
  for (s in 1:40) {
    set.seed(s)
    n <- 100
    d <- data.frame(x = rnorm(n), z = sample(5, n, TRUE), y = -1.8847660002926683,
                    w = runif(n) * 10^runif(1, -8, 8))
    for (depth in 1:2) {
      expect_warning(fit <- dpdt_fit(y ~ x + z, data = d, weights = w,
                                     max_depth = depth, threads = 1),
                     "response `y` is constant")
      # a pure root is a leaf: no split can beat its loss of exactly 0
      expect_identical(fit$front$train_loss, 0,
                       label = sprintf("seed %d, max_depth %d: the single leaf", s, depth))
    }
  }
})
