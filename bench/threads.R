#!/usr/bin/env Rscript
## Benchmark: threads 1 vs 2 (issue 5). dpdt_fit(y ~ ., max_depth, threads =
## 1 or 2) on Quant-BnB training sets, runs alternating between the two
## thread counts; elapsed seconds (the point of threads is the wall clock),
## DPDT_THREADS_REPS runs each (default 3), median and minimum; speed-up =
## elapsed with 1 thread / elapsed with 2. identical: the two fronts and
## tree lists are identical(). Meaningful only on an otherwise idle machine:
## the script records the load average before it starts.
##
##   Rscript bench/threads.R
## Environment: DPDT_THREADS_DEPTH (default 4: depth 3 fits take well under
## a second on most sets), DPDT_BENCH_SETS (default avila, bean, eeg, htru,
## magic, room, skin), DPDT_DATA, DPDT_BENCH_OUT (default
## bench/results/threads).

suppressPackageStartupMessages(library(dpdt))
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
source(file.path(if (length(script) == 1) dirname(script) else "bench", "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
out <- bench_out(root, "threads")
reps <- as.integer(Sys.getenv("DPDT_THREADS_REPS", "3"))
depth <- as.integer(Sys.getenv("DPDT_THREADS_DEPTH", "4"))
if (!length(env_list("DPDT_BENCH_SETS")))
  Sys.setenv(DPDT_BENCH_SETS = "avila,bean,eeg,htru,magic,room,skin")

run_set <- function(s) {
  d <- read_part(data$qdir, s)
  t <- list(`1` = numeric(reps), `2` = numeric(reps))
  fits <- list()
  for (i in seq_len(reps)) {
    for (th in c("1", "2")) {
      gc(FALSE)
      t[[th]][i] <- system.time(fits[[th]] <- dpdt_fit(
        y ~ ., d, max_depth = depth, threads = as.integer(th), progress = FALSE,
        min_bucket = 1))[["elapsed"]]
    }
  }
  data.frame(set = s, n = nrow(d), depth = depth,
             cart_depth = paste(fits[["1"]]$control$cart_depth, collapse = "/"),
             one_median = median(t[["1"]]), two_median = median(t[["2"]]),
             one_min = min(t[["1"]]), two_min = min(t[["2"]]),
             identical = identical(fits[["1"]]$front, fits[["2"]]$front) &&
               identical(fits[["1"]]$trees, fits[["2"]]$trees))
}

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  writeLines(c(
    "# Threads: 1 against 2", "",
    paste0("Run ", res$run_date[1], ", commit ", res$run_commit[1], ", ", res$run_cpu[1],
           ", load before the run ", res$run_load[1], ". Script: bench/threads.R. ",
           "dpdt_fit(max_depth = ", res$depth[1], ", default cart_depth) with threads = 1 ",
           "and 2, runs alternating, ", reps, " each; elapsed seconds."), "",
    paste0("Sum of medians: ", fmt_t(sum(res$one_median)), " s with 1 thread, ",
           fmt_t(sum(res$two_median)), " s with 2 (speed-up ",
           fmt_a(sum(res$one_median) / sum(res$two_median)), "). Fronts and trees identical on ",
           sum(res$identical), " of ", nrow(res), " sets."), "",
    md_table(data.frame(
      set = res$set, n = fmt_r(res$n), cart_depth = res$cart_depth,
      `1 thread s` = fmt_t(res$one_median), `2 threads s` = fmt_t(res$two_median),
      `speed-up (median)` = fmt_a(res$one_median / res$two_median),
      `speed-up (min)` = fmt_a(res$one_min / res$two_min),
      identical = ifelse(res$identical, "yes", "NO"), check.names = FALSE))),
    paste0(out, ".md"))
}

report_only(out, write_results)
meta <- run_metadata(root)
run_sets("threads 1 vs 2", bench_sets(data$paper$dataset), run_set,
         function(g) sprintf("1: %.2f s, 2: %.2f s", g("one_median"), g("two_median")),
         write_results, out, meta)
