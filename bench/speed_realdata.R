#!/usr/bin/env Rscript
## Fit time on numeric benchmark sets (no NA, no factor), to check that the
## real-data work (issue 8: NA sides, level groups, costs) costs nothing
## there. CPU time (user + system) of dpdt_fit(max_depth = 3, cart_depth =
## 5, threads = 1), minimum of DPDT_SPEED_REPS runs, with whichever dpdt is
## first on .libPaths(); run it once per library and compare:
##   R_LIBS=/tmp/lib-old Rscript bench/speed_realdata.R old
##   R_LIBS=/tmp/lib-new Rscript bench/speed_realdata.R new
## DPDT_DATA: directory holding quantbnb/ (default ../shared/data).
suppressPackageStartupMessages(library(dpdt))
args <- commandArgs(TRUE)
label <- if (length(args)) args[1] else "dpdt"
qdir <- file.path(Sys.getenv("DPDT_DATA", "../shared/data"), "quantbnb")
sets <- strsplit(Sys.getenv("DPDT_SPEED_SETS", "bank,raisin,rice,wilt,occupancy"), ",")[[1]]
reps <- as.integer(Sys.getenv("DPDT_SPEED_REPS", "5"))
for (s in sets) {
  d <- read.csv(file.path(qdir, paste0(s, "_train.csv.gz")))
  d$y <- factor(d$y)
  fit <- NULL
  t <- vapply(seq_len(reps), function(i) {
    gc(FALSE)
    tm <- system.time(fit <<- dpdt_fit(y ~ ., data = d, max_depth = 3, min_bucket = 1,
                                      cart_depth = 5, threads = 1))
    tm[["user.self"]] + tm[["sys.self"]]
  }, 0)
  cat(sprintf("%s\t%s\t%d\t%.4f\t%.6f\n", label, s, nrow(d), min(t),
              min(fit$front$train_loss)))
}
