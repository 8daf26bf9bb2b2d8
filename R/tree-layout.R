# The geometry and text of a tree diagram, computed once for plot() (base
# graphics) and autoplot() (ggplot2): node positions, the lines of text in
# each node's box, fill colours, and the branches. Split text comes from
# split_labels(node_split(...)), the one reader of split fields.

# Layout of a "dpdt_tree". Leaves are evenly spaced on the bottom row (x =
# 1..L, y = -depth of the tree); an internal node sits midway above its two
# children at y = -its depth. `abbrev` (a whole number or Inf) shortens
# variable names and levels longer than that (shorten_names()).
# Returns list(nodes, edges, n_leaves, depth, legend), `nodes` with one row
# per node (id, x, y, leaf, fill) and `text`, a list of character vectors.
tree_layout <- function(x, digits = 3, abbrev = Inf) {
  tr <- x$tree
  m <- length(tr$feature)
  leaf <- tr$feature == 0L
  depth <- max(tr$depth)
  px <- numeric(m)
  px[leaf] <- seq_len(sum(leaf))   # preorder meets the leaves left to right
  for (i in rev(which(!leaf))) px[i] <- (px[tr$left[i]] + px[tr$right[i]]) / 2
  py <- ifelse(leaf, -depth, -tr$depth)
  classif <- x$type == "classification"
  text <- vector("list", m)
  for (i in seq_len(m)) {
    text[[i]] <- if (leaf[i]) leaf_text(x, i, digits, abbrev)
                 else split_text(x, i, digits, abbrev)
  }
  shade <- if (classif) class_shades(tr, length(x$levels), isTRUE(x$ordered_response))
           else mean_shades(tr$value)
  if (classif) shade$legend$labels <- x$levels
  inner <- which(!leaf)
  kids <- c(tr$left[inner], tr$right[inner])
  parents <- c(inner, inner)
  edges <- data.frame(from = parents, to = kids, x0 = px[parents],
                      y0 = py[parents], x1 = px[kids], y1 = py[kids],
                      side = rep(c("yes", "no"), each = length(inner)),
                      stringsAsFactors = FALSE)
  nodes <- data.frame(id = seq_len(m), x = px, y = py, leaf = leaf,
                      fill = shade$fill, strength = shade$strength,
                      stringsAsFactors = FALSE)
  nodes$prediction <- if (classif) factor(x$levels[tr$value], levels = x$levels)
                      else tr$value
  list(nodes = nodes, text = text, edges = edges, n_leaves = sum(leaf),
       depth = depth, legend = shade$legend)
}

# Two lines for a split: the variable, and the test sending rows to the left
# ("yes") branch; a third when missing values go right ("NA: no").
split_text <- function(x, i, digits, abbrev) {
  s <- node_split(x$tree, i, x$features, x$xlevels)
  v <- s$variable
  if (is.finite(abbrev) && s$kind == "categorical") {
    lev <- x$xlevels[[v]]
    short <- if (is.null(lev)) NULL else shorten_names(lev, abbrev)
    shorten <- function(l) {
      k <- match(l, lev)
      l[!is.na(k)] <- short[k[!is.na(k)]]
      if (length(l) > 4) l <- c(l[1:3], "...")
      l
    }
    s$left_levels <- shorten(s$left_levels)
    s$right_levels <- shorten(s$right_levels)
  }
  lab <- split_labels(s, digits = digits)[1]
  cond <- substring(lab, nchar(v) + 2L)   # "v <= 2.5" -> "<= 2.5"
  if (is.finite(abbrev)) v <- shorten_names(v, abbrev)
  c(v, cond, if (isTRUE(s$na_learned) && isFALSE(s$na_left)) "NA: no")
}

# A leaf's box: prediction (class or mean), class proportions (all of them
# up to four classes, else the predicted class's), and the count.
leaf_text <- function(x, i, digits, abbrev) {
  tr <- x$tree
  n <- paste0("n=", tr$n[i])
  if (x$type != "classification") {
    return(c(format(signif(tr$value[i], digits)), n))
  }
  lev <- x$levels
  if (is.finite(abbrev)) lev <- shorten_names(lev, abbrev)
  p <- if (tr$weight[i] > 0) tr$class_weight[i, ] / tr$weight[i]
       else rep(0, length(lev))
  props <- if (length(lev) <= 4) paste(sub("^0", "", sprintf("%.2f", p)), collapse = " ")
           else sprintf("%.0f%%", 100 * p[tr$value[i]])
  c(lev[tr$value[i]], props, n)
}

# Names longer than `n` characters cut to n - 1 and a ".", which reads
# better than abbreviate()'s dropped vowels; if that makes two names
# equal, abbreviate() (which keeps them distinct) is used instead.
shorten_names <- function(s, n) {
  n <- max(2, n)
  cut <- ifelse(nchar(s) > n, paste0(substr(s, 1, n - 1), "."), s)
  if (anyDuplicated(cut) && !anyDuplicated(s)) {
    cut <- abbreviate(s, minlength = n, named = FALSE)
  }
  cut
}

# One colour per class (equally spaced hues, or for an ordered response one
# hue from light to dark, in the levels' order); a node is filled with its
# predicted class's colour, paler the less pure the node.
class_colours <- function(k, ordered = FALSE) {
  if (ordered) {
    return(grDevices::hcl(h = 250, c = seq(35, 75, length.out = k),
                          l = seq(85, 30, length.out = k)))
  }
  grDevices::hcl(h = seq(15, 375, length.out = k + 1)[seq_len(k)], c = 70, l = 70)
}

mix_white <- function(col, amount) {
  rgb <- grDevices::col2rgb(col) / 255
  out <- rgb * rep(amount, each = 3) + (1 - rep(amount, each = 3))
  grDevices::rgb(out[1, ], out[2, ], out[3, ])
}

class_shades <- function(tr, k, ordered = FALSE) {
  cols <- class_colours(k, ordered)
  w <- pmax(tr$weight, .Machine$double.xmin)
  purity <- tr$class_weight[cbind(seq_along(w), tr$value)] / w
  strength <- if (k > 1) pmin(1, pmax(0, (purity - 1 / k) / (1 - 1 / k))) else 1
  strength <- 0.15 + 0.85 * strength
  list(fill = mix_white(cols[tr$value], strength), strength = strength,
       legend = list(labels = NULL, fill = cols))
}

# Regression: pale to dark blue with the node's mean.
mean_shades <- function(value) {
  ramp <- grDevices::colorRamp(mean_ramp_ends())
  rng <- range(value)
  scale01 <- function(v) if (diff(rng) > 0) (v - rng[1]) / diff(rng) else 0 * v
  col <- function(v) grDevices::rgb(ramp(scale01(v)), maxColorValue = 255)
  at <- if (diff(rng) > 0) seq(rng[1], rng[2], length.out = 5) else rng[1]
  list(fill = col(value), strength = rep(1, length(value)),
       legend = list(labels = format(signif(at, 3)), fill = col(at)))
}

mean_ramp_ends <- function() c("#F4F8FC", "#6A9FCB")
