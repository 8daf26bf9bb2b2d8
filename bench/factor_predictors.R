#!/usr/bin/env Rscript
## A default fit with factor predictors (a 5- and a 12-level factor beside
## three numeric ones, two classes, DPDT_N rows, default 200,000, and as
## many held out), beside the same data with the factors as integer codes
## and rpart's default tree (its own 10-fold cross-validation, cp 0.01,
## maxdepth 3). Each fit runs in a fresh R process, one thread, DPDT_REPS
## times (default 3), builds alternating: the installed dpdt, and an older
## one from DPDT_OLD (a library path) when given. CPU seconds (user +
## system) of the fit; held-out accuracy of each method's default tree;
## `same` compares the old and new builds' fronts and trees (identical()).
##   DPDT_OLD=/path/to/old/lib Rscript bench/factor_predictors.R
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE))
source(file.path(if (length(script) == 1) dirname(script) else "bench", "common.R"))
root <- bench_root(script)
n <- as.numeric(Sys.getenv("DPDT_N", "2e5"))
reps <- as.integer(Sys.getenv("DPDT_REPS", "3"))
old_lib <- Sys.getenv("DPDT_OLD")

child <- Sys.getenv("DPDT_FACTOR_CHILD")
if (nzchar(child)) {
  if (nzchar(Sys.getenv("DPDT_FACTOR_LIB"))) library(dpdt, lib.loc = Sys.getenv("DPDT_FACTOR_LIB"))
  else library(dpdt)
  set.seed(1)
  make <- function(n) {
    x <- data.frame(a = rnorm(n), b = rnorm(n), c = factor(sample(letters[1:5], n, TRUE)),
                    d = runif(n), e = factor(sample(LETTERS[1:12], n, TRUE)))
    x$y <- factor(x$a + (x$c %in% c("a", "b")) + (x$e %in% c("A", "C", "F")) + rnorm(n) > 0.5)
    x
  }
  train <- make(n)
  test <- make(n)
  acc <- function(pred) mean(as.character(pred) == as.character(test$y))
  res <- switch(child,
    factors = {
      t <- cpu(dpdt_fit(y ~ ., data = train, max_depth = 3, threads = 1))
      saveRDS(t$value[c("front", "trees")], Sys.getenv("DPDT_FACTOR_RDS"))
      list(cpu = t$cpu, acc = acc(predict(t$value, test)))
    },
    integers = {
      tr <- train; te <- test
      tr$c <- as.integer(tr$c); tr$e <- as.integer(tr$e)
      te$c <- as.integer(te$c); te$e <- as.integer(te$e)
      t <- cpu(dpdt_fit(y ~ ., data = tr, max_depth = 3, threads = 1))
      list(cpu = t$cpu, acc = mean(as.character(predict(t$value, te)) == as.character(te$y)))
    },
    rpart = {
      t <- cpu(rpart::rpart(y ~ ., train, control = rpart::rpart.control(maxdepth = 3)))
      list(cpu = t$cpu, acc = acc(predict(t$value, test, type = "class")))
    })
  write.csv(as.data.frame(res), Sys.getenv("DPDT_FACTOR_CSV"), row.names = FALSE)
  quit(save = "no")
}

out <- bench_out(root, "factor_predictors")
run_child <- function(kind, lib = "") {
  csv <- tempfile(fileext = ".csv")
  rds <- tempfile(fileext = ".rds")
  status <- system2(file.path(R.home("bin"), "Rscript"), script,
                    env = c(paste0("DPDT_FACTOR_CHILD=", kind), paste0("DPDT_FACTOR_LIB=", lib),
                            paste0("DPDT_FACTOR_CSV=", csv), paste0("DPDT_FACTOR_RDS=", rds),
                            paste0("DPDT_N=", n)))
  if (status != 0) stop("the ", kind, " run failed")
  r <- read.csv(csv)
  r$front <- if (file.exists(rds)) rds else NA
  r
}
runs <- list()
for (i in seq_len(reps)) {
  if (nzchar(old_lib)) runs[[length(runs) + 1]] <- cbind(build = "old", kind = "factors", run_child("factors", old_lib))
  runs[[length(runs) + 1]] <- cbind(build = "new", kind = "factors", run_child("factors"))
  runs[[length(runs) + 1]] <- cbind(build = "new", kind = "integers", run_child("integers"))
  runs[[length(runs) + 1]] <- cbind(build = "rpart", kind = "factors", run_child("rpart"))
}
res <- do.call(rbind, runs)
same <- if (nzchar(old_lib)) {
  identical(readRDS(res$front[res$build == "old"][1]), readRDS(res$front[res$build == "new" & res$kind == "factors"][1]))
} else NA
meta <- run_metadata(root)
res$front <- NULL
res <- cbind(res, n = n, as.data.frame(meta))
write.csv(res, paste0(out, ".csv"), row.names = FALSE)
med <- function(b, k) stats::median(res$cpu[res$build == b & res$kind == k])
accu <- function(b, k) res$acc[res$build == b & res$kind == k][1]
rows <- data.frame(
  fit = c(if (nzchar(old_lib)) "dpdt, older build (factors)", "dpdt (factors)",
          "dpdt (factors as integer codes)", "rpart (its default tree, maxdepth 3)"),
  cpu_s = fmt_t(c(if (nzchar(old_lib)) med("old", "factors"), med("new", "factors"),
                  med("new", "integers"), med("rpart", "factors"))),
  heldout_acc = fmt_a(c(if (nzchar(old_lib)) accu("old", "factors"), accu("new", "factors"),
                        accu("new", "integers"), accu("rpart", "factors")), 4))
writeLines(c(
  "# A default fit with factor predictors", "",
  paste0("Written by `bench/factor_predictors.R`. Run ", meta$run_date, ", commit ", meta$run_commit,
         ", load ", meta$run_load, ", ", meta$run_cpu, "."), "",
  paste0("dpdt_fit(y ~ ., max_depth = 3, threads = 1), defaults otherwise, on ", format(n, big.mark = ",", scientific = FALSE),
         " rows: three numeric predictors, a 5- and a 12-level factor, two classes; as many rows held out. ",
         "CPU seconds of the fit, the median of ", reps, " runs, each in a fresh R process, builds alternating. ",
         "Held-out accuracy of each method's default tree (dpdt's default model; rpart's tree after its own pruning)."), "",
  md_table(rows), "",
  paste0("- dpdt (factors) / rpart: ", fmt_a(med("new", "factors") / med("rpart", "factors")), "."),
  if (nzchar(old_lib)) paste0("- new / older build: ", fmt_a(med("new", "factors") / med("old", "factors")),
                              "; fronts and trees identical: ", same, ".")
), paste0(out, ".md"))
cat(readLines(paste0(out, ".md")), sep = "\n")
