# Real data as statisticians bring it (issue 8): awkward names, dates and
# times, identifiers, single-class responses.

test_that("any legal column name works in formulas, fits, rules and predictions", {
  d <- iris
  names(d)[1:4] <- c("Sepal Length", "my-var", "Bl\u00fctenl\u00e4nge", "a`b")
  fit <- dpdt_fit(Species ~ ., data = d, max_depth = 2, min_bucket = 1)
  ref <- dpdt_fit(Species ~ ., data = iris, max_depth = 2, min_bucket = 1)
  expect_equal(fit$front$train_loss, ref$front$train_loss)
  expect_identical(fit$features$variable, names(d)[1:4])
  expect_identical(predict(fit, d), predict(ref, iris))
  rules <- dpdt_tree(fit)$nodes$rule
  expect_true(any(grepl("a`b <= 1.65", rules, fixed = TRUE)))
  # explicit backticks, and a call on a non-syntactic name
  fo <- stats::as.formula(paste0("Species ~ `Sepal Length` + `my-var` + ",
                                 "`a\\`b` + log(`my-var`)"))
  f2 <- dpdt_fit(fo, data = d, max_depth = 2, min_bucket = 1)
  expect_identical(f2$features$variable,
                   c("Sepal Length", "my-var", "a`b", "log(`my-var`)"))
  expect_equal(min(f2$front$train_loss), min(ref$front$train_loss))
  expect_identical(predict(f2, d[c(1, 51, 101), ]),
                   predict(ref, iris[c(1, 51, 101), ]))
  # a factor with a non-syntactic name
  d$`the group` <- factor(rep(c("u v", "w-x", "y"), 50))
  f3 <- dpdt_fit(`Sepal Length` ~ `the group` + `my-var`, data = d, max_depth = 2, min_bucket = 1)
  expect_length(predict(f3, d), 150)
  expect_true(any(grepl("the group", f3$features$variable, fixed = TRUE)))
})

test_that("Date and POSIXct predictors split as numbers and print as dates", {
  set.seed(8)
  n <- 60
  d <- data.frame(day = as.Date("2020-01-01") + sample(0:99, n, TRUE),
                  at = as.POSIXct("2021-06-01 08:00:00", tz = "UTC") +
                    sample(0:50, n, TRUE) * 3600)
  d$y <- factor(ifelse(d$day >= as.Date("2020-02-15"), "late", "early"))
  fit <- dpdt_fit(y ~ day + at, data = d, max_depth = 1, min_bucket = 1)
  expect_identical(fit$features$kind, c("Date", "POSIXct"))
  expect_equal(min(fit$front$train_loss), 0)
  # the threshold is the midpoint between the last early and the first late
  # day; `day <= t` holds exactly up to floor(t), the date printed
  cut <- as.Date(floor(mean(as.numeric(c(max(d$day[d$y == "early"]),
                                         min(d$day[d$y == "late"]))))),
                 origin = "1970-01-01")
  rules <- dpdt_tree(fit)$nodes$rule
  # (no missing day in training: NA goes to the larger side)
  expect_identical(sub(" or NA", "", rules[2:3]),
                   paste("day", c("<=", ">"), format(cut)))
  expect_identical(predict(fit, d), d$y)
  # the same fit on the day numbers: same front
  d2 <- transform(d, day = as.numeric(day))
  expect_equal(dpdt_fit(y ~ day + at, data = d2, max_depth = 1, min_bucket = 1)$front$train_loss,
               fit$front$train_loss)
  expect_error(predict(fit, d2), "`day` was of class Date.*as.Date")
  # times print in their time zone, to the second
  d$z <- factor(ifelse(d$at <= as.POSIXct("2021-06-02 12:00:00", tz = "UTC"), "a", "b"))
  fz <- dpdt_fit(z ~ at, data = d, max_depth = 1, min_bucket = 1)
  cut <- mean(c(max(d$at[d$z == "a"]), min(d$at[d$z == "b"])))
  expect_identical(sub(" or NA", "", dpdt_tree(fz)$nodes$rule[2]),
                   paste("at <=", format(cut)))
  expect_match(format(cut), "^2021-06-02 1[0-9]:[0-9]{2}:00$")
  s <- node_split(fz$trees[[2]], 1, fz$features, fz$xlevels)
  expect_identical(s$class, "POSIXct")
  expect_identical(s$tz, "UTC")
  d$lt <- as.POSIXlt(d$at)
  expect_error(dpdt_fit(y ~ lt, data = d, min_bucket = 1), "`lt` is a POSIXlt.*as.POSIXct")
})

