## Regression trees tried exhaustively (no bounds skip a split in a
## regression, so its last level's scans are most of the time), on data
## that ship with R and MASS: two builds of dpdt side by side, rpart beside.
##
## Rscript bench/regression_exhaustive.R
## DPDT_LIB_BEFORE, DPDT_LIB_AFTER: library folders each holding a build of
## dpdt (R CMD INSTALL -l DIR); without DPDT_LIB_BEFORE only one build
## (DPDT_LIB_AFTER, default: the installed one) is timed. DPDT_BENCH_REPS
## (5): runs of each build, alternating, each in a fresh R process; the
## CPU time of the fit alone, taken inside that process. The two builds'
## fronts and trees must be the same (a digest of each is compared).
## rpart: rpart(y ~ ., data) with its defaults (cp = 0.01, 10-fold
## cross-validation), for scale: it grows one greedy tree.
## DPDT_BENCH_OUT: output path without extension.

args <- commandArgs(FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
out <- bench_out(root, "regression_exhaustive")
reps <- as.integer(Sys.getenv("DPDT_BENCH_REPS", "5"))
builds <- bench_builds()
meta <- run_metadata(root)

cases <- list(
  boston150_d3 = "dpdt_fit(medv ~ ., MASS::Boston[1:150, ], max_depth = 3, candidates = 'exhaustive', threads = 1, max_work = Inf)",
  boston_d2 = "dpdt_fit(medv ~ ., MASS::Boston, max_depth = 2, candidates = 'exhaustive', threads = 1)",
  airquality_d3 = "dpdt_fit(Ozone ~ ., airquality, max_depth = 3, candidates = 'exhaustive', threads = 1)",
  mtcars_d4 = "dpdt_fit(mpg ~ ., mtcars, max_depth = 4, candidates = 'exhaustive', threads = 1, min_bucket = 3)")
rpart_data <- list(boston150_d3 = list(medv ~ ., MASS::Boston[1:150, ]),
                   boston_d2 = list(medv ~ ., MASS::Boston),
                   airquality_d3 = list(Ozone ~ ., airquality),
                   mtcars_d4 = list(mpg ~ ., mtcars))

## One fit in a fresh R process: its CPU seconds and a digest of the front
## and every tree.
one_fit <- function(lib, call) {
  code <- sprintf(paste0(
    "suppressMessages(library(dpdt%s)); t <- system.time(f <- suppressMessages(%s)); ",
    "trees <- lapply(seq_len(nrow(f$front)), function(i) capture.output(print(dpdt_tree(f, i)))); ",
    "cat(t[['user.self']] + t[['sys.self']], digest::digest(list(f$front, trees)), '\\n')"),
    if (nzchar(lib)) sprintf(", lib.loc = '%s'", lib) else "", call)
  res <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code)), stdout = TRUE)
  parts <- strsplit(trimws(tail(res, 1)), " ")[[1]]
  list(cpu = as.numeric(parts[1]), digest = parts[2])
}

rows <- list()
for (name in names(cases)) {
  times <- setNames(vector("list", length(builds$libs)), names(builds$libs))
  digests <- character(0)
  for (r in seq_len(reps)) for (b in names(builds$libs)) {
    f <- one_fit(builds$libs[[b]], cases[[name]])
    times[[b]] <- c(times[[b]], f$cpu)
    digests[b] <- f$digest
  }
  rp <- rpart_data[[name]]
  rpart_s <- median(vapply(seq_len(reps), function(i)
    cpu(rpart::rpart(rp[[1]], rp[[2]]))$cpu, 0))
  after <- median(times$after)
  before <- if (!is.null(times$before)) median(times$before) else NA
  ratio <- if (!is.null(times$before)) median(times$after / times$before) else NA
  rows[[name]] <- data.frame(case = name, before_s = before, after_s = after,
                             paired_ratio = ratio, rpart_s = rpart_s,
                             same_trees = length(unique(digests)) == 1, meta)
  cat(sprintf("%-14s before %s after %.3f ratio %s rpart %.3f same %s\n", name,
              fmt_t(before), after, fmt_a(ratio), rpart_s, rows[[name]]$same_trees))
}
res <- do.call(rbind, rows)
write.csv(res, paste0(out, ".csv"), row.names = FALSE)
tab <- data.frame(case = res$case, `before (s)` = fmt_t(res$before_s),
                  `after (s)` = fmt_t(res$after_s), `after / before (paired median)` =
                    fmt_a(res$paired_ratio), `rpart (s)` = fmt_t(res$rpart_s),
                  `same fronts and trees` = ifelse(res$same_trees, "yes", "NO"),
                  check.names = FALSE)
writeLines(c("# Regression trees tried exhaustively: two builds side by side, rpart beside", "",
             "Written by `bench/regression_exhaustive.R`. CPU seconds of the fit alone (median",
             sprintf("of %d runs per build, alternating, each in a fresh R process); the ratio is", reps),
             "the median of the runs' after / before. rpart: its defaults (one greedy tree, cp =",
             "0.01, 10-fold cross-validation), for scale only: it does not search every tree.",
             builds$label, "",
             sprintf("Run %s, commit %s, load %s, %s.", meta$run_date, meta$run_commit, meta$run_load,
                     meta$run_cpu), "", md_table(tab)),
           paste0(out, ".md"))
cat("written:", paste0(out, ".md"), paste0(out, ".csv"), "\n")
