# A partykit party with constant fits (ctree, evtree, as.party(rpart)) in
# the shared representation, for dpdt_prune(). Binary splits only.
#   - numeric splits `x <= b` (right = TRUE) or `x < b` (right = FALSE, our
#     threshold the largest double below b); `index` may swap the kids;
#   - factors: the levels whose index is 1 go left ("categorical"; an
#     ordered factor split by breaks on its codes stays "ordered");
#   - missing values: partykit tries surrogates, then draws a kid at random
#     with the split's `prob`. One fixed side per split is needed here:
#     the kid with the larger `prob` (the left one on ties, or without
#     `prob`); surrogates are not used. Errors are counted with this rule,
#     so predict() on the front agrees with them.
# Node labels are the party's node ids; a node's own label (majority class
# or mean) comes from the training rows in `fitted`.

party_source <- function(obj) {
  if (!inherits(obj, "constparty")) {
    stop_arg("`tree` is a party without constant fits (", class(obj)[1], "); ",
             "dpdt_prune() prunes constparty trees (ctree, evtree, ",
             "as.party(rpart)).")
  }
  root <- obj$node
  if (is.null(root$kids)) {
    stop_arg("`tree` is a single leaf (a party without splits): there is ",
             "nothing to prune.")
  }
  dat <- obj$data
  vnames <- names(dat)
  fitted <- obj$fitted
  y <- fitted[["(response)"]]
  if (!(is.factor(y) || is.numeric(y)) || is.matrix(y) || is.data.frame(y)) {
    stop_arg("`tree` is a party whose response is ", describe(y), "; ",
             "dpdt_prune() handles a factor (classification) or a numeric ",
             "(regression) response.")
  }
  wt <- fitted[["(weights)"]]
  if (is.null(wt)) wt <- rep(1, length(y))
  term_id <- fitted[["(fitted)"]]

  # collect nodes in preorder (kid 1 first) and their splits
  nodes <- list()
  collect <- function(nd) {
    nodes[[length(nodes) + 1L]] <<- nd
    if (!is.null(nd$kids)) {
      if (length(nd$kids) != 2L) {
        stop_arg("`tree` has a node with ", length(nd$kids), " kids; ",
                 "dpdt_prune() handles binary trees only.")
      }
      for (k in nd$kids) collect(k)
    }
  }
  collect(root)
  inner <- Filter(function(nd) !is.null(nd$split), nodes)
  vars <- unique(vapply(inner, function(nd) vnames[nd$split$varid], ""))
  kinds <- vapply(vars, function(v) {
    x <- dat[[v]]
    if (is.logical(x)) return("logical")
    if (is.factor(x)) {
      by_breaks <- vapply(inner, function(nd) vnames[nd$split$varid] != v ||
                            !is.null(nd$split$breaks), logical(1))
      return(if (is.ordered(x) && all(by_breaks)) "ordered" else "categorical")
    }
    "numeric"
  }, character(1))
  features <- columns_frame(list(name = vars, variable = vars, kind = unname(kinds),
                                level = rep(NA_character_, length(vars))))
  xlevels <- lapply(vars[kinds %in% c("categorical", "ordered")],
                    function(v) levels(dat[[v]]))
  names(xlevels) <- vars[kinds %in% c("categorical", "ordered")]

  # node labels from the training rows below each node
  below <- function(nd) {
    if (is.null(nd$kids)) return(nd$id)
    unlist(lapply(nd$kids, below))
  }
  label_of <- function(nd) {
    rows <- term_id %in% below(nd)
    if (is.factor(y)) {
      cw <- tapply(wt[rows], factor(y[rows], levels = levels(y)), sum)
      cw[is.na(cw)] <- 0
      which.max(cw)
    } else {
      sum(wt[rows] * y[rows]) / sum(wt[rows])
    }
  }

  m <- length(nodes)
  tr <- list(feature = integer(m), threshold = rep(NA_real_, m),
             levels_left = vector("list", m), na_left = rep(NA, m),
             left = integer(m), right = integer(m), depth = integer(m),
             value = numeric(m))
  node_label <- integer(m)
  next_id <- 0L
  walk <- function(nd, depth) {
    next_id <<- next_id + 1L
    id <- next_id
    node_label[id] <<- nd$id
    tr$depth[id] <<- depth
    tr$value[id] <<- label_of(nd)
    s <- nd$split
    if (is.null(s)) return(id)
    v <- vnames[s$varid]
    tr$feature[id] <<- match(v, vars)
    kind <- kinds[[v]]
    prob <- s$prob
    na_kid <- if (is.null(prob) || prob[1] >= prob[2]) 1L else 2L
    # kid of each interval (numeric / ordered by breaks) or level (factors)
    if (!is.null(s$breaks)) {
      if (length(s$breaks) != 1L) {
        stop_arg("`tree` has a split with ", length(s$breaks), " breaks; ",
                 "dpdt_prune() handles binary splits only.")
      }
      idx <- if (is.null(s$index)) 1:2 else s$index
      right <- if (is.null(s$right)) TRUE else s$right
      thr <- if (right) s$breaks else cpp_double_below(s$breaks)
      if (kind == "categorical") {       # an ordered factor split by codes, kept as groups
        codes <- seq_along(xlevels[[v]])
        low <- if (right) codes <= s$breaks else codes < s$breaks
        kid_of_level <- ifelse(low, idx[1], idx[2])
        tr$levels_left[id] <<- list(which(kid_of_level == 1L))
        first <- 1L
      } else {
        tr$threshold[id] <<- thr
        first <- idx[1]                   # the kid that gets x <= thr
      }
    } else {
      kid_of_level <- s$index
      left <- which(kid_of_level == 1L | (is.na(kid_of_level) & na_kid == 1L))
      tr$levels_left[id] <<- list(as.integer(left))
      first <- 1L
    }
    kids <- if (first == 1L) nd$kids else rev(nd$kids)
    tr$na_left[id] <<- if (first == 1L) na_kid == 1L else na_kid == 2L
    tr$left[id] <<- walk(kids[[1]], depth + 1L)
    tr$right[id] <<- walk(kids[[2]], depth + 1L)
    id
  }
  walk(root, 0L)
  classif <- is.factor(y)
  list(tree = tr, features = features, xlevels = xlevels, terms = obj$terms,
       type = if (classif) "classification" else "regression",
       levels = if (classif) levels(y) else NULL,
       response = deparse(obj$terms[[2L]]), source = "party",
       node_label = node_label, end_nodes = NULL, original = obj,
       data = if (nrow(dat) > 0) dat else NULL, weights = wt)
}
