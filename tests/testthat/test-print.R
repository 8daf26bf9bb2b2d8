# print(), summary() and the printed tree show the expected pieces.

test_that("print(fit) shows the call and the front", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  out <- capture.output(res <- print(fit))
  expect_identical(res, fit)  # returns its argument invisibly
  capture.output(expect_invisible(print(fit)))
  txt <- paste(out, collapse = "\n")
  expect_match(txt, "Species")
  expect_match(txt, "classification", ignore.case = TRUE)
  expect_match(txt, "n_splits|splits")
  expect_match(txt, "avg_tests|tests")
  expect_match(txt, "train_loss|loss|error")
  # one line per front row at least
  expect_gte(length(out), nrow(fit$front))

  rf <- dpdt_fit(mpg ~ wt + hp, data = mtcars, max_depth = 2, min_bucket = 1)
  expect_match(paste(capture.output(print(rf)), collapse = "\n"),
               "regression", ignore.case = TRUE)
})

test_that("summary(fit) has a class and a print method", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3, min_bucket = 1)
  s <- summary(fit)
  expect_s3_class(s, "summary.dpdt")
  out <- capture.output(res <- print(s))
  expect_identical(res, s)
  txt <- paste(out, collapse = "\n")
  expect_match(txt, "Species")
  expect_match(txt, "150")  # number of observations
  expect_gt(length(out), 3)
})

test_that("print(dpdt_tree()) shows indented rules with variable names", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  tr <- dpdt_tree(fit)
  expect_s3_class(tr, "dpdt_tree")
  out <- capture.output(res <- print(tr))
  expect_identical(res, tr)
  txt <- paste(out, collapse = "\n")
  # the default tree is the most accurate: Petal.* splits, all three classes
  expect_match(txt, "Petal\\.(Length|Width) <= [0-9.]+")
  expect_match(txt, "Petal\\.(Length|Width) > [0-9.]+")
  for (cl in levels(iris$Species)) expect_match(txt, cl)
  # indentation grows with depth
  ind <- nchar(out) - nchar(sub("^\\s+", "", out))
  expect_gt(length(unique(ind[nzchar(trimws(out))])), 1)
  # leaves show n: the root split of iris sends 50 setosa one way
  expect_match(txt, "50")

  # the leaf-only tree prints its prediction and n
  t1 <- dpdt_tree(fit, model = 1)
  txt1 <- paste(capture.output(print(t1)), collapse = "\n")
  expect_match(txt1, "setosa")
  expect_match(txt1, "150")

  # every threshold printed matches the tree's numbers
  tt <- fit$trees[[nrow(fit$front)]]
  thr <- tt$threshold[tt$feature > 0]
  nums <- as.numeric(unlist(regmatches(txt, gregexpr("(?<=<= )[0-9.]+", txt,
                                                      perl = TRUE))))
  expect_equal(length(nums), length(thr))
  expect_equal(sort(nums), sort(thr), tolerance = 1e-3)
})

test_that("regression trees print their means", {
  d <- data.frame(x = 1:5, y = c(0, 0, 4, 4, 8))
  fit <- dpdt_fit(y ~ x, data = d, max_depth = 1, candidates = "exhaustive", min_bucket = 1)
  txt <- paste(capture.output(print(dpdt_tree(fit))), collapse = "\n")
  expect_match(txt, "x <= 2.5", fixed = TRUE)
  expect_match(txt, "x > 2.5", fixed = TRUE)
  expect_match(txt, "5.33")   # mean of 4, 4, 8
})

test_that("long fronts print their convex hull only, and say so", {
  set.seed(3)
  n <- 400
  d <- data.frame(x1 = runif(n), x2 = runif(n), x3 = runif(n))
  d$y <- d$x1 + sin(6 * d$x2) + rnorm(n, sd = 0.3)
  fit <- dpdt_fit(y ~ ., data = d, max_depth = 6, cart_depth = 2, min_bucket = 1)
  front <- fit$front
  expect_gt(nrow(front), 40)
  out <- capture.output(print(fit))
  hull <- front$model[!is.na(front$alpha_min)]
  expect_true(any(grepl(sprintf("of the %d Pareto-optimal trees", nrow(front)), out)))
  shown <- as.integer(sub("^ *([0-9]+) .*", "\\1",
                          grep("^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ ", out, value = TRUE)))
  expect_true(all(shown %in% hull))
  expect_equal(length(shown), min(40L, length(hull)))
  expect_true(max(front$model) %in% shown)   # the most accurate tree
  short <- capture.output(print(dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)))
  expect_false(any(grepl("Pareto-optimal trees \\(those", short)))
})