test_that("ordered factors keep their level order", {
  set.seed(9)
  lev <- c("low", "mid", "high", "top")
  d <- data.frame(o = factor(sample(lev, 80, TRUE), levels = lev, ordered = TRUE))
  d$y <- factor(ifelse(as.integer(d$o) >= 3, "hi", "lo"))
  fit <- dpdt_fit(y ~ o, data = d, max_depth = 1, min_bucket = 1)
  expect_equal(min(fit$front$train_loss), 0)
  # no missing value in training: the NA side is a default, not printed
  expect_identical(dpdt_tree(fit)$nodes$rule[2:3], c("o <= mid", "o > mid"))
  expect_false(fit$trees[[2]]$na_learned[1])
  d$o[c(3, 9)] <- NA   # now learned, and the rule says where NA goes
  fit <- dpdt_fit(y ~ o, data = d, max_depth = 1, min_bucket = 1)
  expect_true(fit$trees[[2]]$na_learned[1])
  expect_match(paste(dpdt_tree(fit)$nodes$rule[2:3], collapse = " "), "or NA")
})

test_that("an identifier-like factor is named in a warning", {
  set.seed(10)
  d <- data.frame(id = sprintf("p%03d", 1:40), x = runif(40))
  d$y <- factor(ifelse(d$x > .5, "a", "b"))
  expect_warning(dpdt_fit(y ~ id + x, data = d, max_depth = 1, min_bucket = 1),
                 "`id` has 40 distinct levels in 40 rows")
  d$id[1:3] <- d$id[4]  # nearly one level per row
  expect_warning(dpdt_fit(y ~ id + x, data = d, max_depth = 1, min_bucket = 1), "`id` has 37")
  expect_no_warning(dpdt_fit(y ~ x, data = d, max_depth = 1, min_bucket = 1))
  d$g <- factor(rep(letters[1:4], 10))
  expect_no_warning(dpdt_fit(y ~ g + x, data = d, max_depth = 1, min_bucket = 1))
})

test_that("a front of the single leaf says why", {
  d <- data.frame(x = 1:20, y = factor(rep(c("a", "b"), c(15, 5))))
  d$y[c(2, 4)] <- "b"
  d$y[c(19)] <- "a"
  # one split cannot change the majority on both sides here at min_bucket 8
  expect_warning(dpdt_fit(y ~ x, data = d, max_depth = 1, min_bucket = 11),
                 "20 fitted rows, fewer than 2 \\* min_bucket = 22")
  expect_warning(dpdt_fit(y ~ x, data = transform(d, y = "a"), max_depth = 2, min_bucket = 1),
                 "single class")
})

# A plain-R greedy tree whose tests also learn the side of missing values:
# each node takes the (feature, threshold, NA side) of least entropy (or
# squared error), and its training loss at depth D is returned.
greedy_na_loss <- function(x, y, depth) {
  classif <- is.factor(y)
  imp <- function(v) {
    if (!length(v)) return(0)
    if (classif) {
      p <- table(v) / length(v)
      p <- p[p > 0]
      -length(v) * sum(p * log(p))
    } else sum((v - mean(v))^2)
  }
  loss <- function(v) if (classif) length(v) - max(table(v), 0) else imp(v)
  grow <- function(idx, d) {
    if (d == 0 || length(unique(y[idx])) < 2) return(loss(y[idx]))
    best <- NULL
    for (j in seq_along(x)) {
      v <- x[[j]][idx]
      miss <- is.na(v)
      u <- sort(unique(v[!miss]))
      if (length(u) < 2) next
      for (t in (u[-1] + u[-length(u)]) / 2) {
        for (na in if (any(miss)) c(TRUE, FALSE) else FALSE) {
          gl <- ifelse(miss, na, v <= t)
          s <- imp(y[idx[gl]]) + imp(y[idx[!gl]])
          if (is.null(best) || s < best$s - 1e-12) best <- list(s = s, gl = gl)
        }
      }
    }
    if (is.null(best) || best$s >= imp(y[idx]) - 1e-12) return(loss(y[idx]))
    grow(idx[best$gl], d - 1) + grow(idx[!best$gl], d - 1)
  }
  grow(seq_along(y), depth) / length(y)
}

