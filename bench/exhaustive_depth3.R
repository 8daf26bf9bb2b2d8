#!/usr/bin/env Rscript
## Benchmark: provably optimal depth-3 trees (candidates = "exhaustive") on
## Quant-BnB data sets, each under a time budget (time_limit, default 600 s):
## whether the exhaustive search finished, its CPU time, states, memory use
## of the R session (peak RSS), and its best training accuracy beside the
## proven optimum of the paper's table (optimal_train_acc).
##
##   Rscript bench/exhaustive_depth3.R                 # bank and raisin
##   DPDT_BENCH_SETS=all Rscript bench/exhaustive_depth3.R   # all 16 (hours)
## Environment: DPDT_DATA, DPDT_BENCH_OUT (see common.R), DPDT_BENCH_LIMIT
## (seconds per set, default 600), DPDT_BENCH_THREADS (default 1).

suppressPackageStartupMessages(library(dpdt))
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
source(file.path(if (length(script) == 1) dirname(script) else "bench", "common.R"))
root  <- bench_root(script)
data  <- bench_data(root, "paper_table1_depth3.csv")
paper <- data$paper
limit <- as.numeric(Sys.getenv("DPDT_BENCH_LIMIT", "600"))
threads <- as.integer(Sys.getenv("DPDT_BENCH_THREADS", "1"))
out   <- bench_out(root, "exhaustive_depth3")
## The time limit decides, not the work estimate (an upper bound that would
## refuse bean, htru and magic before they start): DPDT_BENCH_MAX_WORK
## (default Inf).
max_work <- as.numeric(Sys.getenv("DPDT_BENCH_MAX_WORK", "Inf"))
if (identical(Sys.getenv("DPDT_BENCH_SETS"), "")) Sys.setenv(DPDT_BENCH_SETS = "bank,raisin")
if (identical(Sys.getenv("DPDT_BENCH_SETS"), "all")) Sys.unsetenv("DPDT_BENCH_SETS")
sets  <- bench_sets(paper$dataset)

peak_rss_mb <- function() {
  l <- grep("^VmHWM", readLines("/proc/self/status"), value = TRUE)
  if (length(l)) as.numeric(gsub("[^0-9]", "", l)) / 1024 else NA_real_
}

run_one <- function(s) {
  d <- read_part(data$qdir, s)
  t <- system.time(fit <- suppressWarnings(
    dpdt_fit(y ~ ., data = d, max_depth = 3, candidates = "exhaustive", min_bucket = 1,
             threads = threads, time_limit = limit, progress = FALSE, max_work = max_work)))
  done <- isTRUE(fit$time_limit$complete)
  data.frame(dataset = s, n = nrow(d), p = ncol(d) - 1, finished = done,
             searched = fit$time_limit$searched,
             cpu = t[["user.self"]] + t[["sys.self"]], elapsed = t[["elapsed"]],
             states = fit$n_states, acc = 100 * max(1 - fit$front$train_loss),
             optimum = paper$optimal_train_acc[paper$dataset == s],
             peak_rss_mb = peak_rss_mb())
}

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  tab <- data.frame(dataset = res$dataset, n = fmt_r(res$n), p = res$p,
                    finished = ifelse(res$finished, "yes", paste("no:", res$searched)),
                    `CPU s` = fmt_t(res$cpu), states = fmt_r(res$states),
                    `train acc %` = fmt_a(res$acc), `optimum % (paper)` = fmt_a(res$optimum, 1),
                    `peak RSS MB` = fmt_r(res$peak_rss_mb), check.names = FALSE)
  # Sets run apart (DPDT_BENCH_SETS, rows joined in the CSV) say their commit.
  if (length(unique(res$run_commit)) > 1) tab$commit <- res$run_commit
  writeLines(c("# Exhaustive depth 3 (provably optimal trees) under a time budget", "",
               paste0("Run ", res$run_date[1], ", commit ", res$run_commit[1], ", ",
                      res$run_cpu[1], ", load ", res$run_load[1], ". time_limit = ", limit,
                      " s per set, ", threads, " thread(s). Script: bench/exhaustive_depth3.R."),
               "", md_table(tab)), paste0(out, ".md"))
}

report_only(out, write_results)
run_sets("exhaustive depth 3", sets, run_one,
         function(g) sprintf("%.1f s CPU, acc %.2f (optimum %.1f)", g("cpu"), g("acc"),
                             g("optimum")),
         write_results, out, run_metadata(root))
