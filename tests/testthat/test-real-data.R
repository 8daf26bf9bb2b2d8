# Real data as statisticians bring it (issue 8): awkward names, dates and
# times, identifiers, single-class responses.

test_that("any legal column name works in formulas, fits, rules and predictions", {
  d <- iris
  names(d)[1:4] <- c("Sepal Length", "my-var", "Bl\u00fctenl\u00e4nge", "a`b")
  fit <- dpdt_fit(Species ~ ., data = d, max_depth = 2)
  ref <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
  expect_equal(fit$front$train_loss, ref$front$train_loss)
  expect_identical(fit$features$variable, names(d)[1:4])
  expect_identical(predict(fit, d), predict(ref, iris))
  rules <- dpdt_tree(fit)$nodes$rule
  expect_true(any(grepl("a`b <= 1.65", rules, fixed = TRUE)))
  # explicit backticks, and a call on a non-syntactic name
  fo <- stats::as.formula(paste0("Species ~ `Sepal Length` + `my-var` + ",
                                 "`a\\`b` + log(`my-var`)"))
  f2 <- dpdt_fit(fo, data = d, max_depth = 2)
  expect_identical(f2$features$variable,
                   c("Sepal Length", "my-var", "a`b", "log(`my-var`)"))
  expect_equal(min(f2$front$train_loss), min(ref$front$train_loss))
  expect_identical(predict(f2, d[c(1, 51, 101), ]),
                   predict(ref, iris[c(1, 51, 101), ]))
  # a factor with a non-syntactic name
  d$`the group` <- factor(rep(c("u v", "w-x", "y"), 50))
  f3 <- dpdt_fit(`Sepal Length` ~ `the group` + `my-var`, data = d, max_depth = 2)
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
  fit <- dpdt_fit(y ~ day + at, data = d, max_depth = 1)
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
  expect_equal(dpdt_fit(y ~ day + at, data = d2, max_depth = 1)$front$train_loss,
               fit$front$train_loss)
  expect_error(predict(fit, d2), "`day` was of class Date.*as.Date")
  # times print in their time zone, to the second
  d$z <- factor(ifelse(d$at <= as.POSIXct("2021-06-02 12:00:00", tz = "UTC"), "a", "b"))
  fz <- dpdt_fit(z ~ at, data = d, max_depth = 1)
  cut <- mean(c(max(d$at[d$z == "a"]), min(d$at[d$z == "b"])))
  expect_identical(sub(" or NA", "", dpdt_tree(fz)$nodes$rule[2]),
                   paste("at <=", format(cut)))
  expect_match(format(cut), "^2021-06-02 1[0-9]:[0-9]{2}:00$")
  s <- node_split(fz$trees[[2]], 1, fz$features, fz$xlevels)
  expect_identical(s$class, "POSIXct")
  expect_identical(s$tz, "UTC")
  d$lt <- as.POSIXlt(d$at)
  expect_error(dpdt_fit(y ~ lt, data = d), "`lt` is a POSIXlt.*as.POSIXct")
})

test_that("ordered factors keep their level order", {
  set.seed(9)
  lev <- c("low", "mid", "high", "top")
  d <- data.frame(o = factor(sample(lev, 80, TRUE), levels = lev, ordered = TRUE))
  d$y <- factor(ifelse(as.integer(d$o) >= 3, "hi", "lo"))
  fit <- dpdt_fit(y ~ o, data = d, max_depth = 1)
  expect_equal(min(fit$front$train_loss), 0)
  expect_identical(dpdt_tree(fit)$nodes$rule[2:3], c("o <= mid or NA", "o > mid"))
})

test_that("an identifier-like factor is named in a warning", {
  set.seed(10)
  d <- data.frame(id = sprintf("p%03d", 1:40), x = runif(40))
  d$y <- factor(ifelse(d$x > .5, "a", "b"))
  expect_warning(dpdt_fit(y ~ id + x, data = d, max_depth = 1),
                 "`id` has 40 distinct levels in 40 rows")
  d$id[1:3] <- d$id[4]  # nearly one level per row
  expect_warning(dpdt_fit(y ~ id + x, data = d, max_depth = 1), "`id` has 37")
  expect_no_warning(dpdt_fit(y ~ x, data = d, max_depth = 1))
  d$g <- factor(rep(letters[1:4], 10))
  expect_no_warning(dpdt_fit(y ~ g + x, data = d, max_depth = 1))
})

test_that("a front of the single leaf says why", {
  d <- data.frame(x = 1:20, y = factor(rep(c("a", "b"), c(15, 5))))
  d$y[c(2, 4)] <- "b"
  d$y[c(19)] <- "a"
  # one split cannot change the majority on both sides here at min_bucket 8
  expect_warning(dpdt_fit(y ~ x, data = d, max_depth = 1, min_bucket = 11),
                 "20 fitted rows, fewer than 2 \\* min_bucket = 22")
  expect_warning(dpdt_fit(y ~ x, data = transform(d, y = "a"), max_depth = 2),
                 "single class")
})
