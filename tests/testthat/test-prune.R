# dpdt_prune() on dpdt trees: brute force over every replacement pruning
# and every raising result, the worked example of PRUNING.md, properties.

# A front object holding one given tree (for exact hand-made examples).
hand_front <- function(tree, data, formula, type = "classification") {
  mf <- stats::model.frame(formula, data)
  y <- stats::model.response(mf)
  vars <- attr(attr(mf, "terms"), "term.labels")
  structure(list(
    front = data.frame(model = 1L), trees = list(tree), default_model = 1L,
    loss_column = "train_loss", type = type,
    levels = if (type == "classification") levels(y), response = names(mf)[1],
    features = data.frame(name = vars, variable = vars, kind = "numeric",
                          level = NA_character_),
    xlevels = list(), terms = attr(mf, "terms"), model_frame = mf,
    na.action = NULL), class = "dpdt")
}

test_that("the worked example of PRUNING.md gives its exact fronts", {
  d <- data.frame(x0 = c(0, 1, 0, 1, 2, 3, 2, 3), x1 = c(0, 0, 1, 1, 0, 0, 1, 1),
                  y = factor(c(0, 0, 1, 1, 0, 0, 1, 0)))
  tr <- list(feature = c(1L, 2L, 0L, 0L, 2L, 0L, 0L),
             threshold = c(1, 0, NA, NA, 0, NA, NA),
             left = c(2L, 3L, 0L, 0L, 6L, 0L, 0L),
             right = c(5L, 4L, 0L, 0L, 7L, 0L, 0L),
             depth = c(0L, 1L, 2L, 2L, 1L, 2L, 2L),
             value = c(1, 1, 1, 2, 1, 1, 2))   # classes 1-based: "0", "1"
  fr <- hand_front(tr, d, y ~ x0 + x1)
  for (index in c("pruned", "errors")) {
    p <- dpdt_prune(fr, index = index)
    expect_equal(p$front$errors, c(3, 3, 1, 1))   # model 1 the single leaf
    expect_equal(p$index, index)
  }
  r <- dpdt_prune(fr, method = "raise")
  expect_equal(r$front$errors, c(3, 1, 1, 1))
  expect_equal(r$front$n_splits, 0:3)
  expect_equal(r$front$n_pruned, 3:0)
  expect_equal(r$front$pareto, c(TRUE, TRUE, FALSE, FALSE))
  # the raised tree of k = 2 is one split on x1 over all rows
  expect_equal(dpdt_tree(r, model = 2)$nodes$rule[2], "x1 <= 0")
})

random_case <- function(seed, K, weighted, n = 40) {
  set.seed(seed)
  d <- data.frame(a = sample(0:4, n, TRUE), b = round(runif(n), 1),
                  g = factor(sample(c("u", "v", "w"), n, TRUE)))
  d$y <- if (K > 0) factor(sample(letters[seq_len(K)], n, TRUE))
         else d$a + 3 * (d$g == "u") + round(rnorm(n), 1)
  d$w <- if (weighted) sample(1:3, n, TRUE) * 0.5 else 1
  d
}

test_that("replacement fronts equal brute force over every set of cut nodes", {
  for (case in 1:6) {
    K <- c(2, 3, 0)[(case - 1) %% 3 + 1]
    d <- random_case(case, K, weighted = case > 3, n = 30)
    fit <- dpdt_fit(y ~ a + b + g, data = d, weights = w, max_depth = 3,
                    cart_depth = 2, min_bucket = 1)
    model <- max(which(fit$front$n_splits <= 6))
    tr <- fit$trees[[model]]
    holdout <- random_case(100 + case, K, weighted = case %% 2 == 0, n = 20)
    for (rows in list("train", "holdout")) for (labels in c("keep", "relabel")) {
      p <- if (rows == "train") dpdt_prune(fit, model = model, labels = labels)
           else dpdt_prune(fit, holdout, labels = labels, weights = w, model = model)
      inp <- or_inputs(p, tr)
      want <- or_replacement(tr, inp$x, inp$y, inp$w, inp$K, inp$keep,
                             labels == "relabel")
      # the brute force lists k = 0.. pruned splits; the front the other way
      expect_equal(p$front$errors, rev(want), tolerance = 1e-9)
      expect_equal(p$front$n_pruned, rev(seq_along(want)) - 1L)
      expect_equal(p$front$n_splits, seq_along(want) - 1L)
      # every tree of the front has the errors it reports
      for (m in p$front$model) {
        expect_equal(predicted_errors(p, m), p$front$errors[m], tolerance = 1e-9)
      }
      if (labels == "relabel" || rows == "train") {
        expect_true(all(diff(p$front$errors) <= 1e-9))
      }
    }
  }
})

test_that("raising fronts equal brute force over every raising result", {
  for (case in 1:6) {
    K <- c(2, 3, 0)[(case - 1) %% 3 + 1]
    d <- random_case(10 + case, K, weighted = case > 3, n = 25)
    fit <- dpdt_fit(y ~ a + b + g, data = d, weights = w, max_depth = 3,
                    cart_depth = 2, min_bucket = 1)
    model <- max(which(fit$front$n_splits <= 5))
    tr <- fit$trees[[model]]
    for (labels in c("keep", "relabel")) {
      r <- dpdt_prune(fit, model = model, method = "raise", labels = labels)
      inp <- or_inputs(r, tr)
      want <- or_raising(tr, inp$x, inp$y, inp$w, inp$K, inp$keep,
                         labels == "relabel")
      expect_equal(r$front$errors, rev(want), tolerance = 1e-9)
      for (m in r$front$model) {
        expect_equal(predicted_errors(r, m), r$front$errors[m], tolerance = 1e-9)
        expect_equal(r$front$n_splits[m], m - 1L)
      }
      if (labels == "relabel") {
        p <- dpdt_prune(fit, model = model, labels = "relabel")
        expect_true(all(r$front$errors <= p$front$errors + 1e-9))
      }
    }
  }
})

