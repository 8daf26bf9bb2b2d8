# Checks of cross-validation's inputs: the x interface, the folds, the fold
# ids and the validation frame.

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

# dpdt_cv() chooses among a front's trees: a fit, or dpdt_fit() arguments,
# with best_only = TRUE (the leaf and one tree) is refused before any
# search runs.
check_cv_best_only <- function(x, best_only, env) {
  given <- if (inherits(x, "dpdt")) isTRUE(x$control$best_only)
           else !is.null(best_only) && isTRUE(eval(best_only, env))
  if (given) {
    stop_arg("dpdt_cv() chooses among the trees of a front, and a fit with ",
             "`best_only = TRUE` holds only the leaf and the most accurate tree: ",
             "cross-validate a fit without best_only.")
  }
}
