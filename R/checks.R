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
                          max_work, progress, exact_levels = 1) {
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
    exact_levels = check_whole(exact_levels, "exact_levels", 1, max_depth)
  )
}

check_time_limit <- function(time_limit) {
  if (!(is.numeric(time_limit) && length(time_limit) == 1 && !is.na(time_limit) &&
        time_limit > 0)) {
    stop_arg("`time_limit` must be a single positive number of seconds (Inf: ",
             "no limit); got ", show_value(time_limit), ".")
  }
  as.double(time_limit)
}

# `name`: the argument as the user knows it (data, newdata).
check_data <- function(data, name = deparse(substitute(data))) {
  if (!is.data.frame(data)) {
    stop_arg("`", name, "` must be a data frame; got ", describe(data),
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
  if (!is.finite(sum(w))) {
    stop_arg("`weights` sum to more than the largest double; divide them by ",
             "a constant (the trees stay the same).")
  }
}

# A numeric class that is not a double (bit64's integer64, whose values are
# stored as the bits of 64-bit integers): as doubles, refused from 2^53 on,
# where a double no longer holds every whole number.
plain_numeric <- function(v, what) {
  if (!inherits(v, "integer64")) return(v)
  # as.double() warns of the precision it loses: the error below says it
  out <- suppressWarnings(as.double(v))
  if (any(abs(out) >= 2^53, na.rm = TRUE)) {
    stop_arg(what, " is an integer64 with values beyond 2^53, which a double ",
             "cannot hold exactly; convert it with as.double() if rounding is ",
             "acceptable, or subtract an offset first.")
  }
  out
}

check_response <- function(y, name) {
  if (is.matrix(y) || !(is.factor(y) || is.character(y) || is.logical(y) ||
                        is.numeric(y))) {
    stop_arg("The response `", name, "` must be a factor, character or ",
             "logical vector (classification) or numeric (regression); got ",
             describe(y), ".")
  }
  if (anyNA(y)) {
    stop_arg("The response `", name, "` has NA values; remove those rows or ",
             "use na.action = na.omit.")
  }
  check_infinite(y, paste0("The response `", name, "`"))
  # up to 2^510 a residual's square stays below 2^1022 (weight-0 rows too:
  # predict() gives them)
  top <- if (is.numeric(y) && length(y)) max(abs(y)) else 0
  if (top > 2^510) {
    stop_arg("The response `", name, "` has values up to ", format(top, digits = 3),
             " in absolute value: their squared errors overflow a double. Divide ",
             "the response by a constant (the trees stay the same, the losses ",
             "scale by its square).")
  }
}

check_predictor <- function(v, name) {
  v <- plain_numeric(v, paste0("Predictor `", name, "`"))
  if (inherits(v, "POSIXlt")) {
    stop_arg("Predictor `", name, "` is a POSIXlt date-time; convert it with ",
             "as.POSIXct() (dpdt splits Date and POSIXct columns).")
  }
  if (is.matrix(v) || !(is.numeric(v) || is.factor(v) || is.character(v) ||
                        is.logical(v) || inherits(v, c("Date", "POSIXct")))) {
    stop_arg("Predictor `", name, "` is ", describe(v), "; dpdt needs numeric, ",
             "factor, character, logical, Date or POSIXct columns. Convert it first.")
  }
  check_infinite(unclass(v), paste0("Predictor `", name, "`"), na_ok = TRUE)
}

# What the front reports in the caller's units must fit in a double: weights
# times depth, test costs or the loss matrix (avg_tests, avg_cost and losses
# are sums of those). The engine itself works on scaled copies.
check_magnitudes <- function(prepared, max_depth, costs, loss_matrix) {
  factor <- max(1, max_depth) * max(1, costs) * max(1, loss_matrix)
  if (sum(prepared$w) * factor > 2^1022) {
    stop_arg("`weights` are too large: their sum (",
             format(sum(prepared$w), digits = 3), ") times ",
             if (factor == max(1, max_depth)) "max_depth" else
               "max_depth and the largest test cost or loss",
             " is beyond what a double holds, so the front's averages would ",
             "overflow. Divide the weights by a constant (the trees stay the same).")
  }
}

# Inf is not NA: na.action keeps those rows, so the message must not point
# to it.
check_infinite <- function(v, what, na_ok = FALSE) {
  if (is.numeric(v) && any(is.infinite(v))) {
    rows <- which(is.infinite(v))
    stop_arg(what, " has infinite values (", length(rows), " row(s), the first ",
             "is row ", rows[1], "), which na.action does not drop; ",
             if (na_ok) "replace them (NA is fine: the search learns where missing values go) "
             else "replace them with finite values ",
             "or drop those rows.")
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

# `x` is a formula (with `data` and dpdt_fit() arguments) or a fit from
# dpdt_fit() (alone: its settings are refitted).
check_cv_x <- function(x, data, dots) {
  if (inherits(x, "formula")) return(invisible())
  if (!inherits(x, "dpdt") || is.null(x$control) || is.null(x$model_frame)) {
    stop_arg("`x` must be a formula (with `data`) or a fit from dpdt_fit(); ",
             "got ", describe(x), ".")
  }
  if (!is.null(data)) {
    stop_arg("`data` must be NULL when `x` is a fit: the fit's own rows are ",
             "cross-validated.")
  }
  if (length(dots)) {
    nm <- names(dots)
    if (is.null(nm)) nm <- rep("", length(dots))
    nm[!nzchar(nm)] <- "<unnamed>"
    stop_arg("Argument(s) ", paste0("`", nm, "`", collapse = ", "),
             " cannot be used when `x` is a fit: its settings are refitted; ",
             "pass a formula to change them.")
  }
}

check_folds <- function(folds, n) {
  if (n < 2) {
    stop_arg("Cross-validation needs at least 2 rows of positive weight; ",
             "got ", n, ".")
  }
  check_whole(folds, "folds", 2, n)
}

# Fold ids given per row of `data` (formula) or of the fit's model frame;
# returns compact ids 1..k per model-frame row, NA where the weight is 0.
check_fold_id <- function(fold_id, fit, data, keep) {
  mf <- fit$model_frame
  per <- if (is.null(data)) "row of `model.frame(x)`" else "row of `data`"
  n <- if (is.null(data)) nrow(mf) else nrow(data)
  if (!is.atomic(fold_id) || is.matrix(fold_id) || length(fold_id) != n) {
    stop_arg("`fold_id` must be a vector with one fold per ", per, " (", n,
             "); got ", describe(fold_id), " of length ", length(fold_id), ".")
  }
  idx <- if (is.null(data)) seq_len(nrow(mf))
         else match(rownames(mf), rownames(data))
  f <- fold_id[idx]
  if (anyNA(f[keep])) {
    stop_arg("`fold_id` has NA for rows used in the fit; give every row a fold.")
  }
  ids <- rep(NA_integer_, length(f))
  ids[keep] <- as.integer(factor(f[keep]))
  if (length(unique(ids[keep])) < 2) {
    stop_arg("`fold_id` must have at least 2 distinct folds among the rows ",
             "used in the fit; got ", length(unique(ids[keep])), ".")
  }
  ids
}

# The validation rows as a model frame of the fit's variables (rows with a
# missing value dropped), the response as labels or numbers, and weights.
validation_frame <- function(fit, validation) {
  if (!is.data.frame(validation)) {
    stop_arg("`validation` must be a data frame; got ", describe(validation),
             ".")
  }
  miss <- missing_vars(fit$terms, validation)
  if (length(miss)) {
    stop_arg("`validation` lacks column(s) ",
             paste0("`", miss, "`", collapse = ", "),
             " used by the model; add them.")
  }
  w <- rep(1, nrow(validation))
  wexpr <- fit$call$weights
  if (!is.null(wexpr)) {
    w <- tryCatch(eval(wexpr, validation, environment(fit$terms)),
                  error = function(e) NULL)
    if (!is.numeric(w) || length(w) != nrow(validation) || anyNA(w) ||
        any(!is.finite(w)) || any(w < 0)) {
      stop_arg("`validation` must give the fit's weights `",
               show_value(wexpr), "` as one finite value >= 0 per row.")
    }
  }
  mf <- stats::model.frame(fit$terms, validation, na.action = stats::na.omit)
  drop <- attr(mf, "na.action")
  if (!is.null(drop)) w <- w[-drop]
  if (nrow(mf) == 0 || sum(w) <= 0) {
    stop_arg("`validation` has no complete row of positive weight.")
  }
  y <- stats::model.response(mf)
  if (fit$type == "classification") {
    y <- as.character(y)
    new <- setdiff(unique(y), fit$levels)
    if (length(new)) {
      stop_arg("`validation`'s response has level(s) ",
               paste0("\"", utils::head(new, 5), "\"", collapse = ", "),
               " not among the fit's levels.")
    }
  } else if (!is.numeric(y)) {
    stop_arg("`validation`'s response must be numeric, as in the fit.")
  }
  list(mf = mf, y = y, w = as.double(w))
}

# A front of trees: a fit, pruning or cross-validation result.
check_front <- function(x, name) {
  if (!inherits(x, "dpdt")) {
    stop_arg("`", name, "` must be a front of trees (a fit from dpdt_fit(), ",
             "or a pruning or cross-validation result); got ", describe(x), ".")
  }
}

# ---- pruning (dpdt_prune, as_rpart) ----------------------------------------

check_max_states <- function(x) {
  if (!(is.numeric(x) && length(x) == 1 && !is.na(x) && x >= 1 && is.finite(x))) {
    stop_arg("`max_states` must be a single number >= 1 (the most (node, box) ",
             "states raising may use); got ", show_value(x), ".")
  }
  as.double(x)
}

check_installed <- function(pkg, what) {
  if (!requireNamespace(pkg, quietly = TRUE)) {
    stop_arg("Package ", pkg, " is needed to ", what, "; install it.")
  }
}

# Every row of `data` must reach a leaf: a missing value at a split with no
# side for it would drop the row from the error count.
check_routable <- function(x, src, mf) {
  tested <- unique(src$tree$feature[src$tree$feature > 0])
  if (!anyNA(x[, tested])) return(invisible())
  stuck <- which(is.na(cpp_route(x, src$tree)))
  if (!length(stuck)) return(invisible())
  vars <- unique(src$features$variable[tested][
    colSums(is.na(x[stuck, tested, drop = FALSE])) > 0])
  stop_arg("Row(s) ", paste(utils::head(stuck, 5), collapse = ", "),
           if (length(stuck) > 5) ", ..." else "", " of `data` have missing ",
           "values in ", paste0("`", vars, "`", collapse = ", "),
           " where the tree has no side for them; remove or impute those ",
           "rows (errors would not be counted on them).")
}

# as_rpart() / as.party() can only hand back what the source package can
# represent: a replacement pruning of its own tree with its own labels.
check_back_conversion <- function(x, source, fun) {
  if (!inherits(x, "dpdt_prune")) {
    stop_arg("`x` must be a pruning front from dpdt_prune(); got ",
             describe(x), ".")
  }
  if (x$source != source) {
    stop_arg("`x` prunes ", if (x$source == "dpdt") "a dpdt" else
             paste(if (x$source == "rpart") "an" else "a", x$source),
             " tree; ", fun, "() returns pruned ", source,
             " trees only. Use dpdt_tree(x, model) for the pruned tree.")
  }
  if (x$method != "replace") {
    stop_arg("`x` was pruned by raising; raised trees are not subtrees of the ",
             source, " tree, so ", fun, "() cannot return them. Use ",
             "dpdt_tree(x, model) or predict(x, newdata, model = ) instead.")
  }
  if (x$labels != "keep") {
    stop_arg("`x` relabels its leaves by `data` (labels = \"relabel\"), but ",
             "a pruned ", source, " tree keeps the labels it was grown with; ",
             "prune with labels = \"keep\" to get one back.")
  }
}

# Warnings a careful colleague would give before the search: a factor or
# character predictor with (nearly) one level per row is most likely an
# identifier; splitting on it fits noise.
# Beyond that, a factor of many levels with few rows each: its level groups
# can separate almost any labels (on noise, 2,000 levels took the training
# error from 0.66 to 0.30), so its training losses flatter it.
warn_id_like <- function(mf, vars, xlevels) {
  n <- nrow(mf)
  for (v in intersect(vars, names(xlevels))) {
    k <- length(xlevels[[v]])
    if (n >= 10 && k >= 0.9 * n) {
      warning("Predictor `", v, "` has ", k, " distinct levels in ", n,
              " rows (nearly one per row): it looks like an identifier, and ",
              "splits on it fit noise. Drop it from the formula unless it ",
              "is meant.", call. = FALSE)
    } else if (k > 12 && n < 10 * k) {
      warning("Predictor `", v, "` has ", k, " levels for ", n, " rows (",
              format(n / k, digits = 2), " rows per level): its level groups can fit ",
              "noise, so the training losses flatter it. Merge rare levels, or ",
              "judge the trees by dpdt_cv().", call. = FALSE)
    }
  }
}

# After the search: a front holding only the single leaf, and why.
warn_leaf_only <- function(front, prepared, control) {
  if (nrow(front) > 1) return(invisible())
  y <- prepared$y
  name <- prepared$response
  why <- if (prepared$n_classes > 0 && length(unique(y)) == 1) {
    paste0("the response `", name, "` has a single class (\"",
           prepared$levels[y[1] + 1], "\") in the fitted rows, so no test can ",
           "lower the loss")
  } else if (prepared$n_classes == 0 && length(unique(y)) == 1) {
    paste0("the response `", name, "` is constant in the fitted rows")
  } else if (length(y) < 2 * control$min_bucket) {
    paste0("there are ", length(y), " fitted rows, fewer than 2 * min_bucket = ",
           2 * control$min_bucket, "; lower `min_bucket`")
  } else if (all(apply(prepared$x, 2, function(col) {
    length(unique(col)) <= 1
  }))) {
    "every predictor is constant in the fitted rows"
  } else {
    paste0("no tree of depth <= max_depth = ", control$max_depth,
           " built from the candidate tests has a lower training loss than ",
           "the single leaf",
           if (control$max_depth == 1) paste0(
             " (one split often leaves the majority class on both sides); ",
             "try a larger `max_depth`")
           else " (rows with equal predictors but different responses?)")
  }
  warning("The front holds only the single leaf: ", why, ".", call. = FALSE)
}

# Test costs: a named numeric vector, one non-negative cost per predictor
# (predictors not named cost 1). Returns one cost per engine feature, or
# NULL when complexity is not "cost".
check_test_cost <- function(test_cost, complexity, features) {
  if (is.null(test_cost)) return(NULL)
  vars <- unique(features$variable)
  if (!is.numeric(test_cost) || is.null(names(test_cost)) ||
      anyNA(test_cost) || any(!is.finite(test_cost)) || any(test_cost < 0) ||
      any(!nzchar(names(test_cost)))) {
    stop_arg("`test_cost` must be a named numeric vector of finite costs >= 0, ",
             "one per predictor, such as c(", vars[1], " = 5); got ",
             show_value(test_cost), ".")
  }
  bad <- setdiff(names(test_cost), vars)
  if (length(bad)) {
    stop_arg("`test_cost` names ", paste0("`", bad, "`", collapse = ", "),
             ", not predictor(s) of the formula; use names among ",
             paste0("`", utils::head(vars, 6), "`", collapse = ", "), ".")
  }
  if (anyDuplicated(names(test_cost))) {
    stop_arg("`test_cost` names a predictor twice; give one cost per predictor.")
  }
  if (complexity != "cost") {
    stop_arg("`test_cost` is used only with complexity = \"cost\" (got \"",
             complexity, "\"); drop `complexity` or set it to \"cost\".")
  }
  cost <- rep(1, length(vars))
  names(cost) <- vars
  cost[names(test_cost)] <- test_cost
  unname(cost[features$variable])
}

# Misclassification costs, as rpart's parms$loss: K x K, zero diagonal,
# non-negative, rows the true class and columns the prediction.
check_loss_matrix <- function(L, prepared) {
  if (is.null(L)) return(NULL)
  if (prepared$type != "classification") {
    stop_arg("`loss_matrix` needs a classification response; `",
             prepared$response, "` is numeric.")
  }
  K <- length(prepared$levels)
  if (!is.matrix(L) || !is.numeric(L) || !all(dim(L) == K) || anyNA(L) ||
      any(!is.finite(L)) || any(L < 0) || any(diag(L) != 0)) {
    stop_arg("`loss_matrix` must be a ", K, " x ", K, " numeric matrix (one ",
             "row and column per level of `", prepared$response, "`: ",
             paste(prepared$levels, collapse = ", "), ") of finite costs >= 0 ",
             "with a zero diagonal; rows are the true class, columns the ",
             "prediction.")
  }
  for (dn in dimnames(L)) {
    if (!is.null(dn) && !identical(as.character(dn), prepared$levels)) {
      stop_arg("`loss_matrix` has dimnames that are not the levels of `",
               prepared$response, "` in order (", paste(prepared$levels, collapse = ", "),
               "); reorder it or drop its dimnames.")
    }
  }
  unname(L) + 0
}

# Class priors, as rpart's parms$prior: positive, one per class, sum 1.
check_prior <- function(prior, prepared) {
  if (is.null(prior)) return(NULL)
  if (prepared$type != "classification") {
    stop_arg("`prior` needs a classification response; `", prepared$response,
             "` is numeric.")
  }
  K <- length(prepared$levels)
  if (!is.numeric(prior) || length(prior) != K || anyNA(prior) ||
      any(prior <= 0) || abs(sum(prior) - 1) > 1e-8) {
    stop_arg("`prior` must be ", K, " positive numbers summing to 1, one per ",
             "level of `", prepared$response, "` (",
             paste(prepared$levels, collapse = ", "), "); got ",
             show_value(prior), ".")
  }
  if (!is.null(names(prior)) && !identical(names(prior), prepared$levels)) {
    stop_arg("`prior` has names that are not the levels of `",
             prepared$response, "` in order; reorder it or drop its names.")
  }
  as.double(unname(prior))
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

# CART depths by tree depth when the user gives none: the paper's 5 up to
# depth 3; deeper trees narrow the proposals with depth (non-greedy choices
# matter most near the root), which keeps depth-4 and depth-5 fits on 50,000
# rows within about 15x rpart's time (bench/results/depth_schedule.md).
default_cart_depth <- function(max_depth) {
  if (max_depth <= 3) 5L else if (max_depth == 4) c(4L, 3L, 2L) else 2L
}
