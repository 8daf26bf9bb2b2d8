# dpdt_prune() of an ensemble (a list of trees, or a forest): the least loss
# for every total number of splits kept, against a brute force built on
# rpart's own snip.rpart() and predict(): every subset of each tree's inner
# nodes snipped, every combination of the trees voted. Beyond max_states
# joint prunings, the heuristic: never below the exact optimum, its lower
# bound never above it.

boot_tree <- function(formula, d, seed, depth, method = "class") {
  set.seed(seed)
  rpart::rpart(formula, d[sample(nrow(d), nrow(d), TRUE), ], method = method,
               control = rpart::rpart.control(maxdepth = depth, cp = 0, minsplit = 10,
                                              minbucket = 3, xval = 0))
}

# A tree's snipped subtrees, one for each distinct pair of prediction
# vector and number of splits kept (subtrees alike in both are alike in
# every joint pruning's loss and number of splits).
snipped_predictions <- function(tree, d, type) {
  inner <- as.integer(rownames(tree$frame)[tree$frame$var != "<leaf>"])
  subsets <- unlist(lapply(0:length(inner), function(k) combn(inner, k, simplify = FALSE)),
                    recursive = FALSE)
  out <- lapply(subsets, function(s) {
    t2 <- if (length(s)) rpart::snip.rpart(tree, toss = s) else tree
    p <- predict(t2, d, type = type)
    list(pred = if (type == "class") as.integer(p) else as.double(p),
         kept = sum(t2$frame$var != "<leaf>"))
  })
  key <- vapply(out, function(o) paste(o$kept, paste(sprintf("%a", o$pred), collapse = ",")), "")
  out[!duplicated(key)]
}

brute_force_front <- function(trees, d, y, type, n_classes = 0, w = rep(1, length(y))) {
  per <- lapply(trees, snipped_predictions, d = d, type = type)
  grid <- as.matrix(expand.grid(lapply(per, seq_along)))
  total <- sum(vapply(per, function(p) max(vapply(p, `[[`, 0, "kept")), 0))
  best <- rep(Inf, total + 1)
  for (g in seq_len(nrow(grid))) {
    preds <- lapply(seq_along(per), function(t) per[[t]][[grid[g, t]]]$pred)
    kept <- sum(vapply(seq_along(per), function(t) per[[t]][[grid[g, t]]]$kept, 0))
    loss <- if (type == "class") {
      votes <- sapply(seq_len(n_classes), function(k) Reduce(`+`, lapply(preds, `==`, k)))
      sum(w * (apply(votes, 1, which.max) != y))
    } else {
      sum(w * (Reduce(`+`, preds) / length(preds) - y)^2)
    }
    best[kept + 1] <- min(best[kept + 1], loss)
  }
  best
}

test_that("the ensemble front equals brute force over every joint pruning (2 and 3 trees)", {
  k <- rpart::kyphosis
  y <- as.integer(k$Kyphosis)
  for (seed in 1:4) {
    trees <- list(boot_tree(Kyphosis ~ ., k, seed, 3), boot_tree(Kyphosis ~ ., k, seed + 10, 2))
    if (seed > 2) trees <- c(trees, list(boot_tree(Kyphosis ~ ., k, seed + 20, 2)))
    e <- dpdt_prune(trees, k)
    bf <- brute_force_front(trees, k, y, "class", 2)
    reached <- which(is.finite(bf))
    expect_equal(e$front$n_splits, reached - 1)
    expect_equal(e$front$errors, bf[reached])
    # every point's predictions reproduce its reported loss
    for (m in seq_len(nrow(e$front))) {
      expect_equal(mean(predict(e, k, model = m) != k$Kyphosis), e$front$loss[m])
    }
    # the unpruned ensemble is the last point's budget
    full <- sum(vapply(trees, function(t) sum(t$frame$var != "<leaf>"), 0))
    expect_equal(max(e$front$n_splits), full)
  }
})

test_that("a budget may need a pruning that predicts as one with fewer splits", {
  # Tree 2 cut at its node 3 predicts as tree 2 cut at its root, with one
  # split more: the only joint pruning of 5 splits with 25 weighted errors
  # uses it (keeping the fewest splits for each prediction, 30 was reported).
  k <- rpart::kyphosis
  set.seed(5)
  trees <- lapply(1:3, function(i) {
    rpart::rpart(Kyphosis ~ ., k[sample(81, replace = TRUE), ],
                 control = rpart::rpart.control(maxdepth = 2, cp = 0, minsplit = 10))
  })
  w <- sample(1:3, 81, TRUE)
  e <- dpdt_prune(trees, k, weights = w)
  bf <- brute_force_front(trees, k, as.integer(k$Kyphosis), "class", 2, w)
  expect_true(e$ensemble$exact)
  expect_equal(e$front$n_splits, which(is.finite(bf)) - 1)
  expect_equal(e$front$errors, bf[is.finite(bf)])
  expect_equal(e$front$errors[e$front$n_splits == 5], 25)
  for (m in seq_len(nrow(e$front))) {
    expect_equal(sum(w * (predict(e, k, model = m) != k$Kyphosis)), e$front$errors[m])
  }
})

