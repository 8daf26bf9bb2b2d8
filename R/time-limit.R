# Runs the search. With a finite `time_limit`, a schedule of ever wider
# searches (search_steps()) runs, each with the time left, and the last one
# that finished is kept: a front completed within the budget, never a
# search cut short. Returns the engine's result with `control` (the
# settings of the search kept) and, under a time limit, `time_limit`. When
# the search asked for is the one stopped, the splits it had solved may
# prove a lower bound of its optimum (the engine's `lower_bound`), kept as
# `time_limit$lower_bound` in the units of `train_loss`, and their trees
# join the kept front where they improve on it (`time_limit$found`).
run_search <- function(prepared, control, data_options, time_limit) {
  # Without a time limit or a max_work of the user's, a search estimated
  # beyond an hour is refused (the time limit bounds its searches itself).
  bounds <- list(max_seconds = if (is.finite(time_limit) || isTRUE(control$max_work_given)) Inf else 3600,
                 terminal = interactive() && isatty(stderr()),
                 announce = !is.finite(time_limit), long_hint = long_search_hint(control, prepared),
                 measured_hint = slow_settings_hint(control, prepared))
  search <- function(ctl, seconds = Inf) {
    engine <- c(ctl, data_options, bounds, if (is.finite(seconds)) list(time_limit = seconds))
    cpp_search(prepared$x, prepared$y, prepared$w, prepared$n_classes, engine)
  }
  if (!is.finite(time_limit)) {
    engine <- c(control, data_options, bounds)
    res <- distributed_search(prepared, control, engine, function(extra) search(c(control, extra)))
    if (is.null(res)) res <- search(control)
    return(c(res, list(control = control)))
  }
  steps <- search_steps(control)
  deadline <- elapsed() + time_limit
  kept <- NULL
  lower_bound <- NA_real_
  partial <- NULL
  for (i in seq_along(steps)) {
    left <- deadline - elapsed()
    if (left <= 0) break
    res <- search(steps[[i]], left)
    if (!is.null(res$condition)) return(res)
    if (isTRUE(res$timed_out)) {
      if (i == length(steps)) {
        if (!is.null(res$lower_bound)) lower_bound <- res$lower_bound / sum(prepared$w)
        partial <- res$partial
      }
      break
    }
    kept <- c(res, list(control = steps[[i]], step = i))
  }
  if (is.null(kept)) {
    stop_arg("No search finished within `time_limit` = ", time_limit, " s, not ",
             "even the narrowest (", step_label(steps[[1]]), "). Raise time_limit, ",
             "or lower max_depth.")
  }
  complete <- kept$step == length(steps)
  found <- 0L
  if (!is.null(partial)) {
    merged <- merge_fronts(kept, partial, isTRUE(control$best_only))
    found <- merged$found
    kept[c("loss", "complexity", "trees")] <- merged$front
  }
  best <- min(kept$loss) / sum(prepared$w)
  kept$time_limit <- list(seconds = time_limit, complete = complete,
                          searched = step_label(kept$control),
                          asked = step_label(control), lower_bound = lower_bound,
                          gap = best - lower_bound, found = found)
  if (!complete) {
    warning("dpdt_fit(): time_limit = ", time_limit, " s reached; the front is ",
            "that of the widest search that finished (", kept$time_limit$searched,
            "), not of the one asked for (", kept$time_limit$asked, ")",
            if (found > 0) paste0(", with ", found, " tree(s) the one asked for had found ",
                                  "before it was stopped, better than that front's"),
            ".", bound_sentence(best, lower_bound), call. = FALSE)
  }
  kept
}

# The kept front with the trees a stopped search had built from the splits
# it solved (real trees, their losses exact): the points of both that no
# point of lower or equal complexity loses as little as (on a tie, the kept
# front's). `found`: how many of the stopped search's points remain. With
# best_only, the leaf and the most accurate tree.
merge_fronts <- function(kept, partial, best_only = FALSE) {
  loss <- c(kept$loss, partial$loss)
  cx <- c(kept$complexity, partial$complexity)
  stopped <- rep(c(FALSE, TRUE), c(length(kept$loss), length(partial$loss)))
  o <- order(cx, loss, stopped)
  keep <- o[loss[o] < c(Inf, cummin(loss[o])[-length(o)])]
  if (best_only && length(keep) > 2) keep <- keep[c(1, length(keep))]
  list(front = list(loss = loss[keep], complexity = cx[keep],
                    trees = c(kept$trees, partial$trees)[keep]),
       found = sum(stopped[keep]))
}

