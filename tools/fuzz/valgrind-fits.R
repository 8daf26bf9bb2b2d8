# A few representative fits, run under valgrind by tools/fuzz/valgrind.sh:
# classification and regression, factor / character / ordered / logical
# predictors, weights, both candidate generators, threads 1 and 2, and the
# methods that read the engine's output (predict, print, summary, trees).
suppressPackageStartupMessages(library(dpdt))
set.seed(1)
n <- 120
d <- data.frame(
  num = round(rnorm(n), 1),
  int = sample.int(6, n, replace = TRUE),
  fac = factor(sample(c("a", "b", "c"), n, replace = TRUE), levels = c("a", "b", "c", "unused")),
  chr = sample(c("u", "v"), n, replace = TRUE),
  ord = factor(sample(c("lo", "mid", "hi"), n, replace = TRUE),
               levels = c("lo", "mid", "hi"), ordered = TRUE),
  lgl = sample(c(TRUE, FALSE), n, replace = TRUE))
d$cls <- factor(ifelse(d$num + (d$fac == "b") > 0.3, "yes", ifelse(d$lgl, "no", "maybe")))
d$reg <- 2 * d$num + 3 * (d$ord == "hi") + rnorm(n, sd = .3)
d$w <- sample(c(0, 1, 2.5), n, replace = TRUE)
d$num[3] <- NA

check <- function(fit, data) {
  stopifnot(inherits(fit, "dpdt"), nrow(fit$front) >= 1)
  for (m in unique(c(1L, nrow(fit$front)))) {
    p <- predict(fit, newdata = data, model = m)
    stopifnot(length(p) == nrow(data))
    if (fit$type == "classification") invisible(predict(fit, data, model = m, type = "prob"))
    invisible(capture.output(print(dpdt_tree(fit, model = m))))
  }
  invisible(capture.output(print(fit), print(summary(fit))))
}

fits <- list(
  iris = dpdt_fit(Species ~ ., data = iris, max_depth = 3, threads = 2),
  classification = dpdt_fit(cls ~ num + int + fac + chr + ord + lgl, data = d,
                            max_depth = 3, cart_depth = c(3, 2), threads = 2),
  gini_weights = dpdt_fit(cls ~ ., data = d[c("cls", "num", "fac", "ord")], weights = d$w,
                          max_depth = 2, criterion = "gini", complexity = "splits",
                          threads = 1),
  exhaustive = dpdt_fit(cls ~ int + fac, data = d[1:40, ], max_depth = 2,
                        candidates = "exhaustive", threads = 2),
  regression = dpdt_fit(reg ~ num + int + fac + chr + ord + lgl, data = d,
                        max_depth = 3, threads = 2, na.action = na.exclude),
  regression_exhaustive = dpdt_fit(mpg ~ wt + hp + factor(cyl), data = mtcars,
                                   max_depth = 2, candidates = "exhaustive",
                                   min_bucket = 3, threads = 2))
for (nm in names(fits)) {
  check(fits[[nm]], if (nm == "iris") iris else if (nm == "regression_exhaustive") mtcars else d)
  cat(sprintf("%-22s %2d trees\n", nm, nrow(fits[[nm]]$front)))
}
cat("valgrind fits: done\n")
