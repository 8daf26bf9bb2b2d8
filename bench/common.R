## Shared by the benchmark scripts in bench/: where the data are, which data
## sets to run, timing, run metadata, markdown output and the run loop. Each
## script finds this file next to itself and sources it.

env_list <- function(name) {
  v <- trimws(unlist(strsplit(Sys.getenv(name), "[ ,;]+")))
  v[nzchar(v)]
}

## The repository root: the parent of the script's folder.
bench_root <- function(script) {
  if (length(script) == 1) normalizePath(file.path(dirname(script), "..")) else getwd()
}

## The Quant-BnB folder and the paper's table; the data are read in place
## from DPDT_DATA (default ../shared/data), never copied into the repository.
bench_data <- function(root, paper_csv) {
  data_dir <- Sys.getenv("DPDT_DATA", file.path(root, "..", "shared", "data"))
  qdir <- file.path(data_dir, "quantbnb")
  paper_file <- file.path(data_dir, paper_csv)
  if (!file.exists(paper_file) || !dir.exists(qdir))
    stop("data not found under '", data_dir, "': set DPDT_DATA to the directory ",
         "holding quantbnb/ and ", paper_csv)
  list(qdir = qdir, paper = read.csv(paper_file, stringsAsFactors = FALSE))
}

## Output path without extension (DPDT_BENCH_OUT), its folder created.
bench_out <- function(root, name) {
  out <- Sys.getenv("DPDT_BENCH_OUT", file.path(root, "bench", "results", name))
  dir.create(dirname(out), recursive = TRUE, showWarnings = FALSE)
  out
}

## The data sets to run: DPDT_BENCH_SETS, less DPDT_BENCH_SKIP; skin last.
bench_sets <- function(all) {
  sets <- all
  if (length(want <- env_list("DPDT_BENCH_SETS"))) {
    bad <- setdiff(want, sets)
    if (length(bad)) stop("unknown data set(s) in DPDT_BENCH_SETS: ",
                          paste(bad, collapse = ", "), "; known: ",
                          paste(sets, collapse = ", "))
    sets <- intersect(sets, want)
  }
  sets <- setdiff(sets, env_list("DPDT_BENCH_SKIP"))
  c(setdiff(sets, "skin"), intersect(sets, "skin"))
}

## One file of a data set, y as a factor (with the training levels for test).
read_part <- function(qdir, name, part = "train", lev = NULL) {
  d <- read.csv(file.path(qdir, paste0(name, "_", part, ".csv.gz")))
  d$y <- if (is.null(lev)) factor(d$y) else factor(d$y, levels = lev)
  d
}

## The value of expr and the CPU seconds (user + system) it took.
cpu <- function(expr) {
  t <- system.time(val <- expr)
  list(value = val, cpu = t[["user.self"]] + t[["sys.self"]])
}

## f() run n times; its last value with attribute "time" = median elapsed s.
timed <- function(f, n = 1L) {
  t <- numeric(n)
  for (i in seq_len(n)) {
    gc(FALSE)
    t[i] <- system.time(val <- f())[["elapsed"]]
  }
  attr(val, "time") <- stats::median(t)
  val
}

rbind_fill <- function(a, b) {
  if (is.null(a)) return(b)
  for (nm in setdiff(names(b), names(a))) a[[nm]] <- NA
  for (nm in setdiff(names(a), names(b))) b[[nm]] <- NA
  rbind(a, b[names(a)])
}

fmt_t <- function(x) ifelse(is.na(x), "–", trimws(formatC(x, digits = 3, format = "fg")))
fmt_a <- function(x, d = 2) ifelse(is.na(x), "–", formatC(x, digits = d, format = "f"))
fmt_r <- function(x) ifelse(is.na(x), "–", formatC(x, digits = 0, format = "f", big.mark = ","))

md_table <- function(df) {
  df[] <- lapply(df, function(v) ifelse(is.na(v), "–", trimws(as.character(v))))
  c(paste("|", paste(names(df), collapse = " | "), "|"),
    paste("|", paste(rep("---", ncol(df)), collapse = " | "), "|"),
    apply(df, 1, function(r) paste("|", paste(r, collapse = " | "), "|")))
}

