#' Fit the Pareto front of non-greedy decision trees
#'
#' Searches, by dynamic programming, all trees of depth at most `max_depth`
#' built from the candidate splits of every node (DPDT: the splits of a
#' small greedy CART tree grown on the node's rows, the node's own best
#' split, and every split in the last level), and returns the Pareto front
#' of those trees, trading training loss against complexity, one row per
#' tree: for every complexity, the tree of least training loss among the
#' trees the candidates can build. With `candidates = "exhaustive"` every
#' split is a candidate, and the front is provably optimal over all trees of
#' that depth (see Exactness). `print()` and `fit$optimality` say which of
#' the two a fit is.
#'
#' @section Defaults:
#' A fit's default tree, the one [predict.dpdt()], [dpdt_tree()] and
#' `fitted()` use without `model =`, is the one rpart's default `cp = 0.01`
#' would keep: the tree of the front with the least `rel_error + 0.01 *
#' n_splits` (the simplest on ties). The most accurate tree overfits (its
#' leaves are as small as `min_bucket` allows); choose another one with
#' [dpdt_cv()], or ask for it with `model = nrow(fit$front)`. Leaves hold
#' at least `min_bucket = 5` rows by default (rpart: 7). Both were chosen on
#' held-out rows of 26 data sets: the cp = 0.01 tree was half a point of
#' accuracy better than the most accurate one, and 5 the best of 1, 3, 5, 7
#' and 10 rows; the papers' setting is `min_bucket = 1`.
#'
#' @section Distributed search:
#' With `parallel = "future"` (or `"auto"`, see `parallel`), the root's
#' candidate splits are cut into contiguous chunks, 4 per worker of
#' the plan, and each chunk is searched in a future
#' ([future.apply::future_lapply()], `future.seed = TRUE`): on the workers
#' of `future::plan(multisession)`, of a PSOCK cluster over ssh
#' (`future::plan(cluster, workers = c("n1", "n2"))`), or of a scheduler
#' through future.batchtools. dpdt never sets a plan. A search that tries
#' every split at the root (`candidates = "exhaustive"`) runs two rounds:
#' each chunk's seed splits first, whose trees then bound every chunk's
#' search, as they bound it in one process. The chunks' fronts are merged
#' (of equal trees, the one of the earliest root split, as in one
#' process), so the front and every tree are those of `parallel = "none"`,
#' whatever the plan, the number of workers and the chunking. Each future
#' is sent the data once (the model's predictors as a numeric matrix, the
#' response, the weights) and must fit `getOption("future.globals.maxSize")`
#' (an error says so before anything is sent); the engine runs one
#' thread per future unless `threads` is given. With progressr installed,
#' each chunk done is a progress step (`progressr::with_progress()`).
#' Exhaustive depth 3 on two workers of this package's 2-core benchmark
#' machine took 1.4 to 1.8 times less wall-clock time than one process
#' (see the vignette "Getting started"). `fit$distributed` records the workers,
#' chunks, rounds and each chunk's engine seconds (`NULL` when the search
#' ran in one process). Not distributed: regression, fractional weights and
#' `complexity = "cost"` (their losses are compared with a rounding
#' tolerance, so merged ties could differ; `"future"` then warns and runs in
#' one process), a finite `time_limit` (an error with `"future"`), and
#' cross-validation folds (each fold is already a future). An interrupt
#' stops the waiting; chunks already running on workers finish their work.
#'
#' @section Predictors:
#' A test on a factor or character predictor sends a group of its levels
#' left (rules read `g = u`, `g in {a, b}`, `g not in {c}`). For two classes
#' and for regression the best group is found exactly by ordering the
#' levels by class proportion / mean (Breiman et al.) when the node has no
#' missing value of the factor; otherwise, and for more classes, every
#' group is tried while at most 12 levels are present in the node; beyond
#' that, the groups that are prefixes of the levels ordered by class
#' proportion / mean (for more classes, by each class's proportion in turn)
#' and the groups CART proposes there. So a front whose nodes had more than
#' 12 levels of a factor is not proven optimal, even with `candidates =
#' "exhaustive"` (which is then still never worse than the CART front of
#' the same call); `fit$optimality` and `print()` name the factors. Levels
#' absent from a node's training rows go right there.
#'
#' Logical predictors are one 0/1 column; ordered factors are split on
#' their level order (`g <= lev`); `Date` and `POSIXct` predictors are split
#' as numbers (days, seconds) and their thresholds print as dates and times
#' (`d <= 2020-02-14`: the test holds for every date, or whole second, up to
#' the one printed). A numeric threshold is a short decimal between the two
#' training values on either side of it (near their midpoint), and every
#' printed rule writes it exactly. Any legal column name works, quoted in
#' backticks in the formula (`` `Sepal Length` ~ . ``). Predictor levels
#' that do not occur in the fitted rows are dropped (and are "unseen" at
#' prediction: an error, or `predict(unseen = "missing")`); the response
#' keeps all its levels, so `predict(type = "prob")` has one column per
#' level. A factor, character or logical response means classification
#' (loss: misclassified weight, or the cost of a `loss_matrix`), a numeric
#' one (integer64 included) regression (loss: squared error).
#'
#' The fit warns about a factor or character predictor with (nearly) one
#' level per row (an identifier: splits on it fit noise) or with many
#' levels for its rows (fewer than 10 rows per level), and says why when
#' the front holds only the single leaf (a response with a single class, too
#' few rows for `min_bucket`, constant predictors, or no better tree).
#'
#' Rows with zero weight are dropped before the search: they change neither
#' the loss nor the complexity, and `nobs()` does not count them.
#'
#' A numeric predictor that orders the rows as an earlier one does (an
#' increasing transform of it, such as `log(x)` beside `x`, or a decreasing
#' one without missing values) offers only that predictor's splits, and
#' the earlier predictor wins every tie: it is searched once, and the
#' trees use the earlier predictor. (CART keeps two of the splits tied for
#' its best as proposals; such a copy does not take one of those places.)
#'
#' @section Exactness:
#' The front is exact over its candidate splits: no tree they can build
#' beats a tree of the front on both loss and complexity. With
#' `candidates = "exhaustive"` (or `exact_levels = max_depth`) the
#' candidates are every split, and the front is provably optimal
#' (`fit$optimality$proven`), unless a factor had more than 12 levels in a
#' node (see Predictors). Comparisons are in floating-point arithmetic with
#' this precise tolerance: two losses count as equal when they differ by
#' less than rounding can explain, and a split is kept only if it lowers the
#' loss by more than that.
#' * Classification with whole weights (unit weights included), or weights
#'   that are all whole multiples of one power of two and total less than
#'   \eqn{2^{52}} such units, and with a `loss_matrix` whole costs (the
#'   total times the largest cost below \eqn{2^{52}} units): every sum is
#'   exact and so is every comparison (tolerance 0).
#' * Other classification weights, or fractional costs: \eqn{n \cdot
#'   2^{-50} W}, where \eqn{n} is the number of rows and \eqn{W} the total
#'   weight (four times the worst rounding of a tree's loss), times the
#'   largest cost with a `loss_matrix`; the same tolerance (without the
#'   cost) applies to `complexity = "tests"`, which sums weights too.
#' * Regression: a relative \eqn{n \cdot 2^{-50}} of the losses compared.
#'   Each leaf's squared error and mean are computed from the rows'
#'   differences to one of them and then to the mean, so neither an offset
#'   of the response (`y + 1e15`) nor clusters far apart lose their detail:
#'   `y + c` and `a * y` give the same trees. A leaf whose rows share one
#'   response has loss 0 and predicts it exactly; losses below
#'   \eqn{(n \cdot 2^{-50})^2} times the single leaf's loss count as 0.
#'   Predictions near a large offset are rounded to the doubles there (an
#'   offset of `1e15` has a spacing of 0.125), so their squared errors can
#'   differ from `train_loss` by that rounding.
#'
#' Responses, and weights beyond \eqn{2^{\pm 200}}, are scaled internally
#' by powers of two (exactly; the front is scale-equivariant). What the
#' front reports must still fit in a double, so these are refused with a
#' message saying how to rescale: a response beyond \eqn{2^{510}} (about
#' `3e153`) in absolute value; weights whose sum times `max_depth` (and the
#' largest test cost or loss) exceeds \eqn{2^{1022}}; a mean squared error
#' beyond about `1e308` or below `2.2e-308`.
#'
#' @section Long searches:
#' Before it starts, the search estimates its work in row visits (one row
#' of one feature read by a scan, a partition or a CART level; level groups
#' counted; a CART split's children as halves of their parent, the children
#' of every split at every size; no more states than distinct row sets
#' allow; no split skipped by a bound). It is meant to be an upper bound:
#' on 150 random searches of every mode the visits made were at most 1.2
#' times it (where children's sizes are uneven: ties, missing values), and
#' on `MASS::Boston` (regression, exhaustive, depth 3) 0.92 times it (7.07e10
#' against 7.71e10; it was 1.18 times an earlier estimate). It turns them
#' into seconds at
#' about `1e9` visits per second and thread for a classification (measured:
#' 3e8 to 4e9, and 1e8 on 1e7 rows x 20 features, beyond the processor's
#' caches: 858 s against an estimated 90) and `3e8` for a regression (3.0e8
#' to 3.7e8 where every split is tried: `MASS::Boston` at depth 3 took 197 s
#' against an estimated 257 s; it was estimated at 60 s). The seconds assume
#' that threads divide the time: with 2 threads that search took 99 s
#' against an estimated 128 s (156 s on a busy machine, before a faster
#' scan). A search estimated
#' beyond a minute says so first, in a message with the estimate and how to
#' bound it. A search estimated beyond an hour is refused, unless a
#' `time_limit` bounds it (the widest search that finishes within it is
#' kept) or `max_work` is given (the most row visits a search may make; one
#' estimated beyond it is refused; `Inf`: no limit): an exhaustive search of
#' 200,000 rows x 20 features at depth 5 is estimated at about `4e32` row
#' visits (7e15 years with 2 threads). A classification search that tries every split
#' (`candidates = "exhaustive"` or `exact_levels >= 2`) skips most splits by
#' two bounds (weaker in states with missing values), measured from the start
#' against the trees of a quick CART search, and the estimate does not
#' count the splits they skip: it was 106 to 170,000 times the time taken
#' at depth 3 on 16 benchmark sets, and 1,500 to 1.3 million times at depth
#' 4 (bank, bidding, raisin). So a
#' search whose root tries every split (`candidates = "exhaustive"`, at any
#' depth), and `exact_levels = 2` at depth 3 (its root's candidate splits
#' have children that try every split, solved for what the root's front
#' can use; its estimate was 31 to 906 times the time taken), are not
#' refused by their estimate unless that is beyond ten million hours: they
#' are timed as they run, and their estimate is not announced (bean's
#' search of 23 s would read "up to about 44 days"). After each of the root's
#' features (with `exact_levels = 2`, each of its candidate splits) such a
#' search projects its total time (shown in the progress line; kept in
#' `work_estimate$projections`); a message says so once it runs long, at
#' its first projection beyond a minute or after a minute without one, with
#' what stops it and how to bound it; at depth 3, from the second
#' projection on, they were within a factor of 1.7 of the time taken on 16
#' benchmark sets (2.4 with `exact_levels = 2`: rice, a search of 0.7 s
#' whose early projections vary by a third between runs; 1.8 on the
#' others). With `max_work` given, such a search is refused by its
#' estimate only beyond ten million times `max_work`; it counts its row
#' visits as it runs and projects them too (`work_estimate$visits_made`, and
#' `projected_row_visits` in the projections), and stops with an error when
#' it has made `max_work` visits or, from the second projection on, projects
#' more (a search spread over processes is not stopped as it runs: its
#' parts are refused by the estimate alone). Without `time_limit` or `max_work` it stops with an error when
#' projected beyond three hours, or when it has run three hours (at depth 4
#' one feature can take that long), so whether it runs depends on the
#' machine's speed, never its result. With `min_bucket > 1` one of the two
#' bounds is weaker
#' (a subset's best tree may need a leaf smaller than `min_bucket`, so it
#' bounds by the best trees with `min_bucket = 1`: one level above the
#' leaves, and, from a second search with `min_bucket = 1` inside the
#' search, for the root's children at depth 3 and the states of at least
#' 50 times `min_bucket` rows deeper): with the default `min_bucket = 5`,
#' exhaustive depth 3 (complexity `"splits"`) took 1.5 to 4.4 times as long
#' as with `min_bucket = 1` on eight benchmark sets (wilt: 3.7 s against
#' 0.84 s; it was 341 s), and the long-search message says so. Searches can be interrupted (Ctrl-C, or
#' [setTimeLimit()]) within a fraction of a second, and stop with an error
#' before they would use more than `max_memory`.
#'
#' @param formula A formula `response ~ predictors`, main effects only
#'   (`.` allowed); interactions and offsets are refused. Or a data frame
#'   or matrix of predictors, with the response as the second argument:
#'   `dpdt_fit(x, y)` (the response is then named `y`).
#' @param data A data frame; missing, the formula's variables are taken from
#'   its environment, as [stats::lm()] does (then `.` cannot be used).
#' @param weights Optional non-negative case weights, one per row of `data`,
#'   evaluated in `data` like in [stats::lm()].
#' @param subset Optional expression selecting rows, evaluated in `data`.
#' @param na.action What to do with missing values. The default `NULL`
#'   keeps rows with missing predictors and drops rows with a missing
#'   response (with a message). Every test then also chooses the side its
#'   missing values go to, inside the search (as boosting libraries learn a
#'   default direction), so the front is exact for the search space "test +
#'   missing-value side" and no row is lost. A test cuts between observed
#'   values (or groups observed levels), so one that only separates the
#'   missing values of a variable from its observed values is not in that
#'   space; `fit$optimality` says so when a variable has missing values (to
#'   offer that split, add an indicator such as `is.na(x)` as a predictor).
#'   A test whose node saw no
#'   missing value on its variable in training sends missing values at
#'   prediction time to its child with the larger training weight (the left
#'   one on ties); printed rules say where missing values go (`x <= 2.5 or
#'   NA`). `na.omit` drops every incomplete row as in other modelling
#'   functions.
#' @param max_depth Maximum depth of the trees, a whole number in 1..20.
#' @param cart_depth Depth of the greedy CART trees that propose the
#'   candidate tests of each state; a vector gives one depth per tree depth
#'   (its last value is used beyond its end). Whole numbers in 1..20.
#'   `NULL` (the default) chooses by `max_depth`: 5 up to depth 3 (the
#'   paper's setting), `c(4, 3, 2)` at depth 4 and 2 from depth 5. These
#'   keep depth-4 and depth-5 fits on 50,000 rows within about 15 times
#'   rpart's time, 8 and 5.5 points of training accuracy above rpart's tree
#'   of the same depth there (1.4 to 5.6 points on four benchmark sets),
#'   where a uniform 5 would take minutes to hours.
#' @param candidates `"cart"` (DPDT's CART-proposed tests, with each
#'   node's own best split) or `"exhaustive"` (every feature, threshold,
#'   level group and missing-value side: provably optimal trees, see
#'   Exactness; feasible for small data or shallow depth only).
#' @param complexity What the front trades loss against: `"tests"`, the
#'   mean number of tests per observation, `"splits"`, the number of
#'   internal nodes, or `"cost"`, the mean cost (by `test_cost`) of the tests
#'   an observation goes through (front column `avg_cost`).
#' @param criterion Impurity used by the CART candidate generator,
#'   `"entropy"` or `"gini"` (ignored for regression).
#' @param min_bucket Minimum number of training rows in a leaf (default 5,
#'   near rpart's 7: of 1, 3, 5, 7 and 10 it gave the best held-out accuracy
#'   on the package's benchmark of 26 data sets; 1 is the papers' setting).
#' @param threads Number of threads; `NULL` uses `getOption("dpdt.threads")`,
#'   else the environment variable `DPDT_THREADS`, else 2. Results do not
#'   depend on it.
#' @param test_cost A named numeric vector of costs >= 0, one per predictor
#'   (by variable name; predictors not named cost 1), e.g. `c(insulin = 10)`:
#'   a blood test against an expensive scan. Implies `complexity = "cost"`
#'   when `complexity` is not given (any other complexity is an error).
#' @param loss_matrix Misclassification costs, as in rpart's `parms$loss`:
#'   a K x K matrix (K levels of the response) with a zero diagonal, rows the
#'   true class and columns the prediction. The searched loss, `train_loss`,
#'   and each leaf's predicted class then use the expected cost instead of
#'   the misclassified weight.
#' @param prior Class priors, as rpart's `parms$prior`: K positive numbers
#'   summing to 1. Rows are reweighted so that the classes' total weights are
#'   in these proportions (the total weight is unchanged; a class without
#'   rows in the fit is left out and the other priors rescaled); losses,
#'   class proportions and predictions use the reweighted rows.
#' @param exact_levels How many levels at the bottom of the tree try every
#'   split (every threshold, level group and missing-value side) instead of
#'   the CART proposals: 1 (the default, DPDT's exact last split) or more; 2
#'   makes every depth-2 subtree optimal below the proposals above it (a
#'   better front: at depth 3 on 16 benchmark sets, within 0.08 points of
#'   the optimal training accuracy on average, against 0.28 for the default,
#'   at a median 4.6 times its time, both with `min_bucket = 1`). At most
#'   `max_depth`; with `exact_levels = max_depth` the search is
#'   `candidates = "exhaustive"`.
#' @param time_limit Seconds the search may take (default `Inf`). With a
#'   finite limit, searches of growing width run in turn (CART proposals of
#'   depth 1, 2, ... up to `cart_depth`, then `exact_levels` or
#'   `"exhaustive"` if asked), each with the time left, and the fit keeps
#'   the widest one that finished, with a warning when that is not the one
#'   asked for; `print()` says which it is, and `fit$time_limit` records it.
#'   An error if not even the first finishes. When the search asked for is
#'   exhaustive and is stopped, the splits of the root it had solved prove
#'   a lower bound of its optimum: `fit$time_limit$lower_bound` (in the
#'   units of `train_loss`; `NA` when nothing was proven) and `$gap`, the
#'   kept front's least `train_loss` less that bound. A regression search
#'   proves none (its bound is always `NA`, and no tree of the stopped
#'   search joins the front): the bounds that skip splits, and prove the
#'   bound, hold for classification only. It is weak until most
#'   root splits are solved (exhaustive depth 3 on 15,000 rows stopped after
#'   40 s of about 300: a bound of 0.0001 beside a best loss of 0.17). The
#'   trees of the splits it had solved join the kept front where no tree of
#'   it is as small and as accurate (`fit$time_limit$found` of them).
#' @param best_only `TRUE`: only the most accurate tree, not the front (as
#'   optimal-tree solvers return). A classification search that tries every
#'   split (`candidates = "exhaustive"` or `exact_levels >= 2`) then skips
#'   every split that cannot lose less than the best tree found so far,
#'   often many times faster. The front has two
#'   rows, the single leaf and the tree of least training loss the search
#'   can reach (proven as the full search proves it; among trees of that
#'   loss, not necessarily the smallest), which is the default model.
#'   `dpdt_cv()` chooses among a front's trees and refuses it.
#' @param max_bins `Inf` (the default: every threshold between two
#'   training values) or a whole number >= 2: a numeric predictor (numbers,
#'   dates, ordered factors' codes) with more distinct values than this is
#'   cut only between its quantile bins, as LightGBM's and XGBoost's `hist`
#'   methods do. With m non-missing values sorted, v(1) <= ... <= v(m), the
#'   bins end at v(ceiling(k m / max_bins)), k = 1, ..., max_bins - 1 (ties
#'   merge bins; the edges count rows, not their weights): a test on it is `x <= t` with t between one bin's largest
#'   value and the next bin's smallest, so predictions on the training data
#'   reproduce `train_loss` as without bins. Every search sees at most
#'   `max_bins` values per predictor: an exhaustive search tries far fewer
#'   thresholds on large data, and the front is exact (proven optimal when
#'   exhaustive) over the binned thresholds, not over every threshold
#'   (`fit$optimality` names the binned variables; `fit$bins` gives each
#'   engine column's number of bins, 0 where it was not binned). Missing
#'   values and unordered factors are not binned. With two classes, whole
#'   weights (or none), every predictor numeric (or binned) with at most 255
#'   distinct values and none missing, the default search (CART proposals,
#'   `exact_levels = 1`) on 10,000 rows or more holds each node's rows and
#'   one byte per row and predictor instead of every predictor's sorted
#'   order, with the same front and trees: 10 million rows of 20
#'   predictors at depth 3 took 51 s and 3.6 GB (1.7 GB of it R and the
#'   data) where the sorted layout took 16 minutes and 13.7 GB. Other searches
#'   (exhaustive, `exact_levels = 2`, regression, more classes) need the
#'   memory they need without bins.
#' @param parallel Whether one search is spread over the workers of the
#'   user's [future::plan()] (see Distributed search): `"auto"` (the
#'   default) when the plan has more than one worker and the search is
#'   estimated beyond 10 seconds, `"future"` always (under the default
#'   sequential plan its parts run one after the other, in this process),
#'   `"none"` never. The front and its trees are the same in every case.
#' @param ... Only `max_memory` (gigabytes the search may use before it
#'   stops with an error, default 4), `max_work` (the most work, in row
#'   visits, a search may do: one estimated beyond it is refused before it
#'   starts, and one whose root tries every split stops when it has made
#'   that many or is projected beyond it; by default searches estimated
#'   beyond an hour are refused, see Long searches) and
#'   `progress` (show progress, default `interactive()`: one line rewritten
#'   on a terminal, a line every tenth of the subtrees in a log). Anything
#'   else is an error.
#'
#' @return An object of class `"dpdt"`: a list whose `front` is a data frame
#'   with one row per Pareto-optimal tree, ordered by complexity (row 1 is
#'   the single leaf, the last row the most accurate tree), with columns
#'   `model`, `n_splits`, `n_leaves`, `depth`, `avg_tests` (weighted mean
#'   number of tests per row), `train_loss` (weighted misclassification rate
#'   or mean squared error), `rel_error` (`train_loss` over that of the
#'   single leaf), and `alpha_min`, `alpha_max` (the interval of `alpha`
#'   over which the tree minimises `train_loss + alpha * complexity`, where
#'   complexity is `avg_tests`, `n_splits` or `avg_cost`; `NA` off the
#'   convex hull). With `complexity = "cost"` also `avg_cost` (weighted mean
#'   cost of the tests on a row's path).
#'   `optimality`: `proven` (`TRUE` when every split was tried, so that
#'   each tree is provably the least-loss tree of its complexity among all
#'   trees of depth at most `max_depth`), `statement` (what the front is
#'   exact over, as `print()` shows it) and `heuristic_groups` (factors
#'   whose level groups were chosen by a heuristic where every split was to
#'   be tried) and `binned` (the variables `max_bins` binned: what is proven
#'   holds over trees whose tests on them cut between bins).
#'   `bins`: each engine column's number of quantile bins (`max_bins`; 0
#'   where it was not binned).
#'   `default_model`: the tree `predict()`, `dpdt_tree()`, `fitted()` use
#'   without `model =`: the one rpart's default `cp = 0.01` would keep (the
#'   least `rel_error + 0.01 * n_splits`, the simplest on ties), not the
#'   most accurate one (`model = nrow(fit$front)`).
#'   Also `trees`, `type`, `levels`, `features`, `call`, `terms`, `xlevels`,
#'   `na.action`, `control`, `n_states` (the states the search solved,
#'   those of its second search with `min_bucket = 1` included: see Long
#'   searches; with several threads it can differ from run to run, as the
#'   order in which they finish changes what the bounds skip, and a state
#'   two of them meet at once may be solved by both; the front and trees do
#'   not change), `seconds`, `nobs`, `model_frame`.
#'   `work_estimate`: the estimate made before the search started (see Long
#'   searches), a list of `row_visits`, `seconds`, `measured` (the search was
#'   timed and counted as it ran), `visits_made` (the row visits the search
#'   counted, in all the processes when distributed) and `projections` (a data frame with a
#'   row per run of the root's candidate splits finished: `elapsed` seconds,
#'   `runs_done` of `runs`, what they are in `runs_are` (`"features"`; or
#'   `"groups of candidate splits"`, where a numeric feature with missing
#'   values makes two, one for each side they go to, and a factor one per
#'   level group; with `exact_levels = 2`, `"candidate splits"`),
#'   `projected_seconds` in all, and the same in row visits,
#'   `row_visits` and `projected_row_visits`; no rows unless measured); the
#'   time the search took is `seconds` (wall-clock when distributed).
#'   `distributed`: `NULL`, or when the search was spread over futures, a
#'   list of `workers`, `chunks`, `rounds` (2 with seeds first) and
#'   `chunk_seconds`, a data frame of each chunk's root candidates
#'   (`first`, `last`) and its engine seconds in each round (`seeds`,
#'   `solve`); `n_states` is then the sum over the chunks.
#' @seealso [predict.dpdt()], [dpdt_tree()], [summary.dpdt()].
#' @examples
#' fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
#' fit
#' predict(fit, iris[c(1, 51, 101), ], model = 2)
#'
#' # cut `eruptions` only between 16 quantile bins (for many rows)
#' fb <- dpdt_fit(waiting ~ eruptions, data = faithful, max_depth = 2,
#'                candidates = "exhaustive", max_bins = 16)
#' fb$bins
#' fb$optimality$statement
#'
#' # regression, splits as complexity
#' dpdt_fit(mpg ~ wt + hp + factor(cyl), data = mtcars, max_depth = 2,
#'          complexity = "splits")
#'
#' # missing values stay in; one test costs more than the others
#' aq <- dpdt_fit(Ozone ~ ., data = airquality, max_depth = 2,
#'                test_cost = c(Solar.R = 5))
#' aq$front
#' # misclassification costs: missing a virginica costs 5
#' L <- matrix(1, 3, 3) - diag(3)
#' L[3, ] <- c(5, 5, 0)
#' dpdt_fit(Species ~ ., data = iris, max_depth = 2, loss_matrix = L)
#' \donttest{
#' # one search spread over two local workers: the same front
#' future::plan(future::multisession, workers = 2)
#' fd <- dpdt_fit(Species ~ ., data = iris, max_depth = 3,
#'                candidates = "exhaustive", parallel = "future")
#' fd$distributed$chunks
#' future::plan(future::sequential)
#' }
#' @importFrom stats na.omit
#' @export
dpdt_fit <- function(formula, data, weights = NULL, subset,
                     na.action = NULL, max_depth = 3,
                     cart_depth = NULL, candidates = c("cart", "exhaustive"),
                     complexity = c("tests", "splits", "cost"),
                     criterion = c("entropy", "gini"), min_bucket = 5,
                     threads = NULL, test_cost = NULL, loss_matrix = NULL,
                     prior = NULL, exact_levels = 1, time_limit = Inf,
                     best_only = FALSE, max_bins = Inf,
                     parallel = c("auto", "future", "none"), ...) {
  call <- match.call()
  check_dots(match.call(expand.dots = FALSE)$...,
             c("max_memory", "max_work", "progress"), "dpdt_fit")
  extra <- list(...)
  if (missing(complexity) && !is.null(test_cost)) complexity <- "cost"
  control <- check_control(
    max_depth, cart_depth, candidates, complexity, criterion, min_bucket,
    threads, max_memory = if (is.null(extra$max_memory)) 4 else extra$max_memory,
    max_work = if (is.null(extra$max_work)) Inf else extra$max_work,
    progress = if (is.null(extra$progress)) interactive() else extra$progress,
    exact_levels = exact_levels, best_only = best_only, max_bins = max_bins)
  # a user's max_work (even Inf) lifts the refusal of searches beyond an hour
  control$max_work_given <- !is.null(extra$max_work)
  # a user's threads are kept inside futures (else one thread per future)
  control$threads_given <- !is.null(threads)
  time_limit <- check_time_limit(time_limit)
  control$parallel <- check_parallel(parallel, time_limit)
  # dpdt_fit(x, y): predictors and response instead of a formula and data;
  # dpdt_fit(formula): the variables from the formula's environment
  if (!missing(formula) && !inherits(formula, "formula") &&
      (is.data.frame(formula) || is.matrix(formula))) {
    xy <- xy_frame(formula, if (missing(data)) NULL else data)
    formula <- xy$formula
    data <- xy$data
  } else if (missing(data)) {
    data <- formula_frame(formula)
  }
  check_data(data)
  check_formula(formula, data)
  w <- eval(substitute(weights), data, parent.frame())
  check_weights(w, nrow(data))

  mf <- call[c(1L, match(c("formula", "data", "subset"), names(call), 0L))]
  mf[[1L]] <- quote(stats::model.frame)
  mf$formula <- formula
  mf$data <- data
  mf$weights <- w
  mf$na.action <- if (is.null(na.action)) stats::na.pass else na.action
  mf <- eval(mf, parent.frame())
  if (is.null(na.action)) mf <- drop_missing_response(mf)
  settings <- list(control = control, time_limit = time_limit,
                   test_cost = test_cost, loss_matrix = loss_matrix,
                   prior = prior)
  fit_frame(mf, settings, call)
}

