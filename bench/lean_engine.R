#!/usr/bin/env Rscript
## The lean engine (issue 5, part 1): the old and the new build of dpdt side
## by side in one run, on the Table 1 setting (depth 3, cart_depth = 5,
## 1 thread, the 16 Quant-BnB training sets), with rpart (depth 3, cp = 0,
## entropy, no competitors or surrogates) for reference.
##
## Each build runs in its own R session (callr), both installed beforehand:
##   R CMD INSTALL -l /tmp/lib-old <old checkout>; R CMD INSTALL -l /tmp/lib-new .
##   DPDT_LEAN_OLD=/tmp/lib-old DPDT_LEAN_NEW=/tmp/lib-new Rscript bench/lean_engine.R
## Runs alternate between the builds (old, new, old, new, ...) so that load
## on the machine hits both alike. Time: CPU seconds (user + system) of the
## dpdt_fit() / rpart() call, DPDT_LEAN_REPS runs each (default 5); median and
## minimum. DPDT_LEAN_DEPTH and DPDT_LEAN_CART (default 3 and 5) change the
## setting; DPDT_LEAN_EXACT sets exact_levels (default 1), and
## DPDT_LEAN_CART = 0 means candidates = "exhaustive"; DPDT_LEAN_MIN_BUCKET
## sets min_bucket (default 1, the papers' setting). Every new front and tree list is compared with the old one by
## identical(). DPDT_DATA: the folder holding quantbnb/;
## DPDT_BENCH_SETS / DPDT_BENCH_SKIP choose sets.
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
libs <- c(old = Sys.getenv("DPDT_LEAN_OLD"), new = Sys.getenv("DPDT_LEAN_NEW"))
if (any(!nzchar(libs))) stop("set DPDT_LEAN_OLD and DPDT_LEAN_NEW to the libraries holding the two builds")
reps <- as.integer(Sys.getenv("DPDT_LEAN_REPS", "5"))
depth <- as.integer(Sys.getenv("DPDT_LEAN_DEPTH", "3"))
cart_depth <- as.integer(Sys.getenv("DPDT_LEAN_CART", "5"))
exact <- as.integer(Sys.getenv("DPDT_LEAN_EXACT", "1"))
min_bucket <- as.integer(Sys.getenv("DPDT_LEAN_MIN_BUCKET", "1"))
candidates <- if (cart_depth == 0) "exhaustive" else "cart"
setting <- depth != 3 || cart_depth != 5 || exact != 1 || min_bucket != 1  # else Table 1's
out <- bench_out(root, if (!setting) "lean_engine" else
  sprintf("lean_engine_depth%d_%s%s%s", depth,
          if (cart_depth == 0) "exhaustive" else paste0("cart", cart_depth),
          if (exact != 1) paste0("_exact", exact) else "",
          if (min_bucket != 1) paste0("_mb", min_bucket) else ""))
suppressPackageStartupMessages(library(rpart))

sessions <- lapply(libs, function(lib) {
  s <- callr::r_session$new(callr::r_session_options(libpath = c(lib, .libPaths())))
  s$run(function() suppressPackageStartupMessages(library(dpdt)))
  s
})
on.exit(lapply(sessions, function(s) s$close()), add = TRUE)
## How the results name a build: its version and DPDT_LEAN_OLD_LABEL /
## DPDT_LEAN_NEW_LABEL (e.g. its commit), never the library's path.
build_label <- function(b) {
  label <- Sys.getenv(paste0("DPDT_LEAN_", toupper(b), "_LABEL"), paste(b, "build"))
  paste(sub(" .*", "", versions[[b]]), label)
}
versions <- vapply(sessions, function(s) s$run(function() {
  paste(utils::packageVersion("dpdt"), find.package("dpdt"))
}), "")

run_fit <- function(session, file) {
  session$run(function(file, depth, cart_depth, exact, candidates, min_bucket) {
    d <- utils::read.csv(file)
    d$y <- factor(d$y)
    gc(FALSE)
    t <- system.time(fit <- dpdt::dpdt_fit(y ~ ., data = d, max_depth = depth, min_bucket = min_bucket,
                                           cart_depth = max(1, cart_depth),
                                           candidates = candidates, exact_levels = exact,
                                           threads = 1, progress = FALSE))
    list(time = t[["user.self"]] + t[["sys.self"]],
         fit = list(front = fit$front, trees = fit$trees))
  }, list(file = file, depth = depth, cart_depth = cart_depth, exact = exact,
          candidates = candidates, min_bucket = min_bucket))
}

cpu <- function(expr) {
  gc(FALSE)
  t <- system.time(expr)
  t[["user.self"]] + t[["sys.self"]]
}

