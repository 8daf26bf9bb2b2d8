# What a plot of a front shows, computed once for plot() (base graphics)
# and autoplot() (ggplot2), for any front object (fit, pruning, CV): one
# point per tree, the convex hull, the cross-validation curve when the
# front has one, and rpart's cost-complexity sequence when asked for.

# `complexity`: "avg_tests", "n_splits", "avg_cost" (fronts searched with
# test costs) or NULL (the object's own measure, else n_splits); `measure`: "loss" or "accuracy" (1 - loss,
# classification only); `cv`: NULL (the object's `cv_method`), "budget"
# or "alpha"; `rpart`: NULL or an rpart fit.
front_plot_data <- function(x, complexity = NULL, measure = "loss",
                            cv = NULL, rpart = NULL) {
  f <- x$front
  own <- own_complexity(x)
  complexity <- if (is.null(complexity)) own
                else check_choice(complexity, intersect(c("avg_tests", "n_splits", "avg_cost"),
                                                        names(f)), "complexity")
  measure <- check_choice(measure, c("loss", "accuracy"), "measure")
  if (measure == "accuracy" && x$type != "classification") {
    stop_arg("`measure = \"accuracy\"` needs a classification front; this is ",
             "a regression, use measure = \"loss\".")
  }
  loss <- front_loss(x)
  to_y <- if (measure == "accuracy") function(l) 1 - l else identity
  xv <- f[[complexity]]
  pareto <- if (is.null(f$pareto)) rep(TRUE, nrow(f)) else as.logical(f$pareto)
  hull <- if (!is.null(f$alpha_min) && identical(complexity, own)) which(!is.na(f$alpha_min))
          else front_hull(xv, loss, pareto)
  hull <- hull[order(xv[hull], loss[hull])]
  points <- data.frame(model = f$model, x = xv, y = to_y(loss), pareto = pareto,
                       hull = seq_len(nrow(f)) %in% hull)
  list(points = points, hull = hull, cv = cv_curve(x, xv, to_y, cv),
       rpart = if (!is.null(rpart)) rpart_path(rpart, x, complexity, to_y),
       complexity = complexity, measure = measure,
       xlab = switch(complexity,
                     avg_tests = "average number of tests per row (avg_tests)",
                     avg_cost = "average cost of the tests per row (avg_cost)",
                     "number of splits (n_splits)"),
       ylab = loss_label(x, measure, cv = !is.null(x$front$cv_loss) ||
                                           !is.null(x$front$cv_loss_alpha)))
}

# The complexity measure a front was built for: a fit's `control`, else
# the number of splits (pruning fronts count pruned nodes).
own_complexity <- function(x) {
  if (is.null(x$control$complexity)) "n_splits"
  else complexity_column(x$control$complexity)
}

loss_label <- function(x, measure, cv = FALSE) {
  what <- if (measure == "accuracy") "accuracy"
          else if (x$type == "classification") "error rate" else "mean squared error"
  col <- if (is.null(x$loss_column)) "train_loss" else x$loss_column
  if (cv) paste(what, "(training and cross-validated)")
  else if (col == "train_loss") paste("training", what) else what
}

# Trees of the lower convex hull of (complexity, loss) among the Pareto
# rows: the trees some penalty alpha >= 0 on complexity picks. Rows are
# taken by complexity, then loss; a row is kept only if it has less loss
# than every simpler one.
front_hull <- function(xv, loss, pareto) {
  idx <- which(pareto & !is.na(xv) & !is.na(loss))
  idx <- idx[order(xv[idx], loss[idx])]
  keep <- idx[loss[idx] < c(Inf, cummin(loss[idx])[-length(idx)])]
  keep[lower_hull(xv[keep], loss[keep])]
}

