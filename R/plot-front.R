#' Plot a front of trees, or one of its trees
#'
#' Without `model`, draws the front: every tree a point at its complexity
#' and loss, labelled with its model id; the trees on the lower convex hull
#' (those that minimise `loss + alpha * complexity` for some `alpha >= 0`;
#' for a fit, the rows with non-missing `alpha_min`) joined by a line and
#' drawn larger. Works on any front object: a fit from [dpdt_fit()], a
#' pruning front (rows not Pareto-optimal, `pareto = FALSE`, are drawn as
#' open circles) or a cross-validation result. When the front has
#' cross-validated losses (columns `cv_loss`, `cv_se`), their curve is
#' drawn with bars of plus and minus one standard error, a dotted line at
#' the minimum plus one standard error, and the minimum (`model_min`) and
#' one-standard-error (`model_1se`) choices marked, as rpart's `plotcp()`
#' and glmnet's `plot.cv.glmnet()` do. With `rpart = ` an rpart fit on the
#' same data, its cost-complexity sequence (one point per row of its
#' `cptable`, at the pruned tree's training loss) is overlaid.
#'
#' With `model`, draws that tree, as `plot(dpdt_tree(x, model))`
#' ([plot.dpdt_tree()]).
#'
#' With ggplot2 installed, `ggplot2::autoplot()` draws the same front (or
#' tree, with `model`) as a ggplot, with arguments `model`, `complexity`,
#' `measure`, `labels`, `rpart`, `cv`.
#'
#' @param x A front of trees (class `"dpdt"`): a fit, pruning or
#'   cross-validation result.
#' @param model `NULL` (default) to draw the front, or a tree (a row of
#'   `x$front`) to draw that tree.
#' @param complexity The horizontal axis: `"avg_tests"` (mean number of
#'   tests per row), `"n_splits"`, or `"avg_cost"` (fronts searched with
#'   `complexity = "cost"`); `NULL` uses the measure the front was built for
#'   (a fit's `complexity`), else `"n_splits"`. The hull is computed on the
#'   axes drawn.
#' @param measure `"loss"` (the front's loss column: error rate or mean
#'   squared error) or `"accuracy"` (1 - error rate, classification).
#' @param labels Which points get their model id: `"auto"` (all on fronts
#'   of at most 40 trees, else the hull trees and the CV choices),
#'   `"all"`, `"hull"` or `"none"`.
#' @param rpart Optional fit from [rpart::rpart()] on the same data whose
#'   cost-complexity sequence is overlaid.
#' @param cv Which cross-validated scores to draw when the front has them:
#'   `NULL` (the object's `cv_method`), `"budget"` (`cv_loss`, every tree)
#'   or `"alpha"` (`cv_loss_alpha`, hull trees).
#' @param legend Draw a legend?
#' @param main,xlab,ylab Title and axis labels; `NULL` for defaults.
#' @param log `""` or `"y"` (logarithmic loss axis).
#' @param ... With `model`, passed to [plot.dpdt_tree()] (`digits`, `cex`,
#'   `abbrev`, `node_ids`); otherwise not used.
#' @return `x`, invisibly.
#' @seealso [plot.dpdt_tree()], [dpdt_tree()].
#' @examples
#' fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3)
#' plot(fit)
#' plot(fit, measure = "accuracy", complexity = "n_splits")
#' plot(fit, model = nrow(fit$front))   # the most accurate tree
#' if (requireNamespace("rpart", quietly = TRUE)) {
#'   plot(fit, rpart = rpart::rpart(Species ~ ., data = iris))
#' }
#' @export
plot.dpdt <- function(x, model = NULL, complexity = NULL, measure = "loss",
                      labels = "auto", rpart = NULL, cv = NULL, legend = TRUE,
                      main = NULL, xlab = NULL, ylab = NULL, log = "", ...) {
  if (!is.null(model)) {
    tree <- dpdt_tree(x, model)
    return(invisible(graphics::plot(tree, main = main, legend = legend, ...)))
  }
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "plot")
  labels <- check_choice(labels, c("auto", "all", "hull", "none"), "labels")
  check_flag(legend, "legend")
  for (a in c("main", "xlab", "ylab")) check_string(get(a), a)
  if (!(identical(log, "") || identical(log, "y"))) {
    stop_arg("`log` must be \"\" or \"y\" (logarithmic loss axis); got ",
             show_value(log), ".")
  }
  d <- front_plot_data(x, complexity, measure, cv, rpart)
  if (log == "y") d <- positive_only(d)
  p <- d$points
  ys <- c(p$y, d$cv$points$lo, d$cv$points$hi, d$rpart$y)
  xs <- c(p$x, d$rpart$x)
  graphics::plot(range(xs, na.rm = TRUE), range(ys, na.rm = TRUE), type = "n", log = log,
                 xlab = if (is.null(xlab)) d$xlab else xlab,
                 ylab = if (is.null(ylab)) d$ylab else ylab,
                 main = if (is.null(main)) front_title(x, d) else main)
  graphics::grid(col = "grey90", lty = 1)
  cols <- front_colours()
  if (!is.null(d$rpart)) {
    graphics::lines(d$rpart$x, d$rpart$y, type = "s", col = cols["rpart"], lty = 2)
    graphics::points(d$rpart$x, d$rpart$y, pch = 4, col = cols["rpart"])
  }
  off <- !p$hull
  graphics::points(p$x[off], p$y[off], pch = ifelse(p$pareto[off], 16, 1),
                   cex = 0.8, col = cols["tree"])
  graphics::lines(p$x[d$hull], p$y[d$hull], col = cols["hull"], lwd = 1.5)
  graphics::points(p$x[d$hull], p$y[d$hull], pch = 19, cex = 1, col = cols["hull"])
  if (!is.null(d$cv)) draw_cv(d$cv, cols)
  lab <- label_rows(d, labels)
  lab <- lab[!is.na(p$x[lab]) & !is.na(p$y[lab])]
  if (length(lab)) {
    pos <- place_labels(p$x[lab], p$y[lab], as.character(p$model[lab]),
                        cex = 0.65, force = labels == "all")
    graphics::text(pos$x, pos$y, p$model[lab][pos$shown], cex = 0.65,
                   col = ifelse(p$hull[lab][pos$shown], "grey10", "grey45"))
  }
  if (legend) front_legend(d, cols, any(!p$pareto))
  invisible(x)
}

