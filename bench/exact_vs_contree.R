#!/usr/bin/env Rscript
## Provably optimal trees, dpdt against ConTree (issue 20): the exhaustive
## search (candidates = "exhaustive", threads = 1, max_work = Inf) and
## ConTree's command-line program side by side, at each depth, on the
## Quant-BnB training sets.
##
## ConTree is not shipped and cannot be downloaded here: build it from its own
## sources with its own CMake file and give the program's path in
## DPDT_CONTREE; without it, dpdt runs alone.
##   DPDT_CONTREE=/path/to/ConTree Rscript bench/exact_vs_contree.R
## Each fit runs in a fresh process (dpdt: Rscript; ConTree: its program),
## under /usr/bin/time when it is there, so that peak memory is the fit's
## own (dpdt's includes R, about 75-105 MB). Time: CPU seconds (user +
## system), the minimum of DPDT_EXACT_REPS runs (default 3); dpdt's is taken
## inside R around dpdt_fit() (loading excluded), ConTree's from the process.
## ConTree's time is the one it reports for its search (file reading
## excluded; one thread, so close to CPU time); its process's CPU seconds
## (to 0.01 s) are recorded beside it.
## Both report the training misclassifications of their most accurate tree
## (dpdt: the last point of the front); they must agree.
## dpdt's work estimate (row visits and seconds, the upper bound that
## max_work and the one-hour refusal use) is recorded beside its time.
## DPDT_EXACT_DEPTHS (default "2,3"), DPDT_EXACT_COMPLEXITY (default
## "splits"), DPDT_EXACT_TIMEOUT (seconds per run, default 1800: a run cut
## off is recorded as such); DPDT_EXACT_MAX_MEMORY (dpdt's max_memory in GB,
## default 4, dpdt_fit()'s own); DPDT_DATA, DPDT_BENCH_SETS / DPDT_BENCH_SKIP,
## DPDT_BENCH_OUT as for the other benchmarks.
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
contree <- Sys.getenv("DPDT_CONTREE")
if (nzchar(contree) && !file.exists(contree)) stop("DPDT_CONTREE does not name a file: ", contree)
depths <- as.integer(env_list("DPDT_EXACT_DEPTHS"))
if (!length(depths)) depths <- c(2L, 3L)
reps <- as.integer(Sys.getenv("DPDT_EXACT_REPS", "3"))
complexity <- Sys.getenv("DPDT_EXACT_COMPLEXITY", "splits")
timeout <- as.numeric(Sys.getenv("DPDT_EXACT_TIMEOUT", "1800"))
max_memory <- as.numeric(Sys.getenv("DPDT_EXACT_MAX_MEMORY", "4"))
out <- bench_out(root, if (complexity == "splits") "exact_vs_contree" else
  paste0("exact_vs_contree_", complexity))
gnu_time <- if (file.exists("/usr/bin/time")) "/usr/bin/time" else ""
lib <- find.package("dpdt")
meta <- run_metadata(root)
contree_commit <- Sys.getenv("DPDT_CONTREE_COMMIT", "unknown")

## Runs a command with a time bound; returns its output and, under
## /usr/bin/time, its CPU seconds and peak RSS (MB).
run_measured <- function(cmd, cmd_args) {
  tf <- tempfile()
  on.exit(unlink(tf))
  if (nzchar(gnu_time)) {
    cmd_args <- c("-f", "TIME %U %S %M", "-o", tf, cmd, cmd_args)
    cmd <- gnu_time
  }
  res <- suppressWarnings(system2("timeout", shQuote(c(timeout, cmd, cmd_args)),
                                  stdout = TRUE, stderr = TRUE))
  status <- attr(res, "status")
  cpu <- rss <- NA_real_
  if (file.exists(tf)) {
    tl <- grep("^TIME ", readLines(tf), value = TRUE)
    if (length(tl)) {
      v <- as.numeric(strsplit(tl[1], " ")[[1]][2:4])
      cpu <- v[1] + v[2]
      rss <- v[3] / 1024
    }
  }
  list(out = res, timed_out = identical(status, 124L), cpu = cpu, rss = rss)
}

