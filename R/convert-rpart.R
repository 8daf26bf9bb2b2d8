# An rpart tree in the shared representation (one tree list + feature
# table), for dpdt_prune(). rpart's tests become ours exactly:
#   - numeric (and logical) splits: rpart sends `x < c` left when ncat = -1
#     and right when ncat = +1; ours send `x <= t` left, so t is the largest
#     double below c and the children are swapped for ncat = +1;
#   - unordered factors: one column of level codes ("categorical"), csplit's
#     levels coded 1 go left, 3 right; levels absent from the node's
#     training rows (coded 2) go where missing values go;
#   - ordered factors: "ordered" (a threshold on the codes) when every split
#     on the variable is a prefix or a suffix of the levels, otherwise
#     "categorical";
#   - missing values: one side per split, rpart's majority direction (the
#     child with more training rows; the left one on ties, where rpart would
#     stop the row in the node). rpart's surrogates cannot be represented:
#     dpdt_prune() counts replacement errors with rpart's own routing, and
#     predict() on the front uses the majority direction.
# `node_label` keeps rpart's node number of each of our nodes.

rpart_source <- function(fit) {
  frame <- fit$frame
  method <- fit$method
  if (!method %in% c("class", "anova")) {
    stop_arg("`tree` is an rpart tree with method = \"", method, "\"; ",
             "dpdt_prune() handles \"class\" and \"anova\" trees only.")
  }
  if (nrow(frame) < 2) {
    stop_arg("`tree` is a single leaf (an rpart tree without splits): ",
             "there is nothing to prune.")
  }
  leaf <- frame$var == "<leaf>"
  nc <- frame[, c("ncompete", "nsurrogate")]
  primary <- 1L + c(0L, cumsum((!leaf) + nc[[1L]] + nc[[2L]]))[-(nrow(frame) + 1L)]
  number <- as.integer(rownames(frame))
  xl <- attr(fit, "xlevels")
  dc <- attr(fit$terms, "dataClasses")
  vars <- unique(as.character(frame$var[!leaf]))
  kinds <- vapply(vars, function(v) {
    cl <- dc[[v]]
    if (identical(cl, "logical")) "logical"
    else if (!is.null(xl[[v]])) if (identical(cl, "ordered")) "ordered" else "categorical"
    else "numeric"
  }, character(1))

  # one split per inner frame row, in rpart's left/right terms
  splits <- lapply(seq_len(nrow(frame)), function(i) {
    if (leaf[i]) return(NULL)
    v <- as.character(frame$var[i])
    sp <- fit$splits[primary[i], ]
    kids <- match(c(2L, 2L) * number[i] + 0:1, number)
    maj_left <- frame$n[kids[1]] >= frame$n[kids[2]]
    out <- list(var = v, kids = kids, maj_left = maj_left, ncat = sp[["ncat"]],
                cut = sp[["index"]])
    if (sp[["ncat"]] >= 2) {
      nlev <- length(xl[[v]])
      dirs <- fit$csplit[sp[["index"]], seq_len(nlev)]
      out$left <- which(dirs == 1L | (dirs == 2L & maj_left))
    }
    out
  })
  # ordered variables whose groups are not all prefixes or suffixes are
  # categorical after all
  for (v in names(kinds)[kinds == "ordered"]) {
    nlev <- length(xl[[v]])
    ok <- all(vapply(splits, function(s) {
      if (is.null(s) || s$var != v) return(TRUE)
      g <- s$left
      identical(g, seq_along(g)) || identical(g, seq.int(nlev - length(g) + 1L, nlev))
    }, logical(1)))
    if (!ok) kinds[[v]] <- "categorical"
  }
  features <- data.frame(name = vars, variable = vars, kind = unname(kinds),
                         level = NA_character_, stringsAsFactors = FALSE)
  xlevels <- xl[vars[kinds %in% c("categorical", "ordered")]]

  # preorder walk from the root, our left child first
  m <- nrow(frame)
  tr <- list(feature = integer(m), threshold = rep(NA_real_, m),
             levels_left = vector("list", m), na_left = rep(NA, m),
             left = integer(m), right = integer(m), depth = integer(m),
             value = numeric(m))
  node_label <- integer(m)
  row_of_node <- integer(m)
  next_id <- 0L
  walk <- function(i, depth) {
    next_id <<- next_id + 1L
    id <- next_id
    node_label[id] <<- number[i]
    row_of_node[id] <<- i
    tr$depth[id] <<- depth
    tr$value[id] <<- frame$yval[i]
    s <- splits[[i]]
    if (is.null(s)) return(id)
    tr$feature[id] <<- match(s$var, vars)
    kind <- kinds[[s$var]]
    swap <- FALSE
    if (s$ncat < 2) {            # numeric or logical: x < cut goes to rpart's left iff ncat = -1
      swap <- s$ncat > 0
      tr$threshold[id] <<- cpp_double_below(s$cut)
    } else if (kind == "ordered") {
      g <- s$left
      swap <- g[1] != 1L         # a suffix of the levels goes left: the prefix is rpart's right
      tr$threshold[id] <<- if (swap) length(xlevels[[s$var]]) - length(g) else length(g)
    } else {
      tr$levels_left[id] <<- list(as.integer(s$left))
    }
    tr$na_left[id] <<- if (swap) !s$maj_left else s$maj_left
    kids <- if (swap) rev(s$kids) else s$kids
    tr$left[id] <<- walk(kids[1], depth + 1L)
    tr$right[id] <<- walk(kids[2], depth + 1L)
    id
  }
  walk(1L, 0L)
  our_id <- integer(m)
  our_id[row_of_node] <- seq_len(m)
  classif <- method == "class"
  list(tree = tr, features = features, xlevels = xlevels, terms = fit$terms,
       type = if (classif) "classification" else "regression",
       levels = if (classif) attr(fit, "ylevels") else NULL,
       response = deparse(fit$terms[[2L]]), source = "rpart",
       node_label = node_label,
       end_nodes = function(data) our_id[rpart_where(fit, data)],
       original = fit, data = NULL, weights = NULL)
}

# The frame row where rpart's own routing (surrogates, majority direction,
# usesurrogate of the fit) leaves each row of `data`.
rpart_where <- function(fit, data) {
  tt <- stats::delete.response(fit$terms)
  mf <- stats::model.frame(tt, data, na.action = stats::na.pass,
                           xlev = attr(fit, "xlevels"))
  pred <- utils::getFromNamespace("pred.rpart", "rpart")
  mat <- utils::getFromNamespace("rpart.matrix", "rpart")
  as.integer(pred(fit, mat(mf)))
}
