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
