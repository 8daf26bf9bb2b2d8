# Exports of one tree of a front: partykit party, rules, SQL, importance.
# Each is checked against dpdt's own predictions row for row.

same_pred <- function(a, b) {
  expect_identical(as.character(unname(a)), as.character(unname(b)))
}

# ---- as.party ----------------------------------------------------------------

party_agrees <- function(fit, model, newdata, ...) {
  p <- partykit::as.party(fit, model = model, ...)
  expect_s3_class(p, c("constparty", "party"))
  expect_identical(unname(predict(p, newdata, type = "node")),
                   predict(fit, newdata, model = model, type = "node"))
  if (fit$type == "classification") {
    same_pred(predict(p, newdata), predict(fit, newdata, model = model))
    expect_equal(unname(predict(p, newdata, type = "prob")),
                 unname(predict(fit, newdata, model = model, type = "prob")))
  } else {
    expect_equal(unname(predict(p, newdata)),
                 predict(fit, newdata, model = model))
  }
  # on the training rows, without newdata
  expect_identical(unname(predict(p, type = "node")),
                   predict(fit, model = model, type = "node"))
  invisible(p)
}

test_that("as.party() predicts as dpdt on every tree of a classification front", {
  skip_if_not_installed("partykit")
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3, min_bucket = 1)
  withr::with_seed(1, new <- iris[sample(150, 40), ])
  new$Sepal.Length <- new$Sepal.Length + stats::rnorm(40, sd = 0.3)
  for (m in seq_len(nrow(fit$front))) party_agrees(fit, m, new)
  p <- partykit::as.party(fit)
  expect_identical(partykit::nodeids(p, terminal = TRUE),
                   which(fit$trees[[fit$default_model]]$feature == 0L))
  expect_identical(nrow(p$data), 150L)
  expect_identical(nrow(partykit::as.party(fit, data = FALSE)$data), 0L)
})

test_that("as.party() handles factor, logical and character predictors, weights and regression", {
  skip_if_not_installed("partykit")
  d <- transform(mtcars, cyl = factor(cyl), am = am == 1,
                 gear = as.character(gear), carb = factor(carb, ordered = TRUE))
  w <- rep(c(1, 2, 0.5, 3), 8)
  reg <- dpdt_fit(mpg ~ cyl + am + gear + carb + wt + hp, data = d, weights = w,
                  max_depth = 3, min_bucket = 1)
  kinds <- lapply(reg$trees, function(t) reg$features$kind[t$feature[t$feature > 0]])
  # trees testing a factor, an ordered factor, a logical, and the last one
  pick <- unique(c(vapply(c("categorical", "ordered", "logical"), function(k)
    match(TRUE, vapply(kinds, function(u) k %in% u, logical(1))), integer(1)),
    nrow(reg$front)))
  expect_false(anyNA(pick))
  for (m in pick) party_agrees(reg, m, d[nrow(d):1, ])
  cls <- dpdt_fit(am ~ cyl + gear + carb + mpg + wt, data = d, weights = w,
                  max_depth = 3, min_bucket = 1)
  for (m in seq_len(nrow(cls$front))) party_agrees(cls, m, d)
})

test_that("as.party() follows level groups, ordered and logical tests and learned NA sides", {
  skip_if_not_installed("partykit")
  for (regression in c(FALSE, TRUE)) {
    fr <- mixed_front(regression)
    new <- mixed_newdata()
    p <- partykit::as.party(fr)
    ours <- predict(fr, new, type = "node")
    theirs <- unname(predict(p, new, type = "node"))
    ok <- !is.na(ours)
    # NA where a missing value meets a test without a side (g at the
    # root; b below g in {b, d} and o <= mid)
    expect_true(all(is.na(new$g[!ok]) | is.na(new$b[!ok])))
    expect_true(all(!ok[is.na(new$g)]))
    expect_true(any(!ok & is.na(new$b)))
    expect_true(all(ok[is.na(new$x) & !is.na(new$g)]))
    expect_true(all(ok[is.na(new$o) & !is.na(new$g)]))
    expect_identical(theirs[ok], ours[ok])
    expect_identical(unname(predict(p, type = "node")), predict(fr, type = "node"))
    # where the test has no side, partykit takes the heavier kid
    tr <- fr$trees[[1]]
    heavy_g <- if (tr$weight[2] >= tr$weight[5]) "a" else "b"
    heavy_b <- tr$weight[7] >= tr$weight[8]
    filled <- new
    filled$g[is.na(filled$g)] <- heavy_g
    filled$b[is.na(filled$b)] <- !heavy_b
    expect_identical(theirs[!ok], predict(fr, filled, type = "node")[!ok])
    if (!regression) {
      expect_equal(unname(predict(p, new, type = "prob"))[ok, ],
                   unname(predict(fr, new, type = "prob"))[ok, ])
    } else {
      expect_equal(unname(predict(p, new))[ok], predict(fr, new)[ok])
    }
  }
})

