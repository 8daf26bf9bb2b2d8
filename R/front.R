# The front data frame: one row per Pareto-optimal tree returned by the
# engine, with the summaries a user compares trees by.

# Per-tree summaries computed from the node vectors.
tree_summary <- function(tree) {
  leaf <- tree$feature == 0L
  c(n_splits = sum(!leaf), n_leaves = sum(leaf), depth = max(tree$depth),
    tests = sum(tree$weight[leaf] * tree$depth[leaf]))
}

# Lower convex hull of points sorted by x ascending (y descending). Points
# lying on a hull edge are kept: they are optimal at exactly one alpha.
# First the strict hull (a point within rounding of a chord is no vertex),
# then the points on its edges are added back. Keeping near-collinear points
# during the scan instead let a pair of rows a rounding apart stop it, with a
# non-convex "hull" after them (found by tools/fuzz, widely spread weights).
lower_hull <- function(x, y) {
  # The hull does not change when an axis is scaled: work in [0, 1] so that
  # the cross products below can neither overflow nor underflow.
  x <- x / max(1, abs(x))
  if (length(y) && max(abs(y)) > 0) y <- y / max(abs(y))
  tol <- 1e-12
  # > 0: b strictly below the chord from a to i, beyond the rounding of the
  # cross product (relative to its two terms); 0: on it; < 0: above.
  side <- function(a, b, i) {
    p1 <- (x[b] - x[a]) * (y[i] - y[a])
    p2 <- (y[b] - y[a]) * (x[i] - x[a])
    d <- p1 - p2
    if (abs(d) <= tol * (abs(p1) + abs(p2))) 0 else sign(d)
  }
  hull <- integer(0)
  for (i in seq_along(x)) {
    while (length(hull) >= 2 && side(hull[length(hull) - 1], hull[length(hull)], i) <= 0)
      hull <- hull[-length(hull)]
    hull <- c(hull, i)
  }
  if (length(hull) < 2) return(hull)
  on_edge <- integer(0)
  for (k in seq_len(length(hull) - 1)) {
    a <- hull[k]
    c <- hull[k + 1]
    for (j in seq_len(c - a - 1) + a) {
      if (side(a, j, c) == 0) on_edge <- c(on_edge, j)
    }
  }
  sort(c(hull, on_edge))
}

# alpha interval over which each hull tree minimises loss + alpha * c:
# between the slopes to its hull neighbours. NA for trees off the hull.
# Each breakpoint is computed once and given to both trees beside it, so
# the intervals tile [0, Inf) exactly. Along collinear points (kept on the
# hull) the slopes are equal up to rounding, which could make a point's
# alpha_min exceed its alpha_max by an ulp: a running minimum keeps the
# breakpoints non-increasing, so such a point gets the interval [s, s].
alpha_intervals <- function(comp, loss) {
  m <- length(comp)
  amin <- amax <- rep(NA_real_, m)
  h <- lower_hull(comp, loss)
  slope <- cummin(-diff(loss[h]) / diff(comp[h]))
  amax[h] <- c(Inf, slope)
  amin[h] <- c(slope, 0)
  list(alpha_min = amin, alpha_max = amax)
}

# Weighted mean, over the rows, of the cost of the tests on each row's path.
tree_cost <- function(tree, costs) {
  inner <- tree$feature > 0
  sum(costs[tree$feature[inner]] * tree$weight[inner])
}

# The front's column a complexity measure is read from ("tests",
# "splits", "cost"), and its values.
complexity_column <- function(complexity) {
  switch(complexity, tests = "avg_tests", splits = "n_splits", cost = "avg_cost")
}
front_complexity <- function(front, complexity) {
  as.double(front[[complexity_column(complexity)]])
}

build_front <- function(res, complexity, total_weight, costs = NULL) {
  s <- vapply(res$trees, tree_summary, numeric(4))
  train_loss <- res$loss / total_weight
  avg_tests <- s["tests", ] / total_weight
  avg_cost <- if (complexity == "cost") {
    if (is.null(costs)) avg_tests
    else vapply(res$trees, tree_cost, numeric(1), costs = costs) / total_weight
  }
  comp <- switch(complexity, tests = avg_tests, cost = avg_cost,
                 s["n_splits", ])
  rel <- if (train_loss[1] > 0) train_loss / train_loss[1]
         else rep(1, length(train_loss))
  a <- alpha_intervals(comp, train_loss)
  columns_frame(c(
    list(model = seq_along(res$trees),
         n_splits = as.integer(s["n_splits", ]),
         n_leaves = as.integer(s["n_leaves", ]),
         depth = as.integer(s["depth", ]),
         avg_tests = avg_tests),
    if (!is.null(avg_cost)) list(avg_cost = avg_cost),
    list(train_loss = train_loss,
         rel_error = rel,
         alpha_min = a$alpha_min,
         alpha_max = a$alpha_max)
  ))
}
