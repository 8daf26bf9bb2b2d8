# What a statistician meets first (issue 18): defaults that protect, long
# searches announced or refused, progress that reads in a log, and the
# interfaces R users expect.

test_that("defaults: leaves of at least 5 rows, and the tree rpart's cp = 0.01 keeps", {
  expect_identical(formals(dpdt_fit)$min_bucket, 5)
  k <- dpdt_fit(Kyphosis ~ ., rpart::kyphosis)
  expect_identical(k$control$min_bucket, 5L)
  for (m in seq_len(nrow(k$front))) {
    tr <- k$trees[[m]]
    expect_true(all(tr$n[tr$feature == 0L] >= 5))
  }
  v <- k$front$rel_error + 0.01 * k$front$n_splits
  expect_identical(k$default_model, which(v <= min(v) + 1e-10)[1])
  expect_identical(predict(k, rpart::kyphosis), predict(k, rpart::kyphosis, model = k$default_model))
  expect_match(paste(capture.output(print(k)), collapse = "\n"),
               sprintf("default: model %d, the tree rpart's cp = 0.01 keeps", k$default_model))
  # the issue's case: with min_bucket = 1 the most accurate tree had leaves of 1 and 2
  aq <- suppressMessages(dpdt_fit(Ozone ~ ., airquality))
  tr <- dpdt_tree(aq)$tree
  expect_true(all(tr$n[tr$feature == 0L] >= 5))
  expect_lt(aq$default_model, nrow(aq$front))
})

test_that("a search estimated beyond a minute says so; beyond an hour it is refused", {
  set.seed(1)
  n <- 5000
  d <- as.data.frame(matrix(rnorm(n * 10), n))
  d$y <- factor(d$V1 + d$V2 > 0)
  # a CART search estimated beyond an hour: refused before it starts
  expect_error(dpdt_fit(y ~ ., d, max_depth = 6, cart_depth = 8),
               "up to about .* with 2 thread\\(s\\), beyond an hour.*set time_limit.*raise max_work")
  # a search that tries every split is timed as it runs, but one estimated
  # beyond ten million hours (depth 5: thousands of years) is refused too
  expect_error(dpdt_fit(y ~ ., d, max_depth = 5, candidates = "exhaustive"),
               "years with 2 thread\\(s\\), beyond ten million hours.*set time_limit.*raise max_work")
  # a time limit bounds it instead: the widest search that finishes is kept
  expect_warning(fit <- dpdt_fit(y ~ ., d, max_depth = 3, candidates = "exhaustive",
                                 time_limit = 1.5),
                 "time_limit = 1.5 s reached")
  expect_false(fit$time_limit$complete)
  # the exhaustive search was stopped (not a CART one, on a slow machine):
  # the root splits it solved prove a lower bound of its optimum, never above
  # the kept front's least loss, and print() shows it
  tl <- fit$time_limit
  # trees the stopped search had found join the front where they improve
  # on it: still a front, and each tree's training loss is what it says
  expect_true(is.integer(tl$found) && tl$found >= 0L)
  if (tl$found > 0L)
    expect_match(fit$optimality$statement, paste(tl$found, "of its trees come from the search asked for"))
  fr <- fit$front
  expect_true(all(diff(fr$train_loss) < 0) && all(diff(fr$avg_tests) > 0))
  for (m in seq_len(nrow(fr))) {
    expect_equal(mean(predict(fit, d, model = m) != d$y), fr$train_loss[m])
  }
  if (identical(tl$searched, "cart_depth = 3")) {  # the step before "exhaustive"
    expect_false(is.na(tl$lower_bound))
    expect_gte(tl$lower_bound, 0)
    expect_lte(tl$lower_bound, min(fit$front$train_loss))
    expect_equal(tl$gap, min(fit$front$train_loss) - tl$lower_bound)
    shown <- paste(capture.output(print(fit)), collapse = "\n")
    if (tl$lower_bound > 0) {  # 0 (nothing proven) is not shown
      expect_match(shown, "Proven: no tree of the search asked for has training loss below")
    } else {
      expect_no_match(shown, "Proven")
    }
  }
  # beyond a minute: a message with the estimate and how to bound it (the
  # search then stops at once here, on a memory budget too small)
  big <- d[rep(seq_len(n), 4), ]
  expect_message(try(dpdt_fit(y ~ ., big, max_depth = 4, cart_depth = 6, max_memory = 1e-6),
                     silent = TRUE),
                 "this search may take up to about .* To bound it, set time_limit")
})

