# The cross-validation made by hand that dpdt_cv() is checked against
# (test-cv.R, test-cv-oracle.R): for every fold, dpdt_fit() with the same
# arguments on the fold's training rows, predict() on its held-out rows
# (unseen levels as missing values), scored by the documented rule: the loss
# of the fit's train_loss (misclassified weight, the loss matrix's cost of
# the prediction, or squared error), each row weighted as in the fit (the
# prior's factor of its class included), pooled over the folds. Nothing of
# dpdt_cv()'s own code is used.

# `args`: dpdt_fit()'s arguments but `data` (weights as a column name, a
# symbol); `fold`: the fold of each row of `data`.
oracle_cv <- function(args, data, fold) {
  fit_on <- function(d) suppressWarnings(do.call(dpdt_fit, c(list(data = d), args)))
  full <- fit_on(data)
  col <- switch(full$control$complexity, tests = "avg_tests", splits = "n_splits",
                cost = "avg_cost")
  comp <- full$front[[col]]
  lo <- full$front$alpha_min
  hi <- full$front$alpha_max
  alpha <- ifelse(is.na(lo), NA, ifelse(hi == Inf, Inf,
                  ifelse(lo == 0, 0, sqrt(lo * hi))))
  yname <- all.vars(args$formula)[1]
  w <- if (is.null(args$weights)) rep(1, nrow(data)) else data[[as.character(args$weights)]]
  classif <- full$type == "classification"
  if (classif) {
    cls <- match(as.character(data[[yname]]), full$levels)
    K <- length(full$levels)
    L <- if (is.null(args$loss_matrix)) 1 - diag(K) else args$loss_matrix
    if (!is.null(args$prior)) {
      wc <- tapply(w, factor(cls, levels = 1:K), sum)
      w <- w * (args$prior * sum(w) / wc)[cls]
    }
  }
  ks <- sort(unique(fold))
  B <- A <- matrix(NA_real_, length(ks), length(comp))
  W <- numeric(length(ks))
  for (k in seq_along(ks)) {
    ho <- fold == ks[k]
    fk <- fit_on(data[!ho, ])
    ck <- fk$front[[col]]
    lk <- fk$front$train_loss
    W[k] <- sum(w[ho])
    held <- vapply(seq_along(ck), function(i) {
      p <- predict(fk, data[ho, ], model = i, unseen = "missing")
      err <- if (classif) L[cbind(cls[ho], match(as.character(p), full$levels))]
             else (p - data[[yname]][ho])^2
      sum(w[ho] * err) / W[k]
    }, numeric(1))
    for (j in seq_along(comp)) {
      ok <- which(ck <= comp[j] + 1e-9 * max(1, comp[j]))
      B[k, j] <- held[ok[which.min(lk[ok])]]
      if (!is.na(alpha[j])) {
        i <- if (alpha[j] == Inf) 1L else which.min(lk + alpha[j] * ck)
        A[k, j] <- held[i]
      }
    }
  }
  pool <- function(M) {
    m <- colSums(W * M) / sum(W)
    list(mean = m, se = sqrt(colSums(W * sweep(M, 2, m)^2) / sum(W) / (nrow(M) - 1)))
  }
  list(budget = pool(B), alpha = pool(A), weight = W)
}

expect_cv_matches <- function(args, data, fold) {
  cv <- suppressWarnings(do.call(dpdt_cv, c(list(x = args$formula, data = data, fold_id = fold),
                                            args[names(args) != "formula"])))
  ref <- oracle_cv(args, data, fold)
  expect_equal(cv$front$cv_loss, ref$budget$mean, tolerance = 1e-12)
  expect_equal(cv$front$cv_se, ref$budget$se, tolerance = 1e-12)
  expect_equal(cv$front$cv_loss_alpha, ref$alpha$mean, tolerance = 1e-12)
  expect_equal(cv$cv_fold_weight, ref$weight, tolerance = 1e-12)
  invisible(cv)
}

