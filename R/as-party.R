#' Convert a tree of a front to a partykit party
#'
#' `partykit::as.party()` turns one tree of a front (a fit, a pruning or a
#' cross-validation result) into a `"constparty"`, so that partykit's
#' printing, plotting (and ggparty's) and prediction work on it. Modelled
#' on partykit's own `as.party()` method for rpart trees: the nodes keep
#' dpdt's ids (so `predict(party, type = "node")` equals
#' `predict(fit, type = "node")`), numeric tests are `partysplit`s with
#' `breaks = threshold` (`x <= threshold` goes to the first kid), logical
#' ones `breaks = 0.5`, factor tests an `index` mapping every level of the
#' variable to its kid.
#'
#' The fitted data are the front's training rows (its `model_frame`): the
#' leaf each row reaches (`"(fitted)"`), the response and the case
#' weights, so that predictions (class, class probabilities, mean) are the
#' leaves' training statistics, as in dpdt. A front without a model frame
#' gets instead one weighted row per leaf and class (per leaf, in
#' regression), which gives the same predictions.
#'
#' Missing values go where dpdt sends them: the side the test learned, or
#' the kid with more training weight (`prob` of the split is 1 on that
#' side). A level of the party's factor that the tree never saw in training
#' goes the same way (as `predict(unseen = "missing")` in dpdt); a level new
#' to the factor itself is refused by partykit's `predict()` ("factor ... has
#' new level"), as by other R models. partykit prints thresholds rounded to
#' its `digits` (`getOption("digits") - 2` decimals): [dpdt_tree()] and
#' [dpdt_rules()] write them exactly.
#'
#' @param model Which tree: a row of `obj$front`; `NULL` is the object's
#'   default tree.
#' @param data Keep the training data in the party (`TRUE`) or only an
#'   empty frame with its columns.
#' @param ... Not used.
#' @return An object of class `c("constparty", "party")`.
#' @seealso [dpdt_rules()], [dpdt_sql()].
#' @examples
#' if (requireNamespace("partykit", quietly = TRUE)) {
#'   fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
#'   p <- partykit::as.party(fit)
#'   p
#'   all.equal(predict(p, iris), predict(fit, iris), check.attributes = FALSE)
#' }
#' @name as.party.dpdt
as.party.dpdt <- function(obj, model = NULL, data = TRUE, ...) {
  if (!requireNamespace("partykit", quietly = TRUE)) {
    stop_arg("as.party() needs the partykit package; install it.")
  }
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "as.party")
  check_flag(data, "data")
  model <- resolve_model(obj, model)
  tr <- front_tree(obj, model)
  frame <- party_frame(obj)
  fitted <- if (is.null(obj$model_frame)) leaf_rows(obj, tr)
            else training_rows(obj, tr, frame)
  node <- party_node(obj, tr, 1L, frame)
  out <- partykit::party(node, data = if (data) frame else frame[0L, , drop = FALSE],
                         fitted = fitted, terms = obj$terms,
                         info = list(method = "dpdt", model = model))
  class(out) <- c("constparty", class(out))
  out
}

#' @rdname as.party.dpdt
#' @param obj A front of trees (class `"dpdt"`), or one of its trees taken
#'   out with [dpdt_tree()] (class `"dpdt_tree"`; `model` is then unused).
as.party.dpdt_tree <- function(obj, model = NULL, data = TRUE, ...) {
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "as.party")
  if (is.null(obj$terms)) {
    stop_arg("`obj` is a dpdt_tree without its model's terms (made by an older ",
             "dpdt); take it out of its front again with dpdt_tree().")
  }
  as.party.dpdt(tree_as_front(obj), model = 1L, data = data)
}

