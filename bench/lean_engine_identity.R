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
## ../shared/data). DPDT_BENCH_OUT (compare only): also write the comparison
## to <out>.md and <out>.csv, one row per fit; DPDT_IDENTITY_OLD: a line
## that says what the old build was (a commit).
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
write_comparison <- function(old, new, new_times, same, out_file) {
  script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
  source(file.path(dirname(script), "common.R"))
  meta <- run_metadata(bench_root(script))
  keys <- names(old$fits)
  res <- data.frame(fit = keys,
                    trees = vapply(keys, function(k) nrow(new[[k]]$front), integer(1)),
                    old_s = unname(old$times[keys]), new_s = unname(new_times[keys]),
                    identical = ifelse(same, "yes", "NO"))
  write.csv(res, paste0(out_file, ".csv"), row.names = FALSE)
  tab <- res
  tab$old_s <- fmt_t(tab$old_s)
  tab$new_s <- fmt_t(tab$new_s)
  writeLines(c(
    "# Identity: fronts and trees of two builds compared by identical()", "",
    paste0("Written by `bench/lean_engine_identity.R` (compare mode) against a file the old ",
           "build saved. Settings (depth, cart_depth, exact_levels; cart_depth 0: exhaustive, ",
           "-1: the default schedule): ", spec, ". One thread, min_bucket 1. old_s / new_s: CPU ",
           "seconds of one fit each, in separate runs (not a speed comparison)."), "",
    sprintf("Run %s, commit %s, load %s, %s.", meta$run_date, meta$run_commit, meta$run_load, meta$run_cpu),
    if (nzchar(Sys.getenv("DPDT_IDENTITY_OLD"))) paste0("Old build: ", Sys.getenv("DPDT_IDENTITY_OLD"), "."),
    sprintf("%d of %d fronts and tree sets identical.", sum(same), length(same)), "",
    md_table(tab)), paste0(out_file, ".md"))
}

if (mode == "save") {
  saveRDS(list(fits = out, times = times), file)
} else {
  old <- readRDS(file)
  same <- vapply(names(old$fits), function(k) identical(old$fits[[k]], out[[k]]), logical(1))
  for (k in names(old$fits)[!same]) cat("DIFFERENT:", k, "\n")
  cat(sum(same), "of", length(same), "fronts and tree sets identical\n")
  if (nzchar(out_file <- Sys.getenv("DPDT_BENCH_OUT"))) write_comparison(old, out, times, same, out_file)
  if (!all(same)) quit(status = 1)
}
