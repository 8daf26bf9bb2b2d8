#' A pruned tree back in its own package's class
#'
#' `as_rpart()` returns a tree of a replacement pruning of an rpart tree as
#' an `rpart` object (made by [rpart::snip.rpart()] with the node numbers
#' the pruning turned into leaves), so that `printcp`, `rpart.plot` and
#' `predict.rpart` keep working. The `party` method of
#' [partykit::as.party()] does the same for a replacement pruning of a party
#' (made by [partykit::nodeprune()]).
#'
#' Both need `method = "replace"` and `labels = "keep"` in [dpdt_prune()]:
#' raised trees are not subtrees of the source tree, and relabelled leaves
#' are not what the source package predicts. For those, use [dpdt_tree()]
#' and `predict()` on the front itself (a conversion of any dpdt front to
#' `party` comes with `as.party()` for dpdt fronts). The returned rpart or
#' party object routes missing values by its own rules (rpart: surrogates).
#'
#' @param x A `"dpdt_prune"` front from [dpdt_prune()] of an rpart tree
#'   (`as_rpart()`) or of a party (`as.party()`).
#' @param obj The same, for `as.party()`.
#' @param model Which tree: a row of `x$front` (`NULL`: the default, the
#'   unpruned tree).
#' @param ... Not used.
#' @return An `rpart` object, or a `party` object.
#' @examples
#' if (requireNamespace("rpart", quietly = TRUE)) {
#'   tr <- rpart::rpart(Kyphosis ~ ., data = rpart::kyphosis, cp = 0,
#'                      minsplit = 5)
#'   pr <- dpdt_prune(tr, rpart::kyphosis)
#'   small <- as_rpart(pr, model = nrow(pr$front) - 3)
#'   small
#'   table(rpart = predict(small, rpart::kyphosis, type = "class"),
#'         dpdt = predict(pr, rpart::kyphosis, model = nrow(pr$front) - 3))
#' }
#' @export
as_rpart <- function(x, model = NULL) {
  check_back_conversion(x, "rpart", "as_rpart")
  check_installed("rpart", "return rpart trees")
  model <- resolve_model(x, model)
  toss <- x$cut_nodes[[model]]
  if (!length(toss)) return(x$original)
  rpart::snip.rpart(x$original, toss = toss)
}

#' @rdname as_rpart
#' @exportS3Method partykit::as.party
as.party.dpdt_prune <- function(obj, model = NULL, ...) {
  own <- inherits(obj, "dpdt_prune") && identical(obj$source, "party") &&
    identical(obj$method, "replace") && identical(obj$labels, "keep")
  # any other front: the general conversion of dpdt fronts, when there is one
  if (!own && exists("as.party.dpdt", envir = asNamespace("dpdt"), inherits = FALSE)) {
    return(NextMethod())
  }
  check_back_conversion(obj, "party", "as.party")
  model <- resolve_model(obj, model)
  ids <- obj$cut_nodes[[model]]
  if (!length(ids)) return(obj$original)
  partykit::nodeprune(obj$original, ids = ids)
}
