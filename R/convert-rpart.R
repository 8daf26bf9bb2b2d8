# An rpart tree in the shared representation (one tree list + feature
# table), for dpdt_prune(). rpart's tests become ours exactly:
#   - numeric (and logical, Date, POSIXct) splits: rpart sends `x < c` left
#     when ncat = -1 and right when ncat = +1; ours send `x <= t` left, so t
#     is the largest double below c and the children are swapped for
#     ncat = +1;
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
#     predict() on the front uses the majority direction. `end_nodes()`
#     routes by our tests every row that meets neither a missing value nor
#     a level unseen by a split on its path (there both routings agree) and
#     asks rpart (pred.rpart) only for the others.
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
  # Vectorised over the frame's rows (a cp = 0 tree has thousands): only
  # the level groups of factor splits are built one split at a time.
  m <- nrow(frame)
  leaf <- frame$var == "<leaf>"
  inner <- which(!leaf)
  nc <- frame[, c("ncompete", "nsurrogate")]
  primary <- 1L + c(0L, cumsum((!leaf) + nc[[1L]] + nc[[2L]]))[-(m + 1L)]
  number <- as.integer(rownames(frame))
  depth <- as.integer(floor(log2(number) + 1e-9))
  num <- as.double(number)   # 2 x a depth-30 leaf's number overflows integers
  var <- as.character(frame$var)
  xl <- attr(fit, "xlevels")
  dc <- attr(fit$terms, "dataClasses")
  vars <- unique(var[inner])
  # "other": a class rpart splits as numbers (Date, POSIXct), known only
  # from the data (prune_kinds())
  kinds <- vapply(vars, function(v) {
    cl <- dc[[v]]
    if (identical(cl, "logical")) "logical"
    else if (!is.null(xl[[v]])) if (identical(cl, "ordered")) "ordered" else "categorical"
    else if (identical(cl, "other")) "other"
    else "numeric"
  }, character(1))

  # rpart's children and split of every inner row, in rpart's left/right terms
  kid_l <- match(2 * num, num)
  kid_r <- match(2 * num + 1, num)
  maj_left <- frame$n[kid_l] >= frame$n[kid_r]
  ncat <- cut <- rep(NA_real_, m)
  ncat[inner] <- fit$splits[primary[inner], "ncat"]
  cut[inner] <- fit$splits[primary[inner], "index"]
  # factor splits: the levels going left (levels a node never saw, coded 2,
  # go where its missing values go), and those unseen levels per variable
  fac <- inner[ncat[inner] >= 2]
  groups <- unseen <- vector("list", m)
  for (i in fac) {
    dirs <- fit$csplit[cut[i], seq_along(xl[[var[i]]])]
    groups[[i]] <- which(dirs == 1L | (dirs == 2L & maj_left[i]))
    if (any(dirs == 2L)) unseen[[i]] <- which(dirs == 2L)
  }
  # ordered variables whose groups are not all prefixes or suffixes are
  # categorical after all
  for (v in names(kinds)[kinds == "ordered"]) {
    nlev <- length(xl[[v]])
    ok <- all(vapply(groups[fac[var[fac] == v]], function(g) {
      identical(g, seq_along(g)) || identical(g, seq.int(nlev - length(g) + 1L, nlev))
    }, logical(1)))
    if (!ok) kinds[[v]] <- "categorical"
  }
  features <- columns_frame(list(name = vars, variable = vars, kind = unname(kinds),
                                level = rep(NA_character_, length(vars))))
  xlevels <- xl[vars[kinds %in% c("categorical", "ordered")]]

  # our tests: numeric (and logical) x < cut goes to rpart's left iff
  # ncat = -1, so swap the children for ncat = +1; an ordered suffix going
  # left is the prefix on rpart's right: swap
  kind <- rep(NA_character_, m)
  kind[inner] <- kinds[var[inner]]
  swap <- logical(m)
  numeric <- inner[ncat[inner] < 2]
  swap[numeric] <- ncat[numeric] > 0
  threshold <- rep(NA_real_, m)
  threshold[numeric] <- cpp_double_below(cut[numeric])
  levels_left <- vector("list", m)
  for (i in fac) {
    g <- groups[[i]]
    if (kind[i] == "ordered") {
      swap[i] <- g[1] != 1L
      threshold[i] <- if (swap[i]) length(xlevels[[var[i]]]) - length(g) else length(g)
    } else {
      levels_left[i] <- list(as.integer(g))
    }
  }
  first <- ifelse(swap, kid_r, kid_l)
  second <- ifelse(swap, kid_l, kid_r)

  # preorder ids, our left child first: subtree sizes bottom-up, then each
  # child's id from its parent's (rows by depth, so parents come first)
  size <- rep(1L, m)
  by_depth <- order(depth)
  for (i in rev(by_depth)) if (!leaf[i]) size[i] <- 1L + size[kid_l[i]] + size[kid_r[i]]
  id <- integer(m)
  id[1L] <- 1L
  for (i in by_depth) {
    if (leaf[i]) next
    id[first[i]] <- id[i] + 1L
    id[second[i]] <- id[i] + 1L + size[first[i]]
  }
  row_of_node <- integer(m)
  row_of_node[id] <- seq_len(m)
  o <- row_of_node
  feature <- integer(m)
  feature[inner] <- match(var[inner], vars)
  tr <- list(feature = feature[o], threshold = threshold[o],
             levels_left = levels_left[o],
             na_left = ifelse(leaf, NA, xor(swap, maj_left))[o],
             left = ifelse(leaf, 0L, id[first])[o],
             right = ifelse(leaf, 0L, id[second])[o],
             depth = depth[o], value = as.double(frame$yval)[o])
  node_label <- number[o]
  our_id <- id
  # rpart's own routing is needed only for the rows that meet, on their
  # path, a missing value or a level the split never saw (rpart routes
  # those by surrogates); our tests route every other row as rpart does
  unseen <- unseen[o]
  classif <- method == "class"
  list(tree = tr, features = features, xlevels = xlevels, terms = fit$terms,
       type = if (classif) "classification" else "regression",
       levels = if (classif) attr(fit, "ylevels") else NULL,
       response = deparse(fit$terms[[2L]]), source = "rpart",
       node_label = node_label,
       end_nodes = function(data, x) {
         end <- cpp_route_tests(x, tr, unseen)
         own <- is.na(end)
         if (any(own)) {
           end[own] <- our_id[rpart_where(fit, data[own, , drop = FALSE])]
         }
         end
       },
       original = fit, data = NULL, weights = NULL,
       training_rows = function() rpart_training_rows(fit, features, xlevels,
                                                      function(x) cpp_route_tests(x, tr, unseen),
                                                      our_id[fit$where]))
}

