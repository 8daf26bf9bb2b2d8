# Plots of fronts and trees: every plot writes a non-empty PNG, and what
# they draw (hull, CV curve, rpart path, node positions, text size) is
# checked against independent computations.

png_size <- function(draw, width = 800, height = 600) {
  f <- tempfile(fileext = ".png")
  grDevices::png(f, width = width, height = height)
  ok <- tryCatch({ draw(); TRUE }, finally = grDevices::dev.off())
  size <- file.size(f)
  unlink(f)
  size
}

iris_fit <- function() dpdt_fit(Species ~ ., data = iris, max_depth = 3, min_bucket = 1)
cars_fit <- function() dpdt_fit(mpg ~ wt + hp + factor(cyl), data = mtcars,
                                max_depth = 3, min_bucket = 1)

test_that("front plots write a PNG for classification, regression, pruning and CV fronts", {
  fit <- iris_fit()
  reg <- cars_fit()
  blank <- png_size(function() plot.new())
  for (draw in list(
    function() plot(fit),
    function() plot(fit, measure = "accuracy", complexity = "n_splits", labels = "all"),
    function() plot(reg),
    function() plot(reg, log = "y", labels = "none", legend = FALSE),
    function() plot(fake_prune(fit)),
    function() plot(fake_cv(fit)),
    function() plot(fake_cv(reg), cv = "alpha"),
    function() plot(fit, model = 2),
    function() plot(reg, model = 5, main = "", cex = 0.8)
  )) {
    expect_gt(png_size(draw), blank)
  }
})

test_that("a logarithmic loss axis leaves out zero losses without warnings", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 4, min_bucket = 1)
  expect_equal(min(fit$front$train_loss), 0)
  d <- positive_only(front_plot_data(fake_cv(fit)))
  expect_identical(is.na(d$points$y), fit$front$train_loss == 0)
  expect_warning(size <- png_size(function() plot(fake_cv(fit), log = "y")), NA)
  expect_gt(size, 0)
})

test_that("the rpart overlay is the cptable's sequence on the front's axes", {
  skip_if_not_installed("rpart")
  fit <- iris_fit()
  rp <- rpart::rpart(Species ~ ., data = iris)
  expect_gt(png_size(function() plot(fit, rpart = rp)), 0)
  d <- front_plot_data(fit, "n_splits", rpart = rp)
  expect_equal(d$rpart$x, unname(rp$cptable[, "nsplit"]))
  # rpart's root and first split agree with dpdt's single leaf and stump
  expect_equal(d$rpart$y[1], fit$front$train_loss[1])
  expect_equal(d$rpart$y[2], fit$front$train_loss[2])
  # avg_tests of rpart's pruned trees: 0 for the root, 1 for a stump, and
  # the weighted mean leaf depth of the full tree
  d2 <- front_plot_data(fit, "avg_tests", rpart = rp)
  fr <- rp$frame
  leaf <- fr$var == "<leaf>"
  depth <- floor(log2(as.numeric(rownames(fr))))
  expect_equal(d2$rpart$x[1:2], c(0, 1))
  expect_equal(d2$rpart$x[nrow(rp$cptable)], sum(fr$n[leaf] * depth[leaf]) / 150)
  expect_equal(d2$measure, "loss")
  reg <- rpart::rpart(mpg ~ wt, data = mtcars)
  expect_error(plot(fit, rpart = reg), "`rpart` was fitted with method \"anova\"")
  expect_error(plot(fit, rpart = "tree"), "`rpart` must be a fit from rpart")
})

