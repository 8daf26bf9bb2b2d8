## Optimal pruning (issue 6): dpdt_prune() beside rpart on magic's training
## rows (15,216 x 10, two classes; the papers' split, read in place).
##   1. rpart grown with cp = 0, minsplit = 2 (about 1,500 splits, depth
##      30): time to grow it, rpart's prune() over its whole cp sequence,
##      and dpdt_prune()'s exact replacement front (every size) — the
##      dynamic program alone and the whole call (conversion, routing of
##      the rows, the front; trees are built when asked for: one tree
##      on demand, and the eager list of every tree for comparison);
##   2. routing the rows to leaves: plain vs heavy-light;
##   3. raising on rpart trees of growing depth: states and time.
## CPU time (user + system), minimum of several runs.
##   Rscript bench/prune.R   (DPDT_DATA: folder holding quantbnb/)
args <- commandArgs(FALSE)
script <- sub("^--file=", "", args[grep("^--file=", args)])
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
suppressMessages({ library(dpdt); library(rpart) })
data_dir <- Sys.getenv("DPDT_DATA", file.path(root, "..", "shared", "data"))
d <- read_part(file.path(data_dir, "quantbnb"), "magic")
out <- bench_out(root, "prune")
runs <- as.integer(Sys.getenv("DPDT_BENCH_RUNS", "5"))

cpu <- function(f, n = runs) {
  t <- numeric(n)
  for (i in seq_len(n)) {
    gc(FALSE)
    tm <- system.time(val <- f())
    t[i] <- tm[["user.self"]] + tm[["sys.self"]]
  }
  attr(val, "cpu") <- min(t)
  val
}

ctl <- rpart.control(cp = 0, xval = 0, minsplit = 2, minbucket = 1)
tr <- cpu(function() rpart(y ~ ., data = d, control = ctl))
grow <- attr(tr, "cpu")
splits <- sum(tr$frame$var != "<leaf>")
seq_cp <- cpu(function() lapply(tr$cptable[, "CP"], function(cp) prune(tr, cp = cp)))
p <- cpu(function() dpdt_prune(tr, d))
engine <- cpu(function() dpdt_prune(tr, d)$front_seconds)
eager <- cpu(function() dpdt_prune(tr, d, lazy = FALSE))
src <- dpdt:::rpart_source(tr)
conv <- cpu(function() dpdt:::rpart_source(tr))
mf0 <- dpdt:::prune_frame(src, d)
x0 <- dpdt:::feature_matrix(mf0, src$features, src$xlevels)
where <- cpu(function() src$end_nodes(d, x0), 3 * runs)
where_all <- cpu(function() dpdt:::rpart_where(tr, d))
stopifnot(identical(as.vector(src$node_label[where]),
                    as.integer(rownames(tr$frame))[where_all]))
k_mid <- nrow(p$front) %/% 2
one <- dpdt:::front_tree(p, k_mid)
stopifnot(identical(one, eager$trees[[k_mid]]))
one_t <- attr(cpu(function() { for (i in 1:50) dpdt:::front_tree(p, k_mid); TRUE }), "cpu") / 50
pred_one <- cpu(function() predict(p, d, model = k_mid))
mb <- function(o) as.numeric(object.size(o)) / 2^20
pr <- cpu(function() dpdt_prune(tr, d, labels = "relabel", index = "pruned"))
pe <- cpu(function() dpdt_prune(tr, d, labels = "relabel", index = "errors"))
stopifnot(all.equal(pr$front$errors, pe$front$errors))
# rpart's sequence inside the front
cpt <- tr$cptable
root_err <- sum(d$y != levels(d$y)[which.max(table(d$y))])
rp_err <- round(cpt[, "rel error"] * root_err)
ours <- p$front$errors[match(cpt[, "nsplit"], p$front$n_splits)]

mf <- stats::model.frame(tr$terms, d)
x <- dpdt:::feature_matrix(mf, src$features, src$xlevels)
plain <- cpu(function() dpdt:::cpp_route_with(x, src$tree, FALSE), 3 * runs)
heavy <- cpu(function() dpdt:::cpp_route_with(x, src$tree, TRUE), 3 * runs)
stopifnot(identical(as.vector(plain), as.vector(heavy)))
# a degenerate chain (depth = splits) where heavy-light is meant to pay off:
# inner node i tests u <= 1 - i / (s + 1), its right child a leaf
s_ch <- 1500L
ids <- seq_len(s_ch)
ch <- list(feature = integer(2 * s_ch + 1), threshold = rep(NA_real_, 2 * s_ch + 1),
           left = integer(2 * s_ch + 1), right = integer(2 * s_ch + 1),
           depth = integer(2 * s_ch + 1))
ch$feature[2 * ids - 1] <- 1L
ch$threshold[2 * ids - 1] <- 1 - ids / (s_ch + 1)
ch$left[2 * ids - 1] <- 2L * ids + 1L
ch$right[2 * ids - 1] <- 2L * ids
ch$depth[2 * ids - 1] <- ids - 1L
ch$depth[2 * ids] <- ids
ch$depth[2 * s_ch + 1] <- s_ch
set.seed(1)
xz <- matrix(runif(nrow(x)), ncol = 1)
cplain <- cpu(function() dpdt:::cpp_route_with(xz, ch, FALSE), 3 * runs)
cheavy <- cpu(function() dpdt:::cpp_route_with(xz, ch, TRUE), 3 * runs)
stopifnot(identical(as.vector(cplain), as.vector(cheavy)))

