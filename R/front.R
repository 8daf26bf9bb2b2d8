# The front data frame: one row per Pareto-optimal tree returned by the
# engine, with the summaries a user compares trees by.

# Per-tree summaries computed from the node vectors.
tree_summary <- function(tree) {
  leaf <- tree$feature == 0L
  c(n_splits = sum(!leaf), n_leaves = sum(leaf), depth = max(tree$depth),
    tests = sum(tree$weight[leaf] * tree$depth[leaf]))
}

# Lower convex hull of points sorted by x ascending (y descending). Points
# lying on a hull edge are kept: they are optimal at exactly one alpha. The
# tolerance scales with x and y (the cross products are in units of x * y):
# an absolute one made every point of a front with losses below 1e-12 a hull
# point, with inverted alpha intervals.
lower_hull <- function(x, y) {
  tol <- 1e-12 * max(abs(x)) * max(abs(y))
  hull <- integer(0)
  for (i in seq_along(x)) {
    while (length(hull) >= 2) {
      a <- hull[length(hull) - 1]
      b <- hull[length(hull)]
      cross <- (x[b] - x[a]) * (y[i] - y[a]) - (y[b] - y[a]) * (x[i] - x[a])
      if (cross < -tol) hull <- hull[-length(hull)] else break
    }
    hull <- c(hull, i)
  }
  hull
}

# alpha interval over which each hull tree minimises loss + alpha * c:
# between the slopes to its hull neighbours. NA for trees off the hull.
alpha_intervals <- function(comp, loss) {
  m <- length(comp)
  amin <- amax <- rep(NA_real_, m)
  h <- lower_hull(comp, loss)
  slope <- -diff(loss[h]) / diff(comp[h])
  amax[h] <- c(Inf, slope)
  amin[h] <- c(slope, 0)
  list(alpha_min = amin, alpha_max = amax)
}

build_front <- function(res, complexity, total_weight) {
  s <- vapply(res$trees, tree_summary, numeric(4))
  train_loss <- res$loss / total_weight
  avg_tests <- s["tests", ] / total_weight
  comp <- if (complexity == "tests") avg_tests else s["n_splits", ]
  rel <- if (train_loss[1] > 0) train_loss / train_loss[1]
         else rep(1, length(train_loss))
  a <- alpha_intervals(comp, train_loss)
  out <- data.frame(
    model = seq_along(res$trees),
    n_splits = as.integer(s["n_splits", ]),
    n_leaves = as.integer(s["n_leaves", ]),
    depth = as.integer(s["depth", ]),
    avg_tests = avg_tests,
    train_loss = train_loss,
    rel_error = rel,
    alpha_min = a$alpha_min,
    alpha_max = a$alpha_max
  )
  rownames(out) <- NULL
  out
}
