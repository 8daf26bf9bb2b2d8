#' Choose a tree of the front by cross-validation
#'
#' Refits the search in each fold and scores every tree of the full-data
#' front by its held-out loss, as rpart's `xerror` and `cv.glmnet` do, and
#' returns the front with the cross-validated loss of each tree and the
#' minimum and one-standard-error choices.
#'
#' Two scorings, each computed for every fold `k` and tree `j` of the
#' full-data front:
#'
#' * **by complexity budget** (columns `cv_loss`, `cv_se`; every tree): the
#'   held-out loss of fold `k`'s tree of least training loss among those of
#'   complexity at most tree `j`'s (complexity: `avg_tests`, `n_splits` or `avg_cost`,
#'   as the fit's `complexity`). Trees off the convex hull of the front are
#'   scored too, so they can be chosen.
#' * **by penalty** (columns `cv_loss_alpha`, `cv_se_alpha`; the trees on
#'   the convex hull, `NA` elsewhere), as rpart's `xerror`: the held-out loss
#'   of fold `k`'s tree minimising `train_loss + alpha * complexity` at
#'   `alpha` = the geometric mean of tree `j`'s interval
#'   `sqrt(alpha_min * alpha_max)`. At the ends of the front: for the single
#'   leaf (`alpha_max = Inf`) `alpha = Inf`, i.e. each fold's single leaf;
#'   for the most accurate tree (`alpha_min = 0`) `alpha = 0`, i.e. each
#'   fold's most accurate tree. Ties go to the simpler fold tree.
#'
#' Each fold is refitted by the same code as [dpdt_fit()] itself, with every
#' setting of the fit: factors and their level groups, missing values,
#' weights, `loss_matrix`, `prior`, `test_cost`, `candidates`,
#' `exact_levels`, `min_bucket`, ... (under a `time_limit`, the search the
#' full fit kept, run without a limit so that every fold searches alike).
#' The held-out loss of a fold is computed as `train_loss` is: the weighted
#' misclassification rate, or with a `loss_matrix` the weighted mean cost of
#' the predicted classes (classification), or the weighted mean squared
#' error (regression), each held-out row weighted as in the fit (with a
#' `prior`, times its class's factor in the full fit). A held-out factor
#' level that a fold's training rows lack goes where that fold's tree sends
#' missing values (`predict(unseen = "missing")`). With `complexity =
#' "cost"` the budgets are `avg_cost`.
#' `cv_loss` is the mean over folds weighted by the folds'
#' held-out weights (so it is the held-out loss pooled over all rows), and
#' `cv_se` its standard error across folds,
#' `sqrt(sum_k W_k (L_k - cv_loss)^2 / sum_k W_k / (K - 1))`, as
#' `cv.glmnet`'s `cvsd`. `model_min` is the tree of least CV loss (the
#' simplest if tied), `model_1se` the simplest tree whose CV loss is within
#' one standard error of that minimum (rpart's and glmnet's one-SE rule);
#' "simplest" is the first row of the front, which is ordered by
#' complexity.
#'
#' With `validation`, no fold is refitted: every tree of the full-data
#' front is scored on the validation rows by the same rule (a quick hold-out choice; the
#' penalty scoring then equals the budget scoring on the hull), and `cv_se`
#' is the standard error of the mean loss over the validation rows.
#'
#' The folds are independent jobs run with
#' [future.apply::future_lapply()] (`future.seed = TRUE`): set a
#' [future::plan()] (multisession, a cluster, a scheduler through
#' future.batchtools) to spread them; dpdt never sets a plan itself. The
#' search is deterministic and the folds are drawn in the calling session,
#' so the result is the same under any plan and reproducible with
#' [set.seed()].
#'
#' @param x A formula (then `data` and `dpdt_fit()`'s arguments in `...`
#'   give the fit) or a fit from [dpdt_fit()] (its settings are refitted in
#'   each fold).
#' @param data A data frame, when `x` is a formula.
#' @param folds The number of folds, a whole number >= 2 and at most the
#'   number of rows. Classification folds are stratified: each class is
#'   spread evenly over the folds. Ignored when `fold_id` is given.
#' @param ... With a formula: arguments of [dpdt_fit()] (`max_depth`,
#'   `weights`, `complexity`, ...). With a fit: nothing.
#' @param validation Optional data frame with the model's variables (and
#'   the weights column, if the fit was weighted by one): score the trees on
#'   it instead of refitting in folds. Rows with a missing value in a
#'   variable of the formula are dropped.
#' @param fold_id Optional fold of each row: a vector (numbers, factor or
#'   character) with one value per row of `data` (with a fit: per row of
#'   `model.frame(x)`), at least two distinct values. Rows dropped by
#'   `subset` or `na.action`, and rows of zero weight, are ignored.
#' @param threads Engine threads per fold refit (default 1: parallelism
#'   comes from the folds). The full-data fit uses `dpdt_fit()`'s own
#'   `threads` (from `...`).
#' @param method Which scoring chooses `model_min` and `model_1se`:
#'   `"budget"` (every tree, the default) or `"alpha"` (hull trees only,
#'   as rpart).
#' @param digits Significant digits of the printed front.
#'
#' @return An object of class `c("dpdt_cv", "dpdt")`: the full-data fit
#'   with the front's columns `cv_loss`, `cv_se`, `cv_loss_alpha`,
#'   `cv_se_alpha` added, and fields `model_min`, `model_1se`,
#'   `default_model` (= `model_1se`, the tree used by [predict.dpdt()],
#'   [dpdt_tree()], `fitted()` when `model` is not given), `folds` (the fold
#'   of each row of the model frame, `NA` for zero-weight rows; `NULL` with
#'   `validation`), `cv_method`, `cv_fold_loss` and `cv_fold_loss_alpha`
#'   (fold x tree matrices of held-out losses), `cv_fold_weight`,
#'   `cv_design` (kind, number of folds, stratified, rows scored) and
#'   `cv_seconds`.
#' @seealso [dpdt_fit()]; rpart's `printcp()`; `glmnet::cv.glmnet()`.
#' @examples
#' set.seed(1)
#' cv <- dpdt_cv(Species ~ ., data = iris, folds = 3, max_depth = 2)
#' cv
#' cv$front[, c("model", "n_splits", "cv_loss", "cv_se")]
#' predict(cv, iris[c(1, 51, 101), ])   # the one-SE tree
#'
#' # from a fit, with a validation set instead of folds
#' fit <- dpdt_fit(mpg ~ wt + hp, data = mtcars[1:22, ], max_depth = 2)
#' dpdt_cv(fit, validation = mtcars[23:32, ])$model_min
#'
#' \donttest{
#' # folds in parallel: any future plan, same result
#' future::plan(future::multisession, workers = 2)
#' set.seed(1)
#' cv2 <- dpdt_cv(Species ~ ., data = iris, folds = 3, max_depth = 2)
#' future::plan(future::sequential)
#' identical(cv2$front, cv$front)
#' }
#' @importFrom future.apply future_lapply
#' @export
dpdt_cv <- function(x, data = NULL, folds = 10, ..., validation = NULL,
                    fold_id = NULL, threads = 1,
                    method = c("budget", "alpha")) {
  cv_call <- match.call()
  method <- check_choice(method, c("budget", "alpha"), "method")
  threads <- check_whole(threads, "threads", 1, 1024)
  check_cv_x(x, data, match.call(expand.dots = FALSE)$...)
  check_cv_best_only(x, match.call(expand.dots = FALSE)$...$best_only, parent.frame())
  fit <- if (inherits(x, "formula")) {
    cl <- cv_call
    cl <- cl[!names(cl) %in% c("folds", "validation", "fold_id", "threads",
                                "method")]
    names(cl)[names(cl) == "x"] <- "formula"
    cl[[1L]] <- quote(dpdt::dpdt_fit)
    f <- eval(cl, parent.frame())
    f$call[[1L]] <- as.name("dpdt_fit")
    f
  } else {
    as_plain_fit(x)
  }
  start <- proc.time()[["elapsed"]]
  scored <- if (!is.null(validation)) {
    if (!is.null(fold_id)) {
      stop_arg("Give either `validation` or `fold_id`, not both.")
    }
    score_validation(fit, validation)
  } else {
    score_folds(fit, folds, fold_id, data, threads)
  }
  cv_object(fit, scored, method, cv_call,
            proc.time()[["elapsed"]] - start)
}