# The search on a model frame, and the fit object: the one code path of
# dpdt_fit() and of every refit of it (dpdt_cv()'s folds), so that no
# option can be fitted in one and forgotten in the other. `settings` holds
# the checked control and time limit and the user's test costs, loss matrix
# and prior (checked here, against the frame's predictors and classes).
# `quiet`: no warnings about the data (a fold repeats the full fit's).
fit_frame <- function(mf, settings, call = NULL, quiet = FALSE) {
  control <- settings$control
  prepared <- prepare_data(mf, quiet = quiet)
  costs <- check_test_cost(settings$test_cost, complexity = control$complexity,
                           prepared$features)
  lm <- check_loss_matrix(settings$loss_matrix, prepared)
  prepared <- apply_prior(prepared, check_prior(settings$prior, prepared))
  check_magnitudes(prepared, control$max_depth, costs, lm)

  data_options <- list(
    n_levels = ifelse(prepared$features$kind == "categorical",
                      lengths(prepared$xlevels[prepared$features$variable]), 0L),
    loss_matrix = lm, test_cost = costs)
  res <- run_search(prepared, control, data_options, settings$time_limit)
  # an error raised while the engine ran (an elapsed setTimeLimit()) comes
  # back after the engine has unwound, and is raised here as it was
  if (!is.null(res$condition)) stop(res$condition)
  control <- res$control
  front <- build_front(res, control$complexity, sum(prepared$w), costs)
  if (!quiet) warn_leaf_only(front, prepared, control)
  structure(list(
    front = front,
    trees = res$trees, type = prepared$type, levels = prepared$levels,
    features = prepared$features, call = call, terms = attr(mf, "terms"),
    xlevels = prepared$xlevels, na.action = attr(mf, "na.action"),
    control = control, settings = settings,
    optimality = optimality(control, unique(prepared$features$variable[
      res$heuristic_features]), found = if (is.null(res$time_limit)) 0L else res$time_limit$found,
      binned = unique(prepared$features$variable[res$bins > 0]),
      missing = unique(prepared$features$variable[vapply(prepared$x, anyNA, logical(1))])),
    bins = stats::setNames(res$bins, prepared$features$name),
    test_cost = costs,
    loss_matrix = lm, prior = prepared$prior,
    prior_scale = prepared$prior_scale, n_states = res$n_states,
    seconds = res$seconds, work_estimate = res$work_estimate,
    distributed = res$distributed,
    nobs = length(prepared$w), model_frame = mf,
    time_limit = res$time_limit, response = names(mf)[1],
    ordered_response = isTRUE(prepared$ordered),
    default_model = if (isTRUE(control$best_only)) nrow(front) else default_tree(front),
    loss_column = "train_loss"
  ), class = "dpdt")
}