# raising on trees of growing depth
raise_rows <- NULL
for (depth in 2:12) {
  t2 <- rpart(y ~ ., data = d, control = rpart.control(cp = 0, xval = 0, maxdepth = depth))
  s2 <- sum(t2$frame$var != "<leaf>")
  r <- tryCatch(cpu(function() dpdt_prune(t2, d, method = "raise", max_states = 2e6), 1),
                error = function(e) e)
  if (inherits(r, "error")) {
    raise_rows <- rbind(raise_rows, data.frame(depth = depth, splits = s2, states = NA,
                                               cpu = NA, note = "refused above 2e6 states"))
    break
  }
  rep <- dpdt_prune(t2, d)
  raise_rows <- rbind(raise_rows, data.frame(
    depth = depth, splits = s2, states = r$states, cpu = attr(r, "cpu"),
    dp_share = r$front_seconds / r$seconds,
    note = sprintf("raising <= replacement: %s; fewer errors at %d of %d sizes",
                   all(r$front$errors <= rep$front$errors + 1e-9),
                   sum(r$front$errors < rep$front$errors - 1e-9), nrow(r$front))))
  if (attr(r, "cpu") > 5) break
}

meta <- sprintf("%s; R %s; rpart %s; %s; %d runs (min CPU s)", format(Sys.time(), "%Y-%m-%d %H:%M"),
                getRversion(), packageVersion("rpart"),
                system("git -C . rev-parse --short HEAD", intern = TRUE), runs)
lines <- c(
  "# Optimal pruning: dpdt_prune() beside rpart (magic, 15,216 training rows)", "",
  paste0("Run: ", meta, ". Script: bench/prune.R."), "",
  sprintf("rpart tree grown with cp = 0, minsplit = 2, minbucket = 1: %d splits, depth %d.", splits,
          p$front$depth[1]), "",
  "## Replacement: the exact front (every size) vs growing the tree", "",
  md_table(data.frame(
    step = c("rpart(): grow the tree (xval = 0)",
             sprintf("rpart prune() over its %d-tree cp sequence", nrow(cpt)),
             "dpdt_prune(): dynamic program (rows' stats + front + back-pointers)",
             "  part of the whole call: routing the rows (our tests; pred.rpart where they meet NA)",
             "  part of the whole call: conversion of the rpart tree (R code)",
             sprintf("dpdt_prune(): whole call, %d-row front, trees built on demand", nrow(p$front)),
             sprintf("  then one tree on demand (front_tree(), model %d, %d nodes; mean of 50)", k_mid, length(one$feature)),
             sprintf("  then predict(model = %d) on the 15,216 rows", k_mid),
             sprintf("dpdt_prune(lazy = FALSE): whole call, all %d trees as R lists", nrow(p$front)),
             "rpart's own routing of all rows (pred.rpart), for comparison",
             "dpdt_prune(labels = \"relabel\"), program indexed by pruned splits",
             "dpdt_prune(labels = \"relabel\"), program indexed by errors"),
    cpu_s = fmt_t(tt <- c(grow, attr(seq_cp, "cpu"), engine, attr(where, "cpu"), attr(conv, "cpu"),
                          attr(p, "cpu"), one_t, attr(pred_one, "cpu"), attr(eager, "cpu"),
                          attr(where_all, "cpu"), attr(pr, "cpu"), attr(pe, "cpu"))),
    ratio_to_grow = fmt_a(tt / grow, 3))), "",
  sprintf(paste("Object size: the lazy front %.1f MB (its model frame %.1f MB), the eager one %.0f MB;",
                "the rpart tree %.1f MB."), mb(p), mb(p$model_frame), mb(eager), mb(tr)), "",
  sprintf(paste("rpart's cp sequence has %d trees (sizes %s); the front has all %d sizes",
                "0..%d. At rpart's sizes the front has %s errors, rpart %s: never more (%s), fewer at %d of them."),
          nrow(cpt), paste(cpt[, "nsplit"], collapse = ", "), nrow(p$front), splits,
          paste(ours, collapse = ", "), paste(rp_err, collapse = ", "), all(ours <= rp_err), sum(ours < rp_err)),
  sprintf("Pareto-optimal trees in the front: %d; at sizes between rpart's, e.g. %d splits: %d errors.",
          sum(p$front$pareto), splits %/% 2, p$front$errors[p$front$n_splits == splits %/% 2]), "",
  "## Routing the 15,216 rows to leaves", "",
  md_table(data.frame(
    tree = c(sprintf("rpart cp = 0 tree (%d splits, depth %d)", splits, max(src$tree$depth)),
             sprintf("chain tree on one feature (%d splits, depth %d)", s_ch, s_ch)),
    plain_s = fmt_t(c(attr(plain, "cpu"), attr(cplain, "cpu"))),
    heavy_light_s = fmt_t(c(attr(heavy, "cpu"), attr(cheavy, "cpu"))),
    heavy_over_plain = fmt_a(c(attr(heavy, "cpu") / attr(plain, "cpu"), attr(cheavy, "cpu") / attr(cplain, "cpu")), 2))), "",
  "Leaves identical on every row. dpdt_prune(routing = \"auto\") times both on the first rows and keeps the faster.", "",
  "## Raising (exact box DP) on rpart trees of growing depth", "",
  md_table(transform(raise_rows, cpu = fmt_t(cpu), states = fmt_r(states),
                     dp_share = fmt_a(dp_share, 3))), "",
  "dp_share: the dynamic program's share of the glue's time (the rest builds every raised tree: its statistics, routing the rows through it, and its R list).", "")
writeLines(lines, paste0(out, ".md"))
cat(lines, sep = "\n")
