#!/usr/bin/env Rscript
## Bit-identity check for engine work (speed-ups, refactors): fits the Table 1
## sets with whichever dpdt is first on .libPaths() and saves the fronts and
## trees; with a second file, compares them with identical().
##   R_LIBS=/tmp/lib-old Rscript bench/lean_engine_identity.R save /tmp/old.rds
##   R_LIBS=/tmp/lib-new Rscript bench/lean_engine_identity.R compare /tmp/old.rds
## Settings: DPDT_IDENTITY_ARGS, ";"-separated "depth,cart_depth,exact_levels"
## triples (cart_depth 0: candidates = "exhaustive"; -1: the default
## schedule of the depth; exact_levels optional, default 1), default "3,5";
## DPDT_IDENTITY_SETS (","-separated) restricts the sets. Every fit has one
## thread and min_bucket 1. DPDT_DATA: directory holding quantbnb/ (default
## ../shared/data).
suppressPackageStartupMessages(library(dpdt))
args <- commandArgs(TRUE)
mode <- args[1]
file <- args[2]
qdir <- file.path(Sys.getenv("DPDT_DATA", "../shared/data"), "quantbnb")
sets <- sub("_train.csv.gz$", "", list.files(qdir, "_train.csv.gz$"))
if (nzchar(Sys.getenv("DPDT_IDENTITY_SETS")))
  sets <- strsplit(Sys.getenv("DPDT_IDENTITY_SETS"), ",")[[1]]
spec <- Sys.getenv("DPDT_IDENTITY_ARGS", "3,5")
settings <- lapply(strsplit(strsplit(spec, ";")[[1]], ","), as.integer)
out <- list()
times <- numeric(0)
for (s in sets) {
  d <- read.csv(file.path(qdir, paste0(s, "_train.csv.gz")))
  d$y <- factor(d$y)
  for (st in settings) {
    exact <- if (length(st) >= 3) st[3] else 1L
    a <- list(y ~ ., data = d, max_depth = st[1], threads = 1, min_bucket = 1,
              exact_levels = exact, max_work = Inf, progress = FALSE)
    if (st[2] == 0) a$candidates <- "exhaustive"
    else if (st[2] > 0) a$cart_depth <- st[2]
    t <- system.time(fit <- do.call(dpdt_fit, a))
    key <- sprintf("%s depth %d cart %d exact %d", s, st[1], st[2], exact)
    out[[key]] <- list(front = fit$front, trees = fit$trees)
    times[key] <- t[["user.self"]] + t[["sys.self"]]
    cat(sprintf("%-40s %5d trees %8.2f s\n", key, nrow(fit$front), times[key]))
  }
}
if (mode == "save") {
  saveRDS(list(fits = out, times = times), file)
} else {
  old <- readRDS(file)
  same <- vapply(names(old$fits), function(k) identical(old$fits[[k]], out[[k]]), logical(1))
  for (k in names(old$fits)[!same]) cat("DIFFERENT:", k, "\n")
  cat(sum(same), "of", length(same), "fronts and tree sets identical\n")
  if (!all(same)) quit(status = 1)
}
