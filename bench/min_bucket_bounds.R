#!/usr/bin/env Rscript
## Exhaustive search with min_bucket > 1 (issue 20): before this change a
## search that tries every split used its bounds with min_bucket = 1 only;
## now the superset bound (MurTree's similarity bound) holds for any
## min_bucket and the depth-two solver keeps min_bucket rows on each side.
## For each set: dpdt_fit(y ~ ., max_depth = DPDT_MB_DEPTH (3),
## candidates = "exhaustive", complexity = "splits", threads = 1,
## max_work = Inf) with min_bucket = DPDT_MB (5) on the new build and, when
## DPDT_MB_OLD names a library holding the old build, on the old one (its
## front and trees compared with identical()), and with min_bucket = 1 on
## the new build (what the bounds give when both hold). CPU seconds of the
## call in a fresh R session each (callr), minimum of DPDT_MB_REPS (1)
## runs; a run longer than DPDT_MB_TIMEOUT seconds (1800) is stopped.
## DPDT_MB_OLD_LABEL names the old build in the table (e.g. its commit);
## DPDT_MB_OLD_WHAT says what it lacks (default: the bounds for min_bucket > 1).
## DPDT_MB_KIND: "counts" (default: unit weights), "weights" (case weights
## that balance the classes, n / (K n_k): no longer whole counts) or
## "loss_matrix" (misclassifying class k costs 1 + (k mod 3)); rpart's tree gets
## the same weights or loss matrix.
## DPDT_DATA: the folder holding quantbnb/; DPDT_BENCH_SETS (default bank,
## raisin, bidding) / DPDT_BENCH_SKIP choose sets; DPDT_BENCH_REPORT_ONLY
## re-renders the table from the CSV.
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
old_lib <- Sys.getenv("DPDT_MB_OLD")
depth <- as.integer(Sys.getenv("DPDT_MB_DEPTH", "3"))
mb <- as.integer(Sys.getenv("DPDT_MB", "5"))
reps <- as.integer(Sys.getenv("DPDT_MB_REPS", "1"))
timeout <- as.numeric(Sys.getenv("DPDT_MB_TIMEOUT", "1800"))
kind <- match.arg(Sys.getenv("DPDT_MB_KIND", "counts"), c("counts", "weights", "loss_matrix"))

## The case weights and loss matrix of `kind` for the classes `y` (with
## `kind` an argument: callr runs them in a session without this one's).
balanced_weights <- function(y, kind) {
  if (kind != "weights") return(NULL)
  as.numeric(length(y) / (nlevels(y) * table(y)[as.integer(y)]))
}
costs_of <- function(y, kind) {
  if (kind != "loss_matrix") return(NULL)
  k <- nlevels(y)
  m <- matrix(rep(1 + (seq_len(k) - 1) %% 3, k), k, k)  # row: the true class
  diag(m) <- 0
  m
}
out <- bench_out(root, "min_bucket_bounds")
if (!length(env_list("DPDT_BENCH_SETS"))) Sys.setenv(DPDT_BENCH_SETS = "bank,raisin,bidding")
sets <- bench_sets(data$paper$dataset)

## One fit in a fresh session: CPU seconds, the fit's front and trees.
fit_once <- function(lib, file, min_bucket) {
  libpath <- if (nzchar(lib)) c(lib, .libPaths()) else .libPaths()
  r <- tryCatch(callr::r(function(file, depth, min_bucket, kind, weigh, costs) {
    d <- utils::read.csv(file)
    d$y <- factor(d$y)
    w <- weigh(d$y, kind)
    t <- system.time(f <- dpdt::dpdt_fit(y ~ ., data = d, weights = w, max_depth = depth,
                                         candidates = "exhaustive", complexity = "splits",
                                         min_bucket = min_bucket, threads = 1,
                                         loss_matrix = costs(d$y, kind),
                                         max_work = Inf, progress = FALSE))
    list(time = t[["user.self"]] + t[["sys.self"]], fit = list(front = f$front, trees = f$trees),
         version = as.character(utils::packageVersion("dpdt")))
  }, list(file = file, depth = depth, min_bucket = min_bucket, kind = kind, weigh = balanced_weights,
          costs = costs_of), libpath = libpath,
  timeout = timeout), error = function(e) NULL)
  r
}

best <- function(lib, file, min_bucket) {
  runs <- lapply(seq_len(reps), function(i) fit_once(lib, file, min_bucket))
  ok <- Filter(Negate(is.null), runs)
  if (!length(ok)) return(list(time = NA_real_, fit = NULL))
  ok[[which.min(vapply(ok, function(r) r$time, 0))]]
}

