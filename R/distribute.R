# One search spread over the user's futures (dpdt_fit(parallel = )): the
# root's candidates are cut into contiguous chunks, each chunk solved in a
# future, and the chunks' fronts merged into the front one process returns
# (src/core/search/root_chunk.h says why any chunking gives it). A root that
# tries every split is solved in two rounds of futures: the chunks' seed
# cuts first, whose merged front then bounds every chunk's sweep, as the
# seeds of all features bound each feature's sweep in one process.

# Below this estimated time (seconds of one thread) "auto" keeps a search
# in this process: a future costs tenths of a second, a cluster's more.
distribute_above_seconds <- 10

# Chunks per worker: sub-searches' costs vary several-fold, so more chunks
# than workers keep every worker busy to the end. Option dpdt.chunks (not
# documented for users) sets the number of chunks instead, for the tests
# (any chunking gives the same front) and the benchmarks.
chunks_per_worker <- 4L
chunk_count <- function(workers) {
  k <- getOption("dpdt.chunks")
  if (is.null(k)) chunks_per_worker * workers else k
}

# The search distributed, or NULL when it runs in this process: `parallel`
# is "none", or "auto" with one worker or a short search, or the search has
# no root to cut. `search(extra)` runs the engine here with extra options;
# `engine` is the options a chunk's engine gets besides its chunk.
distributed_search <- function(prepared, control, engine, search) {
  parallel <- if (is.null(control$parallel)) "none" else control$parallel
  if (parallel == "none") return(NULL)
  workers <- future::nbrOfWorkers()
  if (parallel == "auto" && workers <= 1) return(NULL)
  start <- elapsed()
  # no long-search message: it speaks of a timed root, which chunks are not
  plan <- search(list(root_stage = "plan", announce = FALSE))
  if (!is.null(plan$condition)) stop(plan$condition)
  info <- plan$chunk
  if (info$candidates < 1) return(NULL)
  if (parallel == "auto" && !(plan$work_estimate$seconds >= distribute_above_seconds)) return(NULL)
  if (!info$chunkable) {
    if (parallel == "future") {
      warning("dpdt_fit(): parallel = \"future\": this search ran in one process; ",
              "fronts of chunks merge exactly only with exact sums (classification with ",
              "whole weights and whole costs, complexity \"tests\" or \"splits\"), which it ",
              "does not have.",
              call. = FALSE)
    }
    return(NULL)
  }
  check_globals_size(prepared)
  chunks <- root_chunks(info$candidates, chunk_count(workers))
  # the engine single-threaded in a future unless the user set threads
  if (!isTRUE(control$threads_given)) engine$threads <- 1L
  engine$progress <- FALSE
  engine$announce <- FALSE
  engine$max_work <- Inf
  engine$max_seconds <- Inf
  steps <- if (info$bounded) 2L * nrow(chunks) else nrow(chunks)
  tick <- progress_ticker(steps, envir = environment())
  seeds <- NULL
  seeds_seconds <- rep(NA_real_, nrow(chunks))
  if (info$bounded) {
    seeded <- check_workers(run_chunks(prepared, engine, chunks, "seeds", NULL, tick))
    seeds <- merge_seed_fronts(lapply(seeded, `[[`, "chunk"))
    seeds_seconds <- vapply(seeded, `[[`, 0, "seconds")
  }
  solved <- check_workers(run_chunks(prepared, engine, chunks, "solve", seeds, tick))
  merged <- merge_chunk_fronts(solved, isTRUE(control$best_only))
  work <- plan$work_estimate
  parts <- c(list(plan), if (info$bounded) seeded, solved)
  work$visits_made <- sum(vapply(parts, function(r) r$work_estimate$visits_made, 0))
  heuristic <- sort(unique(unlist(lapply(solved, `[[`, "heuristic_features"))))
  list(loss = merged$loss, complexity = merged$complexity, trees = merged$trees,
       n_states = sum(vapply(solved, `[[`, 0, "n_states")),
       seconds = elapsed() - start, heuristic_features = as.integer(heuristic),
       bins = plan$bins, work_estimate = work,
       distributed = list(workers = workers, chunks = nrow(chunks), rounds = if (info$bounded) 2L else 1L,
                          chunk_seconds = data.frame(
                            first = chunks$first + 1, last = chunks$last,
                            seeds = seeds_seconds,
                            solve = vapply(solved, `[[`, 0, "seconds"))))
}

# `n` candidates in at most `k` contiguous ranges [first, last) (0-based)
# of near-equal sizes.
root_chunks <- function(n, k) {
  k <- max(1L, min(as.integer(k), n))
  ends <- unique(round(seq(0, n, length.out = k + 1)))
  data.frame(first = ends[-length(ends)], last = ends[-1])
}