# dpdt_fit(x, y): a data frame of the predictors (a matrix's columns named
# V1, V2, ... when it has no names) and the response as column `y` (or
# `.y` when x has a column y), with the formula `y ~ .`.
xy_frame <- function(x, y) {
  if (is.null(y)) {
    stop_arg("`data` is missing: with a data frame or matrix of predictors as ",
             "the first argument, give the response as the second, dpdt_fit(x, y); ",
             "or use a formula, dpdt_fit(y ~ ., data).")
  }
  d <- as.data.frame(x)
  if (is.data.frame(y) || is.matrix(y) || length(y) != nrow(d)) {
    stop_arg("`y` (the second argument of dpdt_fit(x, y)) must be a vector with ",
             "one response per row of `x` (", nrow(d), "); got ", describe(y),
             " of length ", NROW(y), ".")
  }
  name <- if ("y" %in% names(d)) ".y" else "y"
  d[[name]] <- y
  list(data = d, formula = stats::as.formula(paste0("`", name, "` ~ ."), env = parent.frame(2)))
}

# dpdt_fit(formula) without `data`: the formula's variables, looked up as
# lm() does, from the formula's environment, as one data frame.
formula_frame <- function(formula) {
  if (!inherits(formula, "formula")) {
    stop_arg("`formula` must be a formula with the response on its left ",
             "side, such as `y ~ x1 + x2` (or pass predictors and response as ",
             "dpdt_fit(x, y)); got ", describe(formula), ".")
  }
  vars <- all.vars(formula)
  if ("." %in% vars) {
    stop_arg("`data` is missing, and `.` in the formula needs it: pass a data ",
             "frame, or name the predictors.")
  }
  env <- environment(formula)
  if (is.null(env)) env <- parent.frame(2)
  found <- vapply(vars, exists, logical(1), envir = env)
  if (!all(found)) {
    stop_arg("`data` is missing and the formula's variable(s) ",
             paste0("`", vars[!found], "`", collapse = ", "), " are not found ",
             "where the formula was made; pass `data`.")
  }
  vals <- mget(vars, envir = env, inherits = TRUE)
  lens <- lengths(vals)
  if (length(unique(lens)) > 1) {
    stop_arg("`data` is missing and the formula's variables differ in length (",
             paste0("`", vars, "` ", lens, collapse = ", "), "); pass a data frame.")
  }
  d <- as.data.frame(vals, optional = TRUE, stringsAsFactors = FALSE)
  names(d) <- vars
  d
}