test_that("as.party() works on fronts without a model frame and on pruning and CV fronts", {
  skip_if_not_installed("partykit")
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3, min_bucket = 1)
  for (obj in list(fake_prune(fit), fake_cv(fit))) {
    party_agrees(obj, NULL, iris)
  }
  bare <- fit
  bare$model_frame <- NULL
  p <- partykit::as.party(bare, model = 9)
  same_pred(predict(p, iris), predict(fit, iris, model = 9))
  expect_equal(unname(predict(p, iris, type = "prob")),
               unname(predict(fit, iris, model = 9, type = "prob")))
  reg <- mixed_front(regression = TRUE)
  reg$model_frame <- NULL
  new <- mixed_data(n = 50, seed = 5)
  expect_equal(unname(predict(partykit::as.party(reg), new)), predict(reg, new))
})

test_that("as.party() checks its arguments", {
  skip_if_not_installed("partykit")
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  expect_error(partykit::as.party(fit, model = 0), "`model` must be a whole number")
  expect_error(partykit::as.party(fit, data = NA), "`data` must be TRUE or FALSE")
  expect_error(partykit::as.party(fit, modle = 2), "`modle` not matched by as.party")
})

# ---- rules ---------------------------------------------------------------------

test_that("dpdt_rules() gives one row per leaf with its path and statistics", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  r <- dpdt_rules(fit)
  # thresholds: short decimals between the training values (1.9 | 3.0, 1.6 | 1.7)
  expect_identical(r$rule, c("Petal.Length <= 2.5",
                             "Petal.Length > 2.5 & Petal.Width <= 1.65",
                             "Petal.Length > 2.5 & Petal.Width > 1.65"))
  expect_identical(as.character(r$prediction), c("setosa", "versicolor", "virginica"))
  node <- predict(fit, type = "node")
  expect_identical(r$n, as.integer(table(factor(node, levels = r$leaf))))
  expect_equal(r$loss, c(0, 4, 2))
  expect_equal(r$prob_versicolor[2], 48 / 52)
  expect_equal(sum(r$loss) / 150, fit$front$train_loss[nrow(fit$front)])
  one <- dpdt_rules(fit, model = 1)
  expect_identical(one$rule, "TRUE")
  expect_identical(one$n, 150L)
  m <- dpdt_rules(mixed_front())
  expect_identical(m$rule[c(1, 3, 4)],
                   c("g in {a, c, e} & x <= 0.4 or NA",
                     "g in {b, d} & o <= mid & b = FALSE",
                     "g in {b, d} & o <= mid & b = TRUE"))
  expect_identical(m$rule[5], "g in {b, d} & o > mid or NA")
  reg <- dpdt_rules(mixed_front(regression = TRUE))
  expect_false(any(grepl("^prob_", names(reg))))
  expect_equal(sum(reg$loss), sum(residuals(mixed_front(regression = TRUE))^2))
  expect_error(dpdt_rules(iris), "`x` must be a front of trees")
  expect_error(dpdt_rules(fit, model = 99), "`model` must be a whole number")
})

test_that("a rule keeps the tighter of two tests of a variable in one direction", {
  d <- MASS::Boston
  fit <- dpdt_fit(medv ~ ., data = d, max_depth = 3)
  for (m in seq_len(nrow(fit$front))[-1]) {
    r <- dpdt_rules(fit, model = m)
    # each rule, read as R, holds on exactly its leaf's rows
    node <- predict(fit, d, model = m, type = "node")
    for (i in seq_len(nrow(r))) {
      expect_identical(eval(parse(text = r$rule[i]), d), node == r$leaf[i])
    }
    # no variable is bounded twice from the same side
    for (rule in r$rule) {
      tests <- strsplit(rule, " & ", fixed = TRUE)[[1]]
      sides <- sub(" [0-9.e+-]+$", "", tests)
      expect_false(anyDuplicated(sides) > 0, label = rule)
    }
  }
  two <- dpdt_rules(dpdt_fit(medv ~ ., data = d, max_depth = 2))
  expect_identical(two$rule[4], "lstat > 15")
})

