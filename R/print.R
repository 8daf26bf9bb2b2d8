#' Print a dpdt fit
#'
#' Shows the call, the data, the search settings and the front, one row
#' per Pareto-optimal tree (like glmnet's print). A front of more than 40
#' trees (deep searches return thousands) is shown by its convex-hull trees
#' only, with a note; `as.data.frame(x)` always has them all.
#'
#' @param x A `"dpdt"` fit from [dpdt_fit()].
#' @param digits Significant digits of the front's numbers.
#' @param ... Not used.
#' @return `x`, invisibly.
#' @examples
#' dpdt_fit(Species ~ ., data = iris, max_depth = 2)
#' @export
print.dpdt <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  print_fit_header(x)
  cat("\n")
  print_front(x$front, digits)
  invisible(x)
}

# The call, the data and the search, for every producer built on a fit.
print_fit_header <- function(x, call = x$call) {
  cat("\nCall:  ", paste(deparse(call), collapse = "\n"), "\n\n", sep = "")
  cat(sprintf("%s of `%s` on %d rows, %d predictors (%d features)\n",
              capitalise(x$type), x$response, x$nobs,
              length(unique(x$features$variable)), nrow(x$features)))
  cat(search_settings(x$control, x$type), "\n", sep = "")
  m <- resolve_model(x, NULL)
  why <- if (inherits(x, "dpdt_cv")) "the one-SE choice"
         else if (isTRUE(x$control$best_only)) "the most accurate, best_only = TRUE"
         else if (!is.null(x$cost_complexity)) paste0("cost_complexity = ", format(x$cost_complexity))
         else "the tree rpart's cp = 0.01 keeps"
  cat(sprintf("Searched %s states in %s s; %d %s (default: model %d, %s)\n",
              format(x$n_states, big.mark = ","),
              format(x$seconds, digits = 2), nrow(x$front),
              if (isTRUE(x$control$best_only)) "trees: the leaf and the most accurate"
              else "Pareto-optimal trees", m, why))
  if (!is.null(x$optimality)) cat("The front is ", x$optimality$statement, "\n", sep = "")
  tl <- x$time_limit
  if (!is.null(tl) && !tl$complete) {
    cat(sprintf("time_limit = %s s reached: searched with %s, not %s%s\n",
                format(tl$seconds), tl$searched, tl$asked,
                if (isTRUE(tl$found > 0)) sprintf(" (%d tree(s) from the stopped %s)",
                                                  tl$found, tl$asked) else ""))
    if (isTRUE(tl$lower_bound > 0))
      cat(sprintf("Proven: no tree of the search asked for has training loss below %s (gap %s)\n",
                  signif(tl$lower_bound, 4), signif(tl$gap, 3)))
  }
}

capitalise <- function(s) paste0(toupper(substring(s, 1, 1)), substring(s, 2))

# One line summarising the options of the search (the criterion only
# matters for classification, so regression does not show it).
search_settings <- function(ctl, type) {
  paste0("Search: max_depth ", ctl$max_depth,
         ", cart_depth ", paste(ctl$cart_depth, collapse = "/"),
         if (!is.null(ctl$exact_levels) && ctl$exact_levels > 1 &&
             ctl$candidates == "cart") paste0(", exact_levels ", ctl$exact_levels),
         ", candidates ", ctl$candidates, ", complexity ", ctl$complexity,
         if (type == "classification") paste0(", criterion ", ctl$criterion),
         ", min_bucket ", ctl$min_bucket,
         if (is.numeric(ctl$max_bins) && is.finite(ctl$max_bins)) paste0(", max_bins ", ctl$max_bins),
         ", threads ", ctl$threads)
}

# The front, printed on one line per tree (its nine columns need a little
# more than 80 characters). Deep searches return thousands of trees: beyond
# `max_rows`, only the trees on the convex hull are shown (the first and
# last of them if they are still too many), with a note saying so; rows
# `keep` (e.g. chosen trees) are always shown.
print_front <- function(front, digits, max_rows = 40L, keep = integer(0),
                        what = "Pareto-optimal trees") {
  op <- options(width = max(getOption("width"), 100L))
  on.exit(options(op))
  rows <- seq_len(nrow(front))
  if (length(rows) > max_rows) {
    rows <- which(!is.na(front$alpha_min))
    if (length(rows) > max_rows) {
      half <- max_rows %/% 2
      rows <- rows[c(seq_len(half), length(rows) - rev(seq_len(half)) + 1L)]
    }
    first_last <- length(rows) < sum(!is.na(front$alpha_min))
    rows <- sort(unique(c(rows, keep)))
    cat(sprintf(paste0("Showing %d of the %d %s (those on the ",
                       "convex hull%s%s); all are in as.data.frame(x).\n"),
                length(rows), nrow(front), what,
                if (first_last) ", first and last" else "",
                if (length(keep)) ", and the chosen ones" else ""))
  }
  print(front[rows, ], digits = digits, row.names = FALSE)
}