# The predictor columns the party's splits refer to: the model frame's
# (characters made factors, as partykit needs), or an empty frame of the
# right classes and levels when the front keeps no model frame.
party_frame <- function(obj) {
  vars <- predictor_names(obj$terms)
  mf <- obj$model_frame
  if (is.null(mf)) {
    cols <- lapply(vars, function(v) {
      kind <- obj$features$kind[match(v, obj$features$variable)]
      lev <- obj$xlevels[[v]]
      switch(kind, numeric = numeric(0), logical = logical(0),
             ordered = factor(character(0), levels = lev, ordered = TRUE),
             factor(character(0), levels = lev))
    })
    names(cols) <- vars
    return(as.data.frame(cols, check.names = FALSE, stringsAsFactors = FALSE))
  }
  frame <- mf[, vars, drop = FALSE]
  for (v in vars) if (is.character(frame[[v]])) frame[[v]] <- factor(frame[[v]])
  frame
}

# "(fitted)", "(response)", "(weights)" of the training rows; rows that
# reach no leaf (a missing value where a test has no side) are left out.
training_rows <- function(obj, tr, frame) {
  mf <- obj$model_frame
  leaf <- cpp_route(feature_matrix(mf, obj$features, obj$xlevels), tr)
  out <- data.frame(`(fitted)` = as.integer(leaf), check.names = FALSE)
  out[["(response)"]] <- party_response(obj, stats::model.response(mf))
  w <- stats::model.weights(mf)
  if (!is.null(w)) out[["(weights)"]] <- as.double(w)
  out[!is.na(leaf), , drop = FALSE]
}

# One row per leaf and class with weight the leaf's class weight
# (classification), or per leaf with its mean and weight (regression).
leaf_rows <- function(obj, tr) {
  leaves <- which(tr$feature == 0L)
  if (obj$type == "classification") {
    k <- length(obj$levels)
    g <- expand.grid(class = seq_len(k), leaf = leaves)
    w <- tr$class_weight[cbind(g$leaf, g$class)]
    keep <- w > 0
    out <- data.frame(`(fitted)` = g$leaf[keep], check.names = FALSE)
    out[["(response)"]] <- factor(obj$levels[g$class[keep]], levels = obj$levels)
    out[["(weights)"]] <- w[keep]
    return(out)
  }
  out <- data.frame(`(fitted)` = leaves, check.names = FALSE)
  out[["(response)"]] <- tr$value[leaves]
  out[["(weights)"]] <- tr$weight[leaves]
  out
}

party_response <- function(obj, y) {
  if (obj$type == "classification") factor(as.character(y), levels = obj$levels)
  else as.double(y)
}

# partynode for node i and, recursively, its kids.
party_node <- function(obj, tr, i, frame) {
  if (tr$feature[i] == 0L) return(partykit::partynode(i))
  kids <- list(party_node(obj, tr, tr$left[i], frame),
               party_node(obj, tr, tr$right[i], frame))
  partykit::partynode(i, split = party_split(obj, tr, i, frame), kids = kids)
}

# The test at node i as a partysplit; `prob` sends missing values (and
# levels unknown to the tree) to the learned side, else the heavier kid.
party_split <- function(obj, tr, i, frame) {
  s <- node_split(tr, i, obj$features, obj$xlevels)
  varid <- match(s$variable, names(frame))
  na_left <- if (is.na(s$na_left)) tr$weight[tr$left[i]] >= tr$weight[tr$right[i]]
             else s$na_left
  prob <- if (na_left) c(1, 0) else c(0, 1)
  if (s$kind == "numeric") {
    return(partykit::partysplit(varid, breaks = s$threshold, right = TRUE, prob = prob))
  }
  if (s$class == "logical") {
    return(partykit::partysplit(varid, breaks = 0.5, right = TRUE, prob = prob))
  }
  lev <- levels(frame[[varid]])
  index <- rep(NA_integer_, length(lev))
  index[lev %in% s$left_levels] <- 1L
  index[lev %in% s$right_levels] <- 2L
  partykit::partysplit(varid, index = index, prob = prob)
}
