# Labels never misstate (issue 18): every threshold written anywhere (the
# printed tree, rules, plots, SQL, tidy(), partykit) is the split's own
# threshold, exactly, so no new value can fall between a label and the test.

# Every (operator, number) written in `text` for the numeric tests; each
# must be a threshold t of `tree` read as `<= t` / `> t`, or the next
# double above it read as `< c` / `>= c`.
expect_exact_labels <- function(text, tree, info) {
  txt <- paste(text, collapse = "\n")
  m <- gregexpr("(<=|>=|<|>) *-?[0-9][0-9.]*(e[-+]?[0-9]+)?", txt, perl = TRUE)
  hits <- regmatches(txt, m)[[1]]
  expect_gt(length(hits), 0, label = paste(info, "labels found"))
  ops <- sub(" *-?[0-9].*$", "", hits)
  num <- as.numeric(sub("^(<=|>=|<|>) *", "", hits))
  t <- tree$threshold[!is.na(tree$threshold)]
  up <- dpdt:::cpp_double_next(t, TRUE)
  ok <- ifelse(ops %in% c("<=", ">"), num %in% t, num %in% up)
  expect_true(all(ok), label = paste0(info, ": ", paste(hits[!ok], collapse = "; "),
                                      " not a threshold of the tree"))
}

test_that("thresholds are written exactly in print, rules, plots, SQL, tidy and party", {
  set.seed(42)
  for (rep in 1:25) {
    n <- sample(c(60, 200, 1000), 1)
    scale <- 10^runif(1, -6, 6)
    off <- sample(c(0, 0, 1e3, -1e6), 1) * scale
    d <- data.frame(a = off + scale * rnorm(n), b = off + scale * round(runif(n), sample(1:4, 1)),
                    c = sample(c(1, 2.5, 7.25, 100), n, TRUE))
    d$y <- if (rep %% 2) factor(d$a - off + d$b - off > scale * 0.3)
           else d$a - off + rnorm(n, sd = scale)
    fit <- dpdt_fit(y ~ ., d, max_depth = 3, min_bucket = 1)
    for (m in unique(c(2, nrow(fit$front)))) {
      tr <- dpdt_tree(fit, model = m)
      info <- sprintf("rep %d, scale %.3g, model %d", rep, scale, m)
      expect_exact_labels(capture.output(print(tr)), tr$tree, paste(info, "print"))
      expect_exact_labels(dpdt_rules(fit, model = m)$rule, tr$tree, paste(info, "rules"))
      expect_exact_labels(dpdt_sql(fit, model = m, digits = 3), tr$tree, paste(info, "SQL"))
      lay <- dpdt:::tree_layout(tr, digits = 2)
      expect_exact_labels(unlist(lay$text[!lay$nodes$leaf]), tr$tree, paste(info, "plot"))
      td <- tidy(fit, model = m)
      expect_setequal(td$threshold[!is.na(td$threshold)],
                      tr$tree$threshold[!is.na(tr$tree$threshold)])
      expect_exact_labels(td$split[!is.na(td$threshold)], tr$tree, paste(info, "tidy"))
      if (requireNamespace("partykit", quietly = TRUE)) {
        py <- partykit::as.party(fit, model = m)
        br <- unlist(lapply(partykit::nodeids(py), function(id) {
          s <- partykit::split_node(partykit::node_party(py[[id]]))
          if (is.null(s)) NULL else partykit::breaks_split(s)
        }))
        expect_setequal(br, tr$tree$threshold[!is.na(tr$tree$threshold)])
      }
    }
  }
})

test_that("a threshold is a short decimal between the two training values beside it", {
  fit <- suppressMessages(dpdt_fit(Price ~ HP + Tank + Rear.Seating, rpart::car90,
                                   max_depth = 3, min_bucket = 1))
  tr <- dpdt_tree(fit)$tree
  x <- rpart::car90
  for (i in which(tr$feature > 0)) {
    v <- fit$features$variable[tr$feature[i]]
    t <- tr$threshold[i]
    expect_lte(attr(dpdt:::exact_number(t), "digits"), 6)
  }
  # the case of the issue: HP split between 147 and 148 reads 147.5, not 148
  lab <- capture.output(print(dpdt_tree(fit)))
  expect_false(any(grepl("HP <= 148$|Tank <= 14.2$|Rear.Seating <= 29.2$", lab)))
  # rpart's `x < c` reads as such, exactly
  r <- rpart::rpart(Kyphosis ~ ., rpart::kyphosis)
  p <- dpdt_prune(r, rpart::kyphosis)
  out <- capture.output(print(dpdt_tree(p)))
  expect_true(any(grepl("Start < 8.5", out, fixed = TRUE)))
  expect_exact_labels(out, dpdt_tree(p)$tree, "rpart tree")
})

test_that("plot titles use readable numbers", {
  fit <- suppressMessages(dpdt_fit(Price ~ HP + Tank, rpart::car90, max_depth = 2, min_bucket = 1))
  tr <- dpdt_tree(fit)
  expect_match(dpdt:::tree_title(tr), "MSE [0-9]{1,3}(,[0-9]{3})+$")
  expect_identical(dpdt:::readable_number(10400000), "10,400,000")
  expect_identical(dpdt:::readable_number(0.000123456), "0.000123")
  expect_identical(dpdt:::readable_number(2.5e12), "2.5e+12")
})

test_that("the feature table gives each predictor's engine column, kind and level", {
  df <- data.frame(
    x = iris$Sepal.Length, f = factor(rep(c("a", "b", "c"), 50)),
    o = factor(rep(1:5, 30), ordered = TRUE), l = rep(c(TRUE, FALSE), 75),
    dt = as.Date("2020-01-01") + 1:150,
    t = as.POSIXct("2020-01-01", tz = "Europe/Paris") + 3600 * 1:150,
    u = as.POSIXct("2020-01-01") + 3600 * 1:150,
    s = rep(c("u", "v"), 75), y = iris$Species, stringsAsFactors = FALSE
  )
  attr(df$u, "tzone") <- NULL
  fit <- dpdt_fit(y ~ ., data = df, max_depth = 2)
  expect_identical(fit$features, data.frame(
    name = c("x", "f", "o", "lTRUE", "dt", "t", "u", "s"),
    variable = c("x", "f", "o", "l", "dt", "t", "u", "s"),
    kind = c("numeric", "categorical", "ordered", "logical", "Date", "POSIXct",
             "POSIXct", "categorical"),
    level = c(NA, NA, NA, "TRUE", NA, "Europe/Paris", "", NA),
    stringsAsFactors = FALSE
  ))
  # the front is a plain data frame, as data.frame() makes it
  expect_identical(attr(fit$front, "row.names"), seq_len(nrow(fit$front)))
  expect_identical(names(fit$front), c("model", "n_splits", "n_leaves", "depth",
    "avg_tests", "train_loss", "rel_error", "alpha_min", "alpha_max"))
})
