#!/usr/bin/env Rscript
## Exhaustive search on data with missing values (issue 20): before this
## change a state holding a missing value was searched without bounds (a
## threshold restricted to a subset of its rows can become "missing vs the
## rest", which is no candidate, so the subset bound fails there). Now the
## superset bound holds in such states, a feature's cuts are two runs (one
## for each side of its missing values), the subset bound comes from each
## last-level side's least loss with "missing vs the rest" allowed, and the
## last level scans a feature with missing values from class counts.
## For each set, DPDT_MV_MISSING (30) rows of its first feature are set
## missing (set.seed(1)), then dpdt_fit(y ~ ., max_depth = DPDT_MV_DEPTH (3),
## candidates = "exhaustive", complexity = "splits", threads = 1,
## max_work = Inf) runs on the new build and, when DPDT_MV_OLD names a
## library holding the old build, on the old one (front and trees compared
## with identical()); the new build also runs on the complete data, for
## scale. CPU seconds (user + system) of the call in a fresh R session
## each (callr); a run longer than DPDT_MV_TIMEOUT seconds (600) is stopped.
## rpart beside: its tree of the same depth pruned at the cp of least
## cross-validated error, on the same data with missing values.
## DPDT_MV_OLD_LABEL names the old build (e.g. its commit). DPDT_DATA: the
## folder holding quantbnb/; DPDT_BENCH_SETS (default bank, raisin, wilt) /
## DPDT_BENCH_SKIP choose sets; DPDT_BENCH_REPORT_ONLY re-renders the table
## from the CSV.
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
old_lib <- Sys.getenv("DPDT_MV_OLD")
depth <- as.integer(Sys.getenv("DPDT_MV_DEPTH", "3"))
n_missing <- as.integer(Sys.getenv("DPDT_MV_MISSING", "30"))
timeout <- as.numeric(Sys.getenv("DPDT_MV_TIMEOUT", "600"))
out <- bench_out(root, "missing_values_exhaustive")
if (!length(env_list("DPDT_BENCH_SETS"))) Sys.setenv(DPDT_BENCH_SETS = "bank,raisin,wilt")
sets <- bench_sets(data$paper$dataset)

## The set with n_missing rows of its first feature missing.
with_missing <- function(d) {
  set.seed(1)
  d[sample(nrow(d), n_missing), 1] <- NA
  d
}

## One fit in a fresh session: CPU seconds, the fit's front and trees
## (NULL when it failed or ran beyond the timeout).
fit_once <- function(lib, d) {
  libpath <- if (nzchar(lib)) c(lib, .libPaths()) else .libPaths()
  tryCatch(callr::r(function(d, depth) {
    t <- system.time(f <- dpdt::dpdt_fit(y ~ ., data = d, max_depth = depth,
                                         candidates = "exhaustive", complexity = "splits",
                                         threads = 1, max_work = Inf, progress = FALSE))
    list(time = t[["user.self"]] + t[["sys.self"]], fit = list(front = f$front[setdiff(names(f$front), "n_states")],
                                                              trees = f$trees))
  }, list(d = d, depth = depth), libpath = libpath, timeout = timeout),
  error = function(e) list(time = NA_real_, fit = NULL))
}

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  beyond <- paste0("> ", fmt_r(timeout))
  tab <- data.frame(
    set = res$set, n = fmt_r(res$n), missing = res$missing,
    old = ifelse(is.na(res$old_s), ifelse(res$old_tried, beyond, "–"), fmt_t(res$old_s)),
    new = ifelse(is.na(res$new_s), beyond, fmt_t(res$new_s)),
    old_over_new = ifelse(is.na(res$old_s) & res$old_tried,
                          paste0("> ", fmt_a(timeout / res$new_s, 0)), fmt_a(res$old_s / res$new_s, 1)),
    complete = fmt_t(res$complete_s), new_over_complete = fmt_a(res$new_s / res$complete_s, 1),
    points = res$points,
    identical = ifelse(is.na(res$identical), "–", ifelse(res$identical, "yes", "NO")),
    rpart = fmt_t(res$rpart_s))
  names(tab) <- c("set", "n", "missing values", "old (s)", "new (s)", "old / new",
                  "new, complete data (s)", "new / complete", "front points", "identical",
                  "rpart (s)")
  lines <- c(
    sprintf("# Exhaustive depth %d on data with missing values: the bounds in states that hold them",
            res$depth[1]), "",
    "Written by `bench/missing_values_exhaustive.R`. Each Quant-BnB training set with",
    sprintf("%d rows of its first feature set missing (set.seed(1)); dpdt_fit(y ~ ., max_depth = %d,",
            res$missing[1], res$depth[1]),
    "candidates = \"exhaustive\", complexity = \"splits\", threads = 1, max_work = Inf),",
    "each fit in a fresh R session; CPU seconds (user + system) of the call, one run;",
    sprintf("a run beyond %s s was stopped. old: the build that searched every state holding", fmt_r(timeout)),
    "a missing value without bounds; identical: the new build's front and trees are",
    "identical() to the old build's. complete: the new build on the same set without",
    "missing values (another front), for scale. rpart: its greedy tree of the same depth",
    "pruned at the cp of least cross-validated error (its defaults otherwise), on the",
    "data with missing values, in this session, for scale (not an optimum).", "",
    sprintf("Run %s, commit %s, load %s, %s. Old build: %s.", res$run_date[1], res$run_commit[1],
            res$run_load[1], res$run_cpu[1], res$old_build[1]), "",
    md_table(tab))
  writeLines(lines, paste0(out, ".md"))
}
report_only(out, write_results)

meta <- run_metadata(root)
res <- NULL
for (s in sets) {
  complete <- read_part(data$qdir, s)
  d <- with_missing(complete)
  new <- fit_once("", d)
  full <- fit_once("", complete)
  old <- if (nzchar(old_lib)) fit_once(old_lib, d) else list(time = NA_real_, fit = NULL)
  rp <- cpu({
    set.seed(1)
    r <- rpart::rpart(y ~ ., d, control = rpart::rpart.control(maxdepth = depth, cp = 0))
    rpart::prune(r, cp = r$cptable[which.min(r$cptable[, "xerror"]), "CP"])
  })
  row <- data.frame(set = s, n = nrow(d), depth = depth, missing = n_missing,
                    old_s = old$time, new_s = new$time, complete_s = full$time,
                    points = if (is.null(new$fit)) NA else nrow(new$fit$front),
                    identical = if (is.null(old$fit) || is.null(new$fit)) NA else
                      identical(old$fit, new$fit),
                    rpart_s = rp$cpu, old_tried = nzchar(old_lib),
                    old_build = Sys.getenv("DPDT_MV_OLD_LABEL", "not run"))
  res <- rbind(res, cbind(row, meta))
  cat(sprintf("%-10s old %s new %s (complete: %s) identical %s\n", s, fmt_t(old$time),
              fmt_t(new$time), fmt_t(full$time), row$identical))
  write_results(res)
}
