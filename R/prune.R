#' Prune a tree optimally: the best pruned tree of every size
#'
#' Returns, for every number `k` of pruned internal nodes (splits), a pruned
#' tree with the fewest errors on `data`, provably, computed in one pass by
#' dynamic programming (the algorithms of Harviainen, Sommer, Sorge and
#' Szeider, 2025; see `citation("dpdt")` and the section Algorithms). The
#' result is a front of trees that behaves like a [dpdt_fit()] front, ordered
#' the same way (model 1 the single leaf, the last row the unpruned tree):
#' `print()`, `predict(x, newdata, model = )`, [dpdt_tree()], `fitted()`,
#' `as.data.frame()` work on it.
#'
#' **Methods.** `"replace"` (subtree replacement): a node's subtree becomes
#' one leaf. Rows keep the path they had, so errors are counted exactly with
#' the source tree's own routing (for rpart, its surrogate splits). The
#' trees of rpart's cost-complexity sequence (`prune(fit, cp = )`) are
#' among the replacement prunings: the front matches each of them with as
#' few or fewer errors and also has every size in between.
#'
#' `"raise"` (subtree raising, as in C4.5): a node is replaced by the
#' subtree of one of its children, whose tests then see all rows that
#' reached the node. Its program can grow exponentially with the depth of
#' the tree, so it is counted first and refused above `max_states`; it can
#' be interrupted (Ctrl-C, [setTimeLimit()]) within a fraction of a second.
#' Rows are routed by the tree's tests with one side for missing values per
#' split (see "Missing values").
#'
#' **Labels.** `labels = "keep"`: every leaf predicts the label the source
#' tree gives that node (for a replacement leaf, the source tree's label of
#' the node it replaces: rpart's `yval`, the training majority or mean).
#' With `data` the training rows this is the classical setting; with a
#' separate pruning set it is reduced-error pruning. `labels = "relabel"`:
#' every leaf predicts the majority class (mean) of the rows of `data` that
#' reach it. Then errors never decrease as more splits are pruned, and
#' raising is never worse than replacement.
#'
#' **Missing values.** No row of `data` is dropped from the error count.
#' dpdt trees: every split has a side for missing values (the learned one,
#' or the child with the larger training weight), so such rows are counted
#' and predicted by it. rpart trees: replacement counts errors with rpart's
#' own routing (surrogates, then the majority direction; a row rpart stops
#' in an inner node is counted with that node's label); raising and
#' `predict()` on the front use one side per split, rpart's majority
#' direction (the child with more training rows, the left one on ties), so
#' predictions of rows with missing values can differ from rpart's. party
#' trees: one side per split, the kid with the larger split probability
#' `prob` (partykit would draw a kid at random), surrogates unused, for
#' counting and predicting alike. A split that has no side for a missing
#' value (a hand-made tree) cannot count such a row: that is an error.
#'
#' @section Algorithms:
#' Write \eqn{E(v)} for the rows of `data` that reach node \eqn{v},
#' \eqn{c_v} for the number of splits in the subtree of \eqn{v}, and
#' \eqn{u, w} for its children.
#'
#' *Replacement.* \eqn{opt(v, j)}, the least errors on \eqn{E(v)} when
#' exactly \eqn{j} splits of the subtree of \eqn{v} are pruned, is
#' \eqn{opt(v, c_v) = } the errors of \eqn{v} made a leaf, and for
#' \eqn{j < c_v} the least \eqn{opt(u, a) + opt(w, b)} over
#' \eqn{a + b = j}; at a leaf, its errors. One pass from the leaves up (a
#' tree knapsack, \eqn{O(s^2)} for \eqn{s} splits) gives
#' \eqn{opt(root, \cdot)}, the whole front; the choices kept rebuild the
#' tree of any size. When the errors are whole numbers that never grow when
#' a node is split and that table is smaller, the same front comes from
#' the dual program indexed by errors, \eqn{P(v, e)}, the most splits
#' prunable with at most \eqn{e} errors. Rows reach their nodes by plain
#' or heavy-light routing (\eqn{O(d \log^2 s)} per row for \eqn{d}
#' features, for deep unbalanced trees).
#'
#' *Raising.* A box \eqn{B} gives each feature an interval between two of
#' the tree's thresholds on it (and level sets for factors); \eqn{E[B]} are
#' the rows inside it. \eqn{Q(v, B, j)}, the least errors on \eqn{E[B]} of a
#' tree made from the subtree of \eqn{v} by raising, with exactly \eqn{j}
#' splits pruned, is the least of: \eqn{Q(u, B, j - c_w - 1)} (raise
#' \eqn{u}), \eqn{Q(w, B, j - c_u - 1)} (raise \eqn{w}), and
#' \eqn{Q(u, B_u, a) + Q(w, B_w, b)} over \eqn{a + b = j} (keep \eqn{v};
#' \eqn{B_u}, \eqn{B_w}: \eqn{B} cut by \eqn{v}'s test); at a leaf, its
#' errors on \eqn{E[B]}. Only the (node, box) pairs that occur are
#' computed, from the root down.
#'
#' @section Ensembles:
#' `tree` may be a list of trees (as above; each fit's default tree), or a
#' `ranger` or `randomForest` forest (classification or regression, grown
#' with its trees kept), whose trees vote by majority (classification; a
#' tie goes to the first class in the levels' order, where ranger and
#' randomForest break ties at random) or are averaged (regression). The
#' front then has, for each total number of splits kept over all the trees,
#' the least loss on `data` of the ensemble pruned by replacement that the
#' search found (each node made a leaf predicts the source tree's label of
#' it: for a forest's inner node, which carries none, the majority class or
#' mean of the rows of `data` reaching it; rows are routed with one side per
#' split for missing values, as `predict()` routes them; a forest's
#' predictors must have none). Pruning an ensemble is NP-hard already for
#' two trees (the same paper, by a reduction from biclique). Up to
#' `max_states` joint prunings the front is exact by enumeration: every
#' distinct prediction of each tree's prunings, every combination of the
#' trees, for every total number of splits (a full binary tree of depth 2
#' has 5 prunings, of depth 3 26, of depth 4 677; time grows with the
#' combinations times the rows). Beyond that (every forest) it is a
#' heuristic, block-coordinate descent: the other trees fixed, each row
#' has a cost for each class the tree may vote (or each value), and the
#' single-tree replacement program prunes the tree exactly for those costs
#' plus a penalty per split kept; the penalty rises in 40 steps from a
#' tenth of the lightest row's weight over all the splits (with equal
#' weights and classes the first joint pruning loses no more than the whole
#' ensemble on `data`) to what every tree a leaf loses (the total weight, or
#' in regression the squared error of the roots' mean), each step from the
#' last one's pruning, up to 4 passes over the trees each; every joint
#' pruning a pass ends with is a real one, and the front is their Pareto
#' set, with every tree a leaf as its first point. Each point then has `lower_bound`, a proven floor of the
#' least loss of any joint pruning keeping as many splits, and `gap`, how
#' far the point may be from the optimum: a row is voted right only when
#' enough trees vote its class (half of them with two classes), and a tree
#' votes a class on a row only when a node of that class on the row's path
#' is a leaf, which keeps every split above it; so a row whose cheapest
#' winning votes need more splits is wrong at that budget (with 500 trees
#' and two classes, no row the roots vote wrong is right with fewer than
#' 250 splits). For regression the floor is the distance of each row to
#' the mean of its paths' least and greatest labels, at any budget (weak).
#' The result, class `c("dpdt_prune_ensemble", "dpdt")`, has the front's
#' columns (`n_splits` the total kept, `n_leaves` the total, `depth` the
#' deepest tree, `avg_tests` the mean tests over all the trees, and
#' `splits_by_tree`, such as `"2+0+1"`, or with more than 20 trees
#' `trees_split`, how many keep a split; heuristic fronts also
#' `lower_bound` and `gap`) and `ensemble` (the members, the nodes each
#' point cuts in each tree, whether the front is exact, and the counts);
#' `predict()` votes the pruned trees (`type = "prob"`: the shares of their
#' votes); a point is not one tree, so [dpdt_tree()] and tree plots refuse
#' it. Losses on `data` flatter a pruning chosen on them: choose the budget
#' on other rows (see `vignette("pruning")`).
#'
#' @param tree A tree: a `"dpdt"` front (a [dpdt_fit()] fit or any
#'   `"dpdt"` object; pick its tree with `model`), an `rpart` tree
#'   (methods `"class"` and `"anova"`), or a partykit `constparty` (ctree,
#'   evtree, `as.party(rpart)`), binary splits. Or an ensemble: a list of
#'   such trees, or a `ranger` or `randomForest` forest (see Ensembles).
#' @param data Data frame with the response and the predictors: the rows
#'   errors are counted on (the training data or a separate pruning set).
#'   Missing: the fit's own rows for a dpdt fit or a party that kept its
#'   data; for an rpart tree, its training rows: its model frame
#'   (`rpart(model = TRUE)`), else the data its call names, found again in
#'   the formula's environment and used only if they match the tree (as
#'   many rows, the same response and case weights, and each row in the
#'   leaf `where` records). Subtree raising needs the kept model frame or
#'   `data`: it routes rows by tests the leaves do not check.
#' @param method `"replace"` (subtree replacement) or `"raise"` (subtree
#'   raising).
#' @param labels `"keep"` (leaves predict the source tree's labels) or
#'   `"relabel"` (leaves predict the majority / mean of `data`).
#' @param weights Optional non-negative case weights, one per row of `data`,
#'   evaluated in `data`. Missing `data` uses the fit's own weights.
#' @param model For a dpdt front, which of its trees to prune (a row of its
#'   front; `NULL`: its default tree).
#' @param max_states Most (node, box) states raising may use (memory grows
#'   with it, roughly 100 bytes plus 12 bytes per pruned-size entry each);
#'   for an ensemble, the most joint prunings enumerated (beyond: the
#'   heuristic; see Ensembles).
#' @param ... Only for tests and benchmarks: `index` (`"auto"`, `"pruned"`,
#'   `"errors"`: which replacement program) and `routing` (`"auto"`,
#'   `"plain"`, `"heavy"`: plain or heavy-light routing of rows to leaves;
#'   `"auto"` times both on the first rows and uses the faster one) and
#'   `lazy` (`TRUE`, the default: replacement trees are built when one is
#'   asked for; `FALSE`: also keep every tree as a list in `trees`).
#'   Anything else is an error.
#'
#' @return An object of class `c("dpdt_prune", "dpdt")`, a front object
#'   whose `front` has one row per number of pruned splits `k = s, ..., 0`,
#'   ordered as a fit's front from the simplest tree: model 1 is the single
#'   leaf (all `s` splits pruned), the last row the unpruned tree (the
#'   default model): `model`,
#'   `n_pruned` (`k`), `n_splits`, `n_leaves`, `depth`, `avg_tests`
#'   (weighted mean number of tests per row of `data`), `errors`
#'   (misclassified weight, or squared error, on `data`), `loss` (`errors`
#'   over the total weight: error rate or mean squared error), `pareto`
#'   (`TRUE` where no smaller tree, an earlier row, has as few errors), and `alpha_min`,
#'   `alpha_max` for the Pareto trees on the convex hull of `loss` against
#'   `n_splits` (the penalties per split at which the tree is best; rpart's
#'   `cp` is `alpha` over the root's loss). Also `method`,
#'   `labels`, `source` (`"dpdt"`, `"rpart"`, `"party"`), `original` (the
#'   input tree), `cut_nodes` (replacement: for each model, the source
#'   node labels turned into leaves; rpart node numbers, party node ids),
#'   `index`, `routing`, `seconds`, `model_frame` (the rows of `data`).
#'   Replacement trees are built on demand from `tree_cuts` (the unpruned
#'   tree with its statistics on `data` and the nodes each model cuts);
#'   raising fronts hold every tree in `trees`. Read a tree with
#'   [dpdt_tree()] (or, inside the package, `front_tree()`), not from
#'   `trees`.
#'   [as_rpart()] and `partykit::as.party()` give replacement prunings
#'   of rpart and party trees back as `rpart` and `party` objects.
#' @seealso [as_rpart()], [as.party.dpdt_prune()], [dpdt_tree()],
#'   [predict.dpdt()].
#' @examples
#' fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3)
#' p <- dpdt_prune(fit)
#' p
#' predict(p, iris[c(1, 51, 101), ], model = 3)
#'
#' if (requireNamespace("rpart", quietly = TRUE)) {
#'   tr <- rpart::rpart(Kyphosis ~ ., data = rpart::kyphosis, cp = 0,
#'                      minsplit = 5)
#'   pr <- dpdt_prune(tr, rpart::kyphosis)
#'   pr
#'   dpdt_tree(pr, model = 3)           # the best tree of 2 splits
#'   # subtree raising on the same tree, leaves relabelled by majority
#'   dpdt_prune(tr, rpart::kyphosis, method = "raise", labels = "relabel")
#'
#'   # an ensemble of three bootstrap trees, pruned jointly
#'   set.seed(1)
#'   boot <- lapply(1:3, function(i) rpart::rpart(Kyphosis ~ .,
#'     rpart::kyphosis[sample(81, 81, replace = TRUE), ],
#'     control = rpart::rpart.control(maxdepth = 2, cp = 0, minsplit = 10)))
#'   ens <- dpdt_prune(boot, rpart::kyphosis)
#'   print(ens)
#'   predict(ens, rpart::kyphosis[1:5, ], model = 3)
#' }
#' if (requireNamespace("ranger", quietly = TRUE) &&
#'     requireNamespace("MASS", quietly = TRUE)) {
#'   # a forest pruned on other rows than it was grown on: the heuristic,
#'   # each point beside its proven lower bound
#'   rf <- ranger::ranger(type ~ ., MASS::Pima.tr, num.trees = 101, seed = 1)
#'   pf <- dpdt_prune(rf, MASS::Pima.te)
#'   pf$front[, c("n_splits", "trees_split", "loss", "lower_bound", "gap")]
#' }
#' @export
dpdt_prune <- function(tree, data, method = c("replace", "raise"),
                       labels = c("keep", "relabel"), weights = NULL,
                       model = NULL, max_states = 1e6, ...) {
  call <- match.call()
  check_dots(match.call(expand.dots = FALSE)$..., c("index", "routing", "lazy"),
             "dpdt_prune")
  extra <- list(...)
  method <- check_choice(method, c("replace", "raise"), "method")
  labels <- check_choice(labels, c("keep", "relabel"), "labels")
  max_states <- check_max_states(max_states)
  index <- check_choice(if (is.null(extra$index)) "auto" else extra$index,
                        c("auto", "pruned", "errors"), "index")
  routing <- check_choice(if (is.null(extra$routing)) "auto" else extra$routing,
                          c("auto", "plain", "heavy"), "routing")
  lazy <- if (is.null(extra$lazy)) TRUE else check_flag(extra$lazy, "lazy")
  if (is_tree_list(tree) || is_forest(tree)) {
    if (method != "replace" || labels != "keep" || !is.null(model)) {
      stop_arg("An ensemble (a list of trees) is pruned by replacement with the ",
               "trees' own labels only: leave `method`, `labels` and `model` at ",
               "their defaults.")
    }
    if (missing(data) || is.null(data)) {
      stop_arg("`data` is missing: give the rows (with the response) to count ",
               "the ensemble's errors on.")
    }
    check_data(data)
    w <- eval(substitute(weights), data, parent.frame())
    return(prune_ensemble(tree, data, w, max_states, call))
  }
  src <- prune_source(tree, model)

  given <- !missing(data) && !is.null(data)
  if (given) {
    check_data(data)
    w <- eval(substitute(weights), data, parent.frame())
  } else {
    if (is.null(src$data) && !is.null(src$training_rows)) src <- with_training_rows(src, method)
    if (is.null(src$data)) {
      stop_arg("`data` is missing; pass the rows to count errors on (the ",
               "training data or a separate pruning set) as a data frame.",
               if (!is.null(src$no_rows_because)) paste0(" The tree's training rows cannot be ",
                 "used: ", src$no_rows_because, "."))
    }
    data <- src$data
    w <- eval(substitute(weights), data, parent.frame())
    if (is.null(w)) w <- src$weights
  }
  mf <- prune_frame(src, data, frame = !given && isTRUE(src$data_is_frame))
  src$features <- prune_kinds(src$features, mf)
  check_weights(w, nrow(mf))
  if (is.null(w)) w <- rep(1, nrow(mf))
  mf[["(weights)"]] <- as.double(w)   # model.weights() of the counted rows
  if (sum(w) <= 0) {
    stop_arg("`weights` sum to zero; give at least one row a positive weight.")
  }
  y <- prune_response(src, mf)
  x <- feature_matrix(mf, src$features, src$xlevels)
  end <- integer(0)
  if (method == "replace" && !is.null(src$end_nodes)) {
    end <- src$end_nodes(data, x)
  } else {
    check_routable(x, src, mf)
  }
  classif <- src$type == "classification"
  keep <- if (classif) src$tree$value - 1 else src$tree$value
  res <- cpp_prune(x, src$tree, end, y, as.double(w),
                   if (classif) length(src$levels) else 0L, as.double(keep),
                   method, labels == "relabel", index, max_states, routing,
                   eager = method == "raise" || !lazy)
  # an elapsed setTimeLimit() while raising, raised once the engine unwound
  if (!is.null(res$condition)) stop(res$condition)
  if (isTRUE(res$refused)) refuse_raising(res$states, max_states, src)

  # The engine lists the trees by pruned splits k = 0..s; the front is
  # ordered as a fit's: model 1 the single leaf, the last the unpruned tree.
  n <- length(res$loss)
  by_size <- rev(seq_len(n))
  cuts <- if (method == "replace") {
    per_k <- split(res$cut, rep(seq_len(n), diff(res$cut_start)))
    per_k <- lapply(seq_len(n), function(k) if (is.null(per_k[[as.character(k)]])) integer(0)
                                            else per_k[[as.character(k)]])[by_size]
    list(base = res$base, node = as.integer(unlist(per_k)),
         start = as.integer(c(0L, cumsum(lengths(per_k)))))
  }
  structure(list(
    front = prune_front(res$loss[by_size], lapply(res$summary, `[`, by_size), sum(w)),
    trees = if (method == "raise" || !lazy) res$trees[by_size],
    tree_cuts = cuts,
    default_model = n, loss_column = "loss",
    type = src$type, levels = src$levels, response = src$response,
    features = src$features, xlevels = src$xlevels, terms = src$terms,
    model_frame = mf, na.action = NULL, nobs = nrow(mf), call = call,
    method = method, labels = labels, source = src$source,
    original = src$original, source_model = src$model,
    node_label = src$node_label,
    cut_nodes = if (method == "replace")
      lapply(res$cut_nodes[by_size], function(v) src$node_label[v]),
    index = if (method == "replace") res$index else NA_character_,
    routing = res$routing, states = res$states, seconds = res$seconds,
    front_seconds = res$front_seconds
  ), class = c("dpdt_prune", "dpdt"))
}