## One dpdt fit in a fresh R session: CPU seconds inside R, the most
## accurate tree's misclassifications, the front's length, the estimate.
dpdt_once <- function(train, depth) {
  code <- sprintf(paste(
    "suppressPackageStartupMessages(library(dpdt, lib.loc = %s));",
    "d <- read.csv(%s); d$y <- factor(d$y);",
    "t <- system.time(f <- dpdt_fit(y ~ ., data = d, max_depth = %d, candidates = 'exhaustive',",
    "complexity = %s, threads = 1, min_bucket = 1, max_work = Inf, max_memory = %s, progress = FALSE));",
    "e <- f$work_estimate; if (is.null(e)) e <- list(row_visits = NA, seconds = NA);",
    "cat('DPDT', t[['user.self']] + t[['sys.self']], round(min(f$front$train_loss) * nrow(d)),",
    "nrow(f$front), e$row_visits, e$seconds, '\\n')"),
    deparse(dirname(lib)), deparse(train), depth, deparse(complexity), max_memory)
  r <- run_measured(file.path(R.home("bin"), "Rscript"), c("-e", code))
  line <- grep("^DPDT ", r$out, value = TRUE)
  if (!length(line)) return(list(cpu = NA, errors = NA, points = NA, visits = NA,
                                 est_s = NA, rss = r$rss, timed_out = r$timed_out))
  v <- as.numeric(strsplit(trimws(line[1]), " ")[[1]][-1])
  list(cpu = v[1], errors = v[2], points = v[3], visits = v[4], est_s = v[5], rss = r$rss,
       timed_out = FALSE)
}

contree_once <- function(file, depth) {
  r <- run_measured(contree, c("-file", file, "-max-depth", depth))
  value <- function(label) {
    line <- grep(paste0("^", label), r$out, value = TRUE)
    if (length(line)) as.numeric(sub(" seconds$", "", sub(".*:\\s*", "", line[1]))) else NA
  }
  list(cpu = value("Average time taken to get the decision tree:"), process = r$cpu,
       rss = r$rss, timed_out = r$timed_out, errors = value("Misclassification score:"))
}

best_of <- function(runs) {
  cpu <- vapply(runs, function(r) r$cpu, numeric(1))
  r <- runs[[if (all(is.na(cpu))) 1 else which.min(cpu)]]
  r$cpu <- suppressWarnings(min(cpu, na.rm = TRUE))
  if (!is.finite(r$cpu)) r$cpu <- NA
  r
}

