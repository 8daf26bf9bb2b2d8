# forest_sources(): every tree of a ranger or randomForest forest in the
# shared representation. Each converted tree must route every row to a
# leaf whose value is that tree's own prediction (predict.all = TRUE), be
# numbered in preorder, and label its inner nodes from the rows reaching
# them.

# The class index (into the forest's levels) or value each tree predicts
# for each row: rows x trees.
cf_forest_predictions <- function(forest, d) {
  if (inherits(forest, "ranger")) {
    # ranger: class codes into forest$levels, or values
    return(predict(forest, d, predict.all = TRUE)$predictions)
  }
  p <- predict(forest, d, predict.all = TRUE)$individual
  if (forest$type == "classification") matrix(match(p, forest$classes), nrow(p)) else p
}

# Every tree's leaf values, routed by the engine, equal the forest's own
# per-tree predictions on every row (one comparison per forest: rows x
# trees).
cf_expect_same_predictions <- function(forest, d) {
  srcs <- dpdt:::forest_sources(forest, d, NULL)
  pred <- cf_forest_predictions(forest, d)
  ours <- vapply(srcs, function(s) {
    x <- dpdt:::feature_matrix(d, s$features, s$xlevels)
    end <- dpdt:::cpp_route(x, s$tree)
    # an NA end or an inner end node would show as NA
    ifelse(s$tree$feature[end] == 0L, s$tree$value[end], NA)
  }, numeric(nrow(d)))
  expect_equal(unname(ours), unname(matrix(as.double(pred), nrow(d))))
  invisible(srcs)
}

# The preorder properties a tree breaks (none: character(0)): nodes
# numbered parents first, each left child right after its parent, the
# right child after the whole left subtree; depths from the root.
cf_preorder_problems <- function(tr) {
  m <- length(tr$feature)
  size <- rep(1L, m)
  for (v in rev(seq_len(m))) {
    if (tr$feature[v] > 0L) size[v] <- 1L + size[tr$left[v]] + size[tr$right[v]]
  }
  inner <- which(tr$feature > 0L)
  ok <- c(
    lengths = all(lengths(tr[c("feature", "threshold", "levels_left", "na_left", "left",
                               "right", "depth", "value")]) == m),
    root_spans_all = size[1L] == m,
    left_next = all(tr$left[inner] == inner + 1L),
    right_after_left = all(tr$right[inner] == inner + 1L + size[inner + 1L]),
    root_depth = tr$depth[1L] == 0L,
    child_depth = all(tr$depth[c(tr$left[inner], tr$right[inner])] == rep(tr$depth[inner] + 1L, 2)),
    one_parent = identical(sort(c(1L, tr$left[inner], tr$right[inner])), seq_len(m)),
    leaves = all(tr$left[-inner] == 0L & tr$right[-inner] == 0L & is.na(tr$na_left[-inner])),
    na_left = all(tr$na_left[inner]),
    values = !anyNA(tr$value)
  )
  names(ok)[!ok]
}

cf_expect_preorder <- function(srcs) {
  problems <- unlist(lapply(seq_along(srcs), function(k) {
    p <- cf_preorder_problems(srcs[[k]]$tree)
    if (length(p)) paste("tree", k, p)
  }))
  expect_equal(problems, NULL)
}

# The nodes row i passes, by our tests (written here independently of the
# engine's routing).
cf_path <- function(tr, features, x, i) {
  v <- 1L
  path <- v
  while (tr$feature[v] > 0L) {
    j <- tr$feature[v]
    left <- if (features$kind[j] == "categorical") x[i, j] %in% tr$levels_left[[v]]
            else x[i, j] <= tr$threshold[v]
    v <- if (left) tr$left[v] else tr$right[v]
    path <- c(path, v)
  }
  path
}