## Date, commit, processor and load average, recorded with every row.
run_metadata <- function(root) {
  list(
    run_date = format(Sys.time(), "%Y-%m-%d %H:%M %Z"),
    run_commit = tryCatch(paste(system2("git", c("-C", shQuote(root), "rev-parse", "--short", "HEAD"),
                                        stdout = TRUE, stderr = FALSE), collapse = ""),
                          error = function(e) "?", warning = function(e) "?"),
    run_load = tryCatch(paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " "),
                        error = function(e) "unknown", warning = function(e) "unknown"),
    run_cpu = tryCatch({
      l <- grep("^model name", readLines("/proc/cpuinfo"), value = TRUE)
      paste0(sub(".*:\\s*", "", l[1]), " (", length(l), " logical CPUs)")
    }, error = function(e) "unknown", warning = function(e) "unknown"))
}

## Two builds of dpdt side by side: DPDT_LIB_BEFORE and DPDT_LIB_AFTER name
## library folders (R CMD INSTALL -l DIR); without DPDT_LIB_BEFORE only the
## after build (default: the installed one, "") runs. `libs`: the folders by
## build; `label`: the report's line naming them (DPDT_BEFORE_LABEL,
## DPDT_AFTER_LABEL when given).
bench_builds <- function() {
  before <- Sys.getenv("DPDT_LIB_BEFORE")
  after <- Sys.getenv("DPDT_LIB_AFTER")
  list(libs = if (nzchar(before)) c(before = before, after = after) else c(after = after),
       label = sprintf("before: %s; after: %s.",
                       if (nzchar(before)) Sys.getenv("DPDT_BEFORE_LABEL", before) else "–",
                       Sys.getenv("DPDT_AFTER_LABEL", if (nzchar(after)) after else "installed")))
}

## DPDT_BENCH_REPORT_ONLY=1: rewrite the .md from the .csv, then stop.
report_only <- function(out, write_results) {
  if (!nzchar(Sys.getenv("DPDT_BENCH_REPORT_ONLY"))) return(invisible())
  res <- read.csv(paste0(out, ".csv"), stringsAsFactors = FALSE,
                  colClasses = c(run_commit = "character"))
  for (nm in c("run_date", "run_commit", "run_load", "run_cpu"))
    if (is.null(res[[nm]])) res[[nm]] <- "?"
  write_results(res, csv = FALSE)
  cat("rewrote", paste0(out, ".md"), "\n")
  quit(save = "no")
}

## run_one() on every set; a progress line each; results written after every
## set, so an interrupted run keeps what it finished.
run_sets <- function(title, sets, run_one, progress, write_results, out, meta) {
  cat(sprintf("%s: %d data set(s): %s\n", title, length(sets), paste(sets, collapse = ", ")))
  res <- NULL
  for (s in sets) {
    t0 <- proc.time()[["elapsed"]]
    cat(sprintf("%-10s ", s)); flush.console()
    r <- tryCatch(run_one(s), error = function(e) {
      cat("ERROR:", conditionMessage(e), "\n"); NULL })
    if (is.null(r)) next
    g <- function(nm) if (is.null(r[[nm]])) NA_real_ else r[[nm]]
    cat(progress(g), sprintf("| %.0f s total\n", proc.time()[["elapsed"]] - t0))
    for (nm in names(meta)) r[[nm]] <- meta[[nm]]
    res <- rbind_fill(res, r)
    write_results(res)
  }
  if (!is.null(res)) cat("written:", paste0(out, c(".md", ".csv")), "\n")
}

## A data set as ConTree's program reads it ("label x1 x2 ..." lines,
## labels 0 .. k - 1), in a temporary file.
contree_file <- function(d) {
  f <- tempfile(fileext = ".txt")
  y <- as.integer(factor(d$y)) - 1L
  x <- d[setdiff(names(d), "y")]
  write.table(cbind(y, x), f, row.names = FALSE, col.names = FALSE, quote = FALSE)
  f
}
