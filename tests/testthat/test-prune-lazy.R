# Replacement-pruning fronts build their trees on demand (front_tree());
# `lazy = FALSE` also keeps the eager list of trees, built by a separate
# path (cut_tree of the source tree), to compare against.

lazy_case <- function(seed, n = 400) {
  set.seed(seed)
  d <- data.frame(x1 = runif(n), x2 = round(runif(n), 2), x3 = rnorm(n),
                  g = factor(sample(c("a", "b", "c", "d", "e"), n, TRUE)),
                  o = factor(sample(c("lo", "mid", "hi"), n, TRUE),
                             levels = c("lo", "mid", "hi"), ordered = TRUE))
  z <- d$x1 + d$x2 * (d$g %in% c("a", "c")) + 0.3 * (d$o == "hi") +
    rnorm(n, sd = 0.3)
  d$y <- factor(ifelse(z > 0.9, "yes", ifelse(z > 0.4, "mid", "no")))
  d$r <- z * 10
  d$w <- sample(1:3, n, TRUE)
  d
}

# Everything but timings and the call is identical, and every tree the lazy
# front builds is identical() to the eager one.
expect_lazy_like_eager <- function(lz, eg) {
  expect_null(lz$trees)
  expect_length(eg$trees, nrow(eg$front))
  same <- setdiff(names(eg), c("trees", "call", "seconds", "front_seconds"))
  expect_identical(names(lz), names(eg))
  expect_identical(lz[same], eg[same])
  for (k in eg$front$model) {
    expect_identical(dpdt:::front_tree(lz, k), eg$trees[[k]])
  }
}

test_that("lazy replacement fronts of rpart trees build the eager trees", {
  skip_if_not_installed("rpart")
  d <- lazy_case(1)
  nd <- lazy_case(2)
  nd$x1[sample(nrow(nd), 50)] <- NA            # rpart's surrogates route these
  nd$g[sample(nrow(nd), 30)] <- NA
  ctl <- rpart::rpart.control(cp = 0, minsplit = 4, xval = 0)
  cl <- rpart::rpart(y ~ x1 + x2 + x3 + g + o, data = d, control = ctl)
  rg <- rpart::rpart(r ~ x1 + x2 + x3 + g + o, data = d, weights = w, control = ctl)
  for (labels in c("keep", "relabel")) {
    expect_lazy_like_eager(dpdt_prune(cl, nd, labels = labels),
                           dpdt_prune(cl, nd, labels = labels, lazy = FALSE))
    expect_lazy_like_eager(dpdt_prune(rg, nd, labels = labels, weights = w),
                           dpdt_prune(rg, nd, labels = labels, weights = w, lazy = FALSE))
  }
  for (index in c("pruned", "errors")) {
    lz <- dpdt_prune(cl, d, labels = "relabel", index = index)
    expect_equal(lz$index, index)
    expect_lazy_like_eager(lz, dpdt_prune(cl, d, labels = "relabel", index = index,
                                          lazy = FALSE))
  }
})

test_that("lazy replacement fronts of party and dpdt trees build the eager trees", {
  for (case in 1:3) {
    d <- lazy_case(10 + case, n = 150)
    f <- if (case == 2) r ~ x1 + x2 + g + o else y ~ x1 + x2 + g + o
    fit <- dpdt_fit(f, data = d, weights = w, max_depth = 4, cart_depth = 3)
    for (labels in c("keep", "relabel")) {
      expect_lazy_like_eager(dpdt_prune(fit, labels = labels),
                             dpdt_prune(fit, labels = labels, lazy = FALSE))
    }
    # pruning a tree of a lazy front (its source tree is built on demand)
    p <- dpdt_prune(fit)
    k <- nrow(p$front) %/% 2
    expect_lazy_like_eager(dpdt_prune(p, model = k),
                           dpdt_prune(p, model = k, lazy = FALSE))
  }
  skip_if_not_installed("partykit")
  ct <- partykit::ctree(Species ~ ., data = iris,
                        control = partykit::ctree_control(alpha = 0.5, minsplit = 5))
  expect_lazy_like_eager(dpdt_prune(ct), dpdt_prune(ct, lazy = FALSE))
  aq <- airquality[!is.na(airquality$Ozone), ]
  ct <- partykit::ctree(Ozone ~ ., data = aq,
                        control = partykit::ctree_control(alpha = 0.3, minsplit = 10))
  expect_lazy_like_eager(dpdt_prune(ct, aq, labels = "relabel"),
                         dpdt_prune(ct, aq, labels = "relabel", lazy = FALSE))
})