## The title's words and the line of the text for the records' kind (records
## from before DPDT_MB_KIND have none: unit weights).
kind_text <- function(res) {
  k <- if (is.null(res$kind)) "counts" else res$kind[1]
  switch(k,
         counts = list(title = "", line = NULL),
         weights = list(title = " (class-balancing case weights)",
                        line = paste("Case weights n / (K n_k) balance the classes",
                                     "(dpdt's `weights`, rpart's too).")),
         loss_matrix = list(title = " (a loss matrix)",
                            line = paste("A loss matrix: misclassifying class k (in level order)",
                                         "costs 1 + ((k - 1) mod 3) (dpdt's `loss_matrix`,",
                                         "rpart's `parms$loss`).")))
}

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  tab <- data.frame(
    set = res$set, n = fmt_r(res$n),
    old_mb = ifelse(is.na(res$old_s), ifelse(res$old_tried, paste0("> ", fmt_r(timeout)), "–"),
                    fmt_t(res$old_s)),
    new_mb = fmt_t(res$new_s),
    old_over_new = ifelse(is.na(res$old_s) & res$old_tried,
                          paste0("> ", fmt_a(timeout / res$new_s, 1)), fmt_a(res$old_s / res$new_s, 1)),
    new_mb1 = fmt_t(res$mb1_s), mb_over_mb1 = fmt_a(res$new_s / res$mb1_s, 1),
    points = res$points, identical = ifelse(is.na(res$identical), "–",
                                            ifelse(res$identical, "yes", "NO")),
    rpart_s = if (is.null(res$rpart_s)) NA else fmt_t(res$rpart_s))
  names(tab)[10] <- "rpart (s)"
  names(tab)[3:6] <- c(sprintf("old, min_bucket %d (s)", mb[1]), sprintf("new, min_bucket %d (s)", mb[1]),
                       "old / new", "new, min_bucket 1 (s)")
  names(tab)[7] <- sprintf("min_bucket %d / 1", mb[1])
  lines <- c(
    sprintf("# Exhaustive depth %d with min_bucket %d: the bounds that hold for it%s", res$depth[1],
            res$min_bucket[1], kind_text(res)$title), "",
    "Written by `bench/min_bucket_bounds.R`. dpdt_fit(y ~ ., max_depth = depth,",
    "candidates = \"exhaustive\", complexity = \"splits\", threads = 1, max_work = Inf)",
    "on each Quant-BnB training set, each fit in a fresh R session; CPU seconds",
    sprintf("(user + system) of the call, minimum of %d run(s). old: the build before", res$reps[1]),
    "the superset bound, the relaxed interval bound (min_bucket 1 best one level",
    "above the leaves) and the depth-two solver served min_bucket > 1 (every",
    "split solved; DPDT_MB_OLD_WHAT, when set, says what the old build lacks instead);",
    if (nzchar(Sys.getenv("DPDT_MB_OLD_WHAT"))) paste0("this run: ", Sys.getenv("DPDT_MB_OLD_WHAT"), ";") else NULL,
    "identical: the new build's front and trees are identical()",
    "to the old build's (same min_bucket). The last columns: the new build with",
    "min_bucket = 1, where both bounds hold (another front). rpart: its greedy",
    "tree of the same depth pruned at the cp of least cross-validated error",
    "(its defaults otherwise), in this session, for scale (not an optimum).",
    kind_text(res)$line, "",
    sprintf("Run %s, commit %s, load %s, %s. Old build: %s.", res$run_date[1], res$run_commit[1],
            res$run_load[1], res$run_cpu[1], res$old_build[1]), "",
    md_table(tab))
  writeLines(lines, paste0(out, ".md"))
}
report_only(out, write_results)

meta <- run_metadata(root)
res <- NULL
for (s in sets) {
  file <- file.path(data$qdir, paste0(s, "_train.csv.gz"))
  d <- read_part(data$qdir, s)
  new <- best("", file, mb)
  one <- best("", file, 1L)
  old <- if (nzchar(old_lib)) best(old_lib, file, mb) else list(time = NA_real_, fit = NULL)
  rp <- cpu({
    set.seed(1)
    d$.w <- if (kind == "weights") balanced_weights(d$y, kind) else 1
    r <- if (kind == "loss_matrix")
      rpart::rpart(y ~ . - .w, d, parms = list(loss = costs_of(d$y, kind)),
                   control = rpart::rpart.control(maxdepth = depth, cp = 0))
    else rpart::rpart(y ~ . - .w, d, weights = .w,
                      control = rpart::rpart.control(maxdepth = depth, cp = 0))
    rpart::prune(r, cp = r$cptable[which.min(r$cptable[, "xerror"]), "CP"])
  })
  row <- data.frame(set = s, n = nrow(d), depth = depth, min_bucket = mb, reps = reps, kind = kind,
                    old_s = old$time, new_s = new$time, mb1_s = one$time,
                    points = if (is.null(new$fit)) NA else nrow(new$fit$front),
                    identical = if (is.null(old$fit) || is.null(new$fit)) NA else
                      identical(old$fit, new$fit),
                    rpart_s = rp$cpu, old_tried = nzchar(old_lib),
                    old_build = Sys.getenv("DPDT_MB_OLD_LABEL", "not run"))
  res <- rbind(res, cbind(row, meta))
  cat(sprintf("%-10s old %s new %s (min_bucket 1: %s) identical %s\n", s, fmt_t(old$time),
              fmt_t(new$time), fmt_t(one$time), row$identical))
  write_results(res)
}
