# Checks of the scalar arguments every verb takes (counts, choices, flags,
# threads, time limits) and the helpers all input checks share: each
# message names the argument and says what to do about it.

stop_arg <- function(...) stop(paste0(...), call. = FALSE)

# A short description of an object for error messages ("a matrix", ...).
describe <- function(x) {
  if (is.null(x)) return("NULL")
  cls <- class(x)[1]
  paste0(if (grepl("^[aeiouAEIOU]", cls)) "an " else "a ", cls)
}

# Refuse anything in `...` that is not a known extra argument; silently
# ignoring a typo (`max_dept = 5`) would hide a mistake from the user.
# `dots` is match.call(expand.dots = FALSE)$...: nothing is evaluated.
check_dots <- function(dots, allowed, fun) {
  if (!length(dots)) return(invisible())
  dot_names <- names(dots)
  if (is.null(dot_names)) dot_names <- rep("", length(dots))
  dot_names[!nzchar(dot_names)] <- "<unnamed>"
  bad <- dot_names[!dot_names %in% allowed]
  if (length(bad)) {
    stop_arg("Argument(s) ", paste0("`", bad, "`", collapse = ", "),
             " not matched by ", fun, "().")
  }
}

# How a bad value is shown in a message: as R code, shortened.
show_value <- function(x) {
  # 0L would read "0L": whole numbers are shown as the user typed them
  if (is.integer(x) && !is.factor(x)) x <- as.double(x)
  s <- paste(deparse(x, width.cutoff = 60L, nlines = 2L), collapse = " ")
  if (nchar(s) > 60) paste0(substr(s, 1, 57), "...") else s
}

# A single whole number in [lo, hi]; checked before anything is allocated,
# so that absurd sizes (max_depth = 1e6) are refused at once.
check_whole <- function(x, name, lo, hi = .Machine$integer.max,
                        vector = FALSE, source = "") {
  ok <- is.numeric(x) && length(x) >= 1 && (vector || length(x) == 1) &&
    !anyNA(x) && all(is.finite(x)) && all(x == round(x)) &&
    all(x >= lo) && all(x <= hi)
  if (!ok) {
    what <- if (vector) "whole numbers" else "a single whole number"
    range <- if (hi < .Machine$integer.max) paste0("between ", lo, " and ", hi)
             else paste0(">= ", lo)
    stop_arg("`", name, "`", source, " must be ", what, " ", range, "; got ",
             show_value(x), ".")
  }
  as.integer(x)
}

# match.arg() with a message naming the argument and listing the choices.
check_choice <- function(x, choices, name) {
  ok <- is.character(x) && length(x) >= 1 && !anyNA(x)
  if (ok && identical(x, choices)) return(choices[1])
  i <- if (ok && length(x) == 1) pmatch(x, choices) else NA
  if (is.na(i)) {
    stop_arg("`", name, "` must be one of ",
             paste0("\"", choices, "\"", collapse = ", "), "; got ",
             show_value(x), ".")
  }
  choices[i]
}

# TRUE or FALSE, nothing else.
check_flag <- function(x, name) {
  if (!(is.logical(x) && length(x) == 1 && !is.na(x))) {
    stop_arg("`", name, "` must be TRUE or FALSE; got ", show_value(x), ".")
  }
  x
}

# NULL or one string (titles and labels).
check_string <- function(x, name) {
  if (!is.null(x) && !(is.character(x) && length(x) == 1 && !is.na(x))) {
    stop_arg("`", name, "` must be NULL or a single string; got ", show_value(x), ".")
  }
  x
}

check_installed <- function(pkg, what) {
  if (!requireNamespace(pkg, quietly = TRUE)) {
    stop_arg("Package ", pkg, " is needed to ", what, "; install it.")
  }
}

# threads = NULL falls back to an option, then an environment variable,
# then 2 (the most CRAN allows during checks).
resolve_threads <- function(threads) {
  source <- ""
  if (is.null(threads) && !is.null(getOption("dpdt.threads"))) {
    threads <- getOption("dpdt.threads")
    source <- " (from option dpdt.threads)"
  }
  if (is.null(threads) && nzchar(Sys.getenv("DPDT_THREADS"))) {
    threads <- suppressWarnings(as.numeric(Sys.getenv("DPDT_THREADS")))
    if (is.na(threads)) threads <- Sys.getenv("DPDT_THREADS")
    source <- " (from environment variable DPDT_THREADS)"
  }
  if (is.null(threads)) threads <- 2
  check_whole(threads, "threads", 1, 1024, source = source)
}

