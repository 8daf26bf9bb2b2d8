#!/usr/bin/env Rscript
## What a fit costs around its search, on the sets where that is a large
## share of the time: the exhaustive search at depth 3 (as
## bench/exact_vs_contree.R runs it: complexity "splits", threads = 1,
## min_bucket = 1, max_work = Inf) in a fresh R process, twice. Per process:
## the first fit's CPU seconds inside R (what exact_vs_contree.R records),
## the seconds its engine reports (fit$seconds: the search's construction
## and run, wall clock on one thread), and the same for a second fit in the
## same process (R's code and the engine's memory already loaded), and the
## minor page faults of each fit (memory touched for the first time, read
## from /proc/self/stat where there is one). Runs
## alternate with ConTree's program when DPDT_CONTREE names it (its own
## reported search time, as in exact_vs_contree.R), so each ratio is of a
## pair run side by side; medians and minima over DPDT_FIRST_REPS processes
## (default 10). DPDT_DATA, DPDT_BENCH_SETS (default bank, raisin, wilt,
## occupancy), DPDT_BENCH_OUT as for the other benchmarks.
##   DPDT_CONTREE=/path/to/ConTree DPDT_CONTREE_COMMIT=61ebd49 Rscript bench/first_fit.R
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
source(file.path(if (length(script) == 1) dirname(script) else "bench", "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
contree <- Sys.getenv("DPDT_CONTREE")
if (nzchar(contree) && !file.exists(contree)) stop("DPDT_CONTREE does not name a file: ", contree)
contree_commit <- Sys.getenv("DPDT_CONTREE_COMMIT", "unknown")
reps <- as.integer(Sys.getenv("DPDT_FIRST_REPS", "10"))
out <- bench_out(root, "first_fit")
lib <- find.package("dpdt")
meta <- run_metadata(root)

## One R process: two fits, each's CPU inside R and its engine's seconds.
dpdt_process <- function(train) {
  code <- sprintf(paste(
    "suppressPackageStartupMessages(library(dpdt, lib.loc = %s));",
    "d <- read.csv(%s); d$y <- factor(d$y);",
    "fit <- quote(dpdt_fit(y ~ ., data = d, max_depth = 3, candidates = 'exhaustive',",
    "complexity = 'splits', threads = 1, min_bucket = 1, max_work = Inf, progress = FALSE));",
    "faults <- function() if (file.exists('/proc/self/stat'))",
    "as.numeric(strsplit(readLines('/proc/self/stat'), ' ')[[1]][10]) else NA;",
    "m0 <- faults(); t1 <- system.time(f1 <- eval(fit)); m1 <- faults();",
    "t2 <- system.time(f2 <- eval(fit)); m2 <- faults();",
    "cat('DPDT', t1[['user.self']] + t1[['sys.self']], f1$seconds,",
    "t2[['user.self']] + t2[['sys.self']], f2$seconds, m1 - m0, m2 - m1, '\\n')"),
    deparse(dirname(lib)), deparse(train))
  res <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code)),
                 stdout = TRUE, stderr = TRUE)
  line <- grep("^DPDT ", res, value = TRUE)
  if (!length(line)) stop("the dpdt process failed:\n", paste(res, collapse = "\n"))
  v <- as.numeric(strsplit(trimws(line[1]), " ")[[1]][-1])
  list(first = v[1], first_engine = v[2], second = v[3], second_engine = v[4],
       first_faults = v[5], second_faults = v[6])
}

## ConTree's reported search time on a file of contree_file().
contree_seconds <- function(file) {
  res <- system2(contree, c("-file", file, "-max-depth", 3), stdout = TRUE, stderr = TRUE)
  line <- grep("^Average time taken to get the decision tree:", res, value = TRUE)
  if (!length(line)) stop("ConTree printed no time:\n", paste(res, collapse = "\n"))
  as.numeric(sub(" seconds$", "", sub(".*:\\s*", "", line[1])))
}

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  per_set <- split(res, factor(res$set, levels = unique(res$set)))
  tab <- do.call(rbind, lapply(per_set, function(r) {
    med <- function(v) stats::median(v, na.rm = TRUE)
    both <- function(v) sprintf("%s (%s)", fmt_t(med(v)), fmt_t(suppressWarnings(min(v, na.rm = TRUE))))
    data.frame(set = r$set[1], runs = nrow(r),
               contree_s = if (all(is.na(r$contree_s))) NA else both(r$contree_s),
               first_fit_s = both(r$first), first_engine_s = both(r$first_engine),
               second_fit_s = both(r$second), second_engine_s = both(r$second_engine),
               faults_first_second = sprintf("%s / %s", fmt_r(med(r$first_faults)),
                                             fmt_r(med(r$second_faults))),
               first_fit_over_contree = fmt_a(med(r$first / r$contree_s)),
               second_engine_over_contree = fmt_a(med(r$second_engine / r$contree_s)))
  }))
  lines <- c(
    "# A fit's cost around its search: first and second fit in a process, beside ConTree", "",
    "Written by `bench/first_fit.R`. dpdt_fit(y ~ ., max_depth = 3, candidates = \"exhaustive\",",
    "complexity = \"splits\", threads = 1, min_bucket = 1, max_work = Inf) twice in each fresh R process;",
    sprintf("ConTree's program (-max-depth 3, commit %s) run before each process, its reported search time.", contree_commit),
    "Seconds: median (minimum) over the runs. fit: CPU (user + system) inside R around dpdt_fit(), package",
    "load excluded (what bench/exact_vs_contree.R records); engine: fit$seconds, the search's construction and",
    "run (wall clock, one thread). faults: minor page faults of the first and second fit (medians).",
    "Ratios: medians of the ratios of runs side by side.", "",
    sprintf("Run %s, commit %s, load %s, %s.", res$run_date[1], res$run_commit[1], res$run_load[1], res$run_cpu[1]),
    "", md_table(tab))
  writeLines(lines, paste0(out, ".md"))
}
report_only(out, write_results)

sets <- env_list("DPDT_BENCH_SETS")
if (!length(sets)) sets <- c("bank", "raisin", "wilt", "occupancy")
res <- NULL
for (s in sets) {
  train <- file.path(data$qdir, paste0(s, "_train.csv.gz"))
  if (!file.exists(train)) stop("no training file for data set '", s, "' under ", data$qdir)
  cfile <- if (nzchar(contree)) contree_file(read.csv(train))
  for (i in seq_len(reps)) {
    ct <- if (is.null(cfile)) NA_real_ else contree_seconds(cfile)
    dp <- dpdt_process(train)
    row <- data.frame(set = s, run = i, contree_s = ct, first = dp$first,
                      first_engine = dp$first_engine, second = dp$second,
                      second_engine = dp$second_engine, first_faults = dp$first_faults,
                      second_faults = dp$second_faults)
    for (nm in names(meta)) row[[nm]] <- meta[[nm]]
    res <- rbind_fill(res, row)
  }
  if (!is.null(cfile)) unlink(cfile)
  r <- res[res$set == s, ]
  cat(sprintf("%-10s ConTree %s  first fit %s (engine %s)  second fit %s (engine %s)  medians\n", s,
              fmt_t(stats::median(r$contree_s)), fmt_t(stats::median(r$first)),
              fmt_t(stats::median(r$first_engine)), fmt_t(stats::median(r$second)),
              fmt_t(stats::median(r$second_engine))))
  write_results(res)
}
cat("written:", paste0(out, c(".md", ".csv")), "\n")
