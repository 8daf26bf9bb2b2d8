#!/usr/bin/env Rscript
## How well a measured search projects its own time (issue 20: work
## estimates). An exhaustive search is timed as it runs: after each of the
## root's features it projects its total (the seeds' phase plus the
## sweep's time so far scaled by the features left), and it is stopped
## when projected beyond three times the hour after two features, or when
## it has run that long. For each set: dpdt_fit(y ~ ., max_depth =
## DPDT_PROJ_DEPTH (3), candidates = "exhaustive", complexity = "splits",
## min_bucket = DPDT_PROJ_MB (1), threads = 1, max_work = Inf) in a fresh R
## session (callr); the fit's
## work_estimate$projections against its own search time (the last
## projection's elapsed time), and the estimate made before the search,
## the upper bound that refused these searches before. The same in row
## visits (the unit of max_work, which such a search applies to the visits
## it counts as it runs): the visits it made, its projections of them, and
## visits per second. DPDT_PROJ_EXACT_LEVELS = 2: the same of
## dpdt_fit(..., candidates = "cart", exact_levels = 2) at depth 3, timed
## after each of the root's candidate splits (their children solved for
## what the root's front can use), written to projection_depth3_exact2.
## DPDT_DATA: the folder holding quantbnb/; DPDT_BENCH_SETS / DPDT_BENCH_SKIP
## choose sets; DPDT_BENCH_REPORT_ONLY re-renders the table from the CSV.
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
mb <- as.integer(Sys.getenv("DPDT_PROJ_MB", "1"))
depth <- as.integer(Sys.getenv("DPDT_PROJ_DEPTH", "3"))
exact <- as.integer(Sys.getenv("DPDT_PROJ_EXACT_LEVELS", "0"))  # 0: exhaustive
out <- bench_out(root, paste0("projection_depth", depth, if (exact > 0) paste0("_exact", exact)))
parts <- if (exact > 0) "candidate splits" else "features"
sets <- bench_sets(data$paper$dataset)

fit_once <- function(file) {
  callr::r(function(file, mb, depth, exact) {
    d <- utils::read.csv(file)
    d$y <- factor(d$y)
    f <- if (exact > 0)
      dpdt::dpdt_fit(y ~ ., data = d, max_depth = depth, candidates = "cart",
                     exact_levels = exact, complexity = "splits", min_bucket = mb,
                     threads = 1, max_work = Inf, progress = FALSE)
    else
      dpdt::dpdt_fit(y ~ ., data = d, max_depth = depth, candidates = "exhaustive",
                     complexity = "splits", min_bucket = mb, threads = 1,
                     max_work = Inf, progress = FALSE)
    c(f$work_estimate, list(fit_seconds = f$seconds))
  }, list(file = file, mb = mb, depth = depth, exact = exact))
}

## One number (NA when there is none).
num <- function(x) if (length(x)) x[[1]] else NA_real_

## The projection after k features (NA: fewer features), in seconds or in
## row visits.
after <- function(p, k, col = "projected_seconds") if (nrow(p) >= k) p[[col]][k] else NA_real_

## The largest factor either way between projections from the second on
## and the truth.
worst_from_2 <- function(x, true) {
  if (length(x) < 2) return(NA_real_)
  max(x[-1] / true, true / x[-1])
}

run_one <- function(s) {
  e <- fit_once(file.path(data$qdir, paste0(s, "_train.csv.gz")))
  p <- e$projections
  if (!nrow(p)) stop("the search was not timed as it ran (measured = ", e$measured, ")")
  true <- p$elapsed[nrow(p)]
  first_tenth <- which(p$elapsed >= 0.1 * true)[1]
  data.frame(set = s, depth = depth, min_bucket = mb, exact_levels = exact,
       features = num(p$runs), done2 = after(p, 2, "runs_done"), search_s = true,
       fit_s = num(e$fit_seconds), estimate_s = num(e$seconds), after1_s = after(p, 1),
       after2_s = after(p, 2), tenth_s = num(p$projected_seconds[first_tenth]),
       tenth_at = num(p$elapsed[first_tenth] / true),
       worst_after2 = worst_from_2(p$projected_seconds, true),
       visits = num(e$visits_made), estimate_v = num(e$row_visits),
       after1_v = after(p, 1, "projected_row_visits"), after2_v = after(p, 2, "projected_row_visits"),
       worst_after2_v = if (is.null(p$projected_row_visits)) NA_real_
                        else worst_from_2(p$projected_row_visits, num(e$visits_made)))
}

