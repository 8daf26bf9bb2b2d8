#' Print a dpdt fit
#'
#' Shows the call, the data, the search settings and the front, one row
#' per Pareto-optimal tree (like glmnet's print).
#'
#' @param x A `"dpdt"` fit from [dpdt_fit()].
#' @param digits Significant digits of the front's numbers.
#' @param ... Not used.
#' @return `x`, invisibly.
#' @examples
#' dpdt_fit(Species ~ ., data = iris, max_depth = 2)
#' @export
print.dpdt <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat("\nCall:  ", paste(deparse(x$call), collapse = "\n"), "\n\n", sep = "")
  cat(sprintf("%s of `%s` on %d rows, %d predictors (%d features)\n",
              capitalise(x$type), x$response, x$nobs,
              length(unique(x$features$variable)), nrow(x$features)))
  cat(search_settings(x$control, x$type), "\n", sep = "")
  cat(sprintf("Searched %s states in %s s; %d Pareto-optimal trees (default: model %d)\n\n",
              format(x$n_states, big.mark = ","),
              format(x$seconds, digits = 2), nrow(x$front), nrow(x$front)))
  print_front(x$front, digits)
  invisible(x)
}

capitalise <- function(s) paste0(toupper(substring(s, 1, 1)), substring(s, 2))

# One line summarising the options of the search (the criterion only
# matters for classification, so regression does not show it).
search_settings <- function(ctl, type) {
  paste0("Search: max_depth ", ctl$max_depth,
         ", cart_depth ", paste(ctl$cart_depth, collapse = "/"),
         ", candidates ", ctl$candidates, ", complexity ", ctl$complexity,
         if (type == "classification") paste0(", criterion ", ctl$criterion),
         ", min_bucket ", ctl$min_bucket, ", threads ", ctl$threads)
}

# The front, printed on one line per tree
# (its nine columns need a little more than 80 characters).
print_front <- function(front, digits) {
  op <- options(width = max(getOption("width"), 100L))
  on.exit(options(op))
  print(front, digits = digits, row.names = FALSE)
}
