## Regression on many rows with the default search (CART proposals,
## max_depth = 3, one thread): two builds of dpdt side by side, rpart beside.
## Simulated data: n rows of 5 features uniform on [0, 1],
## y = sin(6 x1) + 2 [x2 > 0.5] + x3 x4 + N(0, 0.3^2) (x5 is noise); the
## same seed for every run, so both builds fit the same rows.
##
## Rscript bench/regression_large_n.R
## DPDT_LIB_BEFORE, DPDT_LIB_AFTER: library folders each holding a build of
## dpdt (R CMD INSTALL -l DIR); without DPDT_LIB_BEFORE only one build
## (DPDT_LIB_AFTER, default: the installed one) is timed. DPDT_BEFORE_LABEL,
## DPDT_AFTER_LABEL name them in the report. DPDT_BENCH_REPS (3): runs of
## each build, alternating, each in a fresh R process; the CPU time of the
## fit alone (the data are made before it). The two builds' fronts and trees
## must be the same (a digest of each is compared). DPDT_REG_N: the row
## counts (default "2e4,2e5,5e5").
## rpart: rpart(y ~ ., data) with its defaults (cp = 0.01, 10-fold
## cross-validation), one run per size; both models' mean squared error on
## 100,000 held-out rows of the same law (dpdt: the fit's default tree).
## DPDT_BENCH_OUT: output path without extension.

args <- commandArgs(FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
out <- bench_out(root, "regression_large_n")
reps <- as.integer(Sys.getenv("DPDT_BENCH_REPS", "3"))
builds <- bench_builds()
sizes <- as.numeric(env_list("DPDT_REG_N"))
if (!length(sizes)) sizes <- c(2e4, 2e5, 5e5)
meta <- run_metadata(root)

## The simulated rows, as code that the child processes run too.
simulate_code <- paste0(
  "simulate <- function(n, seed) { set.seed(seed); ",
  "x <- matrix(runif(n * 5), n, 5, dimnames = list(NULL, paste0('x', 1:5))); ",
  "d <- as.data.frame(x); ",
  "d$y <- sin(6 * d$x1) + 2 * (d$x2 > 0.5) + d$x3 * d$x4 + rnorm(n, sd = 0.3); d }")
eval(parse(text = simulate_code))

## One fit in a fresh R process: its CPU seconds, a digest of the front and
## every tree, and the default tree's held-out mean squared error.
one_fit <- function(lib, n) {
  code <- paste0(
    sprintf("suppressMessages(library(dpdt%s)); ",
            if (nzchar(lib)) sprintf(", lib.loc = '%s'", lib) else ""),
    simulate_code, "; ",
    sprintf("d <- simulate(%.0f, 1); test <- simulate(1e5, 2); ", n),
    "t <- system.time(f <- suppressMessages(dpdt_fit(y ~ ., d, max_depth = 3, threads = 1))); ",
    "trees <- lapply(seq_len(nrow(f$front)), function(i) capture.output(print(dpdt_tree(f, i)))); ",
    "mse <- mean((predict(f, test) - test$y)^2); ",
    "cat(t[['user.self']] + t[['sys.self']], digest::digest(list(f$front, trees)), mse, '\\n')")
  res <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code)), stdout = TRUE)
  parts <- strsplit(trimws(tail(res, 1)), " ")[[1]]
  list(cpu = as.numeric(parts[1]), digest = parts[2], mse = as.numeric(parts[3]))
}

rows <- list()
test <- simulate(1e5, 2)
for (n in sizes) {
  times <- setNames(vector("list", length(builds$libs)), names(builds$libs))
  digests <- character(0)
  mse <- NA_real_
  for (r in seq_len(reps)) for (b in names(builds$libs)) {
    f <- one_fit(builds$libs[[b]], n)
    times[[b]] <- c(times[[b]], f$cpu)
    digests[b] <- f$digest
    mse <- f$mse
  }
  d <- simulate(n, 1)
  rp <- cpu(rpart::rpart(y ~ ., d))
  rpart_mse <- mean((predict(rp$value, test) - test$y)^2)
  after <- median(times$after)
  before <- if (!is.null(times$before)) median(times$before) else NA
  ratio <- if (!is.null(times$before)) median(times$after / times$before) else NA
  rows[[length(rows) + 1]] <- data.frame(
    rows = n, before_s = before, after_s = after, paired_ratio = ratio, rpart_s = rp$cpu,
    after_over_rpart = after / rp$cpu, dpdt_test_mse = mse, rpart_test_mse = rpart_mse,
    same_trees = length(unique(digests)) == 1, meta)
  cat(sprintf("%8.0f rows: before %s after %.2f ratio %s rpart %.2f mse %.4f / %.4f same %s\n", n,
              fmt_t(before), after, fmt_a(ratio), rp$cpu, mse, rpart_mse,
              length(unique(digests)) == 1))
}
res <- do.call(rbind, rows)
write.csv(res, paste0(out, ".csv"), row.names = FALSE)
tab <- data.frame(rows = fmt_r(res$rows), `before (s)` = fmt_t(res$before_s),
                  `after (s)` = fmt_t(res$after_s),
                  `after / before (paired median)` = fmt_a(res$paired_ratio),
                  `rpart (s)` = fmt_t(res$rpart_s), `after / rpart` = fmt_a(res$after_over_rpart, 1),
                  `test MSE: dpdt / rpart` = paste(fmt_a(res$dpdt_test_mse, 4),
                                                   fmt_a(res$rpart_test_mse, 4), sep = " / "),
                  `same fronts and trees` = ifelse(res$same_trees, "yes", "NO"),
                  check.names = FALSE)
writeLines(c("# Regression on many rows, default search: two builds side by side, rpart beside", "",
             "Written by `bench/regression_large_n.R`. Simulated rows, 5 features; dpdt_fit(y ~ .,",
             "max_depth = 3, threads = 1), CPU seconds of the fit alone (median of",
             sprintf("%d runs per build, alternating, each in a fresh R process); the ratio is", reps),
             "the median of the runs' after / before. rpart: its defaults (cp = 0.01, 10-fold",
             "cross-validation), one run. Test MSE on 100,000 held-out rows (dpdt: the fit's",
             "default tree; the noise alone gives 0.09).",
             builds$label,
             "", sprintf("Run %s, commit %s, load %s, %s.", meta$run_date, meta$run_commit,
                         meta$run_load, meta$run_cpu), "", md_table(tab)),
           paste0(out, ".md"))
cat("written:", paste0(out, ".md"), paste0(out, ".csv"), "\n")