# Inner labels: the weighted majority (first on ties) or weighted mean of
# the rows passing the node; a node no weight reaches: its parent's label.
cf_expect_inner_labels <- function(src, d, w, y) {
  tr <- src$tree
  x <- dpdt:::feature_matrix(d, src$features, src$xlevels)
  passes <- lapply(seq_len(nrow(d)), function(i) cf_path(tr, src$features, x, i))
  parent <- integer(length(tr$feature))
  inner <- which(tr$feature > 0L)
  parent[tr$left[inner]] <- inner
  parent[tr$right[inner]] <- inner
  want <- tr$value
  unreached <- 0L
  for (v in inner) {   # parents first: an unreached parent is already done
    at <- vapply(passes, function(p) v %in% p, logical(1))
    want[v] <- if (sum(w[at]) == 0) {
      unreached <- unreached + 1L
      want[parent[v]]
    } else if (src$type == "classification") {
      which.max(vapply(seq_along(src$levels), function(k) sum(w[at & y == src$levels[k]]), 0))
    } else {
      sum(w[at] * y[at]) / sum(w[at])
    }
  }
  expect_equal(tr$value, want)
  invisible(unreached)
}

# iris with an unordered factor (tied to the class, so that it is split
# on), an ordered factor, a logical and a character column
cf_iris <- function() {
  set.seed(11)
  d <- iris
  d$f <- factor(sample(letters[1:6], 150, TRUE))
  d$f[d$Species == "setosa"] <- sample(c("a", "c"), 50, TRUE)
  d$o <- factor(sample(c("lo", "mid", "hi"), 150, TRUE), levels = c("lo", "mid", "hi"),
                ordered = TRUE)
  d$l <- sample(c(TRUE, FALSE), 150, TRUE)
  d
}

# number of splits on `vars` over the converted trees
cf_splits_on <- function(srcs, vars) {
  sum(vapply(srcs, function(s) sum(s$features$variable[s$tree$feature] %in% vars), 0))
}

test_that("ranger classification trees route as the forest predicts (iris)", {
  skip_if_not_installed("ranger")
  set.seed(1)
  r <- ranger::ranger(Species ~ ., iris, num.trees = 10)
  srcs <- cf_expect_same_predictions(r, iris)
  expect_length(srcs, 10)
  s <- srcs[[1]]
  expect_equal(s$type, "classification")
  expect_equal(s$levels, levels(iris$Species))
  expect_equal(s$response, "Species")
  expect_equal(s$source, "ranger")
  expect_equal(sort(all.vars(stats::delete.response(s$terms))), sort(names(iris)[1:4]))
  expect_null(s$end_nodes)
  cf_expect_preorder(srcs)
  # the first training row of the last class: ranger numbers the classes
  # in order of appearance (its treeInfo() then names every leaf wrongly)
  late <- iris[c(150:101, 1:100), ]
  r2 <- ranger::ranger(Species ~ ., late, num.trees = 5, seed = 2)
  expect_false(identical(r2$forest$class.values, sort(r2$forest$class.values)))
  cf_expect_same_predictions(r2, iris)
  # and the trees' vote is the forest's class on nearly every row (ranger
  # breaks ties at random, the pruning to the first class)
  p <- dpdt_prune(r2, iris)
  expect_gt(mean(predict(p, iris) == predict(r2, iris)$predictions), 0.95)
})

test_that("ranger regression trees route as the forest predicts (mtcars)", {
  skip_if_not_installed("ranger")
  set.seed(2)
  r <- ranger::ranger(mpg ~ ., mtcars, num.trees = 10, min.node.size = 2)
  srcs <- cf_expect_same_predictions(r, mtcars)
  expect_equal(srcs[[1]]$type, "regression")
  expect_null(srcs[[1]]$levels)
  cf_expect_preorder(srcs)
})

test_that("ranger factor predictors convert under ignore, order and partition", {
  skip_if_not_installed("ranger")
  d <- cf_iris()
  d$ch <- sample(c("p", "q", "r"), 150, TRUE)
  for (mode in c("ignore", "order", "partition")) {
    set.seed(3)
    r <- ranger::ranger(Species ~ ., d, num.trees = 15, mtry = 5,
                        respect.unordered.factors = mode)
    srcs <- cf_expect_same_predictions(r, d)
    cf_expect_preorder(srcs)
    expect_gt(cf_splits_on(srcs, c("f", "ch")), 0)
    expect_equal(srcs[[1]]$features$kind[srcs[[1]]$features$variable == "f"], "categorical")
    expect_equal(srcs[[1]]$features$kind[srcs[[1]]$features$variable == "o"], "ordered")
    set.seed(4)
    rr <- ranger::ranger(Sepal.Length ~ ., d, num.trees = 10, mtry = 5,
                         respect.unordered.factors = mode)
    cf_expect_same_predictions(rr, d)
  }
})