test_that("three classes and a regression ensemble match brute force", {
  set.seed(5)
  d <- iris[sample(150, 90), ]
  trees <- list(boot_tree(Species ~ ., d, 6, 2), boot_tree(Species ~ ., d, 7, 2),
                boot_tree(Species ~ ., d, 8, 2))
  e <- dpdt_prune(trees, d)
  bf <- brute_force_front(trees, d, as.integer(d$Species), "class", 3)
  expect_equal(e$front$errors, bf[is.finite(bf)])
  m <- nrow(e$front)
  expect_equal(mean(predict(e, d, model = m) != d$Species), e$front$loss[m])
  pr <- predict(e, d, type = "prob", model = m)
  expect_equal(unname(rowSums(pr)), rep(1, nrow(d)))

  rt <- list(boot_tree(mpg ~ wt + hp + disp, mtcars, 9, 2, "anova"),
             boot_tree(mpg ~ wt + hp + disp, mtcars, 10, 2, "anova"))
  er <- dpdt_prune(rt, mtcars)
  bfr <- brute_force_front(rt, mtcars, mtcars$mpg, "vector")
  expect_equal(er$front$errors, bfr[is.finite(bfr)])
  for (m in seq_len(nrow(er$front))) {
    expect_equal(mean((predict(er, mtcars, model = m) - mtcars$mpg)^2), er$front$loss[m])
  }
})

test_that("an ensemble of dpdt fits, and weights", {
  f1 <- dpdt_fit(Species ~ Petal.Length + Sepal.Width, iris, max_depth = 2)
  f2 <- dpdt_fit(Species ~ Petal.Width + Sepal.Length, iris, max_depth = 2)
  w <- rep(1:3, 50)
  e <- dpdt_prune(list(f1, f2), iris, weights = w)
  for (m in seq_len(nrow(e$front))) {
    expect_equal(sum(w * (predict(e, iris, model = m) != iris$Species)), e$front$errors[m])
  }
  expect_s3_class(e, "dpdt_prune_ensemble")
  expect_output(print(e), "Exact replacement pruning of an ensemble of 2 trees")
  expect_error(dpdt_tree(e), "is an ensemble of 2 pruned trees")
})

test_that("bad ensembles get clear errors", {
  k <- rpart::kyphosis
  t1 <- boot_tree(Kyphosis ~ ., k, 1, 3)
  expect_error(dpdt_prune(list(t1), k), "an ensemble needs at least two")
  expect_error(dpdt_prune(list(t1, boot_tree(mpg ~ wt, mtcars, 2, 2, "anova")), k),
               "mix classification and regression")
  expect_error(dpdt_prune(list(t1, t1)), "`data` is missing")
  expect_error(dpdt_prune(list(t1, t1), k, method = "raise"), "pruned by replacement")
  expect_error(dpdt_prune(list(t1, dpdt_fit(Species ~ ., iris, max_depth = 1)), k),
               "different responses")
})

# The exact front's least errors with at most `b` splits kept.
exact_within <- function(e, b) min(e$front$errors[e$front$n_splits <= b])

# A heuristic front checked against the exact one of the same ensemble:
# each point a real joint pruning (its predictions give its loss), never
# below the exact least loss at its number of splits, its lower bound
# never above the exact least loss within it; a front (fewer errors with
# every split added).
expect_heuristic_within_exact <- function(trees, d, y_of, loss_of) {
  e <- dpdt_prune(trees, d)
  h <- dpdt_prune(trees, d, max_states = 1)
  expect_true(e$ensemble$exact)
  expect_false(h$ensemble$exact)
  f <- h$front
  expect_true(all(diff(f$n_splits) > 0) && all(diff(f$errors) < 0))
  w <- sum(f$errors / f$loss, na.rm = TRUE) / sum(f$loss > 0)
  for (j in seq_len(nrow(f))) {
    at <- e$front$errors[e$front$n_splits == f$n_splits[j]]
    expect_gte(f$errors[j], at - 1e-9)
    expect_lte(f$lower_bound[j] * nrow(d), exact_within(e, f$n_splits[j]) + 1e-9)
    expect_equal(loss_of(predict(h, d, model = j), y_of(d)), f$loss[j])
  }
  expect_equal(f$gap, f$loss - f$lower_bound)
  invisible(h)
}

test_that("beyond max_states a heuristic: never below the exact optimum, its bound never above", {
  k <- rpart::kyphosis
  miss <- function(p, y) mean(p != y)
  for (seed in 1:3) {
    trees <- list(boot_tree(Kyphosis ~ ., k, seed, 3), boot_tree(Kyphosis ~ ., k, seed + 10, 3),
                  boot_tree(Kyphosis ~ ., k, seed + 20, 2))
    h <- expect_heuristic_within_exact(trees, k, function(d) d$Kyphosis, miss)
    # two classes: with no split kept the bound is the leaves' vote itself
    expect_equal(h$front$gap[h$front$n_splits == 0], 0)
    expect_output(print(h), "Heuristic replacement pruning of an ensemble of 3 trees.*Not proven optimal")
    expect_identical(names(h$front)[c(11, 12, 13)], c("lower_bound", "gap", "splits_by_tree"))
  }
  set.seed(5)
  d <- iris[sample(150, 90), ]
  trees <- list(boot_tree(Species ~ ., d, 6, 2), boot_tree(Species ~ ., d, 7, 3),
                boot_tree(Species ~ ., d, 8, 2))
  expect_heuristic_within_exact(trees, d, function(d) d$Species, miss)
  rt <- list(boot_tree(mpg ~ wt + hp + disp, mtcars, 9, 3, "anova"),
             boot_tree(mpg ~ wt + hp + disp, mtcars, 10, 2, "anova"))
  expect_heuristic_within_exact(rt, mtcars, function(d) d$mpg, function(p, y) mean((p - y)^2))
})