test_that("missing values: every row is fitted, never worse than a greedy tree learning NA sides", {
  skip_if_not_installed("mlbench")
  data("PimaIndiansDiabetes2", package = "mlbench", envir = environment())
  pima <- PimaIndiansDiabetes2
  aq <- airquality[!is.na(airquality$Ozone), ]
  for (D in 2:3) {
    fp <- dpdt_fit(diabetes ~ ., data = pima, max_depth = D, threads = 1, min_bucket = 1)
    expect_equal(nobs(fp), nrow(pima))
    expect_false(anyNA(predict(fp, pima)))
    expect_lte(min(fp$front$train_loss),
               greedy_na_loss(pima[setdiff(names(pima), "diabetes")], pima$diabetes, D) + 1e-12)
    fa <- dpdt_fit(Ozone ~ ., data = aq, max_depth = D, threads = 1, min_bucket = 1)
    expect_equal(nobs(fa), nrow(aq))
    expect_lte(min(fa$front$train_loss),
               greedy_na_loss(aq[setdiff(names(aq), "Ozone")], aq$Ozone, D) + 1e-9)
  }
  # the learned sides: the front's trees route the training rows as the
  # engine counted them (n at the leaves sums to all rows)
  tr <- fp$trees[[nrow(fp$front)]]
  expect_equal(sum(tr$n[tr$feature == 0]), nrow(pima))
  expect_true(any(grepl("or NA", dpdt_tree(fp)$nodes$rule)))
  # identical results whatever the number of threads
  f1 <- dpdt_fit(diabetes ~ ., data = pima, max_depth = 3, threads = 1, min_bucket = 1)
  f2 <- dpdt_fit(diabetes ~ ., data = pima, max_depth = 3, threads = 2, min_bucket = 1)
  expect_identical(f1$front[names(f1$front) != "seconds"], f2$front[names(f2$front) != "seconds"])
  expect_identical(f1$trees, f2$trees)
})

test_that("level groups: never worse than rpart at equal depth on na.omit(Soybean)", {
  skip_if_not_installed("mlbench")
  skip_if_not_installed("rpart")
  data("Soybean", package = "mlbench", envir = environment())
  soy <- na.omit(Soybean)
  for (D in 1:3) {
    fit <- dpdt_fit(Class ~ ., data = soy, max_depth = D, threads = 2, min_bucket = 1)
    for (cp in c(0, 0.01)) {
      rp <- rpart::rpart(Class ~ ., data = soy,
                         control = rpart::rpart.control(maxdepth = D, cp = cp,
                                                        minsplit = 2, minbucket = 1,
                                                        xval = 0))
      rp_err <- mean(predict(rp, soy, type = "class") != soy$Class)
      expect_lte(min(fit$front$train_loss), rp_err + 1e-12)
    }
  }
  f1 <- dpdt_fit(Class ~ ., data = soy, max_depth = 2, threads = 1, min_bucket = 1)
  expect_identical(f1$trees, dpdt_fit(Class ~ ., data = soy, max_depth = 2, threads = 2, min_bucket = 1)$trees)
  expect_true(any(grepl(" in \\{", dpdt_tree(f1)$nodes$rule)))
})