# The CV contract (REPRESENTATION.md): columns cv_loss / cv_se
# (complexity-budget scoring, every tree) or cv_loss_alpha / cv_se_alpha
# (penalty scoring, hull trees), chosen rows model_min and model_1se.
cv_curve <- function(x, xv, to_y, cv) {
  f <- x$front
  if (is.null(f$cv_loss) && is.null(f$cv_loss_alpha)) return(NULL)
  method <- if (!is.null(cv)) check_choice(cv, c("budget", "alpha"), "cv")
            else if (is.null(x$cv_method)) "budget" else x$cv_method
  cols <- if (method == "alpha") c("cv_loss_alpha", "cv_se_alpha") else c("cv_loss", "cv_se")
  if (is.null(f[[cols[1]]])) {
    stop_arg("`cv = \"", method, "\"`: the front has no column `", cols[1],
             "`; use cv = NULL for the object's own scoring.")
  }
  l <- f[[cols[1]]]
  se <- if (is.null(f[[cols[2]]])) rep(0, length(l)) else f[[cols[2]]]
  ok <- which(!is.na(l) & !is.na(xv))
  ok <- ok[order(xv[ok], l[ok])]
  # the bar's low and high ends on the plot's axis (accuracy turns them over)
  ends <- cbind(to_y(l[ok] - se[ok]), to_y(l[ok] + se[ok]))
  pts <- data.frame(model = f$model[ok], x = xv[ok], y = to_y(l[ok]),
                    lo = pmin(ends[, 1], ends[, 2]), hi = pmax(ends[, 1], ends[, 2]))
  chosen <- c(min = x$model_min, `1-SE` = x$model_1se)
  chosen <- chosen[!is.na(chosen)]
  pick <- data.frame(label = names(chosen), model = unname(chosen),
                     x = xv[chosen], y = to_y(l[chosen]),
                     stringsAsFactors = FALSE)
  rule <- if (!is.null(x$model_min)) to_y(l[x$model_min] + se[x$model_min])
  list(points = pts, chosen = pick, one_se = rule, method = method)
}

# rpart's cost-complexity sequence on the same axes: one point per row of
# its cptable, the pruned tree's training loss (rel error times the root
# node's loss, deviance over weight) against its number of splits or its
# weighted mean leaf depth.
rpart_path <- function(fit, x, complexity, to_y) {
  if (!inherits(fit, "rpart")) {
    stop_arg("`rpart` must be a fit from rpart::rpart(); got ", describe(fit), ".")
  }
  if (!requireNamespace("rpart", quietly = TRUE)) {
    stop_arg("`rpart = ` needs the rpart package; install it.")
  }
  want <- if (x$type == "classification") "class" else "anova"
  if (!identical(fit$method, want)) {
    stop_arg("`rpart` was fitted with method \"", fit$method, "\" but this is a ",
             x$type, " front; fit rpart with method = \"", want, "\".")
  }
  if (complexity == "avg_cost") {
    stop_arg("`rpart = ` cannot be drawn against avg_cost (rpart has no test ",
             "costs); use complexity = \"n_splits\" or \"avg_tests\".")
  }
  cpt <- fit$cptable
  root <- fit$frame$dev[1] / fit$frame$wt[1]
  xv <- if (complexity == "n_splits") cpt[, "nsplit"] else {
    vapply(cpt[, "CP"], function(cp) {
      fr <- rpart::prune(fit, cp = cp)$frame
      leaf <- fr$var == "<leaf>"
      depth <- floor(log2(as.numeric(rownames(fr))))
      sum(fr$wt[leaf] * depth[leaf]) / fr$wt[1]
    }, numeric(1))
  }
  data.frame(nsplit = cpt[, "nsplit"], x = unname(xv),
             y = to_y(unname(cpt[, "rel error"]) * root))
}

# Which trees get their model id written, most important first (the CV
# choices, then the hull trees): all of them on fronts of at most 40 trees,
# else the choices and the hull.
label_rows <- function(d, labels) {
  p <- d$points
  chosen <- if (!is.null(d$cv)) match(d$cv$chosen$model, p$model) else integer(0)
  first <- unique(c(chosen, d$hull))
  switch(labels,
    all = unique(c(first, seq_len(nrow(p)))),
    none = integer(0),
    hull = first,
    auto = if (nrow(p) <= 40) unique(c(first, seq_len(nrow(p)))) else first)
}
