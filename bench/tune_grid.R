#!/usr/bin/env Rscript
## Benchmark: tuning a decision tree with tune::tune_grid(), the "dpdt"
## parsnip engine with and without the submodel trick, and rpart's engine.
##
## For every data set (the training file of a Quant-BnB set), the same
## 5-fold resamples (seeded) and the same regular grid of tree_depth x
## cost_complexity are tuned by three paths, each in a workflow with
## y ~ . and the metrics accuracy and roc_auc:
## - dpdt, submodel: decision_tree(engine = "dpdt") with cost_complexity
##   registered as a submodel parameter (the engine as shipped): tune_grid()
##   fits one front per fold and depth, and scores every penalty of the grid
##   from it with multi_predict();
## - dpdt, refit: the same engine, grid and folds, with the submodel flag
##   of cost_complexity switched off in parsnip's registry for the run, so
##   that tune_grid() fits once per grid point and fold, as for any engine
##   without the trick;
## - rpart: decision_tree(engine = "rpart") (which has no submodel
##   parameter), same grid and folds, rpart's other defaults.
## dpdt runs with threads = 1 and its engine defaults (cart_depth 5,
## complexity "splits"); min_n is not tuned.
## Recorded per data set and path: CPU time (user + system of this R
## process) of the whole tune_grid() call, minimum and median over
## DPDT_BENCH_RUNS runs (default 3), elapsed median; the number of model
## fits per call and the CPU time inside them (dpdt_parsnip_fit(), the
## search, and rpart::rpart() traced; last run); the rest is tune's work
## per candidate (predictions, metrics, bookkeeping); the best mean
## CV accuracy and its grid point; whether the submodel path's metrics
## (every resample, every grid point) are exactly the refit path's.
##
## Run from the repository root once dpdt and the tidymodels packages are
## installed:
##   Rscript bench/tune_grid.R
## Environment variables:
##   DPDT_DATA        directory holding quantbnb/ (default ../shared/data)
##   DPDT_BENCH_SETS  data sets to run (default "raisin,bank,rice")
##   DPDT_BENCH_RUNS  runs per path (default 3)
##   DPDT_BENCH_DEPTHS tree_depth values (default "2,3,4")
##   DPDT_BENCH_NOTE  a line of text added to the report's header
##   DPDT_BENCH_REPORT_ONLY=1  only rewrite the .md from an existing .csv
##   DPDT_BENCH_OUT   output path without extension (default
##                    bench/results/tune_grid)
## The data files are read in place; they are never copied into the repository.

suppressPackageStartupMessages({
  library(dpdt)
  library(parsnip)
  library(tune)
  library(workflows)
  library(yardstick)
  library(rsample)
})

script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
out <- bench_out(root, "tune_grid")

