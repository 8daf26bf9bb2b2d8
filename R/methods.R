# Small methods users expect of a fitted model in R.

#' Methods for dpdt fits
#'
#' `as.data.frame()` returns the front (the same as `x$front`), `nobs()`
#' the number of rows with positive weight used in the fit, `formula()`
#' the model formula (with `.` expanded).
#'
#' @param x,object A `"dpdt"` fit from [dpdt_fit()].
#' @param row.names,optional Ignored (the front has its own `model` column).
#' @param ... Not used.
#' @examples
#' fit <- dpdt_fit(mpg ~ wt + hp, data = mtcars, max_depth = 2)
#' as.data.frame(fit)
#' nobs(fit)
#' formula(fit)
#' @name dpdt-methods
NULL

#' @rdname dpdt-methods
#' @export
as.data.frame.dpdt <- function(x, row.names = NULL, optional = FALSE, ...) {
  x$front
}

#' @rdname dpdt-methods
#' @importFrom stats nobs
#' @export
nobs.dpdt <- function(object, ...) object$nobs

#' @rdname dpdt-methods
#' @importFrom stats formula
#' @export
formula.dpdt <- function(x, ...) stats::formula(x$terms)