check_control <- function(max_depth, cart_depth, candidates, complexity,
                          criterion, min_bucket, threads, max_memory,
                          max_work, progress, exact_levels = 1, best_only = FALSE,
                          max_bins = Inf) {
  if (!(is.numeric(max_memory) && length(max_memory) == 1 &&
        !is.na(max_memory) && max_memory > 0 && is.finite(max_memory))) {
    stop_arg("`max_memory` must be a single positive number of gigabytes.")
  }
  if (!(is.numeric(max_work) && length(max_work) == 1 && !is.na(max_work) &&
        max_work > 0)) {
    stop_arg("`max_work` must be a single positive number of row visits ",
             "(Inf: no limit); got ", show_value(max_work), ".")
  }
  if (!(is.logical(progress) && length(progress) == 1 && !is.na(progress))) {
    stop_arg("`progress` must be TRUE or FALSE.")
  }
  max_depth <- check_whole(max_depth, "max_depth", 1, 20)
  list(
    max_depth = max_depth,
    cart_depth = if (is.null(cart_depth)) default_cart_depth(max_depth)
                 else check_whole(cart_depth, "cart_depth", 1, 20, vector = TRUE),
    candidates = check_choice(candidates, c("cart", "exhaustive"), "candidates"),
    complexity = check_choice(complexity, c("tests", "splits", "cost"), "complexity"),
    criterion = check_choice(criterion, c("entropy", "gini"), "criterion"),
    min_bucket = check_whole(min_bucket, "min_bucket", 1),
    threads = resolve_threads(threads),
    max_memory = as.double(max_memory),
    max_work = as.double(max_work),
    progress = progress,
    exact_levels = check_whole(exact_levels, "exact_levels", 1, max_depth),
    best_only = check_flag(best_only, "best_only"),
    max_bins = check_max_bins(max_bins)
  )
}

# "auto", "future" or "none"; distributing does not combine with a time
# limit (its schedule of searches runs in this process).
check_parallel <- function(parallel, time_limit) {
  parallel <- check_choice(parallel, c("auto", "future", "none"), "parallel")
  if (parallel == "future" && is.finite(time_limit)) {
    stop_arg("`parallel = \"future\"` does not combine with a finite `time_limit` ",
             "(its schedule of searches runs in one process): use time_limit = Inf, or ",
             "parallel = \"auto\" or \"none\".")
  }
  parallel
}

# Inf (no binning), or a whole number of bins >= 2 per numeric predictor.
check_max_bins <- function(max_bins) {
  ok <- is.numeric(max_bins) && length(max_bins) == 1 && !is.na(max_bins)
  if (ok && max_bins == Inf) return(Inf)
  if (!(ok && max_bins >= 2 && max_bins <= .Machine$integer.max && max_bins == round(max_bins))) {
    stop_arg("`max_bins` must be Inf (no binning) or a single whole number >= 2 ",
             "of bins per numeric predictor (255 is common); got ", show_value(max_bins), ".")
  }
  as.integer(max_bins)
}

# CART depths by tree depth when the user gives none: the paper's 5 up to
# depth 3; deeper trees narrow the proposals with depth (non-greedy choices
# matter most near the root), which keeps depth-4 and depth-5 fits on 50,000
# rows within about 15x rpart's time (bench/results/depth_schedule.md).
default_cart_depth <- function(max_depth) {
  if (max_depth <= 3) 5L else if (max_depth == 4) c(4L, 3L, 2L) else 2L
}

check_time_limit <- function(time_limit) {
  if (!(is.numeric(time_limit) && length(time_limit) == 1 && !is.na(time_limit) &&
        time_limit > 0)) {
    stop_arg("`time_limit` must be a single positive number of seconds (Inf: ",
             "no limit); got ", show_value(time_limit), ".")
  }
  as.double(time_limit)
}

check_max_states <- function(x) {
  if (!(is.numeric(x) && length(x) == 1 && !is.na(x) && x >= 1 && is.finite(x))) {
    stop_arg("`max_states` must be a single number >= 1 (the most (node, box) ",
             "states raising may use, or joint prunings of an ensemble); got ", show_value(x), ".")
  }
  as.double(x)
}

check_tree_plot_args <- function(digits, cex, abbrev, main, legend, node_ids) {
  check_whole(digits, "digits", 1, 15)
  if (!is.null(cex) && !(is.numeric(cex) && length(cex) == 1 &&
                         is.finite(cex) && cex > 0)) {
    stop_arg("`cex` must be NULL (fit text to the device) or a single ",
             "positive number; got ", show_value(cex), ".")
  }
  if (!is.null(abbrev) && !(is.numeric(abbrev) && length(abbrev) == 1 &&
                            !is.na(abbrev) && abbrev >= 1)) {
    stop_arg("`abbrev` must be NULL (automatic), Inf (never) or a number ",
             ">= 1 of characters; got ", show_value(abbrev), ".")
  }
  check_string(main, "main")
  check_flag(legend, "legend")
  check_flag(node_ids, "node_ids")
}

# ---- Cross-validation (dpdt_cv) -------------------------------------------
