# The convex hull and its alpha intervals do not depend on the unit of the
# response (found by tools/fuzz: with losses below 1e-12 every front row was
# a hull row, with alpha_min > alpha_max).

hull_of <- function(fit) which(!is.na(fit$front$alpha_min))

test_that("alpha intervals are scale-equivariant in the response", {
  set.seed(3)
  d <- data.frame(a = runif(200), b = runif(200))
  d$y <- 3 * (d$a > .5) + 2 * (d$b > .3) + rnorm(200, sd = .3)
  unit <- dpdt_fit(y ~ a + b, data = d, max_depth = 3, threads = 1)
  h <- hull_of(unit)
  expect_lt(length(h), nrow(unit$front))  # some rows are off the hull
  for (s in c(1e-7, 1e7)) {
    fit <- dpdt_fit(y ~ a + b, data = transform(d, y = y * s), max_depth = 3,
                    threads = 1)
    expect_equal(nrow(fit$front), nrow(unit$front))
    expect_identical(hull_of(fit), h)
    expect_equal(fit$front$alpha_min[h], unit$front$alpha_min[h] * s^2,
                 tolerance = 1e-9)
    expect_equal(fit$front$alpha_max[h], unit$front$alpha_max[h] * s^2,
                 tolerance = 1e-9)
    expect_true(all(fit$front$alpha_min[h] <= fit$front$alpha_max[h]))
  }
})

test_that("rows a rounding apart do not stop the hull scan", {
  # Rows 3 and 4 are 1e-15 apart and both above the chord from row 2 to row
  # 5: neither is a hull row (an absolute tolerance on the cross product
  # kept 3, 4 and 5, with row 3 optimal where row 5 is better).
  x <- c(0, 1, 1.5, 1.5 + 1e-15, 2)
  y <- c(1, 0.5, 0.45, 0.45 - 1e-15, 0)
  expect_identical(lower_hull(x, y), c(1L, 2L, 5L))
  a <- alpha_intervals(x, y)
  expect_identical(which(!is.na(a$alpha_min)), c(1L, 2L, 5L))
  expect_equal(a$alpha_min[2], 0.5)
  # The fuzzer's case (seed 20261130, case 685): rows 3e-11 apart, the
  # second far below the chord from the first.
  x <- c(1.4284036, 1.4434910979427764, 1.4434910979697384, 2)
  y <- c(0.11481808, 0.114682915298330620, 0.114682915271368618, 0.030180900157460461)
  expect_identical(lower_hull(x, y), c(1L, 4L))
  # Points on an edge are kept (optimal at one alpha): exact and rounded.
  expect_identical(lower_hull(c(0, 1, 2, 3), c(3, 2, 1, 0)), 1:4)
  expect_identical(lower_hull(c(0, 0.1, 0.3), c(0.3, 0.2, 0)), 1:3)
})
