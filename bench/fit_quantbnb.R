#!/usr/bin/env Rscript
## Benchmark: depth-3 trees on the 16 Quant-BnB data sets (DPDT paper, Table 1).
##
## For every data set: dpdt_fit(max_depth = 3, criterion = "entropy") with
## cart_depth 5 and 4 (the paper's DPDT-5 and DPDT-4), each with 1 and 2
## threads, and rpart grown to depth 3 without pruning (greedy CART with the
## entropy criterion). Recorded: training accuracy of the most accurate tree
## on the front against the paper's figures, times (elapsed, seconds), the
## ratio dpdt time / rpart time, the number of search states, and whether the
## 2-thread front equals the 1-thread front.
##
## Run from the repository root once dpdt is installed (bash tools/demo.sh
## installs it):
##   Rscript bench/fit_quantbnb.R
## Environment variables:
##   DPDT_DATA        directory holding quantbnb/ and paper_table1_depth3.csv
##                    (default: ../shared/data relative to the repository root)
##   DPDT_BENCH_SETS  subset to run, e.g. "bank,raisin" (default: all 16;
##                    skin, 196k rows, always runs last)
##   DPDT_BENCH_SKIP  data sets to leave out, e.g. "skin"
##   DPDT_BENCH_REPS  repetitions for small sets, median reported (default 5)
##   DPDT_BENCH_SMALL a set is "small" up to this many training rows (default
##                    5000); bigger sets are timed once
##   DPDT_BENCH_NOTE  a line of text added to the report's header
##   DPDT_BENCH_REPORT_ONLY=1  only rewrite the .md from an existing .csv
##   DPDT_BENCH_OUT   output path without extension (default
##                    bench/results/fit_quantbnb); .md and .csv are written
##                    after every data set, so an interrupted run keeps
##                    what it finished.
## The data files are read in place; they are never copied into the repository.

suppressPackageStartupMessages({
  library(dpdt)
  library(rpart)
})

## ---- paths and settings ---------------------------------------------------
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
source(file.path(if (length(script) == 1) dirname(script) else "bench", "common.R"))
root  <- bench_root(script)
data  <- bench_data(root, "paper_table1_depth3.csv")
qdir  <- data$qdir
paper <- data$paper
reps  <- as.integer(Sys.getenv("DPDT_BENCH_REPS", "5"))
small <- as.numeric(Sys.getenv("DPDT_BENCH_SMALL", "5000"))
out   <- bench_out(root, "fit_quantbnb")
sets  <- bench_sets(paper$dataset)

## ---- helpers ----------------------------------------------------------------
fit_dpdt <- function(d, K, threads, n) {
  timed(function() dpdt_fit(y ~ ., data = d, max_depth = 3, cart_depth = K, min_bucket = 1,
                            criterion = "entropy", threads = threads,
                            progress = FALSE), n)
}

best_acc <- function(fit) 100 * max(1 - fit$front$train_loss)

fit_rpart <- function(d, n) {
  timed(function() rpart(y ~ ., data = d, method = "class",
                         parms = list(split = "information"),
                         control = rpart.control(maxdepth = 3, cp = 0,
                                                 minsplit = 2, minbucket = 1,
                                                 xval = 0, maxcompete = 0,
                                                 maxsurrogate = 0)), n)
}

same_front <- function(a, b)
  isTRUE(all.equal(a$front[c("train_loss", "avg_tests", "n_splits")],
                   b$front[c("train_loss", "avg_tests", "n_splits")],
                   check.attributes = FALSE))

run_one <- function(name) {
  d <- read_part(qdir, name)
  n <- if (nrow(d) <= small) reps else 1L
  r <- list(dataset = name, n_train = nrow(d), p = ncol(d) - 1L,
            classes = nlevels(d$y), reps = n)
  for (K in c(5L, 4L)) {
    f1 <- tryCatch(fit_dpdt(d, K, 1L, n), error = function(e) e)
    if (inherits(f1, "error")) {
      message("  dpdt cart_depth ", K, ": ", conditionMessage(f1))
      next
    }
    f2 <- tryCatch(fit_dpdt(d, K, 2L, n), error = function(e) e)
    p <- paste0("dpdt", K)
    r[[paste0(p, "_acc")]]      <- best_acc(f1)
    r[[paste0(p, "_front")]]    <- nrow(f1$front)
    r[[paste0(p, "_states")]]   <- f1$n_states
    r[[paste0(p, "_t1")]]       <- attr(f1, "time")
    r[[paste0(p, "_engine_t1")]] <- f1$seconds
    if (!inherits(f2, "error")) {
      r[[paste0(p, "_t2")]]        <- attr(f2, "time")
      r[[paste0(p, "_engine_t2")]] <- f2$seconds
      r[[paste0(p, "_same_t1_t2")]] <- same_front(f1, f2)
    }
  }
  rp <- fit_rpart(d, n)
  r$rpart_acc <- 100 * mean(predict(rp, d, type = "class") == d$y)
  r$rpart_t <- attr(rp, "time")
  as.data.frame(r, stringsAsFactors = FALSE)
}

