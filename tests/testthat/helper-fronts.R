# Synthetic front objects built to the contracts of REPRESENTATION.md, so
# that plots and exports are tested on pruning and CV fronts before their
# producers (dpdt_prune, dpdt_cv) land. Both reuse a fit's trees.

# A pruning-like front: trees by number of splits, some not Pareto-optimal.
fake_prune <- function(fit) {
  f <- fit$front
  m <- nrow(f)
  w <- sum(fit$trees[[1]]$weight)
  loss <- f$train_loss
  loss[seq(2, m, by = 3)] <- loss[seq(2, m, by = 3)] * 1.5 + 0.01  # dominated
  best <- rev(cummin(rev(loss)))
  pareto <- vapply(seq_len(m), function(i) {
    !any(f$n_splits <= f$n_splits[i] & loss < loss[i] |
           f$n_splits < f$n_splits[i] & loss <= loss[i])
  }, logical(1))
  front <- data.frame(model = seq_len(m), n_pruned = max(f$n_splits) - f$n_splits,
                      n_splits = f$n_splits, n_leaves = f$n_leaves,
                      depth = f$depth, avg_tests = f$avg_tests,
                      errors = loss * w, loss = loss, pareto = pareto)
  out <- fit
  out$front <- front
  out$loss_column <- "loss"
  out$default_model <- m
  out$control <- NULL
  out$method <- "replace"
  out$source <- "dpdt"
  out$original <- fit
  class(out) <- c("dpdt_prune", "dpdt")
  out
}

# A CV-like front: cv_loss above the training loss with a minimum inside,
# penalty scores on the hull rows only, choices min and 1-SE.
fake_cv <- function(fit) {
  f <- fit$front
  m <- nrow(f)
  k <- seq_len(m)
  cv <- f$train_loss + 0.02 * (k / m)^2 + 0.01
  se <- rep(0.01, m) + 0.002 * k / m
  out <- fit
  out$front$cv_loss <- cv
  out$front$cv_se <- se
  hull <- !is.na(f$alpha_min)
  out$front$cv_loss_alpha <- ifelse(hull, cv + 0.001, NA)
  out$front$cv_se_alpha <- ifelse(hull, se, NA)
  out$model_min <- which.min(cv)
  out$model_1se <- min(which(cv <= cv[out$model_min] + se[out$model_min]))
  out$default_model <- out$model_1se
  out$folds <- rep_len(1:5, nrow(fit$model_frame))
  out$cv_method <- "budget"
  class(out) <- c("dpdt_cv", "dpdt")
  out
}

# Data whose deep trees have 30 leaves and more: noisy classes driven by
# several numeric predictors and a factor with long level names.
deep_tree_data <- function(n = 1500, seed = 7) {
  withr::with_seed(seed, {
    d <- data.frame(income_per_household = stats::rnorm(n),
                    age_of_the_applicant = stats::runif(n, 18, 80),
                    seniority = stats::rpois(n, 6),
                    region = factor(sample(c("north_west", "north_east", "centre",
                                             "south_west", "south_east"), n, TRUE)))
    s <- d$income_per_household + (d$age_of_the_applicant - 50) / 15 +
      (d$seniority - 6) / 3 + as.integer(d$region) / 3
    d$status <- factor(ifelse(s + stats::rnorm(n) > 1, "good", "bad"))
    d
  })
}