# A fit given to dpdt_cv(), without the columns of an earlier CV.
as_plain_fit <- function(x) {
  keep <- setdiff(names(x$front), c("cv_loss", "cv_se", "cv_loss_alpha",
                                    "cv_se_alpha"))
  x$front <- x$front[keep]
  x[c("model_min", "model_1se", "folds", "cv_method", "cv_fold_loss",
      "cv_fold_loss_alpha", "cv_fold_weight", "cv_design", "cv_seconds",
      "cv_call")] <- NULL
  x$default_model <- default_tree(x$front)
  class(x) <- "dpdt"
  x
}

# The fit's rows for refitting: its model frame with the response as a
# factor of the fit's levels (a fold's rows may lack a class, which must
# keep its code and its row of the loss matrix), each row's class code,
# weight, and scoring weight (its weight in the fit: the prior's factor of
# its class included), and which rows have positive weight.
cv_rows <- function(fit) {
  mf <- fit$model_frame
  w <- stats::model.weights(mf)
  if (is.null(w)) w <- rep(1, nrow(mf))
  y <- plain_numeric(stats::model.response(mf), "The response")
  score_w <- w
  if (fit$type == "classification") {
    code <- match(as.character(y), fit$levels)
    mf[[1L]] <- factor(fit$levels[code], levels = fit$levels,
                       ordered = is.ordered(y))
    y <- code - 1
    if (!is.null(fit$prior_scale)) score_w <- w * fit$prior_scale[code]
  }
  list(mf = mf, y = as.double(y), w = as.double(w),
       score_w = as.double(score_w), keep = w > 0)
}