test_that("progress lines end with a newline in a log", {
  shown <- capture.output(
    invisible(dpdt_fit(Species ~ ., data = iris, max_depth = 3, progress = TRUE)),
    type = "message")
  expect_gt(length(shown), 0)
  expect_false(any(grepl("\r", shown, fixed = TRUE)))
  expect_true(all(grepl("^dpdt: [0-9]+ of [0-9]+ subtrees below the root searched$", shown)))
})

test_that("dpdt_fit(x, y) and a formula without data work as in lm()", {
  xy <- dpdt_fit(iris[1:4], iris$Species, max_depth = 2)
  ref <- dpdt_fit(Species ~ ., iris, max_depth = 2)
  expect_identical(xy$front, ref$front)
  expect_identical(xy$response, "y")
  m <- as.matrix(iris[1:4])
  expect_identical(dpdt_fit(m, iris$Species, max_depth = 2)$front, ref$front)
  expect_identical(predict(xy, iris), predict(ref, iris))
  len <- iris$Petal.Length
  sp <- iris$Species
  f <- dpdt_fit(sp ~ len, max_depth = 2)
  expect_identical(f$front, dpdt_fit(Species ~ Petal.Length, iris, max_depth = 2)$front)
  expect_error(dpdt_fit(m), "`data` is missing: with a data frame or matrix of predictors")
  expect_error(dpdt_fit(m, 1:3), "`y` \\(the second argument of dpdt_fit\\(x, y\\)\\) must be a vector")
  expect_error(dpdt_fit(sp ~ .), "`.` in the formula needs it")
  expect_error(dpdt_fit(sp ~ not_here), "`not_here` are not found")
})

test_that("a tree taken out of a front converts to party", {
  skip_if_not_installed("partykit")
  fit <- dpdt_fit(Species ~ ., iris, max_depth = 2)
  p <- partykit::as.party(dpdt_tree(fit, model = 3))
  expect_s3_class(p, "constparty")
  expect_identical(unname(predict(p, iris)), predict(fit, iris, model = 3))
})

test_that("a factor of many levels for its rows is named in a warning", {
  set.seed(1)
  d <- data.frame(y = factor(sample(c("a", "b", "c"), 3000, TRUE)),
                  g = factor(sample(1:1000, 3000, TRUE)))
  expect_warning(dpdt_fit(y ~ g, d, max_depth = 1),
                 "Predictor `g` has [0-9]+ levels for 3000 rows .*rows per level")
  expect_silent(dpdt_fit(Species ~ ., iris, max_depth = 1))
})

test_that("summary() of a CV result shows its own call; an ordered response gets an ordered palette", {
  set.seed(1)
  cv <- dpdt_cv(Species ~ ., iris, folds = 3, max_depth = 2)
  expect_match(paste(capture.output(print(summary(cv))), collapse = "\n"), "dpdt_cv\\(")
  cols <- dpdt:::class_colours(4, ordered = TRUE)
  light <- grDevices::convertColor(t(grDevices::col2rgb(cols)) / 255, "sRGB", "Lab")[, "L"]
  expect_true(all(diff(light) < 0))              # light to dark, in level order
  d <- transform(MASS::Pima.tr, age = cut(age, c(0, 25, 35, 50, 100), ordered_result = TRUE))
  fit <- dpdt_fit(age ~ glu + bmi + npreg, d, max_depth = 2)
  lay <- dpdt:::tree_layout(dpdt_tree(fit))
  expect_identical(lay$legend$fill, cols)
})