test_that("the hull drawn is the lower convex hull of the axes drawn", {
  fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 3, complexity = "splits", min_bucket = 1)
  # computed on n_splits, it is the fit's own hull (alpha_min not NA)
  f <- fit$front
  expect_identical(sort(front_hull(f$n_splits, f$train_loss, rep(TRUE, nrow(f)))),
                   which(!is.na(f$alpha_min)))
  expect_identical(front_plot_data(fit)$hull, which(!is.na(f$alpha_min)))
  # brute force: a tree is on the hull iff it minimises loss + alpha * c
  # for some alpha >= 0 (checked on the pruning-like front, on avg_tests)
  pr <- fake_prune(iris_fit())
  d <- front_plot_data(pr, "avg_tests")
  c0 <- pr$front$avg_tests
  l0 <- pr$front$loss
  alphas <- c(0, sort(unique(unlist(outer(seq_along(c0), seq_along(c0), function(i, j)
    ifelse(c0[i] != c0[j], (l0[j] - l0[i]) / (c0[i] - c0[j]), NA))))))
  alphas <- alphas[!is.na(alphas) & alphas >= 0]
  mids <- c(alphas, (alphas[-1] + alphas[-length(alphas)]) / 2, max(alphas) + 1)
  winners <- unique(unlist(lapply(mids, function(a) {
    v <- l0 + a * c0
    which(abs(v - min(v)) <= 1e-12)
  })))
  expect_setequal(d$hull, winners)
  expect_false(any(d$points$hull & !d$points$pareto))
})

test_that("the CV curve follows the contract's columns and choices", {
  fit <- iris_fit()
  cvf <- fake_cv(fit)
  d <- front_plot_data(cvf)
  expect_identical(d$cv$method, "budget")
  expect_equal(nrow(d$cv$points), nrow(fit$front))
  expect_equal(d$cv$one_se, cvf$front$cv_loss[cvf$model_min] + cvf$front$cv_se[cvf$model_min])
  expect_identical(d$cv$chosen$model, c(cvf$model_min, cvf$model_1se))
  expect_identical(d$cv$chosen$label, c("min", "1-SE"))
  a <- front_plot_data(cvf, cv = "alpha")
  expect_identical(sort(a$cv$points$model), which(!is.na(fit$front$alpha_min)))
  acc <- front_plot_data(cvf, measure = "accuracy")
  se <- cvf$front$cv_se[d$cv$points$model]
  expect_true(any(se > 0))
  expect_equal(d$cv$points$lo, d$cv$points$y - se)
  expect_equal(d$cv$points$hi, d$cv$points$y + se)
  # accuracy: the bar spans the same SE either side, low end below the high
  expect_equal(acc$cv$points$y, 1 - d$cv$points$y)
  expect_equal(acc$cv$points$lo, 1 - (d$cv$points$y + se))
  expect_equal(acc$cv$points$hi, 1 - (d$cv$points$y - se))
  expect_identical(front_plot_data(fit)$cv, NULL)
  no_alpha <- cvf
  no_alpha$front$cv_loss_alpha <- NULL
  expect_error(plot(no_alpha, cv = "alpha"), "no column `cv_loss_alpha`")
})

test_that("labels go to the CV choices and hull first, and never overlap", {
  fit <- iris_fit()
  d <- front_plot_data(fake_cv(fit))
  expect_identical(label_rows(d, "hull")[1:2], c(d$cv$chosen$model))
  expect_length(label_rows(d, "none"), 0)
  expect_setequal(label_rows(d, "all"), seq_len(nrow(fit$front)))
  f <- tempfile(fileext = ".png")
  grDevices::png(f, width = 500, height = 400)
  on.exit({ grDevices::dev.off(); unlink(f) })
  plot(fit)
  p <- d$points
  pos <- place_labels(p$x, p$y, as.character(p$model), cex = 0.65)
  w <- graphics::strwidth(as.character(p$model[pos$shown]), cex = 0.65)
  h <- graphics::strheight(as.character(p$model[pos$shown]), cex = 0.65)
  n <- sum(pos$shown)
  expect_gt(n, 3)
  for (i in seq_len(n - 1)) for (j in (i + 1):n) {
    apart <- abs(pos$x[i] - pos$x[j]) >= (w[i] + w[j]) / 2 ||
             abs(pos$y[i] - pos$y[j]) >= (h[i] + h[j]) / 2
    expect_true(apart)
  }
  forced <- place_labels(p$x, p$y, as.character(p$model), cex = 3, force = TRUE)
  expect_true(all(forced$shown))
})