runs <- as.integer(Sys.getenv("DPDT_BENCH_RUNS", "3"))
depths <- as.integer(env_list("DPDT_BENCH_DEPTHS"))
if (!length(depths)) depths <- 2:4
cps <- signif(10^seq(-4, -1, length.out = 8), 3)
grid <- expand.grid(tree_depth = depths, cost_complexity = cps)
v <- 5L

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  sub <- res[res$path == "dpdt, submodel", ]
  ratio <- function(path, col = "cpu_min") {
    o <- res[res$path == path, ]
    o[[col]][match(sub$data, o$data)] / sub[[col]]
  }
  summary <- data.frame(
    data = sub$data, rows = sub$rows,
    `submodel (s)` = fmt_t(sub$cpu_min),
    `refit (s)` = fmt_t(res$cpu_min[res$path == "dpdt, refit"][
      match(sub$data, res$data[res$path == "dpdt, refit"])]),
    `rpart (s)` = fmt_t(res$cpu_min[res$path == "rpart"][
      match(sub$data, res$data[res$path == "rpart"])]),
    `refit / submodel` = fmt_a(ratio("dpdt, refit"), 1),
    `rpart / submodel` = fmt_a(ratio("rpart"), 2),
    check.names = FALSE)
  detail <- data.frame(
    data = res$data, path = res$path, `model fits` = res$n_fits,
    `CPU in fits (s)` = fmt_t(res$fit_cpu),
    `CPU min (s)` = fmt_t(res$cpu_min), `CPU median (s)` = fmt_t(res$cpu_median),
    `elapsed median (s)` = fmt_t(res$elapsed_median),
    `best CV accuracy` = fmt_a(res$best_accuracy, 4),
    `at depth, cp` = paste0(res$best_depth, ", ", res$best_cp),
    `metrics = refit's` = ifelse(is.na(res$same_metrics_as_refit), "–",
                                 ifelse(res$same_metrics_as_refit, "yes", "NO")),
    check.names = FALSE)
  m <- res[1, ]
  note <- Sys.getenv("DPDT_BENCH_NOTE")
  lines <- c(
    "# Tuning a decision tree with tune_grid(): dpdt's submodel path vs one fit per penalty vs rpart",
    "",
    "Produced by `Rscript bench/tune_grid.R`; raw numbers in `tune_grid.csv`.",
    "",
    sprintf("- date: %s; dpdt %s (repository at commit %s); %s; parsnip %s, tune %s, rpart %s",
            m$run_date, m$dpdt, m$run_commit, m$r_version, m$parsnip, m$tune,
            m$rpart),
    sprintf("- machine: %s; load average at start: %s", m$run_cpu, m$run_load),
    sprintf(paste0("- protocol: %d-fold CV (seeded, the same folds for every path) of the ",
                   "training file of each Quant-BnB set; regular grid tree_depth %s x ",
                   "cost_complexity %s (%d points); workflow `y ~ .`, metrics accuracy ",
                   "and roc_auc; `tune_grid()` run sequentially."),
            v, paste(depths, collapse = "/"), paste(cps, collapse = ", "),
            nrow(grid)),
    paste0("- paths: *submodel*: `decision_tree(engine = \"dpdt\")` as shipped ",
           "(`cost_complexity` is a submodel parameter: one search per fold and ",
           "depth, every penalty scored by `multi_predict()`); *refit*: the same ",
           "engine with the submodel flag switched off for the run (one search ",
           "per grid point and fold); *rpart*: `decision_tree(engine = \"rpart\")` ",
           "(no submodel parameter), rpart's other defaults. dpdt with ",
           "`threads = 1`, `cart_depth = 5`, `complexity = \"splits\"`."),
    sprintf(paste0("- times: CPU seconds (user + system of the R process) of the whole ",
                   "`tune_grid()` call, minimum (and median) of %d runs; the machine ",
                   "is shared, so the minimum is the figure to compare."), m$runs),
    paste0("- *model fits*, *CPU in fits*: fits run by one `tune_grid()` call and the ",
           "CPU time inside them (dpdt's fitting function, i.e. the search, and ",
           "`rpart::rpart()`, traced; last run). The rest of the time is tune's ",
           "work per fit and per candidate: predictions, metrics, bookkeeping."),
    if (nzchar(note)) paste("- note:", note),
    "",
    "## CPU time of tune_grid() (minimum of the runs)",
    "",
    md_table(summary),
    "",
    "## Details",
    "",
    md_table(detail),
    "",
    paste0("*metrics = refit's*: every resample's accuracy and roc_auc at every ",
           "grid point of the submodel path are identical to those of the refit ",
           "path (compared exactly in this run; the package's tests check it too): ",
           "the two paths score the same trees and differ only in how many ",
           "searches they run.")
  )
  writeLines(lines, paste0(out, ".md"))
}
report_only(out, write_results)

# tune_grid() without the submodel trick: parsnip's registry says
# cost_complexity is not a submodel parameter of the dpdt engine.
set_submodel <- function(flag) {
  a <- parsnip::get_from_env("decision_tree_args")
  a$has_submodel[a$engine == "dpdt" & a$parsnip == "cost_complexity"] <- flag
  parsnip::set_env_val("decision_tree_args", a)
}

# Count the model fits of a tune_grid() call and the CPU time spent in
# them: dpdt's fitting function (the search) and rpart::rpart(), traced.
n_fits <- new.env()
cpu_now <- function() sum(proc.time()[c("user.self", "sys.self")])
count_fits <- function(fun, ns) {
  invisible(suppressMessages(trace(
    fun, where = asNamespace(ns), print = FALSE,
    tracer = quote({ n_fits$n <- n_fits$n + 1; n_fits$t0 <- cpu_now() }),
    exit = quote(n_fits$cpu <- n_fits$cpu + cpu_now() - n_fits$t0))))
}
count_fits("dpdt_parsnip_fit", "dpdt")
count_fits("rpart", "rpart")

