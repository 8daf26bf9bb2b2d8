# Small methods users expect of a fitted model in R.

#' Methods for dpdt fits
#'
#' `as.data.frame()` returns the front (the same as `x$front`), `nobs()`
#' the number of rows with positive weight used in the fit, `formula()`
#' the model formula (with `.` expanded), `model.frame()` the model frame
#' of the fit. `fitted()` gives one tree's predictions on the training rows
#' (classes, or means), `residuals()` the response minus the fitted mean
#' (regression) or 1 for a misclassified row and 0 otherwise
#' (classification, as rpart's); both are padded with `NA` for rows dropped
#' by `na.action = na.exclude`.
#'
#' @param x,object,formula A `"dpdt"` fit from [dpdt_fit()].
#' @param model Which tree of the front (a row number); `NULL` is the
#'   object's default tree (for a fit the one rpart's default cp keeps), as in
#'   [predict.dpdt()].
#' @param row.names,optional Ignored (the front has its own `model` column).
#' @param ... Not used.
#' @examples
#' fit <- dpdt_fit(mpg ~ wt + hp, data = mtcars, max_depth = 2)
#' as.data.frame(fit)
#' nobs(fit)
#' formula(fit)
#' head(fitted(fit, model = 2))
#' head(residuals(fit, model = 2))
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

#' @rdname dpdt-methods
#' @importFrom stats model.frame
#' @export
model.frame.dpdt <- function(formula, ...) formula$model_frame

#' @rdname dpdt-methods
#' @importFrom stats fitted
#' @export
fitted.dpdt <- function(object, model = NULL, ...) {
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "fitted")
  predict(object, model = model)
}

#' @rdname dpdt-methods
#' @importFrom stats residuals
#' @export
residuals.dpdt <- function(object, model = NULL, ...) {
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "residuals")
  model <- resolve_model(object, model)
  mf <- object$model_frame
  type <- if (object$type == "classification") "class" else "response"
  pred <- predict_frame(object, mf, model, type)
  y <- stats::model.response(mf)
  res <- if (object$type == "classification") {
    as.numeric(as.character(pred) != as.character(y))
  } else {
    y - pred
  }
  stats::naresid(object$na.action, res)
}
