# Checks of the data a fit or a prediction is given: the data frame, the
# formula's variables, the response, the predictors, the weights and new
# data; warnings for columns that look like row ids.

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

check_newdata <- function(newdata) {
  if (!is.data.frame(newdata)) {
    stop_arg("`newdata` must be a data frame; got ", describe(newdata),
             ". Convert it with as.data.frame().")
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
