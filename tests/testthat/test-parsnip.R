# The parsnip engine "dpdt": the mapping of cost_complexity (rpart's cp) to
# a tree of the front, the fitting function, and, when the tidymodels
# packages are installed, fit / predict / multi_predict / tune_grid.

# A front computed by hand: x <= 6.5 leaves 2 errors of 12 (rel. error
# 0.5); splitting its right side at 9.5 leaves 1 (0.25); a depth-2 tree
# with 3 splits is perfect. rel_error + cp * n_splits picks 3 splits for
# cp < 0.25, 1 split for 0.25 < cp < 0.5, none above; at the ties (0.25,
# 0.5) the smaller tree.
cp_data <- data.frame(x = 1:12, y = factor(c(rep("a", 6), rep("b", 3),
                                            "a", "a", "b")))

test_that("cost_complexity chooses the tree of the front as computed by hand", {
  fit <- dpdt_fit(y ~ x, data = cp_data, max_depth = 2,
                  candidates = "exhaustive", complexity = "splits", min_bucket = 1)
  expect_equal(fit$front$n_splits, 0:3)
  expect_equal(fit$front$rel_error, c(1, 0.5, 0.25, 0))
  cp <- c(0, 0.01, 0.1, 0.2, 0.249, 0.25, 0.251, 0.3, 0.45, 0.5, 0.51, 0.9, 5)
  want <- c(3, 3, 3, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0)
  expect_equal(fit$front$n_splits[cp_model(fit, cp)], want)
  # the same choice in the units of the front: alpha = cp * root loss lies
  # in the chosen tree's alpha interval
  alpha <- cp * fit$front$train_loss[1]
  chosen <- fit$front[cp_model(fit, cp), ]
  expect_true(all(chosen$alpha_min <= alpha + 1e-12))
  expect_true(all(alpha <= chosen$alpha_max + 1e-12))
})

test_that("the choice coincides with rpart's on rpart's own tree sequence", {
  skip_if_not_installed("rpart")
  r <- rpart::rpart(y ~ x, data = cp_data, control = rpart::rpart.control(
    cp = 0, minsplit = 2, minbucket = 1, xval = 0))
  n_splits <- function(tree) sum(tree$frame$var != "<leaf>")
  check_sequence <- function(r) {
    tab <- r$cptable
    # penalties strictly between rpart's thresholds (no ties), and beyond
    cps <- sort(unname(tab[, "CP"]))
    cps <- cps[c(TRUE, diff(cps) > 1e-6 * cps[-1])]  # equal up to rounding
    cp <- c(cps / 2, sqrt(cps[-1] * cps[-length(cps)]), 2 * max(cps))
    cp <- cp[cp > 0]
    ours <- tab[cp_choice(tab[, "rel error"], tab[, "nsplit"], cp), "nsplit"]
    theirs <- vapply(cp, function(a) n_splits(rpart::prune(r, cp = a)), 1)
    expect_equal(unname(ours), theirs)
  }
  check_sequence(r)
  check_sequence(rpart::rpart(Species ~ ., data = iris, control =
    rpart::rpart.control(cp = 0, minsplit = 2, xval = 0)))
  check_sequence(rpart::rpart(mpg ~ ., data = mtcars, control =
    rpart::rpart.control(cp = 0, minsplit = 4, xval = 0)))
  # and on this data rpart's sequence is dpdt's front (with 2 splits in
  # between), so both engines pick trees of the same size for every cp
  fit <- dpdt_fit(y ~ x, data = cp_data, max_depth = 2,
                  candidates = "exhaustive", complexity = "splits", min_bucket = 1)
  cp <- c(0.01, 0.1, 0.2, 0.3, 0.45, 0.6, 0.9)
  expect_equal(fit$front$n_splits[cp_model(fit, cp)],
               vapply(cp, function(a) n_splits(rpart::prune(r, cp = a)), 1))
})

test_that("with complexity = \"tests\" cost_complexity penalises avg_tests", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2,
                  complexity = "tests", min_bucket = 1)
  cp <- c(0, 0.05, 0.2, 0.4, 0.6)
  v <- outer(fit$front$rel_error, rep(1, length(cp))) +
    outer(fit$front$avg_tests, cp)
  expect_equal(cp_model(fit, cp), apply(v, 2, which.min))
})