# The tree to prune, whatever it came from, in the shared representation.
prune_source <- function(tree, model) {
  if (inherits(tree, "dpdt")) return(dpdt_source(tree, model))
  if (!is.null(model)) {
    stop_arg("`model` picks a tree of a dpdt front; `tree` is ",
             describe(tree), ", leave `model` NULL.")
  }
  if (inherits(tree, "rpart")) {
    check_installed("rpart", "prune rpart trees")
    return(rpart_source(tree))
  }
  if (inherits(tree, "party")) {
    check_installed("partykit", "prune party trees")
    return(party_source(tree))
  }
  stop_arg("`tree` must be a dpdt front (from dpdt_fit()), an rpart tree or ",
           "a partykit party with constant fits; got ", describe(tree), ".")
}

# An rpart tree's training rows as the rows to count on (rpart_training_rows()):
# their model frame, weights and each row's end node as rpart routed it;
# or the reason they cannot be used. Rows rebuilt from the call are checked
# by the leaves they reach, which is all that replacement counts; raising
# routes them by other tests too, so it takes only the tree's own copy.
with_training_rows <- function(src, method) {
  rows <- src$training_rows()
  if (!is.character(rows) && method == "raise" && rows$rebuilt) {
    rows <- paste("subtree raising routes them by tests their leaves do not check",
                  "(fit with rpart(model = TRUE) to keep them)")
  }
  if (is.character(rows)) {
    src$no_rows_because <- rows
    return(src)
  }
  src$data <- rows$data
  src$data_is_frame <- TRUE
  src$weights <- rows$weights
  src$end_nodes <- function(data, x) rows$end
  src
}

