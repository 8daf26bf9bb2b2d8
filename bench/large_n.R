#!/usr/bin/env Rscript
## Benchmark: a fit on many rows (issue 5): simulated data, n rows x p
## numeric features, two classes from a depth-3 rule with noise; depth 3,
## cart_depth as given; elapsed and CPU time, the search's own time, peak
## memory of the R session (VmHWM), states, the most accurate tree's
## training accuracy and its accuracy on 100,000 held-out rows of the same
## rule; rpart to depth 3 beside (cp = 0: greedy CART). With max_bins
## (issue 21) the numeric features are cut only between quantile bins. Each
## (thread count, max_bins) runs in an R process of its own (peak memory is
## per process).
##
##   Rscript bench/large_n.R                   # 1e6 rows x 20 features
## Environment: DPDT_N (default 1e6), DPDT_P (20), DPDT_CART_DEPTH (3),
## DPDT_THREADS (thread counts, default "1,2"), DPDT_MAX_BINS (values of
## max_bins, default "Inf,255"), DPDT_MAX_MEMORY (the fit's max_memory in
## GB, default 4: a larger n needs more), DPDT_BENCH_OUT (default
## bench/results/large_n), DPDT_BENCH_NOTE (a remark added to the report).

suppressPackageStartupMessages({
  library(dpdt)
  library(rpart)
})
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
source(file.path(if (length(script) == 1) dirname(script) else "bench", "common.R"))
root <- bench_root(script)
out <- bench_out(root, "large_n")
n <- as.numeric(Sys.getenv("DPDT_N", "1e6"))
p <- as.integer(Sys.getenv("DPDT_P", "20"))
cart_depth <- as.integer(Sys.getenv("DPDT_CART_DEPTH", "3"))
threads <- as.integer(strsplit(Sys.getenv("DPDT_THREADS", "1,2"), ",")[[1]])
max_bins <- as.numeric(strsplit(Sys.getenv("DPDT_MAX_BINS", "Inf,255"), ",")[[1]])
child <- Sys.getenv("DPDT_LARGE_N_CHILD") != ""
if (!child) {
  # One process per (thread count, max_bins); each writes one row of the results.
  runs <- expand.grid(threads = threads, max_bins = max_bins)
  rows <- lapply(seq_len(nrow(runs)), function(i) {
    tmp <- tempfile(fileext = ".csv")
    status <- system2(file.path(R.home("bin"), "Rscript"), script,
                      env = c(paste0("DPDT_THREADS=", runs$threads[i]),
                              paste0("DPDT_MAX_BINS=", runs$max_bins[i]), "DPDT_LARGE_N_CHILD=1",
                              paste0("DPDT_LARGE_N_CSV=", tmp)))
    if (status != 0) stop("the run with ", runs$threads[i], " thread(s) failed")
    read.csv(tmp)
  })
  res <- do.call(rbind, rows)
  write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  writeLines(c(
    "# A fit on many rows", "",
    paste0("Run ", res$run_date[1], ", commit ", res$run_commit[1], ", ", res$run_cpu[1],
           ", load ", res$run_load[1], ". Script: bench/large_n.R."), "",
    md_table(data.frame(
      rows = fmt_r(res$n), features = res$p, cart_depth = res$cart_depth,
      threads = res$threads, max_bins = res$max_bins, `elapsed s` = fmt_t(res$elapsed), `CPU s` = fmt_t(res$cpu),
      states = fmt_r(res$states), `train acc %` = fmt_a(100 * res$acc),
      `test acc %` = fmt_a(100 * res$test_acc),
      `peak RSS MB (data alone)` = paste0(fmt_r(res$peak_mb), " (", fmt_r(res$peak_mb_before), ")"),
      `rpart elapsed s` = fmt_t(res$rpart_elapsed), `rpart acc %` = fmt_a(100 * res$rpart_acc),
      `rpart test acc %` = fmt_a(100 * res$rpart_test_acc),
      check.names = FALSE)), "",
    paste("Peak RSS: the R process's high-water mark (VmHWM) during the fit (restarted",
          "after the data were made); in brackets the memory in use before it (R and the",
          "data). Sorted blocks: each thread holds one buffer of rows per depth and per",
          "CART level; states held as rows (binned or few-valued data, two classes, CART",
          "proposals, 10,000 rows or more) hold 4 bytes per row there, beside one byte per",
          "row and feature of codes."),
    if (nzchar(Sys.getenv("DPDT_BENCH_NOTE"))) c("", Sys.getenv("DPDT_BENCH_NOTE"))),
    paste0(out, ".md"))
  print(res)
  quit(save = "no")
}

status_mb <- function(field) {
  l <- grep(paste0("^", field), readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", l)) / 1024
}
# The high-water mark restarts from the memory in use now (Linux: writing 5
# to clear_refs), so the peak is the fit's, not that of making the data.
reset_peak <- function() {
  invisible(gc())
  try(writeLines("5", "/proc/self/clear_refs"), silent = TRUE)
}

simulate <- function(n) {
  d <- as.data.frame(matrix(round(rnorm(n * p), 3), n, p))
  d$y <- factor(ifelse(d$V1 > 0, d$V2 + 0.5 * d$V3 > 0.3, d$V4 - d$V5 > -0.2) !=
                  (runif(n) < 0.1))
  d
}
set.seed(1)
d <- simulate(n)
test <- simulate(1e5)
reset_peak()
before <- status_mb("VmRSS")
t_fit <- system.time(fit <- dpdt_fit(y ~ ., d, max_depth = 3, cart_depth = cart_depth, min_bucket = 1,
                                     threads = threads, max_bins = max_bins, progress = FALSE,
                                     max_memory = as.numeric(Sys.getenv("DPDT_MAX_MEMORY", "4"))))
after <- status_mb("VmHWM")
t_rp <- system.time(rp <- rpart(y ~ ., d, method = "class",
                                control = rpart.control(maxdepth = 3, cp = 0, xval = 0)))
rp_acc <- mean(predict(rp, d, type = "class") == d$y)
best <- nrow(fit$front)
res <- data.frame(
  n = n, p = p, cart_depth = cart_depth, threads = threads, max_bins = max_bins,
  elapsed = t_fit[["elapsed"]], cpu = t_fit[["user.self"]] + t_fit[["sys.self"]],
  search_s = fit$seconds, states = fit$n_states, trees = nrow(fit$front),
  acc = 1 - fit$front$train_loss[best],
  test_acc = mean(predict(fit, test, model = best, type = "class") == test$y),
  peak_mb_before = before, peak_mb = after,
  rpart_elapsed = t_rp[["elapsed"]], rpart_acc = rp_acc,
  rpart_test_acc = mean(predict(rp, test, type = "class") == test$y))
meta <- run_metadata(root)
for (nm in names(meta)) res[[nm]] <- meta[[nm]]
write.csv(res, Sys.getenv("DPDT_LARGE_N_CSV"), row.names = FALSE)