# Rows `i` of a model frame, with its terms (which `[` drops).
frame_rows <- function(mf, i) {
  out <- mf[i, , drop = FALSE]
  attr(out, "terms") <- attr(mf, "terms")
  out
}

# Refit the search in each fold (through future.apply) and score the front.
score_folds <- function(fit, folds, fold_id, data, threads) {
  d <- cv_rows(fit)
  fold_all <- if (is.null(fold_id)) {
    draw_folds(d, folds, fit$type == "classification", fit$row_group)
  } else {
    check_fold_id(fold_id, fit, data, d$keep)
  }
  k <- max(fold_all, na.rm = TRUE)
  settings <- refit_settings(fit, threads)
  # Every input of a fold is an argument of cv_fold(), a function of dpdt's
  # namespace: no globals to look for (the search for them was a third of
  # a 10-fold cross-validation of 1,097 rows, 12 of 38 ms).
  jobs <- future.apply::future_lapply(
    seq_len(k), cv_fold, mf = d$mf, fold = fold_all, settings = settings,
    score_w = d$score_w, future.seed = TRUE, future.globals = FALSE,
    future.packages = "dpdt")
  comp <- front_complexity(fit$front, fit$control$complexity)
  target <- alpha_targets(fit$front)
  loss <- t(vapply(jobs, function(j) j$holdout[pick_budget(j, comp)],
                   numeric(length(comp))))
  loss_a <- t(vapply(jobs, function(j) {
    out <- rep(NA_real_, length(comp))
    hull <- !is.na(target)
    out[hull] <- j$holdout[pick_alpha(j, target[hull])]
    out
  }, numeric(length(comp))))
  weight <- vapply(jobs, function(j) j$weight, numeric(1))
  list(loss = loss, loss_alpha = loss_a, weight = weight, folds = fold_all,
       design = list(kind = "folds", n_folds = k,
                     stratified = is.null(fold_id) && is.null(fit$row_group) &&
                       fit$type == "classification",
                     n_rows = sum(!is.na(fold_all))))
}

# The settings a fold refits with: the fit's own, with the search it kept
# (under a time limit, the widest that finished; folds then run it without
# a limit, so that every fold searches alike, and are not refused as long:
# the fit ran it), `threads` engine threads and no progress output.
refit_settings <- function(fit, threads) {
  s <- fit$settings
  s$control <- fit$control
  s$control$threads <- threads
  s$control$progress <- FALSE
  s$control$max_work_given <- TRUE
  s$control$parallel <- "none"  # the folds are the futures
  s$time_limit <- Inf
  s
}

# The fold of each row of the fit's model frame (NA for zero weight).
# `group`: rows that are copies of one row (dpdt_distill()'s rows per
# class) are drawn into one fold together, unstratified, so that no row is
# both fitted and held out.
draw_folds <- function(d, folds, stratify, group = NULL) {
  f <- rep(NA_integer_, length(d$keep))
  if (is.null(group)) {
    f[d$keep] <- make_folds(d$y[d$keep], d$w[d$keep],
                            check_folds(folds, sum(d$keep)), stratify = stratify)
    return(f)
  }
  g <- unique(group[d$keep])
  fg <- make_folds(seq_along(g), NULL, check_folds(folds, length(g)), stratify = FALSE)
  f[d$keep] <- fg[match(group[d$keep], g)]
  f
}

# Fold ids 1..k for n rows; classification folds are stratified: rows are
# sorted by class (randomly within a class) and dealt to the folds in turn,
# starting from a random permutation of the folds, so every class and every
# fold size differs by at most one between folds.
make_folds <- function(y, w, k, stratify) {
  n <- length(y)
  ord <- if (stratify) order(y, stats::runif(n)) else sample.int(n)
  out <- integer(n)
  out[ord] <- rep_len(sample.int(k), n)
  out
}