test_that("both replacement programs give identical fronts and trees' errors", {
  for (case in 1:4) {
    d <- random_case(20 + case, 2 + case %% 2, weighted = FALSE, n = 60)
    fit <- dpdt_fit(y ~ a + b + g, data = d, max_depth = 4, cart_depth = 3, min_bucket = 1)
    a <- dpdt_prune(fit, labels = "relabel", index = "pruned")
    b <- dpdt_prune(fit, labels = "relabel", index = "errors")
    expect_equal(a$index, "pruned")
    expect_equal(b$index, "errors")
    cols <- c("n_pruned", "n_splits", "n_leaves", "errors", "loss", "pareto")
    expect_equal(a$front[cols], b$front[cols])
    for (m in b$front$model) expect_equal(predicted_errors(b, m), b$front$errors[m])
  }
  # fractional weights rule out the error-indexed program
  d <- random_case(30, 2, weighted = TRUE)
  d$w <- d$w + 0.1
  fit <- dpdt_fit(y ~ a + b + g, data = d, weights = w, max_depth = 2, min_bucket = 1)
  expect_error(dpdt_prune(fit, index = "errors"), "whole-number")
})

test_that("regression losses are exact at extreme response scales", {
  d <- random_case(40, 0, weighted = TRUE, n = 50)
  fit <- dpdt_fit(y ~ a + b + g, data = d, weights = w, max_depth = 3, min_bucket = 1)
  base <- dpdt_prune(fit, labels = "relabel")
  d2 <- d
  d2$y <- d$y + 1e9
  fit2 <- dpdt_fit(y ~ a + b + g, data = d2, weights = w, max_depth = 3, min_bucket = 1)
  shifted <- dpdt_prune(fit2, labels = "relabel")
  expect_equal(shifted$front$errors, base$front$errors, tolerance = 1e-6)
  expect_equal(base$front$errors[1],            # the single leaf
               sum(d$w * (d$y - weighted.mean(d$y, d$w))^2))
})

test_that("the front object works with predict, dpdt_tree, fitted, print", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3, min_bucket = 1)
  p <- dpdt_prune(fit)
  expect_s3_class(p, c("dpdt_prune", "dpdt"))
  expect_named(p$front, c("model", "n_pruned", "n_splits", "n_leaves", "depth",
                          "avg_tests", "errors", "loss", "pareto", "alpha_min",
                          "alpha_max"))
  expect_equal(p$loss_column, "loss")
  last <- nrow(p$front)
  expect_equal(p$default_model, last)
  expect_equal(p$front$loss, p$front$errors / 150)
  # the unpruned tree (the last row, the default) is the fit's tree
  expect_equal(predict(p, iris, model = last), predict(fit, iris))
  expect_equal(fitted(p), predict(fit, iris))
  expect_equal(dpdt_tree(p)$nodes$rule, dpdt_tree(fit)$nodes$rule)
  expect_equal(p$front$errors[last], fit$front$train_loss[fit$default_model] * 150)
  # model 1 is the root leaf, as in a fit's front
  expect_equal(p$front$n_splits[1], 0L)
  expect_equal(p$front$errors[1], 100)
  expect_identical(p$front$n_splits, seq_len(last) - 1L)
  out <- capture.output(print(p))
  expect_match(out[2], sprintf("subtree replacement of a dpdt tree (%d splits)",
                               fit$front$n_splits[fit$default_model]), fixed = TRUE)
  expect_true(any(grepl("errors counted on 150 rows", out)))
  # pareto: no smaller tree (an earlier row) has as few errors
  e <- p$front$errors
  for (i in seq_along(e)) {
    expect_equal(p$front$pareto[i], all(e[i] < e[seq_len(i - 1)]))
  }
})

test_that("raising refuses clearly above max_states", {
  d <- random_case(50, 2, weighted = FALSE, n = 80)
  fit <- dpdt_fit(y ~ a + b + g, data = d, max_depth = 4, min_bucket = 1)
  expect_error(dpdt_prune(fit, method = "raise", max_states = 5),
               "needs more than 5 \\(node, box\\) states.*Raise a smaller tree")
})

test_that("raising stops within a second at setTimeLimit() (issue 17, defect 5)", {
  skip_if_not_installed("rpart")
  set.seed(1)
  n <- 3000
  d <- data.frame(matrix(round(rnorm(n * 6), 1), n))
  d$y <- factor(rbinom(n, 1, plogis(d$X1 + d$X2 * d$X3)))
  big <- rpart::rpart(y ~ ., d, cp = 0, minsplit = 2, maxdepth = 14)
  # about a million (node, box) states: some 10 s of raising on this machine
  start <- proc.time()[["elapsed"]]
  res <- tryCatch({
    setTimeLimit(elapsed = 0.5, transient = TRUE)
    dpdt_prune(big, d, method = "raise", max_states = 1e8)
    "finished"
  }, error = function(e) e, interrupt = function(e) "interrupt")
  setTimeLimit()
  expect_s3_class(res, "error")
  expect_match(conditionMessage(res), "elapsed time limit")
  expect_lt(proc.time()[["elapsed"]] - start, 4)
})