workflow_for <- function(engine) {
  spec <- decision_tree(mode = "classification", tree_depth = tune(),
                        cost_complexity = tune())
  spec <- if (engine == "dpdt") set_engine(spec, "dpdt", threads = 1)
          else set_engine(spec, engine)
  add_model(add_formula(workflow(), y ~ .), spec)
}

run_path <- function(path, train, folds) {
  engine <- if (path == "rpart") "rpart" else "dpdt"
  set_submodel(path != "dpdt, refit")
  on.exit(set_submodel(TRUE))
  wf <- workflow_for(engine)
  metrics <- metric_set(accuracy, roc_auc)
  cpu <- elapsed <- numeric(runs)
  for (r in seq_len(runs)) {
    n_fits$n <- 0
    n_fits$cpu <- 0
    gc(FALSE)
    t0 <- proc.time()
    res <- tune_grid(wf, resamples = folds, grid = grid, metrics = metrics)
    t1 <- proc.time() - t0
    cpu[r] <- t1[["user.self"]] + t1[["sys.self"]]
    elapsed[r] <- t1[["elapsed"]]
  }
  best <- show_best(res, metric = "accuracy", n = 1)
  out <- data.frame(path = path,
                    n_fits = n_fits$n, fit_cpu = n_fits$cpu,
                    cpu_min = min(cpu),
                    cpu_median = stats::median(cpu),
                    elapsed_median = stats::median(elapsed), runs = runs,
                    best_accuracy = best$mean, best_depth = best$tree_depth,
                    best_cp = best$cost_complexity)
  m <- as.data.frame(collect_metrics(res, summarize = FALSE))
  attr(out, "metrics") <- m[order(m$id, m$tree_depth, m$cost_complexity,
                                  m$.metric), c("id", "tree_depth",
                                                "cost_complexity", ".metric",
                                                ".estimate")]
  out
}

run_one <- function(s) {
  train <- read_part(data$qdir, s, "train")
  set.seed(2024)
  folds <- vfold_cv(train, v = v)
  rows <- NULL
  metrics <- list()
  for (path in c("dpdt, submodel", "dpdt, refit", "rpart")) {
    r <- run_path(path, train, folds)
    cat(sprintf("%s %.2f s (%d fits); ", path, r$cpu_min, r$n_fits))
    flush.console()
    metrics[[path]] <- attr(r, "metrics")
    rows <- rbind(rows, r)
  }
  # the submodel and refit paths must score the same trees: every
  # resample's metric at every grid point, compared
  same <- identical(dim(metrics[[1]]), dim(metrics[[2]])) &&
    isTRUE(all.equal(metrics[[1]], metrics[[2]], check.attributes = FALSE,
                     tolerance = 0))
  rows$same_metrics_as_refit <- ifelse(rows$path == "rpart", NA, same)
  data.frame(data = s, rows = nrow(train), rows,
             dpdt = as.character(utils::packageVersion("dpdt")),
             parsnip = as.character(utils::packageVersion("parsnip")),
             tune = as.character(utils::packageVersion("tune")),
             rpart = as.character(utils::packageVersion("rpart")),
             r_version = R.version.string)
}

data <- bench_data(root, "paper_table1_depth3.csv")
sets <- env_list("DPDT_BENCH_SETS")
if (!length(sets)) sets <- c("raisin", "bank", "rice")
meta <- run_metadata(root)
res <- NULL
cat(sprintf("tune_grid: %d data set(s), %d runs per path\n", length(sets), runs))
for (s in sets) {
  cat(sprintf("%-8s ", s)); flush.console()
  r <- run_one(s)
  cat("\n")
  for (nm in names(meta)) r[[nm]] <- meta[[nm]]
  res <- rbind_fill(res, r)
  write_results(res)
}
cat("written:", paste0(out, c(".md", ".csv")), "\n")
