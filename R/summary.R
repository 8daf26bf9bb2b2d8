#' Summarise a dpdt fit
#'
#' @param object A `"dpdt"` fit from [dpdt_fit()] (or a [dpdt_cv()] result).
#' @param model The tree to show in full; `NULL` (default) is the object's
#'   default tree (for a fit the one rpart's default `cp = 0.01` keeps;
#'   for a [dpdt_cv()] result the one-SE choice).
#' @param x A `"summary.dpdt"` object.
#' @param digits Significant digits of the front's numbers.
#' @param ... Not used.
#' @return An object of class `"summary.dpdt"`: a list with `call`,
#'   `type`, `nobs`, `control`, `n_states`, `seconds`, `front` and `tree`
#'   (a [dpdt_tree()]). Its print method shows the front and the tree's
#'   rules.
#' @examples
#' fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
#' summary(fit)
#' @export
summary.dpdt <- function(object, model = NULL, ...) {
  call <- if (!is.null(object$cv_call)) object$cv_call else object$call
  structure(list(call = call, type = object$type, nobs = object$nobs,
                 response = object$response, control = object$control,
                 n_states = object$n_states, seconds = object$seconds,
                 front = object$front, tree = dpdt_tree(object, model)),
            class = "summary.dpdt")
}

#' @rdname summary.dpdt
#' @export
print.summary.dpdt <- function(x, digits = max(3L, getOption("digits") - 3L),
                               ...) {
  cat("\nCall:  ", paste(deparse(x$call), collapse = "\n"), "\n\n", sep = "")
  cat(sprintf("%s of `%s` on %d rows\n", capitalise(x$type),
              x$response, x$nobs))
  cat(search_settings(x$control, x$type), "\n", sep = "")
  cat(sprintf("Searched %s states in %s s\n\nPareto front:\n",
              format(x$n_states, big.mark = ","), format(x$seconds, digits = 2)))
  print_front(x$front, digits)
  cat("\n")
  print(x$tree, digits = digits)
  invisible(x)
}
