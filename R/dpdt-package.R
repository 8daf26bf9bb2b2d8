#' dpdt: non-greedy decision trees and their Pareto fronts
#'
#' `dpdt_fit()` searches, by dynamic programming, over every tree that
#' greedy CART proposals (or all splits) can build, and returns the whole
#' Pareto front of training loss against complexity. See
#' `vignette("getting-started", package = "dpdt")`.
#'
#' @keywords internal
#' @useDynLib dpdt, .registration = TRUE
#' @importFrom Rcpp sourceCpp
"_PACKAGE"
