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