## ---- output -------------------------------------------------------------------
same_lab <- function(x) ifelse(is.na(x), "–", ifelse(x, "yes", "NO"))

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  m <- merge(res, paper, by = "dataset", sort = FALSE, suffixes = c("", ".paper"))
  m <- m[match(res$dataset, m$dataset), ]
  col <- function(nm) if (nm %in% names(m)) m[[nm]] else rep(NA, nrow(m))
  acc <- data.frame(
    data = m$dataset, n = fmt_r(m$n_train), p = m$p, K = m$classes,
    `optimal (paper)` = fmt_a(m$optimal_train_acc, 1),
    `DPDT-5 (paper)` = fmt_a(m$dpdt5_train_acc, 1), `dpdt cd5` = fmt_a(col("dpdt5_acc")),
    `DPDT-4 (paper)` = fmt_a(m$dpdt4_train_acc, 1), `dpdt cd4` = fmt_a(col("dpdt4_acc")),
    `CART (paper)` = fmt_a(m$cart_train_acc, 1), rpart = fmt_a(col("rpart_acc")),
    check.names = FALSE)
  tim <- data.frame(
    data = m$dataset, reps = m$reps,
    `cd5 1 thr` = fmt_t(col("dpdt5_t1")), `cd5 2 thr` = fmt_t(col("dpdt5_t2")),
    `cd4 1 thr` = fmt_t(col("dpdt4_t1")), `cd4 2 thr` = fmt_t(col("dpdt4_t2")),
    rpart = fmt_t(col("rpart_t")),
    `cd5/rpart` = fmt_t(col("dpdt5_t1") / col("rpart_t")),
    `cd4/rpart` = fmt_t(col("dpdt4_t1") / col("rpart_t")),
    `states cd5` = fmt_r(col("dpdt5_states")), `states cd4` = fmt_r(col("dpdt4_states")),
    `front cd5` = col("dpdt5_front"),
    `1 thr = 2 thr` = same_lab(col("dpdt5_same_t1_t2") & col("dpdt4_same_t1_t2")),
    `DPDT-5 s (paper)` = fmt_t(m$dpdt5_runtime_s), `DPDT-4 s (paper)` = fmt_t(m$dpdt4_runtime_s),
    `DPDT-5/CART (paper)` = fmt_t(m$dpdt5_runtime_s / m$cart_runtime_s),
    check.names = FALSE)
  lines <- c(
    "# dpdt on the Quant-BnB data sets, depth 3 (DPDT paper, Table 1)", "",
    "Produced by `Rscript bench/fit_quantbnb.R`; raw numbers in `fit_quantbnb.csv`.",
    "",
    sprintf("- date: %s; dpdt %s (repository at commit %s); %s; rpart %s",
            res$run_date[1], utils::packageVersion("dpdt"), res$run_commit[1],
            R.version.string, utils::packageVersion("rpart")),
    sprintf("- machine: %s; load average at start: %s", res$run_cpu[1], res$run_load[1]),
    "- dpdt: `dpdt_fit(y ~ ., max_depth = 3, cart_depth = 5 or 4, criterion = \"entropy\")`;",
    "  accuracy = training accuracy (%) of the most accurate tree on the front.",
    "- rpart: depth 3, `cp = 0, minsplit = 2, minbucket = 1, xval = 0, maxcompete = 0,",
    "  maxsurrogate = 0`, `parms = list(split = \"information\")` (greedy CART, no pruning).",
    sprintf("- times: elapsed seconds of the whole R call (model frame included); median of %d runs for sets up to %s rows, a single run above.",
            max(res$reps), format(small, big.mark = ",")),
    "- paper: Table 1 of Kohler, Akrour and Preux (DPDT, Python, one core of an Intel i7-8665U);",
    "  its times are from another machine and language: compare ratios to CART/rpart, not seconds.",
    if (nzchar(Sys.getenv("DPDT_BENCH_NOTE"))) paste("- note:", Sys.getenv("DPDT_BENCH_NOTE")),
    "- skin: the paper's split is not available; ours is a seeded random split of the",
    "  same size, so its accuracies are comparable only approximately.", "",
    "## Training accuracy (%)", "", md_table(acc), "",
    "## Time (s), ratios to rpart, search states", "", md_table(tim), "")
  writeLines(lines, paste0(out, ".md"))
}

meta <- run_metadata(root)
report_only(out, write_results)

## ---- run --------------------------------------------------------------------------
run_sets("dpdt benchmark", sets, run_one, function(g)
  sprintf("acc cd5 %s cd4 %s rpart %s | t cd5 %s s, cd4 %s s, rpart %s s",
          fmt_a(g("dpdt5_acc")), fmt_a(g("dpdt4_acc")), fmt_a(g("rpart_acc")),
          fmt_t(g("dpdt5_t1")), fmt_t(g("dpdt4_t1")), fmt_t(g("rpart_t"))),
  write_results, out, meta)