test_that("tree layout: leaves on the bottom row, parents above the middle of their children", {
  fit <- iris_fit()
  tr <- dpdt_tree(fit, model = nrow(fit$front))
  lay <- tree_layout(tr)
  t <- tr$tree
  leaf <- t$feature == 0L
  expect_equal(lay$nodes$x[leaf], seq_len(sum(leaf)))
  expect_true(all(lay$nodes$y[leaf] == -max(t$depth)))
  inner <- which(!leaf)
  expect_equal(lay$nodes$x[inner], (lay$nodes$x[t$left[inner]] + lay$nodes$x[t$right[inner]]) / 2)
  expect_equal(lay$nodes$y[inner], -t$depth[inner])
  expect_identical(lay$text[[1]], c("Petal.Width", "<= 1.55"))
  # leaf 3: 50 setosa, pure
  expect_identical(lay$text[[3]], c("setosa", "1.00 .00 .00", "n=50"))
  expect_identical(as.character(lay$nodes$prediction[3]), "setosa")
  expect_identical(lay$legend$labels, levels(iris$Species))
  cars <- cars_fit()
  reg <- tree_layout(dpdt_tree(cars, model = 2))
  expect_identical(reg$text[[2]][2], paste0("n=", sum(predict(cars, model = 2, type = "node") == 2)))
  expect_identical(reg$text[[2]][1], format(signif(mean(mtcars$mpg[predict(cars, model = 2, type = "node") == 2]), 3)))
  expect_true(all(reg$nodes$strength == 1))
})

test_that("tree text: level groups, NA sides and abbreviations come from node_split()", {
  fit <- iris_fit()
  tr <- dpdt_tree(fit)
  # a categorical test on a long-named factor, NA going right
  tr$features <- rbind(tr$features, data.frame(name = "colour_of_the_flower",
    variable = "colour_of_the_flower", kind = "categorical", level = NA))
  tr$xlevels <- list(colour_of_the_flower = c("violet_blue", "white", "pink", "deep_red", "yellow"))
  tr$tree$feature[1] <- nrow(tr$features)
  tr$tree$threshold[1] <- NA
  tr$tree$levels_left[[1]] <- c(1L, 3L)
  tr$tree$na_left[1] <- FALSE
  tr$tree$na_learned[1] <- TRUE
  expect_identical(tree_layout(tr)$text[[1]],
                   c("colour_of_the_flower", "in {violet_blue, pink}", "NA: no"))
  short <- tree_layout(tr, abbrev = 4)$text[[1]]
  expect_identical(short[3], "NA: no")
  expect_lt(nchar(short[1]), nchar("colour_of_the_flower"))
  expect_match(short[2], "^in \\{[^,]+, [^,]+\\}$")
  expect_gt(png_size(function() plot(tr)), 0)
})

test_that("tree text is scaled so that no two boxes on a row overlap", {
  fit <- dpdt_fit(status ~ ., data = deep_tree_data(), max_depth = 6,
                  cart_depth = 2, min_bucket = 1)
  m <- min(which(fit$front$n_leaves >= 30 & !is.na(fit$front$alpha_min)))
  tr <- dpdt_tree(fit, m)
  expect_gte(tr$front$n_leaves, 30)
  for (size in list(c(50 * tr$front$n_leaves, 700), c(700, 500))) {
    f <- tempfile(fileext = ".png")
    grDevices::png(f, width = size[1], height = size[2])
    plot(tr)
    lay <- tree_layout(tr, abbrev = Inf)
    cex <- fit_cex(lay)
    b <- box_sizes(lay)
    nd <- lay$nodes
    for (row in split(seq_len(nrow(nd)), nd$y)) {
      row <- row[order(nd$x[row])]
      if (length(row) < 2) next
      gap <- diff(nd$x[row]) - cex * (b$w[row[-1]] + b$w[row[-length(row)]]) / 2
      expect_true(all(gap >= -1e-9))
    }
    expect_true(all(cex * b$h <= 0.85 + 1e-9))
    grDevices::dev.off()
    expect_gt(file.size(f), 0)
    unlink(f)
  }
  # 50 pixels a leaf keep the text at a legible size (shortening names if
  # needed), and shortened names stay distinct
  f <- tempfile(fileext = ".png")
  grDevices::png(f, width = 50 * tr$front$n_leaves, height = 700)
  plot(tr)
  best <- max(vapply(c(Inf, 12, 8, 5), function(a) fit_cex(tree_layout(tr, abbrev = a)),
                     numeric(1)))
  expect_gt(best, 0.7)
  grDevices::dev.off()
  unlink(f)
  expect_identical(shorten_names(c("south_west", "south_east", "centre"), 5),
                   abbreviate(c("south_west", "south_east", "centre"), 5, named = FALSE))
  expect_identical(shorten_names(c("income_per_household", "age"), 8), c("income_.", "age"))
})