test_that("raising fronts keep their trees; lazy makes no difference", {
  d <- lazy_case(20, n = 150)
  fit <- dpdt_fit(y ~ x1 + x2 + g + o, data = d, max_depth = 3)
  r <- dpdt_prune(fit, method = "raise")
  e <- dpdt_prune(fit, method = "raise", lazy = FALSE)
  expect_null(r$tree_cuts)
  expect_length(r$trees, nrow(r$front))
  same <- setdiff(names(r), c("call", "seconds", "front_seconds"))
  expect_identical(r[same], e[same])
  for (k in r$front$model) expect_identical(dpdt:::front_tree(r, k), r$trees[[k]])
})

test_that("every reader of trees gives the same answer on lazy and eager fronts", {
  skip_if_not_installed("rpart")
  d <- lazy_case(3)
  tr <- rpart::rpart(y ~ x1 + x2 + x3 + g + o, data = d,
                     control = rpart::rpart.control(cp = 0.002, minsplit = 6, xval = 0))
  lz <- dpdt_prune(tr, d)
  eg <- dpdt_prune(tr, d, lazy = FALSE)
  k <- nrow(lz$front) %/% 2
  expect_identical(dpdt_tree(lz, k), dpdt_tree(eg, k))
  expect_identical(predict(lz, d, model = k, type = "prob"),
                   predict(eg, d, model = k, type = "prob"))
  expect_identical(fitted(lz, model = k), fitted(eg, model = k))
  expect_identical(dpdt_rules(lz, k), dpdt_rules(eg, k))
  expect_identical(dpdt_sql(lz, k), dpdt_sql(eg, k))
  expect_identical(dpdt_importance(lz, k), dpdt_importance(eg, k))
  untimed <- function(x) sub("; [0-9.e-]+ s$", "", capture.output(print(x)))
  expect_identical(untimed(lz), untimed(eg))
  skip_if_not_installed("partykit")
  expect_equal(partykit::as.party(lz, model = k), partykit::as.party(eg, model = k))
})

test_that("a lazy pruning front survives saveRDS/readRDS and still predicts", {
  skip_if_not_installed("rpart")
  d <- lazy_case(4)
  nd <- lazy_case(5)
  tr <- rpart::rpart(y ~ x1 + x2 + x3 + g + o, data = d,
                     control = rpart::rpart.control(cp = 0, minsplit = 4, xval = 0))
  p <- dpdt_prune(tr, d)
  eg <- dpdt_prune(tr, d, lazy = FALSE)
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  saveRDS(p, f)
  q <- readRDS(f)
  expect_identical(q$tree_cuts, p$tree_cuts)
  for (k in unique(c(1L, 5L, nrow(q$front) %/% 2, nrow(q$front)))) {
    pr <- predict(q, nd, model = k)
    expect_identical(pr, predict(eg, nd, model = k))
    expect_equal(sum(pr != nd$y) > 0, TRUE)
    expect_identical(dpdt_tree(q, k)$tree, eg$trees[[k]])
  }
  # the single leaf predicts the majority class of `d` everywhere
  expect_identical(as.character(unique(predict(q, nd, model = 1))),
                   names(which.max(table(d$y))))
})

test_that("rpart's own routing is asked only where it can differ, same end nodes", {
  skip_if_not_installed("rpart")
  d <- lazy_case(6, n = 800)
  d$g[sample(800, 40)] <- NA
  # level "e" never seen in training: every split on g codes it as unseen
  tr <- rpart::rpart(y ~ x1 + x2 + x3 + g + o, data = d[d$g != "e" | is.na(d$g), ],
                     control = rpart::rpart.control(cp = 0, minsplit = 2, xval = 0))
  src <- dpdt:::rpart_source(tr)
  nd <- lazy_case(7, n = 600)
  nd$x1[sample(600, 60)] <- NA
  nd$o[sample(600, 30)] <- NA
  for (data in list(d, nd)) {
    mf <- dpdt:::prune_frame(src, data)
    x <- dpdt:::feature_matrix(mf, src$features, src$xlevels)
    ours <- src$node_label[src$end_nodes(data, x)]
    theirs <- as.integer(rownames(tr$frame))[dpdt:::rpart_where(tr, data)]
    expect_identical(ours, theirs)
    # and most rows never reach pred.rpart
    tests_only <- dpdt:::cpp_route_tests(x, src$tree, environment(src$end_nodes)$unseen)
    expect_true(mean(is.na(tests_only)) < 0.5)
    expect_true(anyNA(tests_only))
  }
})
