# What a search proves (DESIGN.md section 4b: "provably optimal" only when
# every candidate was tried). `heuristic`: the variables whose level groups
# the engine chose by a heuristic ordering in a state that was to try every
# split (more than 12 levels present there). exact_levels = max_depth is
# the exhaustive search.
# `found`: trees of a stopped search asked for (time_limit) that joined
# the front, better than the candidates' trees of their complexity.
# `binned`: the variables max_bins binned; what is proven then holds over
# the trees whose tests on them cut between bins. `missing`: the variables
# with missing values in training; a test on one cuts between its observed
# values (or groups its observed levels) and sends its missing values to a
# side, so a test that only separates missing from observed values is not
# in the space searched, and the statement says so.
optimality <- function(control, heuristic, found = 0L, binned = character(0),
                       missing = character(0)) {
  every <- control$candidates == "exhaustive" ||
    control$exact_levels >= control$max_depth
  groups <- if (length(heuristic)) {
    paste0("the level groups of ", paste0("`", heuristic, "`", collapse = ", "),
           " (more than 12 levels in some nodes) were chosen by a heuristic")
  }
  binned_vars <- paste0("`", binned, "`", collapse = ", ")
  quantile_bins <- paste0("quantile bins (max_bins = ", control$max_bins, ")")
  bins <- if (length(binned)) {
    paste0(" whose tests cut ", binned_vars, " only between ",
           if (length(binned) > 1) "their" else "its", " ", quantile_bins)
  }
  nas <- if (length(missing)) {
    paste0(" (", paste0("`", missing, "`", collapse = ", "),
           if (length(missing) > 1) " have" else " has",
           " missing values: each test cuts between observed values and sends the ",
           "missing ones to a side; a test that only separates missing from observed ",
           "values is not among them)")
  }
  statement <- if (every && is.null(groups) && isTRUE(control$best_only)) {
    paste0("provably optimal: every split was tried or ruled out, so the last ",
           "tree of the front has the least loss of all trees of depth <= ",
           control$max_depth, bins, nas, " (best_only: the front is the leaf and that tree)")
  } else if (every && is.null(groups)) {
    paste0("provably optimal: every split was tried, so each tree of the front ",
           "is the least-loss tree of its complexity among all trees of depth <= ",
           control$max_depth, bins, nas)
  } else if (every) {
    paste0("not proven optimal: every split was tried, but ", groups)
  } else {
    paste0("exact over the candidate splits (CART's proposals, cart_depth ",
           paste(control$cart_depth, collapse = "/"), ", and every split in the last ",
           if (control$exact_levels > 1) paste(control$exact_levels, "levels") else "level",
           "), not over every tree",
           if (length(binned)) paste0("; ", binned_vars, " cut only between ", quantile_bins),
           if (!is.null(groups)) paste0("; ", groups),
           if (found > 0) paste0("; ", found, " of its trees come from the search asked for, ",
                                 "stopped by time_limit, and lose less than the candidate ",
                                 "splits' trees of their complexity (none proven optimal)"))
  }
  list(proven = every && is.null(groups), statement = statement,
       heuristic_groups = heuristic, binned = binned)
}
