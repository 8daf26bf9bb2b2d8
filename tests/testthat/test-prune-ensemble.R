# dpdt_prune() of an ensemble (a list of trees): the least loss for every
# total number of splits kept, against a brute force built on rpart's own
# snip.rpart() and predict(): every subset of each tree's inner nodes
# snipped, every combination of the trees voted.

boot_tree <- function(formula, d, seed, depth, method = "class") {
  set.seed(seed)
  rpart::rpart(formula, d[sample(nrow(d), nrow(d), TRUE), ], method = method,
               control = rpart::rpart.control(maxdepth = depth, cp = 0, minsplit = 10,
                                              minbucket = 3, xval = 0))
}

# Each distinct prediction vector of a tree's snipped subtrees, with the
# fewest splits kept that reach it.
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
  key <- vapply(out, function(o) paste(o$pred, collapse = ","), "")
  kept <- vapply(out, `[[`, 0, "kept")
  keep <- !duplicated(key[order(kept)])
  out[order(kept)][keep]
}

brute_force_front <- function(trees, d, y, type, n_classes = 0) {
  per <- lapply(trees, snipped_predictions, d = d, type = type)
  grid <- as.matrix(expand.grid(lapply(per, seq_along)))
  total <- sum(vapply(per, function(p) max(vapply(p, `[[`, 0, "kept")), 0))
  best <- rep(Inf, total + 1)
  for (g in seq_len(nrow(grid))) {
    preds <- lapply(seq_along(per), function(t) per[[t]][[grid[g, t]]]$pred)
    kept <- sum(vapply(seq_along(per), function(t) per[[t]][[grid[g, t]]]$kept, 0))
    loss <- if (type == "class") {
      votes <- sapply(seq_len(n_classes), function(k) Reduce(`+`, lapply(preds, `==`, k)))
      sum(apply(votes, 1, which.max) != y)
    } else {
      sum((Reduce(`+`, preds) / length(preds) - y)^2)
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
  expect_error(dpdt_prune(list(t1, t1), k, max_states = 2), "NP-hard.*`max_states`")
  expect_error(dpdt_prune(list(t1, dpdt_fit(Species ~ ., iris, max_depth = 1)), k),
               "different responses")
})