dpdt_source <- function(fit, model) {
  model <- resolve_model(fit, model)
  tr <- front_tree(fit, model)
  if (all(tr$feature == 0L)) {
    stop_arg("`tree` (model ", model, " of the front) is a single leaf: there ",
             "is nothing to prune; pick a larger tree with `model`.")
  }
  mf <- fit$model_frame
  list(tree = tr, features = fit$features, xlevels = fit$xlevels,
       terms = fit$terms, type = fit$type, levels = fit$levels,
       response = fit$response, source = "dpdt",
       node_label = seq_along(tr$feature), end_nodes = NULL, original = fit,
       model = model, data = mf, data_is_frame = TRUE,
       weights = if (!is.null(mf)) stats::model.weights(mf))
}

# Model frame of `data` for the tree's variables and response (rows with
# missing predictors are kept: the tree routes them).
prune_frame <- function(src, data, frame = FALSE) {
  if (frame) return(data)
  miss <- missing_vars(src$terms, data)
  if (length(miss)) {
    stop_arg("`data` lacks column(s) ", paste0("`", miss, "`", collapse = ", "),
             " used by the tree (its response or predictors); add them.")
  }
  if (nrow(data) == 0) stop_arg("`data` has no rows; errors need rows to count on.")
  stats::model.frame(src$terms, data, na.action = stats::na.pass)
}