test_that("an exhaustive search is timed as it runs, not refused by its estimate", {
  # an easy search whose estimate is beyond an hour: it runs, says nothing
  # (its estimate, an upper bound its bounds make loose, is not announced:
  # "up to 3 hours" before a search of a second misleads), and its
  # projections are kept beside the estimate
  set.seed(2)
  n <- 4000
  d <- as.data.frame(matrix(runif(n * 6), n))
  d$y <- factor(d$V1 > 0.5)
  expect_no_message(fit <- dpdt_fit(y ~ ., d, max_depth = 3, candidates = "exhaustive"))
  e <- fit$work_estimate
  expect_true(e$measured)
  expect_gt(e$seconds, 3600)
  expect_identical(min(fit$front$train_loss), 0)
  # with min_bucket 5 no interval bound holds above the last level, and
  # the superset's alone fell below 0: no split was ruled out (850,195
  # states, 135 s); losses are never negative (382 states)
  expect_lt(fit$n_states, 2000)
  p <- e$projections
  expect_s3_class(p, "data.frame")
  expect_identical(names(p), c("elapsed", "runs_done", "runs", "runs_are", "projected_seconds",
                               "row_visits", "projected_row_visits"))
  expect_true(nrow(p) >= 1 && all(p$runs == 6L) && !is.unsorted(p$runs_done))
  expect_identical(unique(p$runs_are), "features")
  expect_true(all(p$projected_seconds >= p$elapsed))
  expect_true(!is.unsorted(p$row_visits) && all(p$row_visits <= e$visits_made) &&
                all(p$projected_row_visits >= p$row_visits))
  # max_work applies to the row visits such a search makes as it runs, not
  # to its estimate (at least a hundred times more here): a limit far below
  # the estimate but above the visits lets it run to the same front; one
  # below them stops it, with the figures and what to do
  one <- dpdt_fit(y ~ ., d, max_depth = 3, candidates = "exhaustive", threads = 1, max_work = Inf)
  made <- one$work_estimate$visits_made
  expect_gt(made, 0)
  expect_lt(made, one$work_estimate$row_visits / 100)
  within <- dpdt_fit(y ~ ., d, max_depth = 3, candidates = "exhaustive", threads = 1,
                     max_work = 2 * made)
  expect_identical(within$front, one$front)
  expect_identical(within$work_estimate$visits_made, made)
  expect_error(dpdt_fit(y ~ ., d, max_depth = 3, candidates = "exhaustive", threads = 1,
                        max_work = made / 2),
               "stopped after .* row visits .*max_work = .*Raise max_work \\(Inf: no limit\\)")
  # with missing values in one feature its cuts make two runs, one for each
  # side the missing values go to, and a factor one per level group: the
  # projections and messages count groups of candidate splits, not features
  dm <- d
  dm$V2[seq(1, n, by = 200)] <- NA
  pm <- dpdt_fit(y ~ ., dm, max_depth = 3, candidates = "exhaustive",
                 threads = 1)$work_estimate$projections
  expect_identical(unique(pm$runs), 7L)
  expect_identical(unique(pm$runs_are), "groups of candidate splits")
  dm$V3 <- cut(dm$V3, 4)  # 2^3 - 1 = 7 level groups
  pm <- dpdt_fit(y ~ ., dm, max_depth = 3, candidates = "exhaustive",
                 threads = 1)$work_estimate$projections
  expect_identical(unique(pm$runs), 13L)
  # MASS's Pima.tr2: missing values in three of its seven features
  expect_error(dpdt_fit(type ~ ., MASS::Pima.tr2, max_depth = 3, candidates = "exhaustive",
                        threads = 1, max_work = 2e8),
               "after [0-9]+ of the root's 10 groups of candidate splits it was projected")
  # a CART search is not measured: no projections
  cart <- dpdt_fit(y ~ ., d, max_depth = 3)
  expect_false(cart$work_estimate$measured)
  expect_identical(nrow(cart$work_estimate$projections), 0L)
  # stopped as it runs (a limit of 1e-5 s: it runs beyond three times
  # that), with the figures and what to do; the engine's limit is the hour
  # in dpdt_fit()
  x <- lapply(d[1:300, 1:6], as.double)  # the engine's columns
  y <- as.double(d$y[1:300]) - 1
  opts <- list(max_depth = 3L, cart_depth = 3L, candidates = "exhaustive",
               complexity = "splits", criterion = "gini", min_bucket = 1L, threads = 1L,
               max_memory = 1, progress = FALSE, max_seconds = 1e-5)
  expect_error(dpdt:::cpp_search(x, y, rep(1, 300), 2L, opts),
               "stopped after .*it had run that long without finishing.*set max_work = Inf")
  # a measured search speaks once it runs long: at its first projection
  # beyond `announce_after` seconds (a minute in dpdt_fit()), or after that
  # long without one, whichever comes first; with the stop, what to do, and
  # the slow settings' hint
  opts$max_seconds <- 3600
  opts$announce <- TRUE
  opts$announce_after <- 0
  opts$measured_hint <- " With min_bucket = 5 one of its two bounds is weaker."
  expect_message(dpdt:::cpp_search(x, y, rep(1, 300), 2L, opts),
                 paste0("tries every split and is timed as it runs: .*It stops with an error if ",
                        "projected beyond 3 hours.*set time_limit.*With min_bucket = 5"))
  # depth 4 (estimated at 19 days, it takes a fraction of a second: it was
  # refused) and depth 2 are timed as they run too
  exhaustive <- function(depth) dpdt_fit(y ~ ., d[1:1500, ], max_depth = depth,
                                         candidates = "exhaustive", min_bucket = 1,
                                         complexity = "splits", threads = 1)
  expect_no_message(deep <- exhaustive(4))
  expect_gt(deep$work_estimate$seconds, 86400)
  for (fit in list(deep, exhaustive(2))) {
    expect_true(fit$work_estimate$measured)
    expect_gte(nrow(fit$work_estimate$projections), 1)
    expect_identical(min(fit$front$train_loss), 0)
  }
})