test_that("dpdt_parsnip_fit() is dpdt_fit() with the tree chosen by cp", {
  d <- iris
  for (cp in c(0, 0.02, 0.3, 1)) {
    fit <- dpdt_parsnip_fit(Species ~ ., data = d, max_depth = 3,
                            cost_complexity = cp, min_bucket = 1)
    ref <- dpdt_fit(Species ~ ., data = d, max_depth = 3,
                    complexity = "splits", min_bucket = 1)
    expect_equal(fit$front, ref$front)
    expect_equal(fit$trees, ref$trees)
    v <- ref$front$rel_error + cp * ref$front$n_splits
    expect_equal(fit$default_model, which(v == min(v))[1])
    expect_equal(fit$cost_complexity, cp)
    expect_equal(predict(fit, d), predict(ref, d, model = fit$default_model))
  }
  # the default is rpart's cp = 0.01; engine arguments pass through
  fit <- dpdt_parsnip_fit(Species ~ ., data = d, max_depth = 2,
                          complexity = "tests", cart_depth = 2,
                          criterion = "gini", min_bucket = 5)
  expect_equal(fit$cost_complexity, 0.01)
  expect_equal(fit$control[c("complexity", "cart_depth", "criterion",
                             "min_bucket")],
               list(complexity = "tests", cart_depth = 2L, criterion = "gini",
                    min_bucket = 5L))
})

test_that("dpdt_parsnip_fit() takes weights by value, whatever data holds", {
  d <- data.frame(x = 1:12, y = cp_data$y, weights = 12:1)
  w <- rep(c(1, 3), 6)
  fit <- dpdt_parsnip_fit(y ~ x, data = d, weights = w, max_depth = 2, min_bucket = 1)
  ref <- dpdt_fit(y ~ x, data = d[c("x", "y")], weights = w, max_depth = 2,
                  complexity = "splits", min_bucket = 1)
  expect_equal(fit$front, ref$front)
  unweighted <- dpdt_parsnip_fit(y ~ x, data = d, max_depth = 2, min_bucket = 1)
  expect_false(isTRUE(all.equal(unweighted$front, ref$front)))
})

test_that("bad cost_complexity is refused with a message naming it", {
  expect_error(dpdt_parsnip_fit(Species ~ ., iris, cost_complexity = -1, min_bucket = 1),
               "`cost_complexity` must be a single finite number >= 0")
  expect_error(dpdt_parsnip_fit(Species ~ ., iris, cost_complexity = c(0, 1), min_bucket = 1),
               "`cost_complexity` must be a single finite number >= 0")
  expect_error(dpdt_parsnip_fit(Species ~ ., iris, cost_complexity = "a", min_bucket = 1),
               "`cost_complexity` must be")
  expect_error(dpdt_parsnip_fit(Species ~ ., iris, tree_depth = 2, min_bucket = 1),
               "`tree_depth` not matched by dpdt_fit")
})

# ---- through parsnip, workflows and tune ---------------------------------

skip_if_no_tidymodels <- function() {
  pkgs <- c("parsnip", "tune", "workflows", "yardstick", "dials", "rsample",
            "hardhat", "tibble", "vctrs", "rlang")
  # loading them can warn about the machine (lubridate asks timedatectl for
  # the time zone when TZ is unset): not what these tests are about
  suppressWarnings(for (p in pkgs) requireNamespace(p, quietly = TRUE))
  for (p in pkgs) skip_if_not_installed(p)
}

# Two classes driven by a numeric and a three-level factor, with noise.
tm_data <- function(n = 90) {
  set.seed(42)
  d <- data.frame(a = round(runif(n), 2), b = round(rnorm(n), 2),
                  g = factor(sample(c("p", "q", "r"), n, TRUE)))
  d$y <- factor(ifelse(d$a + (d$g == "q") + 0.3 * rnorm(n) > 0.9,
                       "yes", "no"), levels = c("yes", "no"))
  d
}

