# The alpha intervals of the hull trees tile [0, Inf): each breakpoint is
# computed once and shared by the two trees either side of it, and no
# interval is inverted, even along collinear front points.

expect_alpha_tiling <- function(fit) {
  fr <- fit$front
  h <- which(!is.na(fr$alpha_min))
  expect_identical(h, which(!is.na(fr$alpha_max)))
  expect_identical(h[1], 1L)                      # the leaf is on the hull
  expect_identical(fr$alpha_max[h[1]], Inf)
  expect_identical(fr$alpha_min[h[length(h)]], 0)
  expect_identical(h[length(h)], nrow(fr))        # so is the most accurate tree
  # the same number on both sides of every breakpoint
  expect_identical(fr$alpha_max[h[-1]], fr$alpha_min[h[-length(h)]])
  expect_true(all(fr$alpha_min[h] <= fr$alpha_max[h]))
  # any penalty picks at least one tree, and one only between breakpoints
  a <- c(0, unique(fr$alpha_min[h]), 10^runif(20, -6, 2))
  n_pick <- vapply(a, function(v) sum(fr$alpha_min[h] <= v & v <= fr$alpha_max[h]), 0)
  expect_true(all(n_pick >= 1))
  inside <- !a %in% c(fr$alpha_min[h], fr$alpha_max[h])
  expect_true(all(n_pick[inside] == 1))
}

test_that("alpha intervals tile [0, Inf) over many random fits (splits)", {
  set.seed(20)
  inverted <- 0
  for (i in 1:150) {
    n <- sample(20:60, 1)
    d <- data.frame(a = sample(10, n, TRUE), b = round(runif(n), 1))
    d$y <- if (i %% 3 == 0) round(d$a + 3 * d$b + rnorm(n), 1)
           else factor(sample(c("p", "q", if (i %% 2) "r"), n, TRUE))
    fit <- dpdt_fit(y ~ a + b, d, max_depth = 3, complexity = "splits",
                    threads = 1)
    fr <- fit$front
    inverted <- inverted + any(fr$alpha_min > fr$alpha_max, na.rm = TRUE)
    expect_alpha_tiling(fit)
  }
  expect_identical(inverted, 0)
})

test_that("alpha intervals tile [0, Inf) with complexity = tests and weights", {
  set.seed(21)
  for (i in 1:40) {
    n <- sample(20:60, 1)
    d <- data.frame(a = sample(10, n, TRUE), b = round(runif(n), 1),
                    w = round(runif(n, 0.1, 3), 2))
    d$y <- factor(sample(c("p", "q"), n, TRUE))
    expect_alpha_tiling(dpdt_fit(y ~ a + b, d, weights = w, max_depth = 3,
                                 threads = 1))
  }
})