## A run stopped by DPDT_EXACT_TIMEOUT shows as "> timeout (cut off)".
cut_off <- function(s, timed_out) {
  ifelse(!is.na(timed_out) & timed_out, sprintf("> %s (cut off)", format(timeout)), fmt_t(s))
}

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  tab <- data.frame(set = res$set, n = fmt_r(res$n), depth = res$depth,
                    contree_s = cut_off(res$contree_s, res$contree_timed_out),
                    dpdt_s = cut_off(res$dpdt_s, res$dpdt_timed_out),
                    ratio = fmt_a(res$dpdt_s / res$contree_s), contree_mb = fmt_r(res$contree_mb),
                    dpdt_mb = fmt_r(res$dpdt_mb), errors = ifelse(is.na(res$contree_errors),
                      fmt_r(res$dpdt_errors), paste(fmt_r(res$contree_errors), "/", fmt_r(res$dpdt_errors))),
                    front = res$dpdt_points, estimate_s = fmt_t(res$dpdt_estimate_s),
                    estimate_over_true = fmt_a(res$dpdt_estimate_s / res$dpdt_s, 1))
  summary <- unlist(lapply(sort(unique(res$depth)), function(k) {
    r <- res[res$depth == k & !is.na(res$dpdt_s), ]
    q <- r$dpdt_s / r$contree_s
    e <- r$dpdt_estimate_s / r$dpdt_s
    c(if (any(!is.na(q))) sprintf(
      "- depth %d: dpdt / ConTree search seconds, median %.2f (range %.2f to %.2f); dpdt faster on %d of %d; sums %.1f s (ConTree) and %.1f s (dpdt); misclassifications agree on %d of %d.",
      k, median(q, na.rm = TRUE), min(q, na.rm = TRUE), max(q, na.rm = TRUE), sum(q < 1, na.rm = TRUE),
      sum(!is.na(q)), sum(r$contree_s, na.rm = TRUE), sum(r$dpdt_s), sum(r$contree_errors == r$dpdt_errors, na.rm = TRUE),
      sum(!is.na(r$contree_errors))),
      if (any(!is.na(e))) sprintf("- depth %d: dpdt's work estimate over its measured time, median %.1f (range %.2g to %.2g).",
                                  k, median(e, na.rm = TRUE), min(e, na.rm = TRUE), max(e, na.rm = TRUE)))
  }))
  lines <- c(
    sprintf("# Exhaustive search against ConTree (complexity \"%s\")", complexity), "",
    "Written by `bench/exact_vs_contree.R`. dpdt_fit(y ~ ., max_depth = D, candidates = \"exhaustive\",",
    sprintf("complexity = \"%s\", threads = 1, min_bucket = 1, max_work = Inf, max_memory = %s) against ConTree's program",
            complexity, format(max_memory)),
    sprintf("(-max-depth D, commit %s, built by its own CMake file: -O3 -march=native, LTO), one process", contree_commit),
    sprintf("per run; seconds of the search, the minimum of %d run(s): dpdt's CPU (user + system) inside", reps),
    "R (package load excluded), ConTree's as it reports it (file reading excluded; one thread). MB: peak RSS of the process (dpdt's includes R). errors: training",
    "misclassifications of the most accurate tree, ConTree / dpdt. front: dpdt's front points (ConTree",
    "returns one tree). estimate_s: dpdt's work estimate in seconds, made before the search (max_work compares it; a",
    "measured root is also timed as it runs and stopped by its projections).", "",
    sprintf("Run %s, commit %s, load %s, %s.", res$run_date[1], res$run_commit[1], res$run_load[1], res$run_cpu[1]),
    "", summary, "", md_table(tab))
  writeLines(lines, paste0(out, ".md"))
}
report_only(out, write_results)

sets <- bench_sets(sub("_train.csv.gz$", "", list.files(data$qdir, "_train.csv.gz$")))
res <- NULL
for (s in sets) {
  train <- file.path(data$qdir, paste0(s, "_train.csv.gz"))
  d <- read.csv(train)
  cfile <- if (nzchar(contree)) contree_file(d)
  for (k in depths) {
    ct <- if (nzchar(contree)) best_of(lapply(seq_len(reps), function(i) contree_once(cfile, k)))
    dp <- best_of(lapply(seq_len(reps), function(i) dpdt_once(train, k)))
    row <- data.frame(set = s, n = nrow(d), p = ncol(d) - 1L, depth = k,
                      contree_s = if (is.null(ct)) NA else ct$cpu,
                      contree_process_s = if (is.null(ct)) NA else ct$process,
                      contree_mb = if (is.null(ct)) NA else ct$rss,
                      contree_errors = if (is.null(ct)) NA else ct$errors,
                      contree_timed_out = if (is.null(ct)) NA else ct$timed_out,
                      dpdt_s = dp$cpu, dpdt_mb = dp$rss, dpdt_errors = dp$errors,
                      dpdt_points = dp$points, dpdt_timed_out = dp$timed_out,
                      dpdt_estimate_visits = dp$visits, dpdt_estimate_s = dp$est_s)
    for (nm in names(meta)) row[[nm]] <- meta[[nm]]
    cat(sprintf("%-10s depth %d  ConTree %8s s  dpdt %8s s  errors %s / %s\n", s, k,
                fmt_t(row$contree_s), fmt_t(row$dpdt_s), row$contree_errors, row$dpdt_errors))
    res <- rbind_fill(res, row)
    write_results(res)
  }
  if (!is.null(cfile)) unlink(cfile)
}
cat("written:", paste0(out, c(".md", ".csv")), "\n")