# On a logarithmic axis, zero losses (and error bars reaching below zero)
# are not drawn.
positive_only <- function(d) {
  pos <- function(v) ifelse(!is.na(v) & v > 0, v, NA_real_)
  d$points$y <- pos(d$points$y)
  if (!is.null(d$rpart)) d$rpart$y <- pos(d$rpart$y)
  if (!is.null(d$cv)) {
    for (k in c("y", "lo", "hi")) d$cv$points[[k]] <- pos(d$cv$points[[k]])
    d$cv$chosen$y <- pos(d$cv$chosen$y)
  }
  d
}

front_colours <- function() {
  c(tree = "grey55", hull = "#B2182B", cv = "#2166AC", rpart = "#E08214")
}

front_title <- function(x, d) {
  what <- if (inherits(x, "dpdt_prune")) "Pruning front"
          else if (!is.null(d$cv)) "Cross-validated front" else "Pareto front"
  sprintf("%s: %d trees, %d on the convex hull", what, nrow(d$points),
          length(d$hull))
}

# The CV curve with +-1 SE bars, the 1-SE line, and the two choices.
draw_cv <- function(cv, cols) {
  q <- cv$points
  bar <- !is.na(q$lo) & !is.na(q$hi) & q$hi > q$lo   # a zero SE has no bar
  if (any(bar)) {
    graphics::arrows(q$x[bar], q$lo[bar], q$x[bar], q$hi[bar], angle = 90,
                     code = 3, length = 0.025,
                     col = grDevices::adjustcolor(cols["cv"], 0.6))
  }
  graphics::lines(q$x, q$y, col = cols["cv"])
  graphics::points(q$x, q$y, pch = 15, cex = 0.6, col = cols["cv"])
  if (!is.null(cv$one_se)) graphics::abline(h = cv$one_se, lty = 3, col = cols["cv"])
  ch <- cv$chosen
  if (nrow(ch) == 2 && ch$model[1] == ch$model[2]) {   # one tree, one label
    ch <- ch[1, ]
    ch$label <- "min = 1-SE"
  }
  if (nrow(ch)) {
    graphics::abline(v = ch$x, lty = 2, col = "grey35")
    graphics::points(ch$x, ch$y, pch = 23, cex = 1.5, bg = "white", col = cols["cv"], lwd = 2)
    graphics::mtext(paste0(ch$label, " (", ch$model, ")"), side = 3, at = ch$x,
                    line = 0.1, cex = 0.7, col = "grey20",
                    adj = if (nrow(ch) == 2 && ch$x[1] != ch$x[2])
                            ifelse(ch$x == max(ch$x), 0, 1) else 0.5)
  }
}