# One fold: dpdt_fit()'s own path (fit_frame()) on the other folds' rows,
# then the held-out loss of every tree of the fold's front. Runs in a
# future worker.
cv_fold <- function(k, mf, fold, settings, score_w) {
  tr <- which(!is.na(fold) & fold != k)
  ho <- which(fold == k)
  fk <- fit_frame(frame_rows(mf, tr), settings, quiet = TRUE)
  held <- heldout_losses(fk, frame_rows(mf, ho), score_w[ho])
  list(complexity = front_complexity(fk$front, settings$control$complexity),
       train_loss = fk$front$train_loss, holdout = held$mean,
       weight = sum(score_w[ho]))
}

# The held-out loss of every tree of front `fit` on the rows of model frame
# `mf` with weights `w`, by the rule of the fit's train_loss: misclassified
# weight, or the loss matrix's cost of the predicted class, or squared
# error, over the total weight. A factor level the fit did not see goes
# where missing values go (predict(unseen = "missing")). `mean` per tree,
# and `se`, the standard error of that mean over the rows.
heldout_losses <- function(fit, mf, w) {
  x <- feature_matrix(mf, fit$features, fit$xlevels, unseen = "missing")
  y <- plain_numeric(stats::model.response(mf), "The response")
  classif <- fit$type == "classification"
  truth <- if (classif) match(as.character(y), fit$levels) else y
  n <- sum(w > 0)
  s <- vapply(seq_len(nrow(fit$front)), function(m) {
    pred <- tree_predictions(fit, front_tree(fit, m), x,
                             if (classif) "class" else "response")
    if (anyNA(pred)) {
      stop("a held-out row could not be routed (a missing value with no ",
           "learned side)", call. = FALSE)
    }
    l <- if (!classif) (pred - truth)^2
         else if (is.null(fit$loss_matrix)) as.double(as.integer(pred) != truth)
         else fit$loss_matrix[cbind(truth, as.integer(pred))]
    mean <- sum(w * l) / sum(w)
    c(mean, if (n > 1) sqrt(sum(w * (l - mean)^2) / sum(w) / (n - 1))
            else NA_real_)
  }, numeric(2))
  list(mean = s[1, ], se = s[2, ])
}

# For each budget in `comp`: the fold tree of least training loss among
# those of complexity at most the budget (the simplest if tied): a running
# minimum along increasing complexity, looked up by findInterval().
pick_budget <- function(job, comp) {
  o <- order(job$complexity)
  loss <- job$train_loss[o]
  best <- integer(length(o))
  b <- 1L
  for (i in seq_along(o)) {
    if (loss[i] < loss[b] - 1e-12 * max(1, abs(loss[b]))) b <- i
    best[i] <- b
  }
  pos <- findInterval(comp + 1e-9 * pmax(1, comp), job$complexity[o])
  o[best[pos]]
}

# For each alpha: the fold tree minimising train_loss + alpha * complexity
# (alpha = Inf: the simplest tree; ties: the simpler tree).
pick_alpha <- function(job, alpha) {
  vapply(alpha, function(a) {
    if (is.infinite(a)) return(which.min(job$complexity))
    obj <- job$train_loss + a * job$complexity
    which_min_first(obj, job$complexity)
  }, integer(1))
}

# Index of the minimum of `v` (relative tolerance 1e-12), the least
# complex one among ties.
which_min_first <- function(v, complexity) {
  tied <- which(v <= min(v) + 1e-12 * max(1, abs(min(v))))
  tied[which.min(complexity[tied])]
}

# The penalty at which each hull tree is scored: the geometric mean of its
# alpha interval; Inf for the single leaf, 0 for the most accurate tree;
# NA off the hull.
alpha_targets <- function(front) {
  lo <- front$alpha_min
  hi <- front$alpha_max
  ifelse(is.na(lo), NA_real_,
         ifelse(is.infinite(hi), Inf, ifelse(lo == 0, 0, sqrt(lo * hi))))
}

# Score every tree of the fit on a validation data frame, by the rule of
# the folds (heldout_losses()).
score_validation <- function(fit, validation) {
  v <- validation_frame(fit, validation)
  w <- v$w
  if (!is.null(fit$prior_scale)) {
    w <- w * fit$prior_scale[match(as.character(v$y), fit$levels)]
  }
  held <- heldout_losses(fit, v$mf, w)
  hull <- !is.na(fit$front$alpha_min)
  list(loss = matrix(held$mean, nrow = 1), se = held$se,
       loss_alpha = matrix(ifelse(hull, held$mean, NA_real_), nrow = 1),
       weight = sum(w), folds = NULL,
       design = list(kind = "validation", n_folds = 1L, stratified = FALSE,
                     n_rows = sum(w > 0)))
}

