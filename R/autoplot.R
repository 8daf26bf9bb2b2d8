#' ggplot2 versions of the front and tree plots
#'
#' With ggplot2 installed, `ggplot2::autoplot()` draws a front (points,
#' convex hull, model ids, and the CV curve with its choices or rpart's
#' cost-complexity sequence when present) or one of its trees, as a
#' ggplot that can be themed and extended. They draw what [plot.dpdt()] and
#' [plot.dpdt_tree()] draw, from the same computed layout. The methods are
#' registered when ggplot2 is loaded; ggplot2 is not required otherwise.
#'
#' @param object A front of trees (class `"dpdt"`) or a `"dpdt_tree"`.
#' @param model,complexity,measure,labels,rpart,cv As in [plot.dpdt()].
#'   With `model`, the tree is drawn (as `autoplot(dpdt_tree(object, model))`).
#' @param digits,abbrev As in [plot.dpdt_tree()]; `abbrev = NULL`
#'   shortens names to 8 characters on trees of more than 20 leaves.
#' @param size Text size of the tree's boxes, in mm; `NULL` scales it with
#'   the number of leaves.
#' @param ... With `model`, passed to the tree method; otherwise not used.
#' @return A ggplot object.
#' @name autoplot.dpdt
#' @examples
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3)
#'   ggplot2::autoplot(fit)
#'   ggplot2::autoplot(fit, model = nrow(fit$front))
#' }
NULL

#' @rdname autoplot.dpdt
autoplot.dpdt <- function(object, model = NULL, complexity = NULL,
                          measure = "loss", labels = "auto", rpart = NULL,
                          cv = NULL, ...) {
  need_ggplot2()
  if (!is.null(model)) return(autoplot.dpdt_tree(dpdt_tree(object, model), ...))
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "autoplot")
  labels <- check_choice(labels, c("auto", "all", "hull", "none"), "labels")
  d <- front_plot_data(object, complexity, measure, cv, rpart)
  p <- d$points
  cols <- front_colours()
  key <- c(tree = "tree", hull = "convex hull", cv = "CV +- 1 SE",
           rpart = "rpart cost-complexity")
  series <- function(df, what) {
    if (is.null(df) || !nrow(df)) return(NULL)
    df$what <- factor(key[[what]], levels = unname(key))
    df
  }
  gg <- ggplot2::ggplot(mapping = ggplot2::aes(x = x, y = y, colour = what))
  if (!is.null(d$rpart)) {
    r <- series(d$rpart, "rpart")
    gg <- gg + ggplot2::geom_step(data = r, linetype = 2) +
      ggplot2::geom_point(data = r, shape = 4)
  }
  off <- series(p[!p$hull, ], "tree")
  if (!is.null(off)) {
    gg <- gg + ggplot2::geom_point(data = off, ggplot2::aes(shape = pareto),
                                   size = 1.2, show.legend = FALSE) +
      ggplot2::scale_shape_manual(values = c(`TRUE` = 16, `FALSE` = 1))
  }
  h <- series(p[d$hull, ], "hull")
  gg <- gg + ggplot2::geom_line(data = h) + ggplot2::geom_point(data = h, size = 2)
  if (!is.null(d$cv)) {
    q <- series(d$cv$points, "cv")
    gg <- gg + ggplot2::geom_errorbar(data = q, ggplot2::aes(ymin = lo, ymax = hi),
                                      width = 0, alpha = 0.6) +
      ggplot2::geom_line(data = q) + ggplot2::geom_point(data = q, shape = 15, size = 1)
    ch <- d$cv$chosen
    if (nrow(ch)) {
      ch$text <- paste0(ch$label, " (", ch$model, ")")
      gg <- gg + ggplot2::geom_vline(xintercept = ch$x, linetype = 2, colour = "grey35") +
        ggplot2::geom_point(data = ch, ggplot2::aes(x = x, y = y), inherit.aes = FALSE,
                            shape = 23, size = 3, fill = "white", colour = cols[["cv"]]) +
        ggplot2::geom_text(data = ch, ggplot2::aes(x = x, y = Inf, label = text),
                           inherit.aes = FALSE, vjust = 1.3 + 1.4 * (seq_len(nrow(ch)) - 1),
                           hjust = 1.05, size = 3)
    }
    if (!is.null(d$cv$one_se)) {
      gg <- gg + ggplot2::geom_hline(yintercept = d$cv$one_se, linetype = 3,
                                     colour = cols[["cv"]])
    }
  }
  lab <- label_rows(d, labels)
  if (length(lab)) {
    gg <- gg + ggplot2::geom_text(data = p[lab, ], ggplot2::aes(x = x, y = y, label = model),
                                  inherit.aes = FALSE, vjust = -0.7, size = 2.5,
                                  colour = "grey20", check_overlap = labels != "all")
  }
  vals <- stats::setNames(unname(cols[c("tree", "hull", "cv", "rpart")]), unname(key))
  gg + ggplot2::scale_colour_manual(values = vals, name = NULL) +
    ggplot2::labs(x = d$xlab, y = d$ylab, title = front_title(object, d)) +
    ggplot2::theme_bw() +
    ggplot2::theme(legend.position = "bottom")
}

