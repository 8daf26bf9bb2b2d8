#' A pruned tree back in its own package's class
#'
#' `as_rpart()` returns a tree of a replacement pruning of an rpart tree as
#' an `rpart` object (made by [rpart::snip.rpart()] with the node numbers
#' the pruning turned into leaves), so that `printcp`, `rpart.plot` and
#' `predict.rpart` keep working. Its `cptable` is the pruned tree's own
#' cost-complexity sequence (weakest-link pruning of its nodes' risks;
#' columns `CP`, `nsplit`, `rel error`, without the cross-validated ones,
#' as rpart with `xval = 0`); as in rpart's own table, each of its rows is
#' the tree `prune(cp = CP)` returns, so a pruned tree whose last split
#' gains nothing is not a row of its own table. The `party` method of
#' [partykit::as.party()] does the same for a replacement pruning of a party
#' (made by [partykit::nodeprune()]). Other prunings go through the
#' conversion of any dpdt front ([as.party.dpdt()]), whose leaves predict
#' from the pruning rows they hold; a pruning that kept its source's labels
#' (`labels = "keep"`) on rows whose leaves would predict otherwise (rows
#' other than the source's training rows) is refused, with a pointer to
#' `labels = "relabel"`.
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
#'   small <- as_rpart(pr, model = 4)   # the best tree of 3 splits
#'   small
#'   table(rpart = predict(small, rpart::kyphosis, type = "class"),
#'         dpdt = predict(pr, rpart::kyphosis, model = 4))
#'   small$cptable                         # the pruned tree's own sequence
#' }
#' @export
as_rpart <- function(x, model = NULL) {
  check_back_conversion(x, "rpart", "as_rpart")
  check_installed("rpart", "return rpart trees")
  model <- resolve_model(x, model)
  toss <- x$cut_nodes[[model]]
  if (!length(toss)) return(x$original)
  out <- rpart::snip.rpart(x$original, toss = toss)
  seq <- snipped_cp(out)
  out$cptable <- seq$cptable
  out$frame$complexity <- seq$complexity
  out
}

# The cost-complexity sequence of a snipped rpart tree (snip.rpart() keeps
# the original's): weakest-link pruning on the frame's node risks (`dev`).
# `cptable` as rpart's reads, root first: CP (the penalty per split, over the
# root's risk, from which that tree is the best one), nsplit, rel error; no
# cross-validated columns (as rpart with xval = 0): this sequence was not
# cross-validated. `complexity`: the frame's column, each inner node's
# penalty at which it is cut (what rpart's prune() reads), leaves' kept.
snipped_cp <- function(fit) {
  fr <- fit$frame
  num <- as.numeric(rownames(fr))
  dev <- fr$dev
  root <- dev[1]
  # below[i, j]: node j is in the subtree of node i (node numbers halve up)
  below <- outer(num, num, function(a, b) {
    up <- b
    for (step in 1:60) up <- ifelse(up > a, up %/% 2, up)
    up == a
  })
  alive <- rep(TRUE, length(num))
  is_leaf <- fr$var == "<leaf>"
  complexity <- fr$complexity
  nsplit <- rel <- prune_at <- numeric(0)   # per tree, from the snipped one down
  repeat {
    inner <- which(alive & !is_leaf)
    nsplit <- c(nsplit, length(inner))
    rel <- c(rel, sum(dev[alive & is_leaf]) / root)
    if (!length(inner)) break
    leaves <- below[inner, , drop = FALSE] & rep(alive & is_leaf, each = length(inner))
    g <- as.vector((dev[inner] - leaves %*% dev) / (rowSums(leaves) - 1))
    prune_at <- c(prune_at, min(g))
    for (i in inner[g <= min(g) * (1 + 1e-12)]) {
      alive[below[i, ] & seq_along(num) != i] <- FALSE
      is_leaf[i] <- TRUE
      complexity[i] <- min(g) / root
    }
  }
  # tree k is the best one from penalty prune_at[k - 1] on; the snipped
  # tree from 0, written as the fit's own cp when that is below its weakest
  # link (as rpart writes its last row), else as 0 (prune(cp = ) cuts every
  # node of complexity <= cp, so at its weakest link it would not return it)
  first <- if (length(prune_at)) prune_at[1] / root else Inf
  cp <- c(if (fit$control$cp < first) fit$control$cp else 0, prune_at / root)
  k <- rev(seq_along(nsplit))
  out <- cbind(CP = cp[k], nsplit = nsplit[k], `rel error` = rel[k])
  # A tree whose CP equals the next smaller tree's is the best one for no
  # penalty (a weakest link that gains nothing): no prune(cp = ) returns it,
  # and rpart's own table never lists such a tree, so neither does this one.
  out <- out[!duplicated(out[, "CP"]), , drop = FALSE]
  rownames(out) <- seq_len(nrow(out))
  list(cptable = out, complexity = complexity)
}

# A party predicts from the rows it was fitted on: for a pruning that kept
# its source's labels, the pruning rows of each leaf. Refused where those
# give another prediction than the pruning (rows other than the source's
# training rows), or where a leaf has none of them: the party would not
# predict what predict() and the front's losses say.
check_party_keeps_labels <- function(obj, party, model) {
  model <- resolve_model(obj, model)
  mf <- obj$model_frame
  if (is.null(mf)) return(invisible())
  leaves <- which(front_tree(obj, model)$feature == 0L)
  empty <- setdiff(leaves, predict(obj, newdata = mf, model = model, type = "node"))
  ours <- predict(obj, newdata = mf, model = model)
  theirs <- predict(party, newdata = mf)
  differ <- if (obj$type == "classification") sum(as.character(ours) != as.character(theirs))
            else sum(abs(ours - theirs) > 1e-9 * pmax(1, abs(ours)))
  if (differ > 0 || length(empty)) {
    stop_arg("`obj` kept its source tree's leaf labels (labels = \"keep\") but was pruned on ",
             "other rows: a party predicts from the rows it holds, and would predict ",
             if (differ > 0) paste0("otherwise on ", differ, " of the ", nrow(mf), " pruning rows")
             else paste0("nothing in ", length(empty), " leaves none of them reach"),
             ". Prune with labels = \"relabel\" to have the party predict as the pruning ",
             "does, or convert an rpart tree's pruning with as_rpart().")
  }
  invisible()
}

#' @rdname as_rpart
#' @exportS3Method partykit::as.party
as.party.dpdt_prune <- function(obj, model = NULL, ...) {
  own <- inherits(obj, "dpdt_prune") && identical(obj$source, "party") &&
    identical(obj$method, "replace") && identical(obj$labels, "keep")
  # any other front: the general conversion of dpdt fronts, when there is one
  if (!own && exists("as.party.dpdt", envir = asNamespace("dpdt"), inherits = FALSE)) {
    party <- NextMethod()
    if (identical(obj$labels, "keep")) check_party_keeps_labels(obj, party, model)
    return(party)
  }
  check_back_conversion(obj, "party", "as.party")
  model <- resolve_model(obj, model)
  ids <- obj$cut_nodes[[model]]
  if (!length(ids)) return(obj$original)
  partykit::nodeprune(obj$original, ids = ids)
}
