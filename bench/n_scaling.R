#!/usr/bin/env Rscript
## Benchmark: how the cost grows with the number of rows (issue 5). The skin
## training set (196,045 rows, 3 features) subsampled to 12,000 ... 196,045
## rows (seeded), dpdt_fit(y ~ ., max_depth = 3, threads = 1) with the
## default cart_depth (5) beside rpart (depth 3, cp = 0, information gain,
## no competitor or surrogate splits); CPU seconds, minimum of
## DPDT_SCALING_REPS runs (default 3); states of the search. The growth
## exponent is the slope of log(CPU) on log(n), fitted over the sizes.
##
##   Rscript bench/n_scaling.R
## Environment: DPDT_SCALING_SET (default skin), DPDT_SCALING_REPS,
## DPDT_DATA, DPDT_BENCH_OUT (default bench/results/n_scaling).

suppressPackageStartupMessages({
  library(dpdt)
  library(rpart)
})
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
source(file.path(if (length(script) == 1) dirname(script) else "bench", "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
out <- bench_out(root, "n_scaling")
set <- Sys.getenv("DPDT_SCALING_SET", "skin")
reps <- as.integer(Sys.getenv("DPDT_SCALING_REPS", "3"))

full <- read_part(data$qdir, set)
sizes <- unique(pmin(nrow(full), c(12000, 24000, 48000, 96000, nrow(full))))
cpu_min <- function(f) {
  runs <- lapply(seq_len(reps), function(i) {
    gc(FALSE)
    cpu(f())
  })
  list(value = runs[[reps]]$value, cpu = min(vapply(runs, `[[`, 0, "cpu")))
}
meta <- run_metadata(root)
res <- do.call(rbind, lapply(sizes, function(n) {
  set.seed(1)
  d <- full[sort(sample.int(nrow(full), n)), ]
  a <- cpu_min(function() dpdt_fit(y ~ ., d, max_depth = 3, threads = 1, progress = FALSE, min_bucket = 1))
  r <- cpu_min(function() rpart(y ~ ., d, method = "class", parms = list(split = "information"),
                                control = rpart.control(maxdepth = 3, cp = 0, xval = 0,
                                                        minsplit = 2, minbucket = 1,
                                                        maxcompete = 0, maxsurrogate = 0)))
  cat(sprintf("n = %6d: dpdt %.3f s (%d states), rpart %.3f s\n", n, a$cpu,
              a$value$n_states, r$cpu))
  data.frame(set = set, n = n, dpdt_cpu = a$cpu, states = a$value$n_states,
             rpart_cpu = r$cpu)
}))
for (nm in names(meta)) res[[nm]] <- meta[[nm]]
write.csv(res, paste0(out, ".csv"), row.names = FALSE)
slope <- function(y) unname(coef(lm(log(y) ~ log(res$n)))[2])
writeLines(c(
  "# Cost against the number of rows", "",
  paste0("Run ", res$run_date[1], ", commit ", res$run_commit[1], ", ", res$run_cpu[1],
         ", load ", res$run_load[1], ". Script: bench/n_scaling.R. ", set,
         " subsampled (seed 1); depth 3, default cart_depth, 1 thread; CPU seconds, minimum ",
         "of ", reps, " runs."), "",
  paste0("Growth exponents (slope of log CPU on log n): dpdt ", fmt_a(slope(res$dpdt_cpu)),
         ", rpart ", fmt_a(slope(res$rpart_cpu)), "; states ",
         fmt_a(slope(res$states)), ". Ratio dpdt / rpart from ",
         fmt_a(res$dpdt_cpu[1] / res$rpart_cpu[1], 1), " to ",
         fmt_a(res$dpdt_cpu[nrow(res)] / res$rpart_cpu[nrow(res)], 1), "."), "",
  md_table(data.frame(
    n = fmt_r(res$n), `dpdt CPU s` = fmt_t(res$dpdt_cpu), states = fmt_r(res$states),
    `rpart CPU s` = fmt_t(res$rpart_cpu), `dpdt / rpart` = fmt_a(res$dpdt_cpu / res$rpart_cpu, 1),
    check.names = FALSE))), paste0(out, ".md"))
print(res[, 1:5])