# The solve round: every chunk a future (a worker that finishes takes the
# next chunk). The seeds round, short and even: one future per worker, each
# with a run of chunks (a future costs about 0.05 s on this machine's
# multisession workers). Each future gets the data once, as the engine's
# inputs; the function it runs lives in dpdt's namespace, so nothing else
# is sent.
run_chunks <- function(prepared, engine, chunks, stage, seeds, tick) {
  scheduling <- if (stage == "seeds") list(future.scheduling = 1) else list(future.chunk.size = 1L)
  do.call(future.apply::future_lapply, c(list(
    seq_len(nrow(chunks)), solve_chunk, x = prepared$x, y = prepared$y, w = prepared$w,
    n_classes = prepared$n_classes, engine = engine, chunks = chunks, stage = stage,
    seeds = seeds, tick = tick, future.seed = TRUE, future.packages = "dpdt"), scheduling))
}

# One chunk's search, in a future; with the version of dpdt that ran it.
solve_chunk <- function(i, x, y, w, n_classes, engine, chunks, stage, seeds, tick) {
  opts <- c(engine, list(root_stage = stage, root_first = chunks$first[i],
                         root_last = chunks$last[i]), seeds)
  res <- cpp_search(x, y, w, n_classes, opts)
  tick()
  res$worker <- list(version = as.character(utils::packageVersion("dpdt")),
                     path = find.package("dpdt"))
  res
}

# A worker whose dpdt does not cut a search (another version) would return
# a whole front or fail on the seeds: said before anything is merged.
check_workers <- function(results) {
  mine <- as.character(utils::packageVersion("dpdt"))
  for (r in results) {
    if (!is.null(r$condition)) stop(r$condition)
    v <- r$worker$version
    if (is.null(r$chunk) || !identical(v, mine)) {
      stop_arg("parallel: a future worker runs another dpdt (",
               if (is.null(v)) "an older version" else paste0("version ", v, " in ", r$worker$path),
               ") than this session's (version ", mine, "): install the same version ",
               "where the workers run, or use parallel = \"none\".")
    }
  }
  invisible(results)
}

# The chunks' seed fronts merged (in the engine's units, with their root
# candidates), as the engine's options for the solve round.
merge_seed_fronts <- function(parts) {
  loss <- unlist(lapply(parts, `[[`, "seed_loss"))
  cx <- unlist(lapply(parts, `[[`, "seed_complexity"))
  action <- unlist(lapply(parts, `[[`, "seed_action"))
  keep <- pareto_keep(loss, cx, action)
  list(seed_loss = loss[keep], seed_complexity = cx[keep], seed_action = action[keep])
}

# The chunks' fronts merged: the points no point of lower or equal
# complexity loses as little as, and of equal ones the earliest root
# candidate's (the leaf first), as one process keeps them; compared in the
# engine's exact units. With best_only, the leaf and the most accurate tree.
merge_chunk_fronts <- function(parts, best_only = FALSE) {
  field <- function(name, chunk = FALSE) {
    unlist(lapply(parts, function(p) if (chunk) p$chunk[[name]] else p[[name]]))
  }
  keep <- pareto_keep(field("raw_loss", TRUE), field("raw_complexity", TRUE),
                      field("root_split", TRUE))
  if (best_only && length(keep) > 2) keep <- keep[c(1, length(keep))]
  trees <- unlist(lapply(parts, `[[`, "trees"), recursive = FALSE)
  list(loss = field("loss")[keep], complexity = field("complexity")[keep], trees = trees[keep])
}

# Indices of the non-dominated points of (loss, complexity), in order of
# complexity: of equally complex points the least loss, and of equal ones
# the lowest `rank`; a point is kept when it loses strictly less than every
# point kept before it.
pareto_keep <- function(loss, complexity, rank) {
  o <- order(complexity, loss, rank)
  o[loss[o] < c(Inf, cummin(loss[o])[-length(o)])]
}

# What a future is sent must fit future.globals.maxSize (500 MB unless the
# user set it): said before any future is made, with what to do.
check_globals_size <- function(prepared) {
  limit <- getOption("future.globals.maxSize", 500 * 1024^2)
  size <- as.numeric(utils::object.size(prepared[c("x", "y", "w")]))
  if (is.finite(limit) && size > limit) {
    stop_arg("parallel: the data sent to each future (", format_mb(size), ") exceed ",
             "option future.globals.maxSize (", format_mb(limit), "). Raise it, e.g. ",
             "options(future.globals.maxSize = ", signif(2 * size, 2), "), or fit in one ",
             "process with parallel = \"none\".")
  }
}

format_mb <- function(bytes) paste0(format(round(bytes / 1024^2, 1), nsmall = 1), " MB")

# A function to call once per chunk done: a progressr step when progressr
# is installed (shown when the user asks for progress, with
# progressr::with_progress() or progressr::handlers(global = TRUE)).
# `envir`: the frame whose end closes the progress bar.
progress_ticker <- function(steps, envir) {
  if (!requireNamespace("progressr", quietly = TRUE)) return(function() invisible(NULL))
  progressr::progressor(steps = steps, envir = envir)
}