# The rows an rpart tree was grown on, for dpdt_prune() without `data`: its
# model frame (kept with rpart(model = TRUE), else rebuilt from its call in
# the formula's environment, as rpart builds it), checked against what the
# tree kept of them: as many rows as `fit$where`; when rebuilt, the
# response of `fit$y` and the leaves' weights of `fit$frame$wt`; and on
# every row a test decides, the leaf `fit$where` names (`end`: our node of
# each of those leaves; `route`: our tests' end nodes, NA where rpart's
# surrogates decide). A list of the model frame, its weights and each
# row's end node, or the reason it cannot be used.
rpart_training_rows <- function(fit, features, xlevels, route, end) {
  mf <- fit$model
  kept <- is.data.frame(mf)   # the tree's own copy: its response is the tree's
  if (!kept) {
    call <- fit$call
    call <- call[c(1L, match(c("formula", "data", "subset", "weights", "na.action"),
                             names(call), 0L))]
    if (is.null(call$formula) || is.null(call$data)) {
      return("its call names no `data`")
    }
    call[[1L]] <- quote(stats::model.frame)
    if (is.null(call$na.action)) call$na.action <- quote(rpart::na.rpart)
    env <- environment(fit$terms)
    if (is.null(env)) env <- globalenv()
    mf <- tryCatch(eval(call, env), error = function(e) conditionMessage(e))
    if (!is.data.frame(mf)) return(paste0("its data could not be found again (", mf, ")"))
  }
  if (nrow(mf) != length(end)) {
    return(sprintf("the data found have %d rows, the tree was grown on %d", nrow(mf), length(end)))
  }
  w <- stats::model.weights(mf)
  if (!kept) {
    if (is.null(fit$y)) return("the tree kept neither its model frame nor its response (rpart(y = FALSE))")
    y <- stats::model.response(mf)
    same_y <- if (fit$method == "class") {
      identical(as.integer(factor(y, levels = attr(fit, "ylevels"))), as.integer(fit$y))
    } else {
      identical(as.double(y), as.double(fit$y))
    }
    if (!same_y) return("the data found hold another response than the tree's")
    row_w <- if (is.null(w)) rep(1, nrow(mf)) else as.double(w)
    leaf_wt <- vapply(split(row_w, factor(fit$where, levels = unique(fit$where))), sum, 0)
    if (!isTRUE(all.equal(unname(leaf_wt), fit$frame$wt[as.integer(names(leaf_wt))],
                          tolerance = 1e-12))) {
      return("the data found weigh the tree's leaves otherwise")
    }
  }
  x <- tryCatch(feature_matrix(mf, features, xlevels), error = function(e) NULL)
  ours <- if (is.null(x)) NULL else route(x)
  if (is.null(ours) || any(ours != end, na.rm = TRUE)) {
    return("the data found route to other leaves than the tree's")
  }
  list(data = mf, weights = w, end = end, rebuilt = !kept)
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