test_that("ranger: a two-level factor (ToothGrowth) and a subset of the trees", {
  skip_if_not_installed("ranger")
  set.seed(5)
  r <- ranger::ranger(len ~ supp + dose, datasets::ToothGrowth, num.trees = 8,
                      respect.unordered.factors = "partition")
  all_srcs <- cf_expect_same_predictions(r, datasets::ToothGrowth)
  some <- dpdt:::forest_sources(r, datasets::ToothGrowth, NULL, trees = c(6, 2))
  expect_equal(some[[1]]$tree, all_srcs[[6]]$tree)
  expect_equal(some[[2]]$tree, all_srcs[[2]]$tree)
})

test_that("node_label keeps ranger's node ids and randomForest's rows", {
  skip_if_not_installed("ranger")
  skip_if_not_installed("randomForest")
  set.seed(6)
  r <- ranger::ranger(Species ~ ., iris, num.trees = 3)
  s <- dpdt:::forest_sources(r, iris, NULL)[[2]]
  ti <- ranger::treeInfo(r, 2)
  tr <- s$tree
  inner <- which(tr$feature > 0L)
  at <- match(s$node_label, ti$nodeID)
  expect_equal(ti$leftChild[at[inner]], s$node_label[tr$left[inner]])
  expect_equal(ti$rightChild[at[inner]], s$node_label[tr$right[inner]])
  expect_equal(ti$splitvarName[at[inner]], s$features$variable[tr$feature[inner]])
  expect_equal(s$node_label[1], 0L)

  rf <- randomForest::randomForest(Species ~ ., iris, ntree = 3)
  s <- dpdt:::forest_sources(rf, iris, NULL)[[3]]
  g <- randomForest::getTree(rf, 3)
  inner <- which(s$tree$feature > 0L)
  expect_equal(unname(g[s$node_label[inner], "left daughter"]), s$node_label[s$tree$left[inner]])
  expect_equal(sort(s$node_label), seq_len(nrow(g)))
})

test_that("randomForest classification and regression trees route as the forest predicts", {
  skip_if_not_installed("randomForest")
  d <- cf_iris()
  set.seed(7)
  rf <- randomForest::randomForest(Species ~ ., d, ntree = 15, mtry = 5)
  srcs <- cf_expect_same_predictions(rf, d)
  expect_gt(cf_splits_on(srcs, "f"), 0)
  expect_gt(cf_splits_on(srcs, "o"), 0)
  expect_equal(srcs[[1]]$source, "randomForest")
  expect_equal(srcs[[1]]$levels, levels(d$Species))
  cf_expect_preorder(srcs)
  set.seed(8)
  rf <- randomForest::randomForest(Sepal.Width ~ ., d, ntree = 10, mtry = 5, nodesize = 3)
  srcs <- cf_expect_same_predictions(rf, d)
  expect_equal(srcs[[1]]$type, "regression")
  expect_gt(cf_splits_on(srcs, "f"), 0)
  set.seed(9)
  rf <- randomForest::randomForest(mpg ~ ., mtcars, ntree = 10)
  cf_expect_same_predictions(rf, mtcars)
})