dt_spec <- function(mode, ...) {
  parsnip::set_engine(parsnip::decision_tree(mode = mode, ...), "dpdt")
}

test_that("the engine is registered with parsnip as documented", {
  skip_if_not_installed("parsnip")
  skip_if_not_installed("rlang")
  eng <- parsnip::show_engines("decision_tree")
  expect_setequal(eng$mode[eng$engine == "dpdt"],
                  c("classification", "regression"))
  spec <- dt_spec("classification")
  expect_true(parsnip::case_weights_allowed(spec))
  expect_true(parsnip::case_weights_allowed(dt_spec("regression")))
  args <- parsnip::get_from_env("decision_tree_args")
  args <- args[args$engine == "dpdt", ]
  expect_equal(args$original[match(c("tree_depth", "min_n", "cost_complexity"),
                                   args$parsnip)],
               c("max_depth", "min_bucket", "cost_complexity"))
  expect_equal(args$parsnip[args$has_submodel], "cost_complexity")
  enc <- parsnip::get_encoding("decision_tree")
  expect_equal(enc$predictor_indicators[enc$engine == "dpdt"],
               c("none", "none"))
  fit_call <- parsnip::translate(dt_spec("classification", tree_depth = 2,
                                         min_n = 5, cost_complexity = 0.1))
  expect_equal(rlang::eval_tidy(fit_call$method$fit$args$max_depth), 2)
  expect_equal(rlang::eval_tidy(fit_call$method$fit$args$min_bucket), 5)
  expect_equal(rlang::eval_tidy(fit_call$method$fit$args$cost_complexity), 0.1)
  # registering again changes nothing
  before <- parsnip::get_from_env("decision_tree_fit")
  expect_true(register_parsnip_engine())
  expect_equal(parsnip::get_from_env("decision_tree_fit"), before)
})

test_that("parsnip fits and predictions equal direct dpdt_fit() calls", {
  skip_if_no_tidymodels()
  d <- tm_data()
  new <- tm_data(30)
  chosen <- integer(0)
  for (cp in c(0, 0.1, 1)) {
    spec <- dt_spec("classification", tree_depth = 2, min_n = 3,
                    cost_complexity = cp)
    pf <- parsnip::fit(spec, y ~ ., data = d)
    ref <- dpdt_fit(y ~ ., data = d, max_depth = 2, min_bucket = 3,
                    complexity = "splits")
    eng <- hardhat::extract_fit_engine(pf)
    expect_s3_class(eng, "dpdt")
    expect_equal(eng$front, ref$front)
    # factors reach dpdt as factors, not as parsnip's dummy variables
    expect_equal(eng$xlevels$g, c("p", "q", "r"))
    expect_true(all(eng$features$kind[eng$features$variable == "g"] %in%
                    c("factor", "categorical")))
    m <- cp_choice(ref$front$rel_error, ref$front$n_splits, cp)
    chosen <- c(chosen, m)
    expect_equal(eng$default_model, m)
    expect_output(print(eng), sprintf("\\(default: model %d, cost_complexity = %s\\)", m, format(cp)))
    cls <- predict(pf, new)
    expect_named(cls, ".pred_class")
    expect_equal(cls$.pred_class, predict(ref, new, model = m))
    prob <- predict(pf, new, type = "prob")
    expect_named(prob, c(".pred_yes", ".pred_no"))
    expect_equal(unname(as.matrix(prob)),
                 unname(predict(ref, new, model = m, type = "prob")))
    # the x/y interface gives the same fit
    pxy <- parsnip::fit_xy(spec, x = d[c("a", "b", "g")], y = d$y)
    expect_equal(predict(pxy, new), cls)
  }
  expect_equal(length(unique(chosen)), 3)  # three different trees compared
  # regression, with case weights
  w <- rep(c(1, 2, 5), 30)
  spec <- dt_spec("regression", tree_depth = 2, cost_complexity = 0.02)
  pf <- parsnip::fit(spec, a ~ b + g, data = d,
                     case_weights = hardhat::importance_weights(w))
  ref <- dpdt_fit(a ~ b + g, data = d, weights = w, max_depth = 2,
                  complexity = "splits")
  expect_equal(hardhat::extract_fit_engine(pf)$front, ref$front)
  m <- cp_choice(ref$front$rel_error, ref$front$n_splits, 0.02)
  num <- predict(pf, new)
  expect_named(num, ".pred")
  expect_equal(num$.pred, predict(ref, new, model = m))
  unweighted <- parsnip::fit(spec, a ~ b + g, data = d)
  expect_false(isTRUE(all.equal(
    hardhat::extract_fit_engine(unweighted)$front, ref$front)))
  # engine arguments pass through
  pf <- parsnip::fit(parsnip::set_engine(
    parsnip::decision_tree(mode = "classification", tree_depth = 2), "dpdt",
    complexity = "tests", cart_depth = 1, criterion = "gini"), y ~ ., data = d)
  expect_equal(hardhat::extract_fit_engine(pf)$control[
    c("complexity", "cart_depth", "criterion")],
    list(complexity = "tests", cart_depth = 1L, criterion = "gini"))
})