test_that("exact_levels = 2 at depth 3 is timed as it runs, per candidate split of its root", {
  fit <- dpdt_fit(Species ~ ., iris, max_depth = 3, exact_levels = 2, threads = 1)
  e <- fit$work_estimate
  expect_true(e$measured)
  p <- e$projections
  expect_gt(nrow(p), 0)
  # the last projection is at the end: every candidate split done
  expect_equal(p$runs_done[nrow(p)], p$runs[nrow(p)])
  expect_identical(unique(p$runs_are), "candidate splits")
  expect_gt(e$visits_made, 0)
  # the default search (CART proposals everywhere) is estimated, not timed
  expect_false(dpdt_fit(Species ~ ., iris, max_depth = 3, threads = 1)$work_estimate$measured)
  # max_work applies to the visits it makes, and the message names the
  # narrower search to fall back to
  expect_error(dpdt_fit(Species ~ ., iris, max_depth = 3, exact_levels = 2, threads = 1,
                        max_work = e$visits_made / 2),
               "stopped after .* row visits.*lower exact_levels \\(now 2\\)")
  # timing it changes nothing of the front
  same <- dpdt_fit(Species ~ ., iris, max_depth = 3, exact_levels = 2, threads = 1,
                   max_work = Inf)
  expect_identical(same$front, fit$front)
})

test_that("a stopped search's trees join the kept front where they improve on it", {
  tree <- function(id) list(id = id)
  kept <- list(loss = c(10, 6, 4, 3), complexity = c(0, 1, 2, 3), trees = lapply(1:4, tree))
  partial <- list(loss = c(10, 5, 4, 2.5), complexity = c(0, 1, 2, 2.5),
                  trees = lapply(11:14, tree))
  merge_fronts <- dpdt:::merge_fronts
  m <- merge_fronts(kept, partial)
  # (1, 5) beats (1, 6); (2, 4) ties: the kept one stays; (2.5, 2.5) beats (3, 3)
  expect_identical(m$front$loss, c(10, 5, 4, 2.5))
  expect_identical(m$front$complexity, c(0, 1, 2, 2.5))
  expect_identical(vapply(m$front$trees, `[[`, 0L, "id"), c(1L, 12L, 3L, 14L))
  expect_identical(m$found, 2L)
  # nothing better: the kept front as it was
  worse <- list(loss = c(10, 7), complexity = c(0, 2), trees = lapply(21:22, tree))
  expect_identical(merge_fronts(kept, worse)$front$loss, kept$loss)
  expect_identical(merge_fronts(kept, worse)$found, 0L)
  # best_only: the leaf and the most accurate
  b <- merge_fronts(kept[c("loss", "complexity", "trees")], partial, best_only = TRUE)
  expect_identical(b$front$loss, c(10, 2.5))
})


test_that("the work estimate covers the row visits of a search that tries every split", {
  # regression has no bounds that skip splits, so its visits are the
  # estimate's own count: on Boston it was below them (1.02 times at
  # depth 2, 1.18 at depth 3) while called an upper bound
  skip_if_not_installed("MASS")
  for (a in list(list(medv ~ ., MASS::Boston, max_depth = 2),
                 list(mpg ~ ., mtcars, max_depth = 3),
                 list(Ozone ~ ., na.omit(airquality), max_depth = 3, min_bucket = 3))) {
    fit <- do.call(dpdt_fit, c(a, candidates = "exhaustive", threads = 1))
    e <- fit$work_estimate
    expect_gt(e$visits_made, e$row_visits / 4)
    expect_lte(e$visits_made, e$row_visits)
    # a regression's seconds at its own speed, 3e8 visits a second (at 1e9
    # Boston at depth 3 took 3.3 times its estimated seconds)
    expect_equal(e$seconds, e$row_visits / 3e8)
  }
  iris_fit <- dpdt_fit(Species ~ ., iris, max_depth = 2, candidates = "exhaustive", threads = 1)
  expect_equal(iris_fit$work_estimate$seconds, iris_fit$work_estimate$row_visits / 1e9)
})
