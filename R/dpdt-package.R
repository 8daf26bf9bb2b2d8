#' dpdt: non-greedy decision trees and their Pareto fronts
#'
#' [dpdt_fit()] searches, by dynamic programming, over the trees that
#' greedy CART proposals (or every split) can build, and returns the whole
#' Pareto front of training loss against complexity; [dpdt_cv()] chooses a
#' tree from it; [dpdt_prune()] prunes any tree optimally for every size.
#' Start with `vignette("getting-started", package = "dpdt")`; the papers
#' behind the package are in `citation("dpdt")`.
#'
#' @section Glossary:
#' \describe{
#'   \item{front (Pareto front)}{The trees no other tree beats on both
#'     training loss and complexity, one row each of `fit$front`, from the
#'     single leaf (model 1) to the most accurate tree (the last row).}
#'   \item{complexity}{What a tree costs: `avg_tests`, the mean number of
#'     tests an observation goes through (`complexity = "tests"`, the
#'     default); `n_splits`, its internal nodes (`"splits"`, as rpart's
#'     `nsplit`); or `avg_cost`, the mean cost of its tests (`"cost"`, with
#'     `test_cost`).}
#'   \item{candidate splits}{The splits the search may use in a node: those
#'     of a small greedy CART tree grown on the node's rows (`cart_depth`),
#'     the node's own best split, and in the last level (`exact_levels`)
#'     every split. The front is exact over them.}
#'   \item{exhaustive, provably optimal}{With `candidates = "exhaustive"`
#'     every split is a candidate, and each tree of the front is the
#'     least-loss tree of its complexity among all trees of the depth
#'     (`fit$optimality` says whether that was proven).}
#'   \item{convex hull, alpha}{The trees of the front that minimise
#'     `train_loss + alpha * complexity` for some penalty `alpha`; their
#'     intervals are `alpha_min`, `alpha_max` (rpart's `cp` is `alpha` over
#'     the root's loss). Trees off the hull (`NA` there) are on the front
#'     but no penalty picks them.}
#'   \item{default tree}{The tree `predict()` uses without `model =`: for a
#'     fit the one rpart's `cp = 0.01` keeps, for a CV result the one-SE
#'     choice, for a pruning front the unpruned tree.}
#'   \item{one-SE rule}{The simplest tree whose cross-validated loss is
#'     within one standard error of the least one (rpart, glmnet).}
#'   \item{min_bucket}{The fewest training rows a leaf may hold (default 5).}
#' }
#'
#' @useDynLib dpdt, .registration = TRUE
#' @importFrom Rcpp sourceCpp
"_PACKAGE"
