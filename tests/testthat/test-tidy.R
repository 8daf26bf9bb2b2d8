# tidy() / glance() / augment() on fronts of trees (R/tidy.R).

as_df <- function(x) as.data.frame(x, stringsAsFactors = FALSE)

# A tree we can read by hand: x <= 3.5 isolates class a; on the right, g
# separates b (g = u) from c (g = v), which x cannot do in one split.
hand_data <- data.frame(
  x = c(1, 2, 3, 4, 5, 6, 7, 8),
  g = factor(c("u", "v", "u", "u", "v", "u", "v", "v")),
  y = factor(c("a", "a", "a", "b", "c", "b", "c", "c"))
)

test_that("tidy() describes a hand-checkable tree node by node", {
  fit <- dpdt_fit(y ~ x + g, data = hand_data, max_depth = 2,
                  candidates = "exhaustive", min_bucket = 1)
  expect_equal(front_loss(fit)[nrow(fit$front)], 0)
  td <- as_df(tidy(fit))
  expect_equal(nrow(td), 5)
  expect_equal(td$model, rep(nrow(fit$front), 5))
  expect_equal(td$node, 1:5)
  expect_equal(td$parent, c(NA, 1L, 1L, 3L, 3L))
  expect_equal(td$depth, c(0L, 1L, 1L, 2L, 2L))
  expect_equal(td$is_leaf, c(FALSE, TRUE, FALSE, TRUE, TRUE))
  expect_equal(td$variable, c("x", NA, "g", NA, NA))
  expect_equal(td$split, c("x <= 3.5", NA, "g = u", NA, NA))
  expect_equal(td$threshold, c(3.5, NA, NA, NA, NA))
  expect_equal(td$rule, c("root", "x <= 3.5", "x > 3.5", "x > 3.5 & g = u",
                          "x > 3.5 & g = v"))
  expect_equal(td$n, c(8L, 3L, 5L, 2L, 3L))
  expect_equal(td$weight, c(8, 3, 5, 2, 3))
  expect_true(is.factor(td$prediction))
  expect_equal(levels(td$prediction), c("a", "b", "c"))
  # the root ties a and c (3 rows each)
  expect_true(as.character(td$prediction[1]) %in% c("a", "c"))
  expect_equal(as.character(td$prediction[-1]), c("a", "c", "b", "c"))
  expect_equal(td$loss, c(5, 0, 2, 0, 0))
  expect_equal(td$error, c(5 / 8, 0, 2 / 5, 0, 0))
})

test_that("tidy() is consistent with the tree's routing and the front", {
  set.seed(1)
  d <- data.frame(a = runif(120), b = factor(sample(letters[1:4], 120, TRUE)),
                  o = factor(sample(c("lo", "mid", "hi"), 120, TRUE),
                             levels = c("lo", "mid", "hi"), ordered = TRUE))
  d$y <- factor(ifelse(d$a + (d$b %in% c("a", "c")) > 1, "p", "q"))
  w <- rep(1:3, 40)
  fit <- dpdt_fit(y ~ a + b + o, data = d, weights = w, max_depth = 3, min_bucket = 1)
  for (m in seq_len(nrow(fit$front))) {
    td <- as_df(tidy(fit, model = m))
    leaves <- td[td$is_leaf, ]
    total <- sum(w)
    expect_equal(sum(leaves$loss) / total, fit$front$train_loss[m])
    expect_equal(sum(leaves$weight), total)
    node <- predict(fit, d, model = m, type = "node")
    expect_equal(as.vector(table(factor(node, levels = leaves$node))),
                 leaves$n)
    expect_equal(vapply(leaves$node, function(l) sum(w[node == l]), 1),
                 leaves$weight)
    inner <- td[!td$is_leaf, ]
    for (i in seq_len(nrow(inner))) {
      kids <- td[which(td$parent == inner$node[i]), ]
      expect_equal(nrow(kids), 2)
      expect_equal(sum(kids$n), inner$n[i])
      expect_equal(kids$depth, rep(inner$depth[i] + 1L, 2))
      lab <- split_labels(node_split(fit$trees[[m]], inner$node[i],
                                     fit$features, fit$xlevels))
      expect_equal(inner$split[i], lab[1])
      prefix <- if (inner$node[i] == 1) "" else paste(inner$rule[i], "& ")
      expect_equal(kids$rule, paste0(prefix, lab))
    }
    # the same nodes and rules as dpdt_tree() prints
    nd <- dpdt_tree(fit, model = m)$nodes
    expect_equal(td$n, nd$n)
    expect_equal(as.character(td$prediction), nd$prediction)
    expect_equal(sub(".* & ", "", td$rule), nd$rule)
  }
})

test_that("tidy() reads splits through node_split(): NA sides and level groups", {
  fit <- dpdt_fit(y ~ x + g, data = hand_data, max_depth = 2,
                  candidates = "exhaustive", min_bucket = 1)
  m <- nrow(fit$front)
  fit$trees[[m]]$na_left[1] <- TRUE
  fit$trees[[m]]$na_left[3] <- FALSE
  fit$trees[[m]]$na_learned[c(1, 3)] <- TRUE   # as if learned from NA rows
  td <- as_df(tidy(fit))
  expect_equal(td$split[1], "x <= 3.5 or NA")
  expect_equal(td$rule[2], "x <= 3.5 or NA")
  expect_equal(td$split[3], "g = u")
  expect_equal(td$rule[5], "x > 3.5 & g = v or NA")
})

