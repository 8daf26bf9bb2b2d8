#!/usr/bin/env Rscript
## Every CART state also proposes its own best split for the training loss
## (issue 18, "the best small trees"): what it costs and what it gains. Two
## builds side by side, the one before (DPDT_OLD) and the one with the
## extra candidate (DPDT_NEW), each in its own R session (callr):
##   R CMD INSTALL -l /tmp/lib-old <old checkout>; R CMD INSTALL -l /tmp/lib-new .
##   DPDT_OLD=/tmp/lib-old DPDT_NEW=/tmp/lib-new Rscript bench/own_best_split.R
## Setting: the Table 1 one (depth 3, cart_depth 5, min_bucket 1, 1 thread)
## on the 16 Quant-BnB sets; runs alternate old, new, old, new (DPDT_REPS,
## default 3, CPU seconds of dpdt_fit(), median), for complexity "tests"
## (the default) and "splits". Gain: for k = 1..7 splits, the best tree of
## at most k splits of the "splits" front (the least training loss: chosen
## on the training rows only), its training accuracy and its accuracy on the
## set's test rows, old and new; rpart's pruned tree of k splits (gini,
## depth 3, cp = 0) beside them.
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
libs <- c(old = Sys.getenv("DPDT_OLD"), new = Sys.getenv("DPDT_NEW"))
if (any(!nzchar(libs))) stop("set DPDT_OLD and DPDT_NEW to the libraries holding the two builds")
reps <- as.integer(Sys.getenv("DPDT_REPS", "3"))
out <- bench_out(root, "own_best_split")
suppressPackageStartupMessages(library(rpart))

sessions <- lapply(libs, function(lib) {
  s <- callr::r_session$new(callr::r_session_options(libpath = c(lib, .libPaths())))
  s$run(function() suppressPackageStartupMessages(library(dpdt)))
  s
})
on.exit(lapply(sessions, function(s) s$close()), add = TRUE)

fit_in <- function(session, train, test) {
  session$run(function(train, test) {
    tr <- utils::read.csv(train)
    te <- utils::read.csv(test)
    tr$y <- factor(tr$y)
    te$y <- factor(te$y, levels = levels(tr$y))
    gc(FALSE)
    t <- system.time(dpdt::dpdt_fit(y ~ ., data = tr, max_depth = 3, cart_depth = 5,
                                    min_bucket = 1, threads = 1, progress = FALSE))
    # sizes: the front by number of splits, which holds the best tree of each
    ts <- system.time(fit <- dpdt::dpdt_fit(y ~ ., data = tr, max_depth = 3, cart_depth = 5,
                                            min_bucket = 1, threads = 1, progress = FALSE,
                                            complexity = "splits"))
    fr <- fit$front
    acc <- t(vapply(1:7, function(k) {
      m <- which(fr$n_splits <= k)
      m <- m[which.min(fr$train_loss[m])]
      c(k = k, train = 100 * (1 - fr$train_loss[m]),
        test = 100 * mean(predict(fit, te, model = m) == te$y))
    }, numeric(3)))
    list(time = t[["user.self"]] + t[["sys.self"]], time_splits = ts[["user.self"]] + ts[["sys.self"]],
         acc = acc, trees = nrow(fr))
  }, list(train = train, test = test))
}

rpart_acc <- function(tr, te) {
  r <- rpart(y ~ ., tr, method = "class",
             control = rpart.control(cp = 0, maxdepth = 3, minsplit = 2, minbucket = 1,
                                     xval = 0, maxcompete = 0, maxsurrogate = 0))
  cpt <- r$cptable
  vapply(1:7, function(k) {
    i <- max(which(cpt[, "nsplit"] <= k))
    p <- prune(r, cp = cpt[i, "CP"] * (1 + 1e-9))
    c(train = 100 * mean(predict(p, tr, type = "class") == tr$y),
      test = 100 * mean(predict(p, te, type = "class") == te$y))
  }, numeric(2))
}