write_results <- function(res, csv = TRUE) {
  if (csv) write.csv(res, paste0(out, ".csv"), row.names = FALSE)
  if (is.null(res$depth)) res$depth <- 3L  # rows recorded before the depth was a setting
  r1 <- res$after1_s / res$search_s
  r2 <- res$after2_s / res$search_s
  if (is.null(res$done2)) res$done2 <- NA
  tab <- data.frame(set = res$set, features = res$features,
                    at = ifelse(is.na(res$done2), "–", res$done2),
                    search_s = fmt_t(res$search_s),
                    estimate_over_true = fmt_a(res$estimate_s / res$search_s, 0),
                    after_1 = fmt_a(r1), after_2 = fmt_a(r2),
                    worst_from_2 = fmt_a(res$worst_after2))
  names(tab) <- c("set", parts, "2nd projection at", "search (s)", "estimate / true",
                  "1st projection / true", "2nd / true", "worst factor from 2nd on")
  has_v <- !is.null(res$visits) && any(!is.na(res$visits))
  if (has_v) {
    v1 <- res$after1_v / res$visits
    v2 <- res$after2_v / res$visits
    vtab <- data.frame(set = res$set, visits = sprintf("%.3g", res$visits),
                       rate = sprintf("%.3g", res$visits / res$search_s),
                       estimate = fmt_a(res$estimate_v / res$visits, 0), after_1 = fmt_a(v1),
                       after_2 = fmt_a(v2), worst = fmt_a(res$worst_after2_v))
    names(vtab) <- c("set", "row visits made", "visits per second", "estimate / made",
                     "1st projection / made", "2nd / made", "worst factor from 2nd on")
  }
  f <- function(x) sprintf("median %.2f (range %.2f to %.2f)", stats::median(x, na.rm = TRUE),
                           min(x, na.rm = TRUE), max(x, na.rm = TRUE))
  lines <- c(
    sprintf("# %s depth %d timed as it runs (min_bucket %d)",
            if (exact > 0) sprintf("exact_levels = %d at", exact) else "Exhaustive",
            res$depth[1], res$min_bucket[1]), "",
    sprintf("Written by `bench/projection.R`. dpdt_fit(y ~ ., max_depth = %d, candidates =",
            res$depth[1]),
    if (exact > 0) sprintf("\"cart\", exact_levels = %d, complexity = \"splits\", threads = 1, max_work = Inf), one", exact)
    else "\"exhaustive\", complexity = \"splits\", threads = 1, max_work = Inf), one",
    "fresh R session per set. true: the search's own time (the last projection's elapsed",
    "seconds). estimate: the upper bound made before the search. Projections follow the",
    paste0("root's ", parts, " (the first phase + the rest so far x ", parts, " / done), as the"),
    "engine checks them (when its main thread looks: the kth projection may follow more than",
    paste0("k ", parts, "; `2nd projection at`: how many). worst factor: the largest of"),
    "projection / true and true / projection over every projection from the second on",
    "(the search is stopped only on those, beyond 3 times the hour). Rows may come from",
    "separate runs of the script; the CSV has each row's date, commit and load.", "",
    sprintf("Run %s, commit %s, load %s, %s.", res$run_date[1], res$run_commit[1],
            res$run_load[1], res$run_cpu[1]), "",
    paste0("- estimate / true: ", f(res$estimate_s / res$search_s), "."),
    paste0("- 1st projection / true: ", f(r1), "."),
    paste0("- 2nd projection / true: ", f(r2), "."),
    paste0("- worst factor from the second projection on: ", f(res$worst_after2), "."), "",
    md_table(tab),
    if (has_v) c("", "## In row visits (max_work's unit)", "",
                 "The visits the search counted as it ran (`work_estimate$visits_made`), the",
                 "estimate before it (`row_visits`), and its projections of its visits",
                 "(`projections$projected_row_visits`); max_work stops the search when it has",
                 "made that many, or, from the second projection on, projects more.", "",
                 paste0("- visits per second: ", sprintf("median %.2g (range %.2g to %.2g)",
                        stats::median(res$visits / res$search_s, na.rm = TRUE),
                        min(res$visits / res$search_s, na.rm = TRUE),
                        max(res$visits / res$search_s, na.rm = TRUE)), "."),
                 paste0("- estimate / made: ", f(res$estimate_v / res$visits), "."),
                 paste0("- 1st projection / made: ", f(v1), "."),
                 paste0("- 2nd projection / made: ", f(v2), "."),
                 paste0("- worst factor from the second projection on: ", f(res$worst_after2_v), "."),
                 "", md_table(vtab)))
  writeLines(lines, paste0(out, ".md"))
}

report_only(out, write_results)
run_sets(paste("projection,", if (exact > 0) paste("exact_levels", exact) else "exhaustive",
               "depth", depth), sets, run_one,
         function(g) sprintf("%.1f s, after 2: %.2f", g("search_s"), g("after2_s") / g("search_s")),
         write_results, out, run_metadata(root))