# A one-tree front built by hand from a tree list, with training
# statistics computed here in R by routing the rows: used to test split
# kinds that dpdt_fit() does not produce yet (one column of level codes
# with a level group, ordered and logical tests, learned NA sides).
front_from_tree <- function(formula, data, tree, features, xlevels) {
  mf <- stats::model.frame(formula, data, na.action = stats::na.pass)
  y <- stats::model.response(mf)
  classif <- is.factor(y)
  leaf <- cpp_route(feature_matrix(mf, features, xlevels), tree)
  m <- length(tree$feature)
  below <- function(i) if (tree$feature[i] == 0L) i
                       else c(i, below(tree$left[i]), below(tree$right[i]))
  tree$n <- integer(m)
  tree$weight <- tree$value <- tree$loss <- numeric(m)
  if (classif) tree$class_weight <- matrix(0, m, nlevels(y))
  for (i in seq_len(m)) {
    rows <- which(leaf %in% below(i))
    tree$n[i] <- length(rows)
    tree$weight[i] <- length(rows)
    if (classif) {
      cw <- as.numeric(table(y[rows]))
      tree$class_weight[i, ] <- cw
      tree$value[i] <- which.max(cw)
      tree$loss[i] <- length(rows) - max(cw)
    } else {
      tree$value[i] <- mean(y[rows])
      tree$loss[i] <- sum((y[rows] - tree$value[i])^2)
    }
  }
  lf <- tree$feature == 0L
  n <- sum(!is.na(leaf))
  front <- data.frame(model = 1L, n_splits = sum(!lf), n_leaves = sum(lf),
                      depth = max(tree$depth),
                      avg_tests = sum(tree$weight[lf] * tree$depth[lf]) / n,
                      train_loss = sum(tree$loss[lf]) / n)
  structure(list(front = front, trees = list(tree), default_model = 1L,
                 loss_column = "train_loss",
                 type = if (classif) "classification" else "regression",
                 levels = if (classif) levels(y), response = names(mf)[1],
                 features = features, xlevels = xlevels, terms = attr(mf, "terms"),
                 model_frame = mf, na.action = NULL),
            class = "dpdt")
}

# Data and a tree with every split kind: a level group of an unordered
# factor (one column of codes, no NA side), a numeric test (NA left), an
# ordered test (NA right), a logical test (no NA side).
mixed_data <- function(n = 400, seed = 3, regression = FALSE) {
  withr::with_seed(seed, {
    d <- data.frame(g = factor(sample(c("a", "b", "c", "d", "e"), n, TRUE)),
                    x = stats::runif(n),
                    o = factor(sample(c("lo", "mid", "hi"), n, TRUE),
                               levels = c("lo", "mid", "hi"), ordered = TRUE),
                    b = sample(c(TRUE, FALSE), n, TRUE))
    s <- (d$g %in% c("a", "c", "e")) + (d$x > 0.4) - (d$o == "hi") + d$b +
      stats::rnorm(n, sd = 0.7)
    d$y <- if (regression) s else factor(cut(s, c(-Inf, 0.3, 1.3, Inf),
                                             labels = c("low", "mid", "high")))
    d
  })
}

mixed_front <- function(regression = FALSE) {
  features <- data.frame(name = c("g", "x", "o", "bTRUE"), variable = c("g", "x", "o", "b"),
                         kind = c("categorical", "numeric", "ordered", "logical"),
                         level = c(NA, NA, NA, "TRUE"))
  xlevels <- list(g = c("a", "b", "c", "d", "e"), o = c("lo", "mid", "hi"))
  tree <- list(feature = c(1L, 2L, 0L, 0L, 3L, 4L, 0L, 0L, 0L),
               threshold = c(NA, 0.4, NA, NA, 2, 0.5, NA, NA, NA),
               levels_left = list(c(1L, 3L, 5L), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
               na_left = c(NA, TRUE, NA, NA, FALSE, NA, NA, NA, NA),
               left = c(2L, 3L, 0L, 0L, 6L, 7L, 0L, 0L, 0L),
               right = c(5L, 4L, 0L, 0L, 9L, 8L, 0L, 0L, 0L),
               depth = c(0L, 1L, 2L, 2L, 1L, 2L, 3L, 3L, 2L))
  front_from_tree(y ~ g + x + o + b, mixed_data(regression = regression), tree,
                  features, xlevels)
}

# New rows for mixed_front(), with missing values in every variable.
mixed_newdata <- function() {
  d <- mixed_data(n = 60, seed = 11)
  d$x[c(1, 5, 9)] <- NA     # NA goes left
  d$o[c(2, 5, 10)] <- NA    # NA goes right
  d$g[c(3, 12)] <- NA       # no side: no prediction
  d$b[c(4, 13, 14)] <- NA   # no side
  d
}