# Weighted mean over folds and standard error across folds (cv.glmnet).
fold_summary <- function(loss, weight) {
  mean <- colSums(weight * loss) / sum(weight)
  k <- nrow(loss)
  se <- if (k > 1) {
    sqrt(colSums(weight * sweep(loss, 2, mean)^2) / sum(weight) / (k - 1))
  } else rep(NA_real_, ncol(loss))
  list(mean = mean, se = se)
}

# The minimum and the one-SE choice of a CV loss column (NA: not scored).
cv_choices <- function(loss, se) {
  ok <- which(!is.na(loss))
  best <- min(loss[ok])
  imin <- ok[loss[ok] <= best + 1e-12 * max(1, best)][1]
  bound <- loss[imin] + if (is.na(se[imin])) 0 else se[imin]
  i1se <- ok[loss[ok] <= bound + 1e-12 * max(1, bound)][1]
  c(min = imin, `1se` = i1se)
}

cv_object <- function(fit, scored, method, cv_call, seconds) {
  s <- fold_summary(scored$loss, scored$weight)
  sa <- fold_summary(scored$loss_alpha, scored$weight)
  if (scored$design$kind == "validation") {
    s$se <- scored$se
    sa$se <- ifelse(is.na(sa$mean), NA_real_, scored$se)
  }
  front <- fit$front
  front$cv_loss <- s$mean
  front$cv_se <- s$se
  front$cv_loss_alpha <- sa$mean
  front$cv_se_alpha <- sa$se
  pick <- if (method == "budget") cv_choices(s$mean, s$se)
          else cv_choices(sa$mean, sa$se)
  out <- fit
  out$front <- front
  out$model_min <- unname(pick[["min"]])
  out$model_1se <- unname(pick[["1se"]])
  out$default_model <- out$model_1se
  out$folds <- scored$folds
  out$cv_method <- method
  out$cv_fold_loss <- scored$loss
  out$cv_fold_loss_alpha <- scored$loss_alpha
  out$cv_fold_weight <- scored$weight
  out$cv_design <- scored$design
  out$cv_seconds <- seconds
  out$cv_call <- cv_call
  class(out) <- c("dpdt_cv", "dpdt")
  out
}

#' @rdname dpdt_cv
#' @export
print.dpdt_cv <- function(x, digits = max(3L, getOption("digits") - 3L),
                          ...) {
  print_fit_header(x, x$cv_call)
  d <- x$cv_design
  what <- if (d$kind == "validation") {
    sprintf("Hold-out choice on %d validation rows", d$n_rows)
  } else {
    sprintf("%d-fold cross-validation%s on %d rows", d$n_folds,
            if (d$stratified) " (stratified)" else "", d$n_rows)
  }
  cat(sprintf("%s, %s s; chosen by %s scoring (%s)\n", what,
              format(x$cv_seconds, digits = 2), x$cv_method,
              if (x$cv_method == "budget") "cv_loss: every tree"
              else "cv_loss_alpha: hull trees"))
  col <- if (x$cv_method == "budget") c("cv_loss", "cv_se")
         else c("cv_loss_alpha", "cv_se_alpha")
  f <- x$front
  line <- function(label, m) {
    cat(sprintf("%s model %d (%d splits, avg_tests %s): %s %s, se %s\n",
                label, m, f$n_splits[m], format(f$avg_tests[m], digits = 3),
                col[1], format(f[[col[1]]][m], digits = digits),
                format(f[[col[2]]][m], digits = digits)))
  }
  line("  minimum CV loss:", x$model_min)
  line("  one-SE rule:    ", x$model_1se)
  cat("  (default of predict(), dpdt_tree(): the one-SE tree)\n\n")
  shown <- c("model", "n_splits", "avg_tests", "train_loss", "alpha_min", "cv_loss", "cv_se", "cv_loss_alpha",
             "cv_se_alpha")
  tab <- f[intersect(shown, names(f))]
  tab$choice <- ""
  tab$choice[x$model_1se] <- "1se"
  tab$choice[x$model_min] <- if (x$model_min == x$model_1se) "min,1se"
                             else "min"
  print_front(tab, digits, keep = c(x$model_min, x$model_1se))
  invisible(x)
}