rows <- NULL
for (nm in bench_sets(data$paper$dataset)) {
  train <- file.path(data$qdir, paste0(nm, "_train.csv.gz"))
  test <- file.path(data$qdir, paste0(nm, "_test.csv.gz"))
  times <- list(old = numeric(0), new = numeric(0))
  times_s <- times
  res <- list()
  for (r in seq_len(reps)) for (b in names(libs)) {
    res[[b]] <- fit_in(sessions[[b]], train, test)
    times[[b]] <- c(times[[b]], res[[b]]$time)
    times_s[[b]] <- c(times_s[[b]], res[[b]]$time_splits)
  }
  tr <- read_part(data$qdir, nm)
  te <- read_part(data$qdir, nm, "test", levels(tr$y))
  rp <- rpart_acc(tr, te)
  row <- data.frame(dataset = nm, n = nrow(tr), old_s = median(times$old),
                    new_s = median(times$new), ratio = median(times$new) / median(times$old),
                    old_splits_s = median(times_s$old), new_splits_s = median(times_s$new),
                    old_trees = res$old$trees, new_trees = res$new$trees)
  for (k in 1:7) {
    row[[paste0("train_old_", k)]] <- res$old$acc[k, "train"]
    row[[paste0("train_new_", k)]] <- res$new$acc[k, "train"]
    row[[paste0("test_old_", k)]] <- res$old$acc[k, "test"]
    row[[paste0("test_new_", k)]] <- res$new$acc[k, "test"]
    row[[paste0("train_rpart_", k)]] <- rp["train", k]
    row[[paste0("test_rpart_", k)]] <- rp["test", k]
  }
  rows <- rbind_fill(rows, row)
  cat(sprintf("%-10s %6.2f s -> %6.2f s (x%.2f); train @1..7: %s\n", nm, row$old_s, row$new_s,
              row$ratio, paste(sprintf("%+.2f", unlist(row[paste0("train_new_", 1:7)]) -
                                         unlist(row[paste0("train_old_", 1:7)])), collapse = " ")))
}
write.csv(rows, paste0(out, ".csv"), row.names = FALSE)

gain <- function(what, k) rows[[paste0(what, "_new_", k)]] - rows[[paste0(what, "_old_", k)]]
md <- c("# Every CART state also proposes its own best split",
        "",
        sprintf("Run %s on %s; old build `%s`, new build `%s`; depth 3, cart_depth 5, min_bucket 1, 1 thread; %d runs each, alternating, CPU seconds (median).",
                format(Sys.time(), "%Y-%m-%d"), Sys.info()[["nodename"]], libs[["old"]], libs[["new"]], reps),
        "", "## Time", "",
        "| set | rows | tests: old (s) | new (s) | new / old | splits: old (s) | new (s) | new / old | trees (splits) old / new |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        sprintf("| %s | %d | %s | %s | %.2f | %s | %s | %.2f | %d / %d |", rows$dataset, rows$n,
                fmt_t(rows$old_s), fmt_t(rows$new_s), rows$ratio, fmt_t(rows$old_splits_s),
                fmt_t(rows$new_splits_s), rows$new_splits_s / rows$old_splits_s,
                rows$old_trees, rows$new_trees),
        sprintf("| **all** | | %s | %s | %.2f (median of ratios %.2f) | %s | %s | %.2f | |",
                fmt_t(sum(rows$old_s)), fmt_t(sum(rows$new_s)), sum(rows$new_s) / sum(rows$old_s),
                median(rows$ratio), fmt_t(sum(rows$old_splits_s)), fmt_t(sum(rows$new_splits_s)),
                sum(rows$new_splits_s) / sum(rows$old_splits_s)),
        "", "## Accuracy of the best tree of at most k splits (chosen on the training rows)", "",
        "Mean over the 16 sets, in points of accuracy; 'sets better / worse': how many sets the new front's tree beats / loses to the old one's.",
        "",
        "| k | train old | train new | gain | sets better / worse | test old | test new | gain | sets better / worse | rpart train | rpart test |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for (k in 1:7) {
  gt <- gain("train", k)
  gh <- gain("test", k)
  md <- c(md, sprintf("| %d | %.2f | %.2f | %+.2f | %d / %d | %.2f | %.2f | %+.2f | %d / %d | %.2f | %.2f |", k,
                      mean(rows[[paste0("train_old_", k)]]), mean(rows[[paste0("train_new_", k)]]),
                      mean(gt), sum(gt > 1e-9), sum(gt < -1e-9),
                      mean(rows[[paste0("test_old_", k)]]), mean(rows[[paste0("test_new_", k)]]),
                      mean(gh), sum(gh > 1e-9), sum(gh < -1e-9),
                      mean(rows[[paste0("train_rpart_", k)]]), mean(rows[[paste0("test_rpart_", k)]])))
}
writeLines(md, paste0(out, ".md"))
cat("wrote", paste0(out, c(".md", ".csv")), "\n")
