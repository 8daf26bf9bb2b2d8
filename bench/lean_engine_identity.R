#!/usr/bin/env Rscript
## Bit-identity check for engine speed work: fits every Table 1 set (depth 3,
## cart_depth 5, 1 thread; DPDT_IDENTITY_ARGS adds "depth,cart_depth" pairs)
## with whichever dpdt is first on .libPaths() and saves the fronts and
## trees; with a second file, compares them with identical().
##   R_LIBS=/tmp/lib-old Rscript bench/lean_engine_identity.R save /tmp/old.rds
##   R_LIBS=/tmp/lib-new Rscript bench/lean_engine_identity.R compare /tmp/old.rds
## DPDT_DATA: directory holding quantbnb/ (default ../shared/data).
suppressPackageStartupMessages(library(dpdt))
args <- commandArgs(TRUE)
mode <- args[1]
file <- args[2]
qdir <- file.path(Sys.getenv("DPDT_DATA", "../shared/data"), "quantbnb")
sets <- sub("_train.csv.gz$", "", list.files(qdir, "_train.csv.gz$"))
if (nzchar(Sys.getenv("DPDT_IDENTITY_SETS")))
  sets <- strsplit(Sys.getenv("DPDT_IDENTITY_SETS"), ",")[[1]]
settings <- list(c(3L, 5L))
if (nzchar(extra <- Sys.getenv("DPDT_IDENTITY_ARGS")))
  settings <- c(settings, lapply(strsplit(strsplit(extra, ";")[[1]], ","), as.integer))
out <- list()
for (s in sets) {
  d <- read.csv(file.path(qdir, paste0(s, "_train.csv.gz")))
  d$y <- factor(d$y)
  for (st in settings) {
    fit <- dpdt_fit(y ~ ., data = d, max_depth = st[1], cart_depth = st[2], threads = 1,
                    min_bucket = 1)
    key <- sprintf("%s depth %d cart %d", s, st[1], st[2])
    out[[key]] <- list(front = fit$front, trees = fit$trees)
    cat(key, nrow(fit$front), "trees\n")
  }
}
if (mode == "save") {
  saveRDS(out, file)
} else {
  old <- readRDS(file)
  same <- vapply(names(old), function(k) identical(old[[k]], out[[k]]), logical(1))
  for (k in names(old)[!same]) cat("DIFFERENT:", k, "\n")
  cat(sum(same), "of", length(same), "fronts and tree sets identical\n")
  if (!all(same)) quit(status = 1)
}