# ---- SQL -----------------------------------------------------------------------

sql_eval <- function(con, expr, data) {
  DBI::dbWriteTable(con, "d", data, overwrite = TRUE)
  DBI::dbGetQuery(con, paste("SELECT", expr, "AS pred FROM d"))$pred
}

test_that("dpdt_sql() evaluated by SQLite reproduces every tree's predictions", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("DBI")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3, min_bucket = 1)
  for (m in seq_len(nrow(fit$front))) {
    same_pred(sql_eval(con, dpdt_sql(fit, model = m), iris), predict(fit, iris, model = m))
    expect_identical(sql_eval(con, dpdt_sql(fit, model = m, type = "node"), iris),
                     predict(fit, iris, model = m, type = "node"))
  }
  pr <- dpdt_sql(fit, type = "prob")
  expect_named(pr, levels(iris$Species))
  got <- vapply(pr, function(e) sql_eval(con, e, iris), numeric(150))
  expect_identical(unname(got), unname(predict(fit, iris, type = "prob")))
  # regression with a factor term: the column is named as the model frame's
  d <- transform(mtcars, am = am == 1)
  reg <- dpdt_fit(mpg ~ factor(cyl) + am + wt + hp, data = d, max_depth = 3, min_bucket = 1)
  mf <- model.frame(reg)
  for (m in seq_len(nrow(reg$front))) {
    expect_identical(sql_eval(con, dpdt_sql(reg, model = m), mf[-1]),
                     predict(reg, d, model = m))
  }
  expect_match(dpdt_sql(reg, model = nrow(reg$front)), "\"factor(cyl)\" IN (", fixed = TRUE)
})

test_that("dpdt_sql() quotes names and levels and follows NA sides as predict() does", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("DBI")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  # names and levels with quotes (a hand-built front: dpdt_fit() does not
  # take non-syntactic names yet)
  d <- mixed_data()
  names(d)[1:2] <- c("it's", "we\"ird x")
  levels(d$`it's`) <- c("o'k", "say \"hi\"", "c", "d", "e")
  fr <- mixed_front()
  fr$features$variable[1:2] <- fr$features$name[1:2] <- names(d)[1:2]
  fr$xlevels <- list(`it's` = levels(d$`it's`), o = fr$xlevels$o)
  fr <- front_from_tree(y ~ `it's` + `we"ird x` + o + b, d, fr$trees[[1]],
                        fr$features, fr$xlevels)
  expr <- dpdt_sql(fr)
  expect_match(expr, "\"we\"\"ird x\" <= 0.4", fixed = TRUE)
  expect_match(expr, "\"it's\" IN ('o''k', 'c', 'e')", fixed = TRUE)
  expect_match(expr, "\"it's\" IN ('say \"hi\"', 'd')", fixed = TRUE)
  same_pred(sql_eval(con, expr, d[1:4]), predict(fr, d))
  expect_identical(sql_eval(con, dpdt_sql(fr, type = "node"), d[1:4]),
                   predict(fr, d, type = "node"))
  for (regression in c(FALSE, TRUE)) {
    fr <- mixed_front(regression)
    new <- mixed_newdata()
    got <- sql_eval(con, dpdt_sql(fr), new[c("g", "x", "o", "b")])
    ours <- predict(fr, new)
    if (regression) expect_identical(got, ours) else same_pred(got, ours)
    expect_identical(is.na(got), is.na(predict(fr, new, type = "node")))
    expect_identical(sql_eval(con, dpdt_sql(fr, type = "node"), new[c("g", "x", "o", "b")]),
                     predict(fr, new, type = "node"))
  }
  expect_match(dpdt_sql(mixed_front()), "(\"x\" <= 0.4 OR \"x\" IS NULL)", fixed = TRUE)
  expect_match(dpdt_sql(mixed_front()), "(\"o\" IN ('hi') OR \"o\" IS NULL)", fixed = TRUE)
  expect_match(dpdt_sql(mixed_front()), "NOT \"b\"", fixed = TRUE)
})