# The legend in the corner where it covers the fewest of the points drawn
# (trees, CV points and bar ends, rpart's), the usual corner on ties: a CV
# curve that rises with complexity fills the top right.
front_legend <- function(d, cols, open) {
  lab <- c("tree", "convex hull")
  col <- cols[c("tree", "hull")]
  pch <- c(16, 19)
  lty <- c(NA, 1)
  if (open) {
    lab <- c(lab, "not Pareto-optimal")
    col <- c(col, cols["tree"]); pch <- c(pch, 1); lty <- c(lty, NA)
  }
  if (!is.null(d$cv)) {
    lab <- c(lab, paste0("CV (", d$cv$method, ") +- 1 SE"), "CV choice")
    col <- c(col, cols["cv"], cols["cv"]); pch <- c(pch, 15, 23); lty <- c(lty, 1, NA)
  }
  if (!is.null(d$rpart)) {
    lab <- c(lab, "rpart cost-complexity")
    col <- c(col, cols["rpart"]); pch <- c(pch, 4); lty <- c(lty, 2)
  }
  corners <- if (d$measure == "accuracy") c("bottomright", "topleft", "bottomleft", "topright")
             else c("topright", "bottomleft", "topleft", "bottomright")
  args <- list(legend = lab, col = col, pch = pch, lty = lty, bg = "white",
               box.col = "grey80", cex = 0.8, inset = 0.01)
  q <- d$cv$points
  where <- least_covered_corner(corners, args, c(d$points$x, rep(q$x, 3), d$rpart$x),
                                c(d$points$y, q$y, q$lo, q$hi, d$rpart$y))
  do.call(graphics::legend, c(list(where), args))
}

# Of `corners` (in the order preferred), the one where a legend drawn with
# `args` would cover the fewest of the points (x, y), in the current plot's
# coordinates (logarithmic axes included).
least_covered_corner <- function(corners, args, x, y) {
  if (graphics::par("xlog")) x <- suppressWarnings(log10(x))
  if (graphics::par("ylog")) y <- suppressWarnings(log10(y))
  keep <- is.finite(x) & is.finite(y)
  x <- x[keep]
  y <- y[keep]
  covered <- vapply(corners, function(where) {
    r <- do.call(graphics::legend, c(list(where), args, plot = FALSE))$rect
    sum(x >= r$left & x <= r$left + r$w & y <= r$top & y >= r$top - r$h)
  }, numeric(1))
  corners[which.min(covered)]
}

# Greedy placement of point labels, in the order given: above the point,
# else right, below, left of it, at the first place that overlaps no label
# already placed and no labelled point. A label that fits nowhere is
# dropped, unless `force` (then it goes above its point).
place_labels <- function(x, y, lab, cex, force = FALSE) {
  xi <- graphics::grconvertX(x, "user", "inches")
  yi <- graphics::grconvertY(y, "user", "inches")
  w <- graphics::strwidth(lab, units = "inches", cex = cex) + 0.02
  h <- graphics::strheight(lab, units = "inches", cex = cex) + 0.02
  r <- 0.05   # half size of a point marker, inches
  boxes <- cbind(xi - r, xi + r, yi - r, yi + r)   # x0, x1, y0, y1
  lim <- c(graphics::grconvertX(0:1, "npc", "inches"),
           graphics::grconvertY(0:1, "npc", "inches"))
  cx <- cy <- rep(NA_real_, length(x))
  for (i in seq_along(x)) {
    d <- r + 0.01
    cand <- rbind(c(xi[i], yi[i] + d + h[i] / 2), c(xi[i] + d + w[i] / 2, yi[i]),
                  c(xi[i], yi[i] - d - h[i] / 2), c(xi[i] - d - w[i] / 2, yi[i]))
    for (k in seq_len(nrow(cand))) {
      b <- c(cand[k, 1] - w[i] / 2, cand[k, 1] + w[i] / 2,
             cand[k, 2] - h[i] / 2, cand[k, 2] + h[i] / 2)
      inside <- b[1] >= lim[1] && b[2] <= lim[2] && b[3] >= lim[3] && b[4] <= lim[4]
      hit <- boxes[, 1] < b[2] & boxes[, 2] > b[1] & boxes[, 3] < b[4] & boxes[, 4] > b[3]
      if (inside && !any(hit)) {
        cx[i] <- cand[k, 1]
        cy[i] <- cand[k, 2]
        boxes <- rbind(boxes, b)
        break
      }
    }
    if (is.na(cx[i]) && force) {
      cx[i] <- cand[1, 1]
      cy[i] <- cand[1, 2]
    }
  }
  shown <- !is.na(cx)
  list(x = graphics::grconvertX(cx[shown], "inches", "user"),
       y = graphics::grconvertY(cy[shown], "inches", "user"), shown = shown)
}