# The tree a fit uses when no `model` is given: the one rpart's default
# cp = 0.01 would keep, the least rel_error + 0.01 * n_splits (the simplest
# on ties), never simply the largest (bench/defaults.R: on held-out rows of
# 26 data sets it beat the most accurate tree by half a point of accuracy).
default_tree <- function(front, cp = 0.01) {
  cp_choice(front$rel_error, as.double(front$n_splits), cp)
}

# The default na.action: rows with a missing response cannot be fitted and
# are dropped (with a message); rows with missing predictors stay, the
# search learns where their missing values go.
drop_missing_response <- function(mf) {
  y <- stats::model.response(mf)
  bad <- if (is.null(y) || is.matrix(y) || is.list(y)) FALSE else is.na(y)
  if (!any(bad)) return(mf)
  omitted <- which(bad)
  names(omitted) <- rownames(mf)[bad]
  class(omitted) <- "omit"
  message("dpdt_fit(): dropped ", length(omitted), " row(s) with a missing ",
          "response `", names(mf)[1], "`.")
  out <- mf[!bad, , drop = FALSE]
  attr(out, "terms") <- attr(mf, "terms")
  attr(out, "na.action") <- omitted
  out
}

# Priors as in rpart: rows of class c are reweighted so that the classes'
# total weights are in proportion `prior` (the total weight is kept; a class
# without rows drops out and the others' priors are rescaled to sum to 1).
# The factor of each class is kept (`prior_scale`): held-out rows are scored
# with the weights the fit gave their classes.
apply_prior <- function(prepared, prior) {
  if (is.null(prior)) return(prepared)
  w <- prepared$w
  cls <- prepared$y + 1
  wc <- tapply(w, factor(cls, levels = seq_along(prior)), sum)
  wc[is.na(wc)] <- 0
  present <- sum(prior[wc > 0])
  scale <- as.vector(ifelse(wc > 0, prior / present * sum(w) / wc, 0))
  prepared$w <- w * scale[cls]
  prepared$prior <- prior
  prepared$prior_scale <- scale
  prepared
}