test_that("dpdt_sql() prints numbers that read back exactly, and checks its arguments", {
  expect_identical(sql_number(c(2.26, 1 / 3, 0.1 + 0.2, -4.5), 17),
                   c("2.26", "0.3333333333333333", "0.30000000000000004", "-4.5"))
  v <- c(pi, exp(1), 1 / 7, 1e-300, 123456.789)
  expect_identical(as.numeric(sql_number(v, 17)), v)
  expect_identical(sql_number(pi, 3), "3.14")
  expect_identical(sql_name("a\"b"), "\"a\"\"b\"")
  expect_identical(sql_string("o'k"), "'o''k'")
  fit <- dpdt_fit(mpg ~ wt, data = mtcars, max_depth = 1, min_bucket = 1)
  leaf_mean <- fit$trees[[1]]$value[1]
  expect_equal(leaf_mean, mean(mtcars$mpg), tolerance = 1e-14)
  expect_identical(dpdt_sql(fit, model = 1),
                   paste0("CASE WHEN 1 = 1 THEN ", sql_number(leaf_mean, 17),
                          " ELSE NULL END"))
  expect_error(dpdt_sql(fit, type = "prob"), "needs a classification front")
  expect_error(dpdt_sql(fit, type = "vector"), "`type` must be one of")
  expect_error(dpdt_sql(fit, digits = 18), "`digits`")
  expect_error(dpdt_sql(list()), "`x` must be a front of trees")
})

# ---- importance ----------------------------------------------------------------

test_that("dpdt_importance() on a worked example", {
  # 8 rows, 3 a and 5 b: x1 <= 4.5 sends rows 1-4 (a a b a) left and rows
  # 5-8 (b b b b) right; x2 <= 0.5 then separates row 3 (b) from the a's.
  d <- data.frame(x1 = 1:8, x2 = c(0, 0, 1, 0, 0, 0, 0, 0),
                  y = factor(c("a", "a", "b", "a", "b", "b", "b", "b")))
  fit <- dpdt_fit(y ~ x1 + x2, data = d, max_depth = 2, candidates = "exhaustive", min_bucket = 1)
  expect_identical(dpdt_rules(fit)$rule, c("x1 <= 4.5 & x2 <= 0.5",
                                           "x1 <= 4.5 & x2 > 0.5", "x1 > 4.5"))
  # root: 3 errors (the a's); after x1: 1 error (row 3) + 0, a decrease of
  # 2 for x1; after x2 on the left: 0 + 0, a decrease of 1 for x2.
  expect_identical(dpdt_importance(fit), c(x1 = 2, x2 = 1))
  expect_identical(dpdt_importance(fit, scale = TRUE), c(x1 = 2 / 3, x2 = 1 / 3))
  # the stump: x1 alone, 3 -> 1
  expect_identical(dpdt_importance(fit, model = 2), c(x1 = 2))
  expect_identical(dpdt_importance(fit, model = 1), stats::setNames(numeric(0), character(0)))
  # the same tree with row 3 weighted 4: root 3 errors of weight 1 each
  # against 4 + 4 of b, x1 split leaves 4 (row 3) on the left...
  w <- c(1, 1, 4, 1, 1, 1, 1, 1)
  fw <- dpdt_fit(y ~ x1 + x2, data = d, weights = w, max_depth = 2,
                 candidates = "exhaustive", min_bucket = 1)
  expect_identical(dpdt_rules(fw)$rule, dpdt_rules(fit)$rule)
  # root predicts b (weight 8 against 3): loss 3; left (a: 3, b: 4) predicts
  # b, loss 3: x1 decreases nothing; x2 then removes 3.
  expect_identical(dpdt_importance(fw), c(x2 = 3, x1 = 0))
})

test_that("importances add up to the loss the tree removes, and match rpart's for regression", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3, min_bucket = 1)
  for (m in seq_len(nrow(fit$front))) {
    tr <- fit$trees[[m]]
    leaf <- tr$feature == 0L
    expect_equal(sum(dpdt_importance(fit, model = m)), tr$loss[1] - sum(tr$loss[leaf]))
  }
  imp <- dpdt_importance(mixed_front())
  expect_setequal(names(imp), c("g", "x", "o", "b"))
  expect_true(all(diff(imp) <= 0))
  skip_if_not_installed("rpart")
  reg <- dpdt_fit(mpg ~ wt + hp + disp, data = mtcars, max_depth = 1,
                  candidates = "exhaustive", min_bucket = 7)   # rpart's minbucket
  rp <- rpart::rpart(mpg ~ wt + hp + disp, data = mtcars,
                     control = rpart::rpart.control(maxdepth = 1, maxsurrogate = 0,
                                                    maxcompete = 0))
  expect_equal(dpdt_importance(reg), rp$variable.importance)
  expect_error(dpdt_importance(fit, scale = "yes"), "`scale` must be TRUE or FALSE")
})