test_that("multi_predict() gives, for every penalty, that penalty's fit", {
  skip_if_no_tidymodels()
  d <- tm_data()
  new <- tm_data(25)
  cps <- c(0.3, 0, 0.04, 0.08, 1)
  pf <- parsnip::fit(dt_spec("classification", tree_depth = 3, min_n = 1), y ~ .,
                     data = d)
  expect_equal(length(unique(cp_model(hardhat::extract_fit_engine(pf), cps))),
               4)  # penalties choosing 4 different trees
  expect_true(parsnip::has_multi_predict(pf))
  expect_equal(parsnip::multi_predict_args(pf), "cost_complexity")
  for (type in c("class", "prob")) {
    mp <- parsnip::multi_predict(pf, new, type = type, cost_complexity = cps)
    expect_equal(nrow(mp), nrow(new))
    expect_named(mp, ".pred")
    expect_true(all(vapply(mp$.pred, nrow, 1L) == length(cps)))
    expect_equal(mp$.pred[[1]]$cost_complexity, sort(cps))
    long <- do.call(rbind, mp$.pred)
    for (cp in cps) {
      refit <- parsnip::fit(dt_spec("classification", tree_depth = 3, min_n = 1,
                                    cost_complexity = cp), y ~ ., data = d)
      want <- predict(refit, new, type = type)
      got <- long[long$cost_complexity == cp, names(want)]
      expect_equal(as.data.frame(got), as.data.frame(want))
    }
  }
  # regression; and the default penalty is the fit's own
  pr <- parsnip::fit(dt_spec("regression", tree_depth = 2,
                             cost_complexity = 0.03), a ~ ., data = d)
  mp <- parsnip::multi_predict(pr, new)
  expect_equal(names(mp$.pred[[1]]), c("cost_complexity", ".pred"))
  expect_equal(vapply(mp$.pred, function(p) p$.pred, 1), predict(pr, new)$.pred)
  expect_equal(nrow(parsnip::multi_predict(pr, new[0, ], cost_complexity = 1)),
               0)
  expect_error(parsnip::multi_predict(pr, new, cost_complexity = -1),
               "`cost_complexity` must be finite numbers >= 0")
  expect_error(parsnip::multi_predict(pr, new, type = "class"),
               "`type = \"class\"` does not fit a regression model")
  expect_error(parsnip::multi_predict(pf, new, type = "numeric"),
               "`type = \"numeric\"` does not fit a classification model")
})

test_that("tune's min_grid() fits one model per depth for dpdt, every point for rpart", {
  skip_if_no_tidymodels()
  grid <- expand.grid(tree_depth = 1:3, cost_complexity = c(0.001, 0.01, 0.1))
  spec <- parsnip::decision_tree(mode = "classification",
                                 tree_depth = tune::tune(),
                                 cost_complexity = tune::tune())
  mg <- generics::min_grid(parsnip::set_engine(spec, "dpdt"), grid)
  expect_equal(sort(mg$tree_depth), 1:3)
  for (i in seq_len(nrow(mg))) {
    expect_setequal(c(mg$cost_complexity[i],
                      mg$.submodels[[i]]$cost_complexity),
                    grid$cost_complexity)
  }
  mg <- generics::min_grid(parsnip::set_engine(spec, "rpart"), grid)
  expect_equal(nrow(mg), nrow(grid))
  expect_true(all(lengths(mg$.submodels) == 0))
})