elapsed <- function() proc.time()[["elapsed"]]

# What a stopped search proved: the kept front's least training loss beside
# the lower bound of the optimum of the search asked for.
bound_sentence <- function(best, lower_bound) {
  if (is.na(lower_bound) || lower_bound <= 0) return("")  # 0: nothing proven
  paste0(" Its most accurate tree has training loss ", signif(best, 4),
         "; the search asked for proved that none of its trees loses less than ",
         signif(lower_bound, 4), " (gap ", signif(best - lower_bound, 3), ").")
}

# What a long search is told beside its estimate: a search trying every
# split skips most of them by bounds the estimate does not count, so the
# estimate is far above the time taken (exhaustive depth 3 on 16 benchmark
# sets: 23 to 67,000 times; at depth 3 the engine times the search as it
# runs instead and says so itself); with min_bucket > 1 one of its two bounds is
# weaker (bench/results/min_bucket_bounds.md: several to many times slower
# than min_bucket = 1 at depth 3). The engine says it only where its bounds
# apply (not with a factor of more than 12 levels, complexity "cost", or
# fractional weights with "tests": RRuntime::bounds()).
long_search_hint <- function(control, prepared) {
  every_split <- control$candidates == "exhaustive" || control$exact_levels >= 2
  if (!every_split || prepared$n_classes == 0) return(NULL)
  paste0("This search tries every split, and the estimate does not count ",
         "the splits its bounds skip: it is often far above the time taken, ",
         "and time_limit runs the search within a budget.",
         slow_settings_hint(control, prepared))
}

# The settings that make a search trying every split slower, said beside
# its announcement (the measured one too): min_bucket > 1 weakens one of
# its bounds, and complexity "tests" makes fronts long (a point for nearly
# every row a split adds), so fewer splits are ruled out
# (bench/results/tests_complexity.md, exhaustive depth 3 with min_bucket 5:
# "tests" 1.4 to 17.5 times "splits"). Missing values weaken the bounds in
# every state that holds one, and its last level is scanned without the
# coded columns of complete data (BoundedSweep::complete()): 30 missing
# values in one column of wilt (4,339 rows), exhaustive depth 3, take
# about 70 s where the complete data take 1.4 s (before the bounds applied
# in such states at all, over 16 minutes).
slow_settings_hint <- function(control, prepared) {
  every_split <- control$candidates == "exhaustive" || control$exact_levels >= 2
  if (!every_split || prepared$n_classes == 0) return("")
  paste0("",  # one string, not character(0), when neither applies
         if (control$min_bucket > 1)
           paste0(" With min_bucket = ", control$min_bucket, " one of its two bounds is ",
                  "weaker; min_bucket = 1 is often several times faster."),
         if (control$complexity == "tests")
           paste0(" With complexity = \"tests\" its fronts are long; complexity = \"splits\" ",
                  "is faster (1.4 to 17 times in exhaustive depth-3 benchmarks)."),
         if (any(vapply(prepared$x, anyNA, logical(1))))
           paste0(" The predictors hold missing values: the bounds are weaker in the ",
                  "states that hold them; na.action = na.omit (or imputed values) is ",
                  "often far faster."))
}

# From the narrowest search to the one asked for: CART proposals of depth
# 1, 2, ... up to cart_depth (as a schedule, each depth capped), then the
# last two levels exact if asked, or every split ("exhaustive").
search_steps <- function(control) {
  cart <- function(k) {
    utils::modifyList(control, list(candidates = "cart", exact_levels = 1L,
                             cart_depth = pmin(control$cart_depth, k)))
  }
  top <- if (control$candidates == "cart") max(control$cart_depth) else 3L
  steps <- lapply(seq_len(top), cart)
  if (control$candidates == "exhaustive" || control$exact_levels > 1) {
    steps <- c(steps, list(control))
  }
  steps
}

step_label <- function(ctl) {
  if (ctl$candidates == "exhaustive") return('candidates = "exhaustive"')
  paste0("cart_depth = ", paste(ctl$cart_depth, collapse = "/"),
         if (ctl$exact_levels > 1) paste0(", exact_levels = ", ctl$exact_levels))
}