# Features a source tree splits as numbers whatever their class (rpart's
# dataClasses "other": Date, POSIXct) take their kind from the column in
# `mf`, so that they are coded, and their thresholds printed, as dates.
prune_kinds <- function(features, mf) {
  for (j in which(features$kind == "other")) {
    col <- mf[[features$variable[j]]]
    features$kind[j] <- if (inherits(col, "Date")) "Date"
      else if (inherits(col, "POSIXct")) "POSIXct"
      else if (is.numeric(col)) "numeric"
      else stop_arg("Predictor `", features$variable[j], "` is ", describe(col),
                    " in `data`; the tree splits it as numbers (a Date or ",
                    "POSIXct column in training). Convert it.")
    if (features$kind[j] == "POSIXct") features$level[j] <- time_zone(col)
  }
  features
}

# The response of `mf`, coded for the engine (0-based class or number).
prune_response <- function(src, mf) {
  y <- stats::model.response(mf)
  name <- src$response
  if (is.null(y) || anyNA(y)) {
    stop_arg("The response `", name, "` has NA in `data`; errors cannot be ",
             "counted on those rows. Remove them first.")
  }
  if (src$type == "regression") {
    if (!is.numeric(y) || any(!is.finite(y))) {
      stop_arg("The response `", name, "` must be finite numbers for a ",
               "regression tree; got ", describe(y), ".")
    }
    return(as.double(y))
  }
  code <- match(as.character(y), src$levels)
  if (anyNA(code)) {
    bad <- unique(as.character(y)[is.na(code)])
    stop_arg("The response `", name, "` has class(es) ",
             paste0("\"", utils::head(bad, 5), "\"", collapse = ", "),
             " that the tree does not know (its classes: ",
             paste0("\"", src$levels, "\"", collapse = ", "), ").")
  }
  as.double(code - 1L)
}