test_that("a workflow fits, predicts and tunes: one fit per resample serves every penalty", {
  skip_if_no_tidymodels()
  d <- tm_data(120)
  spec <- dt_spec("classification", tree_depth = tune::tune(),
                  cost_complexity = tune::tune())
  wf <- workflows::add_model(workflows::add_formula(workflows::workflow(),
                                                    y ~ .), spec)
  set.seed(7)
  folds <- rsample::vfold_cv(d, v = 3)
  grid <- expand.grid(tree_depth = 1:2,
                      cost_complexity = c(0.001, 0.02, 0.1, 0.4))
  metrics <- yardstick::metric_set(yardstick::accuracy, yardstick::roc_auc)

  fits <- new.env()
  fits$n <- 0
  # count the searches: the tracer runs in the fit's frame, so it names the
  # counter's environment by value
  trace("dpdt_parsnip_fit", bquote(assign("n", .(fits)$n + 1, envir = .(fits))),
        print = FALSE, where = asNamespace("dpdt"))
  on.exit(untrace("dpdt_parsnip_fit", where = asNamespace("dpdt")))
  res <- tune::tune_grid(wf, resamples = folds, grid = grid, metrics = metrics)
  n_submodel <- fits$n
  # one fit per resample and depth, not per penalty
  expect_equal(n_submodel, 3 * 2)
  tuned <- tune::collect_metrics(res, summarize = FALSE)
  expect_equal(nrow(tuned), 3 * nrow(grid) * 2)

  # the refit-per-penalty path: the same tune_grid() call with
  # cost_complexity not registered as a submodel parameter, so that every
  # grid point is fitted on every resample
  set_submodel <- function(flag) {
    a <- parsnip::get_from_env("decision_tree_args")
    a$has_submodel[a$engine == "dpdt" & a$parsnip == "cost_complexity"] <- flag
    parsnip::set_env_val("decision_tree_args", a)
  }
  set_submodel(FALSE)
  on.exit(set_submodel(TRUE), add = TRUE)
  fits$n <- 0
  res_refit <- tune::tune_grid(wf, resamples = folds, grid = grid,
                               metrics = metrics)
  set_submodel(TRUE)
  expect_equal(fits$n, 3 * nrow(grid))
  refit <- as.data.frame(tune::collect_metrics(res_refit, summarize = FALSE))
  key <- function(x) paste(x$id, x$tree_depth, x$cost_complexity, x$.metric)
  tuned <- as.data.frame(tuned)
  expect_setequal(key(tuned), key(refit))
  expect_equal(tuned$.estimate[order(key(tuned))],
               refit$.estimate[order(key(refit))])

  # a resample's metric is that of a direct dpdt_fit() on its rows
  split <- folds$splits[[2]]
  train <- rsample::analysis(split)
  test <- rsample::assessment(split)
  direct <- dpdt_fit(y ~ ., data = train, max_depth = 2,
                     complexity = "splits")
  m <- cp_choice(direct$front$rel_error, direct$front$n_splits, 0.02)
  acc <- mean(predict(direct, test, model = m) == test$y)
  row <- tuned$id == folds$id[2] & tuned$tree_depth == 2 &
    tuned$cost_complexity == 0.02 & tuned$.metric == "accuracy"
  expect_equal(tuned$.estimate[row], acc)

  # the chosen workflow fits and predicts like dpdt_fit()
  best <- tune::select_best(res, metric = "accuracy")
  final <- generics::fit(tune::finalize_workflow(wf, best), data = d)
  full <- dpdt_fit(y ~ ., data = d, max_depth = best$tree_depth,
                   complexity = "splits")
  m <- cp_choice(full$front$rel_error, full$front$n_splits,
                 best$cost_complexity)
  expect_equal(predict(final, d)$.pred_class, predict(full, d, model = m))
  eng <- hardhat::extract_fit_engine(final)
  expect_equal(as.data.frame(tidy(eng)), as.data.frame(tidy(full, model = m)))
})