test_that("test costs, loss matrix and prior: checks and effects", {
  d <- iris
  expect_error(dpdt_fit(Species ~ ., d, test_cost = c(nope = 2), min_bucket = 1), "`test_cost` names `nope`")
  expect_error(dpdt_fit(Species ~ ., d, test_cost = c(Petal.Width = -1), min_bucket = 1), "`test_cost` must be")
  expect_error(dpdt_fit(Species ~ ., d, test_cost = 2, min_bucket = 1), "`test_cost` must be a named")
  expect_error(dpdt_fit(Species ~ ., d, test_cost = c(Petal.Width = 2), complexity = "splits", min_bucket = 1),
               "only with complexity = \"cost\"")
  expect_error(dpdt_fit(Species ~ ., d, loss_matrix = diag(3), min_bucket = 1), "`loss_matrix` must be a 3 x 3")
  expect_error(dpdt_fit(Species ~ ., d, loss_matrix = matrix(1, 2, 2) - diag(2), min_bucket = 1), "3 x 3")
  expect_error(dpdt_fit(Sepal.Length ~ ., d, loss_matrix = 1 - diag(3), min_bucket = 1), "classification")
  expect_error(dpdt_fit(Species ~ ., d, prior = c(.5, .5), min_bucket = 1), "`prior` must be 3 positive")
  expect_error(dpdt_fit(Species ~ ., d, prior = c(.5, .6, -.1), min_bucket = 1), "`prior`")
  # an expensive petal: the cheap-test trees come first on the front
  fit <- dpdt_fit(Species ~ ., d, max_depth = 2,
                  test_cost = c(Petal.Length = 10, Petal.Width = 10), min_bucket = 1)
  expect_identical(fit$control$complexity, "cost")
  expect_true(all(diff(fit$front$avg_cost) > 0))
  tr2 <- fit$trees[[2]]
  expect_true(all(fit$features$variable[tr2$feature[tr2$feature > 0]] %in%
                    c("Sepal.Length", "Sepal.Width")))
  # avg_cost is the weighted mean cost of the tests on each row's path
  last <- fit$trees[[nrow(fit$front)]]
  cost <- c(1, 1, 10, 10)[last$feature[last$feature > 0]]
  expect_equal(fit$front$avg_cost[nrow(fit$front)],
               sum(cost * last$weight[last$feature > 0]) / 150)
  # a loss matrix: the leaf predicts the cheapest class, train_loss is cost
  L <- 1 - diag(3)
  L[2, 1] <- 20  # predicting setosa for a versicolor costs 20
  fl <- dpdt_fit(Species ~ ., d, max_depth = 1, loss_matrix = L, min_bucket = 1)
  # setosa would cost 20 * 50 + 50; versicolor and virginica 100 (first wins)
  expect_equal(fl$front$train_loss[1], 100 / 150)
  expect_identical(as.character(predict(fl, model = 1)[1]), "versicolor")
  # priors reweight classes like rpart's
  fp <- dpdt_fit(Species ~ ., d, max_depth = 1, prior = c(.6, .2, .2), min_bucket = 1)
  expect_equal(fp$front$train_loss[1], 0.4)
  expect_identical(as.character(predict(fp, model = 1)[1]), "setosa")
})

test_that("unseen levels: an error naming them, or routed as missing values", {
  d <- transform(airquality[!is.na(airquality$Ozone), ], Month = factor(month.abb[Month]))
  fit <- dpdt_fit(Ozone ~ Month + Temp, d[d$Month != "Jul", ], max_depth = 2, min_bucket = 1)
  new <- d[d$Month %in% c("Jul", "May"), ]
  expect_error(predict(fit, new), "`Month` has level\\(s\\) \"Jul\" not seen in training.*unseen = \"missing\"")
  got <- predict(fit, new, unseen = "missing")
  as_na <- new
  as_na$Month[as_na$Month == "Jul"] <- NA
  expect_identical(got, predict(fit, as_na))
  expect_identical(got[new$Month == "May"], predict(fit, new[new$Month == "May", ]))
  expect_error(predict(fit, new, unseen = "drop"), "`unseen` must be one of")
})
