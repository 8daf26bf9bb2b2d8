#!/usr/bin/env Rscript
## From a forest to one tree (issue 22): a 500-tree ranger forest on the
## Quant-BnB training sets, its out-of-bag classes distilled into dpdt's
## front of depth-4 trees (complexity "splits", dpdt_distill()'s defaults
## otherwise), beside rpart fitted to the true labels and to the forest's
## labels (grown with cp = 0, maxdepth 4, 10-fold xval), each scored on the
## papers' test set: fidelity (agreement with the forest's test classes) and
## accuracy, at every number of splits 1..15 that each front has, and at each
## method's own cross-validated choice (dpdt_cv's one-SE tree, 10 folds;
## rpart's one-SE cp from its xerror). The forest itself is scored beside.
## Times are CPU seconds (user + system) of the fits; the forest uses
## DPDT_DISTILL_THREADS threads (default 2), dpdt one.
##   Rscript bench/distill.R        (DPDT_BENCH_SETS, DPDT_DATA as elsewhere)
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
out <- bench_out(root, "distill")
meta <- run_metadata(root)
forest_threads <- as.integer(Sys.getenv("DPDT_DISTILL_THREADS", "2"))
sets <- if (length(env_list("DPDT_BENCH_SETS"))) bench_sets(data$paper$dataset) else
  c("bank", "bidding", "magic", "eeg")

## rpart's largest subtree of its pruning sequence with at most k splits.
rpart_with_splits <- function(tree, k) {
  cpt <- tree$cptable
  i <- max(which(cpt[, "nsplit"] <= k))
  prune(tree, cp = cpt[i, "CP"] * (1 + 1e-9))
}

## rpart's one-SE choice from its own cross-validation.
rpart_one_se <- function(tree) {
  cpt <- tree$cptable
  best <- which.min(cpt[, "xerror"])
  i <- which(cpt[, "xerror"] <= cpt[best, "xerror"] + cpt[best, "xstd"])[1]
  prune(tree, cp = cpt[i, "CP"] * (1 + 1e-9))
}

n_splits_rpart <- function(tree) sum(tree$frame$var != "<leaf>")

run_set <- function(name) {
  tr <- read_part(data$qdir, name, "train")
  te <- read_part(data$qdir, name, "test", levels(tr$y))
  set.seed(1)
  fr <- cpu(ranger(y ~ ., data = tr, num.trees = 500, num.threads = forest_threads,
                   seed = 1))
  forest <- fr$value
  forest_test <- predict(forest, te, num.threads = forest_threads)$predictions
  oob <- forest$predictions
  # the trees are fitted to the forest's out-of-bag classes
  dr <- cpu(dpdt_distill(forest, tr, newdata = te, predictions = oob, max_depth = 4,
                         complexity = "splits", threads = 1, progress = FALSE))
  dfit <- dr$value
  set.seed(2)
  cvr <- cpu(dpdt_cv(dfit, folds = 10))
  pick <- cvr$value$model_1se
  ctl <- rpart.control(cp = 0, maxdepth = 4, xval = 10, minbucket = 5)
  set.seed(3)
  rt <- cpu(rpart(y ~ ., data = tr, control = ctl, method = "class"))
  tf <- tr
  tf$y <- oob
  set.seed(3)
  rf_lab <- cpu(rpart(y ~ ., data = tf, control = ctl, method = "class"))
  score <- function(p) c(fidelity = mean(p == forest_test), accuracy = mean(p == te$y))
  rows <- lapply(1:15, function(k) {
    # the front's most faithful tree (on the training rows) of at most k splits
    j <- which(dfit$front$n_splits <= k)
    j <- j[which.max(dfit$front$fidelity[j])]
    d <- dfit$front[j, c("test_fidelity", "test_accuracy")]
    r1 <- rpart_with_splits(rt$value, k)
    r2 <- rpart_with_splits(rf_lab$value, k)
    s1 <- score(predict(r1, te, type = "class"))
    s2 <- score(predict(r2, te, type = "class"))
    data.frame(set = name, splits = k, dpdt_splits = dfit$front$n_splits[j],
               rpart_labels_splits = n_splits_rpart(r1), rpart_forest_splits = n_splits_rpart(r2),
               dpdt_fidelity = d[[1]], dpdt_accuracy = d[[2]],
               rpart_labels_fidelity = s1[[1]], rpart_labels_accuracy = s1[[2]],
               rpart_forest_fidelity = s2[[1]], rpart_forest_accuracy = s2[[2]])
  })
  r1 <- rpart_one_se(rt$value)
  r2 <- rpart_one_se(rf_lab$value)
  s1 <- score(predict(r1, te, type = "class"))
  s2 <- score(predict(r2, te, type = "class"))
  chosen <- data.frame(
    set = name, n_train = nrow(tr), n_test = nrow(te),
    forest_accuracy = mean(forest_test == te$y), forest_oob_accuracy = mean(oob == tr$y),
    dpdt_cv_splits = dfit$front$n_splits[pick],
    dpdt_cv_fidelity = dfit$front$test_fidelity[pick],
    dpdt_cv_accuracy = dfit$front$test_accuracy[pick],
    rpart_labels_cv_splits = n_splits_rpart(r1), rpart_labels_cv_fidelity = s1[[1]],
    rpart_labels_cv_accuracy = s1[[2]],
    rpart_forest_cv_splits = n_splits_rpart(r2), rpart_forest_cv_fidelity = s2[[1]],
    rpart_forest_cv_accuracy = s2[[2]],
    forest_s = fr$cpu, distill_s = dr$cpu, distill_cv_s = cvr$cpu,
    rpart_labels_s = rt$cpu, rpart_forest_s = rf_lab$cpu)
  list(by_splits = do.call(rbind, rows), chosen = chosen)
}