test_that("tidy() on regression gives means and squared errors", {
  d <- data.frame(x = 1:6, y = c(1, 1, 2, 10, 10, 13))
  fit <- dpdt_fit(y ~ x, data = d, max_depth = 1, min_bucket = 1)
  td <- as_df(tidy(fit))
  expect_equal(td$prediction, c(37 / 6, 4 / 3, 11))
  expect_equal(td$loss, c(sum((d$y - 37 / 6)^2), 2 / 3, 6))
  expect_equal(td$split[1], "x <= 3.5")
  expect_equal(as_df(tidy(fit, model = 1))$rule, "root")
})

test_that("glance() is the front, one row per tree, with the default marked", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  gl <- glance(fit)
  expect_equal(nrow(gl), nrow(fit$front))
  expect_equal(as_df(gl)[names(fit$front)], fit$front)
  expect_equal(gl$default, seq_len(nrow(fit$front)) == nrow(fit$front))
  if (requireNamespace("tibble", quietly = TRUE)) {
    expect_s3_class(gl, "tbl_df")
    expect_s3_class(tidy(fit), "tbl_df")
    expect_s3_class(augment(fit), "tbl_df")
  }
})

test_that("augment() adds one tree's predictions and leaf ids", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  new <- iris[c(1, 51, 101, 120), ]
  for (m in c(1, 2, nrow(fit$front))) {
    au <- as_df(augment(fit, newdata = new, model = m))
    expect_equal(au[names(new)], `rownames<-`(new, NULL))
    expect_equal(au$.pred_class, predict(fit, new, model = m))
    p <- predict(fit, new, model = m, type = "prob")
    expect_equal(unname(as.matrix(au[paste0(".pred_", levels(iris$Species))])),
                 unname(p))
    expect_equal(au$.leaf, predict(fit, new, model = m, type = "node"))
  }
  # without newdata: the training rows
  au <- as_df(augment(fit))
  expect_equal(nrow(au), 150)
  expect_equal(au$.pred_class, predict(fit))

  reg <- dpdt_fit(mpg ~ wt + hp, data = mtcars, max_depth = 2, min_bucket = 1)
  au <- as_df(augment(reg, newdata = mtcars, model = 2))
  expect_equal(au$.pred, predict(reg, mtcars, model = 2))
  expect_false(any(c(".pred_class", ".pred_Yes") %in% names(au)))
})

test_that("augment() sends missing values where predict() does", {
  fit <- dpdt_fit(y ~ x + g, data = hand_data, max_depth = 2,
                  candidates = "exhaustive", min_bucket = 1)
  new <- data.frame(x = c(NA, 2, 6), g = factor(c("u", "u", NA),
                                                 levels = c("u", "v")))
  au <- as_df(augment(fit, newdata = new))
  expect_equal(au$.pred_class, predict(fit, new))
  expect_equal(au$.leaf, predict(fit, new, type = "node"))
  expect_false(anyNA(au$.leaf))   # every node has a side for NA
  expect_equal(unname(au$.pred_a), unname(predict(fit, new, type = "prob")[, "a"]))
})

test_that("tidiers work on any front object of the shared contract", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  # a pruning front: own class and columns, loss column "loss", default
  # tree 2, no training frame kept
  pr <- fit
  class(pr) <- c("dpdt_prune", "dpdt")
  pr$front <- data.frame(pr$front[c("model", "n_splits", "n_leaves", "depth",
                                    "avg_tests")], n_pruned = 0L,
                         errors = fit$front$train_loss * 150,
                         loss = fit$front$train_loss, pareto = TRUE)
  pr$loss_column <- "loss"
  pr$default_model <- 2L
  pr$model_frame <- NULL
  expect_equal(as_df(tidy(pr)), as_df(tidy(fit, model = 2)))
  gl <- as_df(glance(pr))
  expect_equal(gl[names(pr$front)], pr$front)
  expect_equal(which(gl$default), 2L)
  expect_equal(as_df(augment(pr, newdata = iris)),
               as_df(augment(fit, newdata = iris, model = 2)))
  expect_error(augment(pr), "`newdata` is missing")

  # a CV result: extra columns, default model_1se
  cv <- fit
  class(cv) <- c("dpdt_cv", "dpdt")
  cv$front$cv_loss <- seq(0.7, 0.1, length.out = nrow(cv$front))
  cv$front$cv_se <- 0.01
  cv$model_min <- nrow(cv$front)
  cv$model_1se <- cv$default_model <- 3L
  expect_equal(as_df(glance(cv))$cv_loss, cv$front$cv_loss)
  expect_equal(which(as_df(glance(cv))$default), 3L)
  expect_equal(as_df(tidy(cv))$model, rep(3L, nrow(as_df(tidy(cv)))))
  expect_equal(as_df(augment(cv))$.leaf, predict(fit, model = 3, type = "node"))
})

test_that("tidiers refuse bad input with messages naming the argument", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 1, min_bucket = 1)
  expect_error(tidy(fit, model = 99), "`model` must be a whole number")
  expect_error(tidy(fit, mdoel = 2), "`mdoel` not matched by tidy")
  expect_error(glance(fit, 2), "not matched by glance")
  expect_error(augment(fit, newdata = "iris"), "`newdata` must be a data frame")
  expect_error(augment(fit, newdata = iris[, 1:2]),
               "`newdata` lacks column\\(s\\) `Petal.Length`, `Petal.Width`")
  expect_error(augment(fit, model = 0), "`model` must be a whole number")
  expect_error(augment(fit, iris, tpye = "prob"), "`tpye` not matched")
})