test_that("inner nodes carry the weighted majority or mean of the rows reaching them", {
  skip_if_not_installed("ranger")
  skip_if_not_installed("randomForest")
  set.seed(10)
  d <- iris[sample(150, 60), ]
  w <- sample(0:3, 60, TRUE)
  r <- ranger::ranger(Species ~ ., iris, num.trees = 3, max.depth = 4)
  for (s in dpdt:::forest_sources(r, d, w)) cf_expect_inner_labels(s, d, w, d$Species)
  rf <- randomForest::randomForest(Sepal.Length ~ ., iris, ntree = 3, maxnodes = 12)
  for (s in dpdt:::forest_sources(rf, d, w)) cf_expect_inner_labels(s, d, w, d$Sepal.Length)
  # few rows: many inner nodes unreached take their parent's label; the
  # leaves keep the forest's predictions whatever the rows
  few <- iris[c(1, 51, 101), ]
  srcs <- dpdt:::forest_sources(r, few, c(1, 1, 2))
  unreached <- vapply(srcs, cf_expect_inner_labels, 0L, d = few, w = c(1, 1, 2), y = few$Species)
  expect_gt(sum(unreached), 0)
  full <- dpdt:::forest_sources(r, iris, NULL)
  for (k in seq_along(srcs)) {
    leaf <- srcs[[k]]$tree$feature == 0L
    expect_equal(srcs[[k]]$tree$value[leaf], full[[k]]$tree$value[leaf])
  }
  expect_equal(srcs[[1]]$tree$value[1], 3)
})

test_that("forests that cannot be converted are refused with a clear message", {
  skip_if_not_installed("ranger")
  skip_if_not_installed("randomForest")
  fs <- dpdt:::forest_sources
  prob <- ranger::ranger(Species ~ ., iris, num.trees = 2, probability = TRUE)
  expect_error(fs(prob, iris, NULL), "probability forest.*probability = FALSE")
  xy <- ranger::ranger(x = iris[1:4], y = iris$Species, num.trees = 2)
  expect_error(fs(xy, iris, NULL), "response is unknown.*refit it with a formula")
  nof <- ranger::ranger(Species ~ ., iris, num.trees = 2, write.forest = FALSE)
  expect_error(fs(nof, iris, NULL), "write.forest = TRUE")
  if (requireNamespace("survival", quietly = TRUE)) {
    surv <- ranger::ranger(survival::Surv(time, status) ~ ., survival::veteran, num.trees = 2)
    expect_error(fs(surv, survival::veteran, NULL), "\"Survival\".*classification and regression")
  }
  rf_xy <- randomForest::randomForest(iris[1:4], iris$Species, ntree = 2)
  expect_error(fs(rf_xy, iris, NULL), "without a formula.*randomForest\\(y ~ \\., data\\)")
  rf_un <- randomForest::randomForest(iris[1:4], ntree = 2)
  expect_error(fs(rf_un, iris, NULL), "\"unsupervised\"")

  r <- ranger::ranger(Species ~ ., iris, num.trees = 3)
  expect_error(fs(r, iris[-2], NULL), "lacks column\\(s\\) `Sepal.Width`")
  expect_error(fs(r, iris[c("Sepal.Length", "Petal.Length")], NULL),
               "`Sepal.Width`, `Petal.Width`")
  na <- iris
  na$Petal.Width[3] <- NA
  expect_error(fs(r, na, NULL), "missing values in `Petal.Width`.*Remove or impute")
  na <- iris
  na$Species[3] <- NA
  expect_error(fs(r, na, NULL), "response `Species` has NA")
  two <- droplevels(iris[iris$Species != "virginica", ])
  r2 <- ranger::ranger(Species ~ ., two, num.trees = 2)
  expect_error(fs(r2, iris, NULL), "class\\(es\\) \"virginica\" that the forest does not know")
  expect_error(fs(r, iris, NULL, trees = 4), "`trees` must be whole numbers between 1 and 3")
  expect_error(fs(r, iris, rep(0, 150)), "`weights` sum to zero")

  d <- cf_iris()
  rf <- randomForest::randomForest(Species ~ ., d, ntree = 2)
  d$f <- as.integer(d$f)
  expect_error(fs(rf, d, NULL), "`f` of `data` are not of the kind the forest was fitted to")
})

test_that("is_forest() tells forests from trees", {
  skip_if_not_installed("ranger")
  expect_true(dpdt:::is_forest(ranger::ranger(Species ~ ., iris, num.trees = 2)))
  expect_false(dpdt:::is_forest(list()))
})