test_that("the lower bound of a worked example is the exact front", {
  # four identical stumps x <= 7.5: left a (6 a, the b at x = 3), right b
  # (4 b); the root says a. Class b is second: 3 of 4 votes win it, each a
  # tree keeping its split, so rows 8..11 need 3 splits and row 3 can never
  # be right: the bound is 5 errors below 3 splits, 1 from there, the
  # exact front's own figures; coordinate descent reaches both points.
  d <- data.frame(x = 1:11, y = factor(ifelse(1:11 >= 8 | 1:11 == 3, "b", "a")))
  stump <- rpart::rpart(y ~ x, d, control = rpart::rpart.control(maxdepth = 1, minsplit = 2,
                                                                 minbucket = 1, cp = 0))
  expect_identical(as.character(stump$frame$var), c("x", "<leaf>", "<leaf>"))
  e <- dpdt_prune(rep(list(stump), 4), d)
  expect_identical(e$front$errors, c(5, 5, 5, 1, 1))
  h <- dpdt_prune(rep(list(stump), 4), d, max_states = 1)
  expect_identical(h$front$n_splits, c(0, 3))
  expect_identical(h$front$errors, c(5, 1))
  expect_equal(h$front$lower_bound * 11, c(5, 1))
  expect_identical(h$front$splits_by_tree, c("0+0+0+0", "0+1+1+1"))
})

test_that("a ranger or randomForest forest is pruned: points reproduce their loss", {
  skip_if_not_installed("ranger")
  skip_if_not_installed("MASS")
  tr <- MASS::Pima.tr
  te <- MASS::Pima.te
  # an odd number of trees: two classes never tie (ranger breaks ties at
  # random, the pruning to the first class)
  rf <- ranger::ranger(type ~ ., tr, num.trees = 61, seed = 3)
  p <- dpdt_prune(rf, te)
  f <- p$front
  expect_identical(p$source, "ranger")
  expect_true(all(diff(f$n_splits) > 0) && all(diff(f$errors) < 0))
  expect_true(all(f$lower_bound <= f$loss + 1e-12))
  expect_equal(f$gap[1], 0)   # no split: the bound is the roots' vote
  for (j in seq_len(nrow(f))) {
    expect_equal(mean(predict(p, te, model = j) != te$type), f$loss[j])
  }
  # from the whole forest at a penalty below any row's weight: no point
  # loses more than it on these rows
  whole <- mean(predict(rf, te)$predictions != te$type)
  expect_equal(p$ensemble$whole_loss, whole)
  expect_lte(min(f$loss), whole)
  # with 61 trees no row the roots vote wrong is right before 31 trees
  # split for it
  expect_equal(f$lower_bound[f$n_splits < 31], rep(f$loss[1], sum(f$n_splits < 31)))
  expect_identical(names(f)[13], "trees_split")
  expect_output(print(p), "Heuristic replacement pruning of an ensemble of 61 trees")
  expect_output(print(p), "[0-9.]+e\\+[0-9]+ joint prunings, beyond enumeration")
  # a regression forest
  rr <- ranger::ranger(mpg ~ wt + hp + disp, mtcars, num.trees = 25, seed = 4)
  pr <- dpdt_prune(rr, mtcars)
  # every tree a leaf (the roots' labels: means of the rows reaching them)
  # is the first point, though a regression tree's split can be worth
  # more than the total weight
  expect_identical(pr$front$n_splits[1], 0)
  expect_equal(length(unique(predict(pr, mtcars, model = 1))), 1)
  for (j in seq_len(nrow(pr$front))) {
    expect_equal(mean((predict(pr, mtcars, model = j) - mtcars$mpg)^2), pr$front$loss[j])
  }
  expect_true(all(pr$front$lower_bound <= pr$front$loss + 1e-9))
})

test_that("a randomForest forest is pruned too", {
  skip_if_not_installed("randomForest")
  set.seed(7)
  rf <- randomForest::randomForest(Species ~ ., iris, ntree = 30, maxnodes = 6)
  p <- dpdt_prune(rf, iris)
  expect_identical(p$source, "randomForest")
  for (j in seq_len(nrow(p$front))) {
    expect_equal(mean(predict(p, iris, model = j) != iris$Species), p$front$loss[j])
  }
  expect_true(all(p$front$lower_bound <= p$front$loss + 1e-12))
})
