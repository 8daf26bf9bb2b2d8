#!/usr/bin/env Rscript
## One exhaustive search spread over futures (dpdt_fit(parallel = ), issue
## 21): for each set, dpdt_fit(y ~ ., max_depth = 3, candidates =
## "exhaustive", complexity = "splits", min_bucket = 1, threads = 1,
## max_work = Inf) run
##   - in one process (parallel = "none"),
##   - on 2 workers of plan(multisession) and of a localhost PSOCK
##     plan(cluster) (parallel = "future", the default 4 chunks per worker),
##   - on 2 multisession workers with DPDT_DIST_CHUNKS (128) chunks, whose
##     per-chunk times project the time on 8, 32 and 128 workers;
## wall-clock seconds of the call (the workers' work is not the caller's
## CPU), the fronts and every tree compared with the one-process fit, and
## the sum of the chunks' own engine seconds (the work done, with what
## cutting the root costs). Projection: each round of chunks (seeds, then
## solve) scheduled in order on W workers, each chunk to the first free
## one, as future.apply hands them out, plus the overhead measured with 2
## workers (elapsed less that schedule's length).
## DPDT_DATA: the folder holding quantbnb/; DPDT_BENCH_SETS (default rice,
## magic, htru) / DPDT_BENCH_SKIP choose sets; DPDT_BENCH_REPORT_ONLY
## re-renders the table from the CSV; DPDT_BENCH_NOTE adds a remark.
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
many <- as.integer(Sys.getenv("DPDT_DIST_CHUNKS", "128"))
out <- bench_out(root, "distributed")
if (!length(env_list("DPDT_BENCH_SETS"))) Sys.setenv(DPDT_BENCH_SETS = "rice,magic,htru")
sets <- bench_sets(data$paper$dataset)

## The length of a round: chunks in order, each to the first free worker.
schedule <- function(times, workers) {
  times <- times[!is.na(times)]
  if (!length(times)) return(0)
  free <- numeric(workers)
  for (t in times) {
    k <- which.min(free)
    free[k] <- free[k] + t
  }
  max(free)
}
rounds <- function(cs, workers) schedule(cs$seeds, workers) + schedule(cs$solve, workers)

## The fronts and the engine's trees (fit$trees: every test, threshold and
## node statistic), compared exactly.
same_fit <- function(a, b) identical(a$front, b$front) && identical(a$trees, b$trees)

fit_with <- function(tr, parallel) {
  gc(FALSE)
  t <- system.time(f <- dpdt::dpdt_fit(y ~ ., data = tr, max_depth = 3,
                                       candidates = "exhaustive", complexity = "splits",
                                       min_bucket = 1, threads = 1, max_work = Inf,
                                       progress = FALSE, parallel = parallel))
  attr(f, "elapsed") <- t[["elapsed"]]
  f
}

run_one <- function(set) {
  tr <- read_part(data$qdir, set)
  one <- fit_with(tr, "none")
  rows <- list()
  add <- function(config, f, chunks = NA) {
    d <- f$distributed
    rows[[length(rows) + 1]] <<- data.frame(
      set = set, n = nrow(tr), config = config, workers = if (is.null(d)) 1 else d$workers,
      chunks = if (is.null(d)) NA else d$chunks, elapsed = attr(f, "elapsed"),
      chunk_work = if (is.null(d)) NA else sum(d$chunk_seconds$seeds, d$chunk_seconds$solve, na.rm = TRUE),
      speedup = attr(one, "elapsed") / attr(f, "elapsed"),
      identical = same_fit(one, f), front = nrow(f$front),
      train_acc = 1 - f$front$train_loss[nrow(f$front)])
  }
  add("one process", one)
  future::plan(future::multisession, workers = 2)
  add("multisession, 2 workers", fit_with(tr, "future"))
  options(dpdt.chunks = many)
  fm <- fit_with(tr, "future")
  options(dpdt.chunks = NULL)
  add(paste0("multisession, 2 workers, ", many, " chunks"), fm)
  future::plan(future::sequential)
  cl <- parallelly::makeClusterPSOCK(2)
  future::plan(future::cluster, workers = cl)
  add("PSOCK cluster (localhost), 2 workers", fit_with(tr, "future"))
  future::plan(future::sequential)
  parallel::stopCluster(cl)
  res <- do.call(rbind, rows)
  cs <- fm$distributed$chunk_seconds
  overhead <- attr(fm, "elapsed") - rounds(cs, 2)
  for (w in c(8, 32, 128)) res[[paste0("projected_", w)]] <- rounds(cs, w) + overhead
  res$overhead <- overhead
  res
}

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  tab <- data.frame(
    set = res$set, n = fmt_r(res$n), config = res$config, chunks = res$chunks,
    `elapsed s` = fmt_t(res$elapsed), `speed-up` = formatC(res$speedup, digits = 3, format = "fg"),
    `chunks' engine s` = fmt_t(res$chunk_work), `front and trees identical` = res$identical,
    `train acc %` = fmt_a(100 * res$train_acc), check.names = FALSE)
  proj <- res[grepl("chunks$", res$config), ]
  ptab <- data.frame(
    set = proj$set, `one process s` = fmt_t(res$elapsed[res$config == "one process"][
      match(proj$set, res$set[res$config == "one process"])]),
    `chunks` = proj$chunks, `overhead s (2 workers)` = fmt_t(proj$overhead),
    `8 workers s` = fmt_t(proj$projected_8), `32 workers s` = fmt_t(proj$projected_32),
    `128 workers s` = fmt_t(proj$projected_128), check.names = FALSE)
  meta <- res[1, ]
  writeLines(c(
    "# One exhaustive search spread over futures", "",
    paste0("Written by `bench/distributed.R`. dpdt_fit(y ~ ., max_depth = 3, candidates = ",
           "\"exhaustive\", complexity = \"splits\", min_bucket = 1, threads = 1, max_work = Inf, ",
           "parallel = ...): wall-clock seconds of the call, one run each. Speed-up: the ",
           "one-process time over the row's. Chunks' engine s: the sum of the chunks' own ",
           "search times (seeds round and solve round), the work done when the root is cut ",
           "into chunks. Identical: the front and every tree equal the one-process fit's."), "",
    paste0("Run ", meta$run_date, ", commit ", meta$run_commit, ", load ", meta$run_load, ", ",
           meta$run_cpu, "."), "",
    md_table(tab), "",
    "## Projection to more workers", "",
    paste0("From the per-chunk engine times of the run with ", many, " chunks: each round ",
           "(seeds, then solve) scheduled in order on W workers, each chunk to the first ",
           "free one, plus the overhead measured on 2 workers (elapsed less that schedule). ",
           "With C chunks no more than C workers are busy, and the largest chunk bounds ",
           "the time."), "",
    md_table(ptab),
    if (nzchar(Sys.getenv("DPDT_BENCH_NOTE"))) c("", Sys.getenv("DPDT_BENCH_NOTE"))),
    paste0(out, ".md"))
}

report_only(out, write_results)
meta <- run_metadata(root)
res <- NULL
for (set in sets) {
  r <- run_one(set)
  for (nm in names(meta)) r[[nm]] <- meta[[nm]]
  res <- rbind_fill(res, r)
  print(r[, c("set", "config", "chunks", "elapsed", "speedup", "chunk_work", "identical")])
  write_results(res)
}