# The front of a pruning, one row per tree from the most pruned (the
# single leaf, model 1) to the unpruned tree; `s`: per tree n_splits,
# n_leaves, depth and tests (weighted tests summed).
prune_front <- function(errors, s, total_weight) {
  n <- length(errors)
  loss <- errors / total_weight
  # Pareto: no smaller tree (an earlier row) has as few errors
  tol <- 1e-9 * max(1, abs(errors))
  earlier_min <- c(Inf, cummin(errors)[-n])
  pareto <- errors < earlier_min - tol
  amin <- amax <- rep(NA_real_, n)
  p <- which(pareto)                        # by n_splits ascending
  if (length(p)) {
    a <- alpha_intervals(s$n_splits[p], loss[p])
    amin[p] <- a$alpha_min
    amax[p] <- a$alpha_max
  }
  columns_frame(list(model = seq_len(n), n_pruned = n - seq_len(n),
                     n_splits = s$n_splits, n_leaves = s$n_leaves, depth = s$depth,
                     avg_tests = s$tests / total_weight,
                     errors = errors, loss = loss, pareto = pareto,
                     alpha_min = amin, alpha_max = amax))
}

refuse_raising <- function(states, max_states, src) {
  s <- sum(src$tree$feature > 0)
  stop_arg("Raising this tree (", s, " splits, depth ", max(src$tree$depth),
           ") needs more than ", format(max_states, big.mark = ",", scientific = FALSE),
           " (node, box) states (`max_states`); counted ",
           if (states > max_states) "at least " else "",
           format(states, big.mark = ",", scientific = FALSE),
           ". Raise a smaller tree: prune it by replacement first and ",
           "raise a tree of that front (dpdt_prune(p, method = \"raise\", ",
           "model = ...)), or grow it shallower. A larger `max_states` lets ",
           "it run, with memory and time growing with the states (it can be ",
           "interrupted).")
}