pct <- function(x) ifelse(is.na(x), "–", sprintf("%.1f", 100 * x))

results <- lapply(sets, function(s) {
  cat(s, "...\n")
  r <- run_set(s)
  cat(sprintf("%-10s forest %.1f%%  dpdt cv %d splits %.1f%% (fidelity %.1f%%)  rpart cv %d splits %.1f%%\n",
              s, 100 * r$chosen$forest_accuracy, r$chosen$dpdt_cv_splits,
              100 * r$chosen$dpdt_cv_accuracy, 100 * r$chosen$dpdt_cv_fidelity,
              r$chosen$rpart_labels_cv_splits, 100 * r$chosen$rpart_labels_cv_accuracy))
  r
})
by_splits <- do.call(rbind, lapply(results, `[[`, "by_splits"))
chosen <- do.call(rbind, lapply(results, `[[`, "chosen"))
for (nm in names(meta)) chosen[[nm]] <- meta[[nm]]
write.csv(by_splits, paste0(out, "_by_splits.csv"), row.names = FALSE)
write.csv(chosen, paste0(out, ".csv"), row.names = FALSE)

tab_chosen <- data.frame(
  set = chosen$set, n = fmt_r(chosen$n_train),
  forest = pct(chosen$forest_accuracy),
  dpdt = sprintf("%d: %s / %s", chosen$dpdt_cv_splits, pct(chosen$dpdt_cv_accuracy),
                 pct(chosen$dpdt_cv_fidelity)),
  rpart_labels = sprintf("%d: %s / %s", chosen$rpart_labels_cv_splits,
                         pct(chosen$rpart_labels_cv_accuracy), pct(chosen$rpart_labels_cv_fidelity)),
  rpart_forest = sprintf("%d: %s / %s", chosen$rpart_forest_cv_splits,
                         pct(chosen$rpart_forest_cv_accuracy), pct(chosen$rpart_forest_cv_fidelity)),
  seconds = sprintf("%s / %s (+%s CV) / %s / %s", fmt_t(chosen$forest_s), fmt_t(chosen$distill_s),
                    fmt_t(chosen$distill_cv_s), fmt_t(chosen$rpart_labels_s),
                    fmt_t(chosen$rpart_forest_s)))
names(tab_chosen) <- c("set", "n train", "forest test acc %",
                       "dpdt distilled, CV choice: splits: acc / fid %",
                       "rpart on labels, CV choice", "rpart on forest labels, CV choice",
                       "CPU s: forest / distil (+ its CV) / rpart labels / rpart forest")
b <- by_splits[by_splits$splits %in% c(1, 2, 3, 4, 5, 7, 10, 15), ]
tab_k <- data.frame(
  set = b$set, splits = b$splits,
  dpdt = paste(pct(b$dpdt_accuracy), "/", pct(b$dpdt_fidelity)),
  rpart_labels = paste(pct(b$rpart_labels_accuracy), "/", pct(b$rpart_labels_fidelity)),
  rpart_forest = paste(pct(b$rpart_forest_accuracy), "/", pct(b$rpart_forest_fidelity)))
names(tab_k) <- c("set", "splits", "dpdt distilled: test acc / fid %",
                  "rpart on labels", "rpart on forest labels")
wins <- function(a, b) sum(a > b + 1e-12, na.rm = TRUE)
both <- !is.na(by_splits$dpdt_fidelity) & !is.na(by_splits$rpart_forest_fidelity)
lines <- c(
  "# From a forest to one tree: distilled fronts against rpart", "",
  "Written by `bench/distill.R`. A 500-tree ranger forest (seed 1) on each training set;",
  "dpdt_distill(forest, train, newdata = test, predictions = <out-of-bag classes>,",
  "max_depth = 4, complexity = \"splits\", threads = 1); rpart (cp = 0, maxdepth = 4,",
  "minbucket 5, xval 10) on the true labels and on the forest's out-of-bag labels.",
  "Test accuracy against the true test labels; fidelity: agreement with the forest's",
  "test classes. CV choice: dpdt_cv()'s one-SE tree (10 folds, on fidelity) and",
  "rpart's one-SE cp. By splits, a budget: the front's most faithful tree (on the training",
  "rows) with at most that many splits, and rpart's largest pruned subtree with at most",
  "that many (the CSV has the sizes each used).", "",
  sprintf("Run %s, commit %s, load %s, %s.", meta$run_date, meta$run_commit, meta$run_load,
          meta$run_cpu), "",
  sprintf(paste0("- Test fidelity at the same budget of splits (1..15, every set), dpdt distilled ",
                 "against rpart on the forest's labels: dpdt higher at %d, rpart higher at %d, of %d."),
          wins(by_splits$dpdt_fidelity[both], by_splits$rpart_forest_fidelity[both]),
          wins(by_splits$rpart_forest_fidelity[both], by_splits$dpdt_fidelity[both]), sum(both)),
  "", "## CV choices", "", md_table(tab_chosen), "",
  "## By number of splits", "", md_table(tab_k), "",
  sprintf("Every size 1..15 is in `%s_by_splits.csv`.", basename(out)))
writeLines(lines, paste0(out, ".md"))
cat("wrote", paste0(out, ".md"), "\n")
