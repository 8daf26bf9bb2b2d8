# Every input check of the package lives here, so that messages stay
# consistent: each one names the argument and says what to do about it.

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
                          progress) {
  if (!(is.numeric(max_memory) && length(max_memory) == 1 &&
        !is.na(max_memory) && max_memory > 0 && is.finite(max_memory))) {
    stop_arg("`max_memory` must be a single positive number of gigabytes.")
  }
  if (!(is.logical(progress) && length(progress) == 1 && !is.na(progress))) {
    stop_arg("`progress` must be TRUE or FALSE.")
  }
  list(
    max_depth = check_whole(max_depth, "max_depth", 1, 20),
    cart_depth = check_whole(cart_depth, "cart_depth", 1, 20, vector = TRUE),
    candidates = check_choice(candidates, c("cart", "exhaustive"), "candidates"),
    complexity = check_choice(complexity, c("tests", "splits"), "complexity"),
    criterion = check_choice(criterion, c("entropy", "gini"), "criterion"),
    min_bucket = check_whole(min_bucket, "min_bucket", 1),
    threads = resolve_threads(threads),
    max_memory = as.double(max_memory),
    progress = progress
  )
}

check_data <- function(data) {
  if (!is.data.frame(data)) {
    stop_arg("`data` must be a data frame; got ", describe(data),
             ". Convert it with as.data.frame().")
  }
}

# Variables the formula (or terms) `f` needs must be columns of `data` (or,
# as in lm(), non-function objects visible from the formula's environment;
# without one, from the caller's caller, as model.frame() would look).
missing_vars <- function(f, data) {
  env <- environment(f)
  if (is.null(env)) env <- parent.frame(2)
  vars <- setdiff(all.vars(f), c(".", names(data)))
  found <- vapply(vars, function(v) {
    exists(v, envir = env) && !is.function(get(v, envir = env))
  }, logical(1))
  vars[!found]
}

check_formula <- function(formula, data) {
  if (!inherits(formula, "formula") || length(formula) != 3) {
    stop_arg("`formula` must be a formula with the response on its left ",
             "side, such as `y ~ x1 + x2`.")
  }
  miss <- missing_vars(formula, data)
  if (length(miss)) {
    stop_arg("`formula` uses column(s) ", paste0("`", miss, "`", collapse = ", "),
             " not found in `data`; check the spelling or add them to `data`.")
  }
  # model.frame() refuses list columns with a message that names no argument.
  lhs <- all.vars(formula[[2]])
  for (v in intersect(all.vars(formula), names(data))) {
    if (!is.list(data[[v]])) next
    if (v %in% lhs) check_response(data[[v]], v) else check_predictor(data[[v]], v)
  }
  tt <- stats::terms(formula, data = data)
  if (any(attr(tt, "order") > 1)) {
    stop_arg("`formula` has interaction terms, which dpdt does not support; ",
             "trees find interactions themselves, use `+` only.")
  }
  if (!is.null(attr(tt, "offset"))) {
    stop_arg("`formula` has an offset, which dpdt does not support; remove it.")
  }
  if (!length(attr(tt, "term.labels"))) {
    stop_arg("`formula` has no predictors; add at least one on its right side.")
  }
}

# Weights are checked before model.frame(): there an NA weight would make
# na.omit silently drop the row, and a wrong length gives a cryptic error.
check_weights <- function(w, n) {
  if (is.null(w)) return(invisible())
  if (!is.numeric(w) || length(w) != n) {
    stop_arg("`weights` must be a numeric vector with one value per row of ",
             "`data` (", n, "); got ", describe(w), " of length ", length(w), ".")
  }
  if (anyNA(w) || any(!is.finite(w)) || any(w < 0)) {
    stop_arg("`weights` must be finite and >= 0, without NA; fix or drop ",
             "those rows.")
  }
}

check_response <- function(y, name) {
  if (is.matrix(y) || !(is.factor(y) || is.character(y) || is.logical(y) ||
                        is.numeric(y))) {
    stop_arg("The response `", name, "` must be a factor, character or ",
             "logical vector (classification) or numeric (regression); got ",
             describe(y), ".")
  }
  if (anyNA(y) || (is.numeric(y) && any(!is.finite(y)))) {
    stop_arg("The response `", name, "` has NA or non-finite values; remove ",
             "those rows or use na.action = na.omit.")
  }
}

check_predictor <- function(v, name) {
  if (is.matrix(v) || !(is.numeric(v) || is.factor(v) || is.character(v) ||
                        is.logical(v))) {
    stop_arg("Predictor `", name, "` is ", describe(v), "; dpdt needs numeric, ",
             "factor, character or logical columns. Convert it first.")
  }
  if (anyNA(v) || (is.numeric(v) && any(!is.finite(v)))) {
    stop_arg("Predictor `", name, "` has NA or non-finite values after ",
             "`na.action`; remove those rows, e.g. with na.action = na.omit.")
  }
}

check_model_id <- function(model, m) {
  if (is.null(model)) return(m)
  if (!(is.numeric(model) && length(model) == 1 && !is.na(model) &&
        model == round(model) && model >= 1 && model <= m)) {
    stop_arg("`model` must be a whole number between 1 and ", m,
             " (a row of the front); got ", show_value(model), ".")
  }
  as.integer(model)
}

# rpart's cp: one number >= 0 for a fit; several for multi_predict().
check_cost_complexity <- function(x, vector = FALSE) {
  ok <- is.numeric(x) && length(x) >= 1 && (vector || length(x) == 1) &&
    !anyNA(x) && all(is.finite(x)) && all(x >= 0)
  if (!ok) {
    stop_arg("`cost_complexity` must be ",
             if (vector) "finite numbers >= 0" else "a single finite number >= 0",
             " (a penalty per split relative to the loss of the single ",
             "leaf, as rpart's cp); got ", show_value(x), ".")
  }
  as.double(x)
}

check_newdata <- function(newdata) {
  if (!is.data.frame(newdata)) {
    stop_arg("`newdata` must be a data frame; got ", describe(newdata),
             ". Convert it with as.data.frame().")
  }
}