#' @rdname dpdt_prune
#' @param x A `"dpdt_prune"` object.
#' @param digits Significant digits of the front's numbers.
#' @export
print.dpdt_prune <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  f <- x$front
  what <- c(replace = "subtree replacement", raise = "subtree raising")[[x$method]]
  src <- c(dpdt = "a dpdt tree", rpart = "an rpart tree", party = "a party tree")[[x$source]]
  cat(sprintf("\nOptimal pruning by %s of %s (%d splits), leaves %s\n", what,
              src, f$n_splits[nrow(f)],
              if (x$labels == "keep") "keep the tree's labels"
              else "relabelled by the majority of the rows"))
  cat(sprintf("%s of `%s`: errors counted on %d rows (total weight %s)\n",
              capitalise(x$type), x$response, x$nobs,
              format(front_tree(x, nrow(f))$weight[1], digits = 6)))
  how <- if (x$method == "replace")
    sprintf("program indexed by %s, routing: %s", x$index,
            if (x$routing == "source") paste0(x$source, "'s own") else x$routing)
  else sprintf("%s (node, box) states", format(x$states, big.mark = ","))
  cat(sprintf("%d trees (%d to 0 splits pruned), %d Pareto-optimal; %s; %s s\n\n",
              nrow(f), nrow(f) - 1L, sum(f$pareto), how,
              format(x$seconds, digits = 2)))
  print_front(f, digits, what = "trees")
  invisible(x)
}