test_that("autoplot() draws fronts and trees as ggplots", {
  skip_if_not_installed("ggplot2")
  fit <- iris_fit()
  reg <- cars_fit()
  objs <- list(ggplot2::autoplot(fit), ggplot2::autoplot(reg, complexity = "n_splits"),
               ggplot2::autoplot(fake_prune(fit)), ggplot2::autoplot(fake_cv(fit)),
               ggplot2::autoplot(fit, model = 3), ggplot2::autoplot(dpdt_tree(reg)))
  for (g in objs) {
    expect_s3_class(g, "ggplot")
    expect_gt(png_size(function() print(g)), 0)
  }
  expect_error(ggplot2::autoplot(fit, bogus = 1), "bogus")
  expect_error(ggplot2::autoplot(dpdt_tree(fit), size = -1), "`size`")
})

test_that("plot arguments are checked", {
  fit <- iris_fit()
  reg <- cars_fit()
  on_png <- function(expr) {
    f <- tempfile(fileext = ".png")
    grDevices::png(f)
    on.exit({ grDevices::dev.off(); unlink(f) })
    expr
  }
  on_png(expect_error(plot(fit, complexity = "depth"), "`complexity` must be one of"))
  on_png(expect_error(plot(reg, measure = "accuracy"), "needs a classification front"))
  on_png(expect_error(plot(fit, labels = "some"), "`labels` must be one of"))
  on_png(expect_error(plot(fit, log = "x"), "`log` must be"))
  on_png(expect_error(plot(fit, legend = NA), "`legend` must be TRUE or FALSE"))
  on_png(expect_error(plot(fit, main = 1), "`main` must be NULL or a single string"))
  on_png(expect_error(plot(fit, colour = "red"), "`colour` not matched by plot"))
  on_png(expect_error(plot(fit, model = 99), "`model` must be a whole number"))
  on_png(expect_error(plot(fit, model = 2, cex = -1), "`cex` must be NULL"))
  on_png(expect_error(plot(dpdt_tree(fit), abbrev = 0), "`abbrev` must be"))
  on_png(expect_error(plot(dpdt_tree(fit), digits = 0), "`digits`"))
  on_png(expect_error(plot(dpdt_tree(fit), node_ids = "yes"), "`node_ids`"))
})

test_that("the front's legend goes to the corner where it covers the fewest points", {
  f <- tempfile(fileext = ".png")
  grDevices::png(f)
  on.exit({
    grDevices::dev.off()
    unlink(f)
  })
  args <- list(legend = c("tree", "convex hull"), pch = c(16, 19), cex = 0.8, inset = 0.01)
  corners <- c("topright", "bottomleft", "topleft", "bottomright")
  corner_for <- function(x, y) dpdt:::least_covered_corner(corners, args, x, y)
  # points filling the top right (a CV curve rising with complexity)
  top_right <- expand.grid(x = seq(7, 10, by = 0.1), y = seq(0.7, 1, by = 0.01))
  plot(c(0, 10), c(0.01, 1), type = "n")
  expect_equal(corner_for(numeric(0), numeric(0)), "topright")  # the preferred one
  expect_equal(corner_for(top_right$x, top_right$y), "bottomleft")
  # ... and the bottom left too: the next corner without points
  bottom_left <- expand.grid(x = seq(0, 3, by = 0.1), y = seq(0.01, 0.3, by = 0.01))
  expect_equal(corner_for(c(top_right$x, bottom_left$x), c(top_right$y, bottom_left$y)),
               "topleft")
  # on a logarithmic axis the points are compared in its coordinates
  plot(c(0, 10), c(0.01, 1), type = "n", log = "y")
  expect_equal(corner_for(top_right$x, top_right$y), "bottomleft")
  expect_equal(corner_for(c(0, 10, NA), c(0, -1, 0.5)), "topright")  # none drawn
})
