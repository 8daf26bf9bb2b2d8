#!/usr/bin/env Rscript
## A forest pruned to a budget of splits (issue 22): a 500-tree ranger forest
## (seed 1, one thread) grown on two thirds of each Quant-BnB training set,
## pruned by dpdt_prune() on the other third (the pruning rows: a forest
## predicts its own training rows almost perfectly), each point of the
## heuristic front scored on the papers' test set. Reported: the whole
## forest (its splits, pruning-row and test accuracy); the point chosen on
## the pruning rows as the smallest one doing as well there as the whole
## forest, and the best point on the pruning rows within 1%, 5% and 10% of
## the whole forest's splits, each with its test accuracy and its gap to
## the proven lower bound; rpart (cp = 0, its own 10-fold one-SE choice,
## grown on the same two thirds) beside. CPU seconds: the forest, and
## dpdt_prune() (reading the forest included).
##   Rscript bench/prune_forest.R   (DPDT_BENCH_SETS, DPDT_DATA as elsewhere)
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
suppressPackageStartupMessages({
  library(dpdt)
  library(ranger)
  library(rpart)
})
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
out <- bench_out(root, "prune_forest")
sets <- if (length(env_list("DPDT_BENCH_SETS"))) bench_sets(data$paper$dataset) else
  c("bank", "bidding", "magic", "eeg")

forest_splits <- function(rf) {
  sum(vapply(seq_len(rf$num.trees), function(k) sum(!treeInfo(rf, k)$terminal), 0))
}

run_one <- function(name) {
  tr <- read_part(data$qdir, name, "train")
  te <- read_part(data$qdir, name, "test", levels(tr$y))
  set.seed(1)
  grow <- sample(nrow(tr), round(2 * nrow(tr) / 3))
  fr <- cpu(ranger(y ~ ., data = tr[grow, ], num.trees = 500, num.threads = 1, seed = 1))
  rf <- fr$value
  rows <- tr[-grow, ]
  pr <- cpu(dpdt_prune(rf, rows))
  p <- pr$value
  f <- p$front
  whole_splits <- forest_splits(rf)
  whole_test <- mean(predict(rf, te, num.threads = 1)$predictions == te$y)
  test <- function(j) mean(predict(p, te, model = j) == te$y)
  # the best point on the pruning rows keeping at most `share` of the splits
  within <- function(share) {
    j <- which(f$n_splits <= share * whole_splits)
    j[which.min(f$loss[j])]
  }
  as_good <- which(f$loss <= p$ensemble$whole_loss)[1]
  pick <- c(as_good = as_good, p1 = within(0.01), p5 = within(0.05), p10 = within(0.10))
  ctl <- rpart.control(cp = 0, xval = 10, minbucket = 5)
  set.seed(3)
  rt <- rpart(y ~ ., data = tr[grow, ], control = ctl)
  cpt <- rt$cptable
  b <- which.min(cpt[, "xerror"])
  r1 <- prune(rt, cp = cpt[which(cpt[, "xerror"] <= cpt[b, "xerror"] + cpt[b, "xstd"])[1], "CP"] *
                (1 + 1e-9))
  r <- list(set = name, n_grow = length(grow), n_prune = nrow(rows), n_test = nrow(te),
            whole_splits = whole_splits, whole_prune_acc = 1 - p$ensemble$whole_loss,
            whole_test_acc = whole_test, front_points = nrow(f),
            rpart_splits = sum(r1$frame$var != "<leaf>"),
            rpart_test_acc = mean(predict(r1, te, type = "class") == te$y),
            forest_s = fr$cpu, prune_s = pr$cpu, engine_s = p$seconds)
  for (nm in names(pick)) {
    j <- pick[[nm]]
    ok <- length(j) == 1 && !is.na(j)
    r[[paste0(nm, "_splits")]] <- if (ok) f$n_splits[j] else NA
    r[[paste0(nm, "_prune_acc")]] <- if (ok) 1 - f$loss[j] else NA
    r[[paste0(nm, "_test_acc")]] <- if (ok) test(j) else NA
    r[[paste0(nm, "_gap")]] <- if (ok) f$gap[j] else NA
  }
  as.data.frame(r)
}

pct <- function(x) ifelse(is.na(x), "–", sprintf("%.1f", 100 * x))

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  cell <- function(nm) sprintf("%s: %s / %s (gap %s)", fmt_r(res[[paste0(nm, "_splits")]]),
                               pct(res[[paste0(nm, "_prune_acc")]]),
                               pct(res[[paste0(nm, "_test_acc")]]), pct(res[[paste0(nm, "_gap")]]))
  tab <- data.frame(set = res$set,
                    rows = sprintf("%s / %s / %s", fmt_r(res$n_grow), fmt_r(res$n_prune),
                                   fmt_r(res$n_test)),
                    whole = sprintf("%s: %s / %s", fmt_r(res$whole_splits),
                                    pct(res$whole_prune_acc), pct(res$whole_test_acc)),
                    as_good = cell("as_good"), p1 = cell("p1"), p5 = cell("p5"), p10 = cell("p10"),
                    rpart = sprintf("%s: %s", fmt_r(res$rpart_splits), pct(res$rpart_test_acc)),
                    cpu = sprintf("%s / %s (%s)", fmt_t(res$forest_s), fmt_t(res$prune_s),
                                  fmt_t(res$engine_s)))
  names(tab) <- c("set", "rows: grow / prune / test", "whole forest: splits: prune / test acc %",
                  "smallest as good on the pruning rows", "best within 1% of the splits",
                  "within 5%", "within 10%", "rpart one-SE: splits: test acc %",
                  "CPU s: forest / dpdt_prune (engine)")
  lines <- c(
    "# A 500-tree forest pruned to a budget of splits", "",
    "Written by `bench/prune_forest.R`. ranger(num.trees = 500, seed = 1, one thread) on two",
    "thirds of each training set; dpdt_prune(forest, the other third) (the heuristic: its",
    "points are real pruned forests, each beside a proven lower bound of the least loss with",
    "as many splits, gap = loss - bound, in points of accuracy). Each cell: splits kept: accuracy",
    "on the pruning rows / on the papers' test set. Points are chosen on the pruning rows only:",
    "the smallest as accurate there as the whole forest, and the most accurate within 1%, 5%",
    "and 10% of the whole forest's splits. rpart: cp = 0, minbucket 5, its own 10-fold one-SE",
    "choice, grown on the same two thirds.", "",
    sprintf("Run %s, commit %s, load %s, %s.", res$run_date[1], res$run_commit[1],
            res$run_load[1], res$run_cpu[1]), "",
    md_table(tab))
  writeLines(lines, paste0(out, ".md"))
}

report_only(out, write_results)
run_sets("a 500-tree forest pruned", sets, run_one,
         function(g) sprintf("whole %.1f%%, as good: %s splits %.1f%%", 100 * g("whole_test_acc"),
                             g("as_good_splits"), 100 * g("as_good_test_acc")),
         write_results, out, run_metadata(root))