# Model frame -> what the engine takes: x, coded y, positive weights.
prepare_data <- function(mf, quiet = FALSE) {
  if (nrow(mf) == 0) {
    stop_arg("`data` has no rows left after `subset` and `na.action`; ",
             "nothing to fit.")
  }
  y <- plain_numeric(stats::model.response(mf), paste0("The response `", names(mf)[1], "`"))
  check_response(y, names(mf)[1])
  vars <- predictor_names(attr(mf, "terms"))
  for (v in vars) check_predictor(mf[[v]], v)
  w <- stats::model.weights(mf)
  if (is.null(w)) w <- rep(1, nrow(mf))
  keep <- w > 0
  if (!any(keep)) {
    stop_arg("All `weights` are zero; give at least one row a positive weight.")
  }
  xlevels <- predictor_levels(mf, vars)
  if (!quiet) warn_id_like(mf, vars, xlevels)
  features <- feature_table(mf, vars, xlevels)
  x <- feature_columns(mf, features, xlevels)
  if (!all(keep)) x <- lapply(x, `[`, keep)
  out <- list(x = x, w = as.double(w[keep]), features = features,
              xlevels = xlevels, response = names(mf)[1])
  if (is.numeric(y)) {
    c(out, list(y = as.double(y[keep]), n_classes = 0L,
                type = "regression", levels = NULL))
  } else {
    y <- if (is.logical(y)) factor(y, levels = c(FALSE, TRUE)) else as.factor(y)
    c(out, list(y = as.double(as.integer(y)[keep] - 1L),
                n_classes = nlevels(y), type = "classification",
                levels = levels(y), ordered = is.ordered(y)))
  }
}
