#' Draw one tree of a front
#'
#' A tree diagram in base graphics: each internal node shows its variable
#' and the test that sends rows to its left ("yes") branch, in the original
#' variable names and levels (`x <= 2.5`, `g in {a, b}`, ...; "NA: no" when
#' missing values go right); each leaf its predicted class and class
#' proportions, or its mean, and its number of training rows, with its node
#' id (as `predict(type = "node")` returns it) above. Nodes are shaded by
#' predicted class, paler when less pure (classification), or by mean
#' (regression). Leaves are drawn on the bottom row.
#'
#' Text is scaled to the device: the largest size at which no two boxes
#' overlap. When that size would be small, long variable names and levels
#' are shortened first. For trees of 30 leaves and more, draw on a wide
#' device, e.g. `png(width = 50 * n_leaves, height = 700)`.
#'
#' @param x A `"dpdt_tree"` from [dpdt_tree()].
#' @param digits Significant digits of means and proportions (thresholds are
#'   always written exactly, in the fewest digits that read back as them).
#' @param cex Text size; `NULL` (default) fits it to the device.
#' @param abbrev Shorten variable names, predictor levels and classes
#'   longer than this many characters (to their first characters and a
#'   "."); `NULL` (default) shortens only when text would otherwise get
#'   small, `Inf` never.
#' @param main Title; `NULL` gives the tree's size and error, `""` none.
#' @param legend Draw the legend of class colours (or of means)?
#' @param node_ids Write the node id above each leaf?
#' @param ... Not used.
#' @return `x`, invisibly.
#' @seealso [plot.dpdt()] for the front and `plot(fit, model = m)`.
#' @examples
#' fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3)
#' plot(dpdt_tree(fit))
#' plot(fit, model = nrow(fit$front))   # the most accurate tree
#' reg <- dpdt_fit(mpg ~ wt + hp + factor(cyl), data = mtcars, max_depth = 2)
#' plot(dpdt_tree(reg), main = "")
#' @export
plot.dpdt_tree <- function(x, digits = 3, cex = NULL, abbrev = NULL,
                           main = NULL, legend = TRUE, node_ids = TRUE, ...) {
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "plot")
  check_tree_plot_args(digits, cex, abbrev, main, legend, node_ids)
  if (is.null(main)) main <- tree_title(x)
  op <- graphics::par(mar = c(0.2, 0.2, if (nzchar(main)) 2 else 0.2, 0.2))
  on.exit(graphics::par(op))
  lay <- tree_layout(x, digits)
  bottom <- if (legend) 0.95 else 0.5   # below the leaf row: boxes, legend
  graphics::plot.new()
  graphics::plot.window(xlim = c(0.45, lay$n_leaves + 0.55),
                        ylim = c(-lay$depth - bottom, 0.5),
                        xaxs = "i", yaxs = "i")
  # the least shortening that reaches a legible size, else the one that
  # gives (nearly) the largest text: shortening does not help when the
  # leaves' counts and proportions are what is wide
  tries <- if (is.null(abbrev)) c(Inf, 12, 8, 5) else abbrev
  lays <- lapply(tries, function(a) tree_layout(x, digits, a))
  fits <- vapply(lays, fit_cex, numeric(1))
  pick <- which(fits >= min(0.75, 0.98 * max(fits)))[1]
  lay <- lays[[pick]]
  if (is.null(cex)) cex <- max(fits[pick], 0.3)
  draw_tree(lay, cex, node_ids)
  if (legend) draw_tree_legend(lay, cex, x, -lay$depth - bottom)
  if (nzchar(main)) graphics::title(main = main, line = 0.6, cex.main = 1)
  invisible(x)
}

# Title of a tree plot: its place in the front, size and error.
tree_title <- function(x) {
  f <- x$front
  err <- if (x$type == "classification") sprintf("error %.1f%%", 100 * x$loss)
         else paste("MSE", readable_number(x$loss))
  sprintf("Tree %d of %d: %d split%s, %d lea%s, depth %d, %s",
          x$model, x$n_models, f$n_splits, if (f$n_splits == 1) "" else "s",
          f$n_leaves, if (f$n_leaves == 1) "f" else "ves", f$depth, err)
}

# Width and height of each node's box, in user units, at text size 1.
box_sizes <- function(lay) {
  line_h <- 1.3 * graphics::strheight("Mg")
  pad <- graphics::strwidth("m")
  w <- vapply(lay$text, function(s) max(graphics::strwidth(s)), numeric(1)) + pad
  h <- vapply(lay$text, length, integer(1)) * line_h + 0.6 * line_h
  list(w = w, h = h, line_h = line_h)
}

# The largest text size at which no two boxes overlap: on each row, two
# neighbours' half widths add up to at most 96% of the distance between
# their centres; no box leaves the plot; every box is at most 85% of the
# distance between rows high.
fit_cex <- function(lay) {
  b <- box_sizes(lay)
  nd <- lay$nodes
  lim <- min(1, 0.85 / b$h,
             (nd$x - 0.45) / (b$w / 2), (lay$n_leaves + 0.55 - nd$x) / (b$w / 2))
  for (row in split(seq_len(nrow(nd)), nd$y)) {
    if (length(row) < 2) next
    row <- row[order(nd$x[row])]
    i <- row[-length(row)]
    j <- row[-1]
    lim <- min(lim, 0.96 * (nd$x[j] - nd$x[i]) / ((b$w[i] + b$w[j]) / 2))
  }
  lim
}

draw_tree <- function(lay, cex, node_ids) {
  b <- box_sizes(lay)
  nd <- lay$nodes
  w <- b$w * cex
  h <- b$h * cex
  e <- lay$edges
  graphics::segments(e$x0, e$y0 - h[e$from] / 2, e$x1, e$y1 + h[e$to] / 2,
                     col = "grey45")
  root <- e[e$from == 1, ]
  if (nrow(root)) {
    t <- 0.45
    graphics::text(root$x0 + t * (root$x1 - root$x0),
                   root$y0 - h[1] / 2 + t * (root$y1 + h[root$to] / 2 - root$y0 + h[1] / 2),
                   root$side, pos = c(2, 4), cex = 0.8 * cex, col = "grey30")
  }
  graphics::rect(nd$x - w / 2, nd$y - h / 2, nd$x + w / 2, nd$y + h / 2,
                 col = nd$fill, border = ifelse(nd$leaf, "grey25", "grey45"))
  for (i in seq_len(nrow(nd))) {
    s <- lay$text[[i]]
    k <- length(s)
    yy <- nd$y[i] + cex * b$line_h * ((k - 1) / 2 - (seq_len(k) - 1))
    graphics::text(rep(nd$x[i], k), yy, s, cex = cex,
                   font = if (nd$leaf[i]) c(2, rep(1, k - 1)) else 1)
  }
  if (node_ids) {
    lf <- nd$leaf
    graphics::text(nd$x[lf], nd$y[lf] + h[lf] / 2, nd$id[lf], pos = 3,
                   offset = 0.1, cex = 0.8 * cex, col = "grey30")
  }
}

draw_tree_legend <- function(lay, cex, x, y) {
  lg <- lay$legend
  title <- if (x$type == "classification") NULL else paste("mean of", x$response)
  n <- length(lg$labels)
  graphics::legend(x = (lay$n_leaves + 1) / 2, y = y, xjust = 0.5, yjust = 0,
                   legend = lg$labels, fill = lg$fill, horiz = n <= 6,
                   ncol = if (n <= 6) 1 else ceiling(n / 2), bty = "n",
                   cex = max(0.7, min(1, cex)), title = title,
                   border = "grey40")
}
