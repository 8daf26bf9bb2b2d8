#!/usr/bin/env Rscript
## Quantile bins (max_bins, issue 21) on the exhaustive search: for each set,
## dpdt_fit(y ~ ., max_depth = DPDT_BIN_DEPTH (3), candidates = "exhaustive",
## complexity = "splits", min_bucket = 1, threads = 1, max_work = Inf,
## max_bins = B) for each B of DPDT_MAX_BINS (default Inf, 255, 64, 16), in a
## fresh R session each (callr); CPU seconds of the call; the most accurate
## tree's training accuracy and its accuracy on the set's test split (the
## papers' split); the median number of distinct values (or bins) per
## feature; and rpart beside, with its own cross-validated choice
## (cp = 0.01 default grown, pruned at the 1-SE rule of xval = 10), one
## tree of any depth. A run longer than DPDT_BIN_TIMEOUT seconds (1800) is
## stopped.
## DPDT_DATA: the folder holding quantbnb/; DPDT_BENCH_SETS (default skin,
## avila, eeg, magic) / DPDT_BENCH_SKIP choose sets; DPDT_BENCH_REPORT_ONLY
## re-renders the table from the CSV; DPDT_BENCH_NOTE adds a remark.
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
depth <- as.integer(Sys.getenv("DPDT_BIN_DEPTH", "3"))
bins <- as.numeric(env_list("DPDT_MAX_BINS"))
if (!length(bins)) bins <- c(Inf, 255, 64, 16)
timeout <- as.numeric(Sys.getenv("DPDT_BIN_TIMEOUT", "1800"))
out <- bench_out(root, "binning")
if (!length(env_list("DPDT_BENCH_SETS"))) Sys.setenv(DPDT_BENCH_SETS = "skin,avila,eeg,magic")
sets <- bench_sets(data$paper$dataset)

## One fit in a fresh session: CPU seconds, accuracies, values per feature.
fit_once <- function(set, max_bins) {
  tryCatch(callr::r(function(qdir, set, depth, max_bins, read_part) {
    tr <- read_part(qdir, set)
    te <- read_part(qdir, set, "test", levels(tr$y))
    t <- system.time(f <- dpdt::dpdt_fit(y ~ ., data = tr, max_depth = depth,
                                         candidates = "exhaustive", complexity = "splits",
                                         min_bucket = 1, threads = 1, max_work = Inf,
                                         max_bins = max_bins, progress = FALSE))
    best <- nrow(f$front)
    distinct <- vapply(tr[names(tr) != "y"], function(x) length(unique(x)), 1)
    values <- ifelse(f$bins > 0, f$bins, distinct)
    list(cpu = t[["user.self"]] + t[["sys.self"]], train_acc = 1 - f$front$train_loss[best],
         test_acc = mean(predict(f, te, model = best, type = "class") == te$y),
         values = stats::median(values), front = nrow(f$front))
  }, list(qdir = data$qdir, set = set, depth = depth, max_bins = max_bins,
          read_part = read_part), timeout = timeout), error = function(e) NULL)
}

rpart_once <- function(set) {
  tr <- read_part(data$qdir, set)
  te <- read_part(data$qdir, set, "test", levels(tr$y))
  set.seed(1)
  r <- cpu(rpart::rpart(y ~ ., tr, method = "class"))
  cpt <- r$value$cptable
  best <- which.min(cpt[, "xerror"])
  cp <- cpt[which(cpt[, "xerror"] <= cpt[best, "xerror"] + cpt[best, "xstd"])[1], "CP"]
  pruned <- rpart::prune(r$value, cp = cp)
  list(cpu = r$cpu, test_acc = mean(predict(pruned, te, type = "class") == te$y),
       train_acc = mean(predict(pruned, tr, type = "class") == tr$y),
       splits = sum(pruned$frame$var != "<leaf>"))
}

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  base <- res[is.infinite(res$max_bins), c("set", "cpu")]
  speedup <- base$cpu[match(res$set, base$set)] / res$cpu
  tab <- data.frame(
    set = res$set, n = fmt_r(res$n), max_bins = ifelse(is.finite(res$max_bins), res$max_bins, "Inf"),
    `values per feature (median)` = fmt_r(res$values), `CPU s` = fmt_t(res$cpu),
    `speed-up` = ifelse(is.na(speedup), "–", formatC(speedup, digits = 3, format = "fg")),
    `train acc %` = fmt_a(100 * res$train_acc), `test acc %` = fmt_a(100 * res$test_acc),
    `rpart (1-SE) test acc %` = fmt_a(100 * res$rpart_test_acc),
    `rpart splits` = res$rpart_splits, check.names = FALSE)
  meta <- res[1, ]
  writeLines(c(
    "# Quantile bins (max_bins) on the exhaustive search", "",
    paste0("Written by `bench/binning.R`. dpdt_fit(y ~ ., max_depth = ", depth,
           ", candidates = \"exhaustive\", complexity = \"splits\", min_bucket = 1, threads = 1, ",
           "max_work = Inf, max_bins = B), one fresh R session per run, CPU seconds of the call ",
           "(one run each). Accuracies of the most accurate tree (the proven optimum over the ",
           "binned thresholds), on the training rows and on the papers' test split. Values per ",
           "feature: the median over the features of the distinct values the search sees (bins ",
           "where binned). rpart: its default fit pruned by its own 10-fold cross-validation ",
           "(1-SE rule), a tree of any depth."), "",
    paste0("Run ", meta$run_date, ", commit ", meta$run_commit, ", load ", meta$run_load, ", ",
           meta$run_cpu, "."), "",
    md_table(tab),
    if (nzchar(Sys.getenv("DPDT_BENCH_NOTE"))) c("", Sys.getenv("DPDT_BENCH_NOTE"))),
    paste0(out, ".md"))
}

report_only(out, write_results)
meta <- run_metadata(root)
res <- NULL
for (set in sets) {
  rp <- rpart_once(set)
  n <- nrow(read_part(data$qdir, set))
  for (b in bins) {
    r <- fit_once(set, b)
    if (is.null(r)) r <- list(cpu = NA, train_acc = NA, test_acc = NA, values = NA, front = NA)
    row <- data.frame(set = set, n = n, max_bins = b, cpu = r$cpu, train_acc = r$train_acc,
                      test_acc = r$test_acc, values = r$values, front = r$front,
                      rpart_cpu = rp$cpu, rpart_test_acc = rp$test_acc, rpart_splits = rp$splits)
    for (nm in names(meta)) row[[nm]] <- meta[[nm]]
    res <- rbind(res, row)
    cat(sprintf("%s max_bins %s: %.2f s, test %.4f\n", set, b, r$cpu, r$test_acc))
    write_results(res)
  }
}
print(res)