meta <- run_metadata(root)
res <- NULL
sets <- bench_sets(data$paper$dataset)
cat(sprintf("lean engine: old = %s\n             new = %s\n%d set(s), %d run(s) each\n",
            versions[["old"]], versions[["new"]], length(sets), reps))

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  tot <- function(col) sum(res[[col]])
  tab <- data.frame(
    set = res$set, n = fmt_r(res$n),
    old_median = fmt_t(res$old_median), new_median = fmt_t(res$new_median),
    ratio_median = fmt_a(res$old_median / res$new_median),
    old_min = fmt_t(res$old_min), new_min = fmt_t(res$new_min),
    ratio_min = fmt_a(res$old_min / res$new_min),
    rpart_median = fmt_t(res$rpart_median),
    new_over_rpart = fmt_a(res$new_median / res$rpart_median, 1),
    identical = ifelse(res$identical, "yes", "NO"))
  tab <- rbind(tab, data.frame(
    set = "**sum**", n = "", old_median = fmt_t(tot("old_median")),
    new_median = fmt_t(tot("new_median")),
    ratio_median = fmt_a(tot("old_median") / tot("new_median")),
    old_min = fmt_t(tot("old_min")), new_min = fmt_t(tot("new_min")),
    ratio_min = fmt_a(tot("old_min") / tot("new_min")),
    rpart_median = fmt_t(tot("rpart_median")),
    new_over_rpart = fmt_a(tot("new_median") / tot("rpart_median"), 1),
    identical = sprintf("%d of %d", sum(res$identical), nrow(res))))
  lines <- c(
    if (!setting) "# Lean engine: old vs new build, Table 1 setting"
    else sprintf("# Lean engine: old vs new build, depth %d, %s%s%s", depth,
                 if (cart_depth == 0) "exhaustive" else paste("cart_depth", cart_depth),
                 if (exact != 1) paste(", exact_levels", exact) else "",
                 if (min_bucket != 1) paste(", min_bucket", min_bucket) else ""),
    "",
    sprintf("Written by `bench/lean_engine.R`. dpdt_fit(max_depth = %d, %s, exact_levels = %d, min_bucket = %d,",
            depth, if (cart_depth == 0) "candidates = \"exhaustive\""
                   else paste("cart_depth =", cart_depth), exact, min_bucket),
    "threads = 1) on each Quant-BnB training set, the old and the new build in",
    "two R sessions, runs alternating; CPU seconds (user + system) of the call,",
    sprintf("%d runs each: median and minimum; ratio = old / new (above 1: the new",
            if (is.null(res$reps)) reps else res$reps[1]),
    sprintf("build is faster). rpart: depth %d, cp = 0, entropy, no competitor or", depth),
    "surrogate splits (reference only). identical: the new build's front and",
    "trees are identical() to the old build's.",
    "",
    sprintf("Run %s, commit %s, load %s, %s.", res$run_date[1], res$run_commit[1],
            res$run_load[1], res$run_cpu[1]),
    sprintf("Old build: %s. New build: %s.", res$old_build[1], res$new_build[1]),
    "",
    md_table(tab))
  writeLines(lines, paste0(out, ".md"))
}
report_only(out, write_results)

for (s in sets) {
  file <- file.path(data$qdir, paste0(s, "_train.csv.gz"))
  d <- read_part(data$qdir, s)
  times <- list(old = numeric(reps), new = numeric(reps), rpart = numeric(reps))
  fits <- list()
  for (i in seq_len(reps)) {
    for (b in c("old", "new")) {
      r <- run_fit(sessions[[b]], file)
      times[[b]][i] <- r$time
      fits[[b]] <- r$fit
    }
    times$rpart[i] <- cpu(rpart(y ~ ., data = d, method = "class",
                                parms = list(split = "information"),
                                control = rpart.control(maxdepth = depth, cp = 0, minsplit = 2 * min_bucket,
                                                        minbucket = min_bucket, xval = 0,
                                                        maxcompete = 0, maxsurrogate = 0)))
  }
  row <- data.frame(set = s, n = nrow(d),
                    old_median = median(times$old), new_median = median(times$new),
                    old_min = min(times$old), new_min = min(times$new),
                    rpart_median = median(times$rpart), rpart_min = min(times$rpart),
                    identical = identical(fits$old, fits$new),
                    old_build = build_label("old"), new_build = build_label("new"),
                    reps = reps)
  for (nm in names(meta)) row[[nm]] <- meta[[nm]]
  res <- rbind_fill(res, row)
  cat(sprintf("%-10s old %.3f new %.3f (x%.2f) rpart %.3f identical %s\n", s, row$old_median,
              row$new_median, row$old_median / row$new_median, row$rpart_median, row$identical))
  write_results(res)
}
cat("written:", paste0(out, c(".md", ".csv")), "\n")