#' @rdname autoplot.dpdt
autoplot.dpdt_tree <- function(object, digits = 3, abbrev = NULL, size = NULL, ...) {
  need_ggplot2()
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "autoplot")
  check_tree_plot_args(digits, NULL, abbrev, NULL, TRUE, TRUE)
  if (!is.null(size) && !(is.numeric(size) && length(size) == 1 &&
                          is.finite(size) && size > 0)) {
    stop_arg("`size` must be NULL or a single positive number (mm); got ",
             show_value(size), ".")
  }
  lay0 <- tree_layout(object, digits)
  if (is.null(abbrev)) abbrev <- if (lay0$n_leaves > 20) 8 else Inf
  lay <- tree_layout(object, digits, abbrev)
  if (is.null(size)) size <- max(1.5, min(3.5, 3.5 * 22 / lay$n_leaves))
  nd <- lay$nodes
  nd$text <- vapply(lay$text, paste, character(1), collapse = "\n")
  e <- lay$edges
  gg <- ggplot2::ggplot() +
    ggplot2::geom_segment(data = e, ggplot2::aes(x = x0, y = y0, xend = x1, yend = y1),
                          colour = "grey45")
  root <- e[e$from == 1, ]
  if (nrow(root)) {
    root$tx <- root$x0 + 0.35 * (root$x1 - root$x0)
    root$ty <- root$y0 + 0.35 * (root$y1 - root$y0)
    gg <- gg + ggplot2::geom_text(data = root, ggplot2::aes(x = tx, y = ty, label = side),
                                  size = 0.8 * size, colour = "grey30",
                                  hjust = ifelse(root$side == "yes", 1.3, -0.3))
  }
  # an opaque white box under each node, so that branches do not show
  # through the paler (more transparent) fills
  gg <- gg + ggplot2::geom_label(data = nd, ggplot2::aes(x = x, y = y, label = text),
                                 fill = "white", colour = NA, size = size,
                                 label.size = 0.2, lineheight = 0.9) +
    ggplot2::geom_label(data = nd, ggplot2::aes(x = x, y = y, label = text,
                                                fill = prediction, alpha = strength),
                        size = size, label.size = 0.2, lineheight = 0.9,
                        key_glyph = ggplot2::draw_key_rect) +
    ggplot2::scale_alpha_identity()
  gg <- if (object$type == "classification") {
    cols <- class_colours(length(object$levels), isTRUE(object$ordered_response))
    gg + ggplot2::scale_fill_manual(values = cols, drop = FALSE, name = object$response)
  } else {
    ends <- mean_ramp_ends()
    gg + ggplot2::scale_fill_gradient(low = ends[1], high = ends[2],
                                      name = paste("mean of", object$response))
  }
  gg + ggplot2::scale_x_continuous(expand = ggplot2::expansion(add = 0.6)) +
    ggplot2::scale_y_continuous(expand = ggplot2::expansion(add = 0.5)) +
    ggplot2::labs(title = tree_title(object)) +
    ggplot2::theme_void() +
    ggplot2::theme(legend.position = "bottom",
                   plot.margin = ggplot2::margin(8, 8, 8, 8))
}

need_ggplot2 <- function() {
  if (!requireNamespace("ggplot2", quietly = TRUE)) {
    stop_arg("autoplot() needs the ggplot2 package; install it, or use plot().")
  }
}

# Columns named in aes() above (the data are ours, built in front-layout.R
# and tree-layout.R).
utils::globalVariables(c("x", "y", "what", "pareto", "lo", "hi", "text",
                         "model", "x0", "y0", "x1", "y1", "tx", "ty", "side",
                         "prediction", "strength"))
