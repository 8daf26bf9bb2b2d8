#!/usr/bin/env Rscript
## Which tree should predict() use without `model =`, and how small may a
## leaf be by default (issue 18, "defaults that protect")? Decided on
## held-out rows only: every configuration is fitted on training rows and
## scored on test rows it never saw, beside rpart's own defaults.
##
##   Rscript bench/defaults.R        (the package installed; DPDT_DATA: the
##                                    folder holding quantbnb/)
##
## Data: the 16 Quant-BnB sets with the papers' train/test split, and 9
## data sets of R and its recommended packages (MASS, rpart), each split
## 2/3 : 1/3 five times (seeds 1..5; classification splits stratified);
## Pima has its own split (Pima.tr / Pima.te). Configurations of dpdt_fit()
## (max_depth 3, the package's other defaults): min_bucket 1, 3, 5, 7, 10,
## and as default tree either the most accurate one ("largest", the rule
## before) or the one rpart's cp = 0.01 keeps ("cp", the tree minimising
## rel_error + 0.01 * n_splits). rpart: its defaults (cp = 0.01, minsplit
## 20, minbucket 7), and its cross-validated one-SE choice (cp = 0, 10
## folds). Scores: test accuracy (classification), test MSE relative to the
## test MSE of the training mean (regression: 1 - R^2 on the test rows).
args <- commandArgs(trailingOnly = FALSE)
script <- sub("^--file=", "", grep("^--file=", args, value = TRUE))
source(file.path(dirname(script), "common.R"))
root <- bench_root(script)
data <- bench_data(root, "paper_table1_depth3.csv")
out <- bench_out(root, "defaults")
suppressPackageStartupMessages({library(dpdt); library(rpart); library(MASS)})

buckets <- c(1, 3, 5, 7, 10)

## The row of a front rpart's default cp would keep: rel_error + cp *
## n_splits least, the simplest on ties.
cp_row <- function(front, cp = 0.01) {
  v <- front$rel_error + cp * front$n_splits
  which(v <= min(v) + 1e-10)[1]
}

score <- function(pred, y) {
  if (is.factor(y)) mean(as.character(pred) == as.character(y))
  else mean((pred - y)^2)
}

rpart_one_se <- function(f, tr, method) {
  set.seed(1)
  r <- rpart(f, tr, method = method, cp = 0, xval = 10)
  cpt <- r$cptable
  i <- which.min(cpt[, "xerror"])
  j <- which(cpt[, "xerror"] <= cpt[i, "xerror"] + cpt[i, "xstd"])[1]
  prune(r, cp = cpt[j, "CP"])
}

## One train/test split: every configuration's test score.
run_split <- function(f, tr, te, yname) {
  y <- te[[yname]]
  classif <- is.factor(tr[[yname]])
  method <- if (classif) "class" else "anova"
  type <- if (classif) "class" else "vector"
  base <- if (classif) NA else mean((mean(tr[[yname]]) - y)^2)
  rel <- function(s) if (classif) s else s / base
  res <- list()
  for (mb in buckets) {
    fit <- suppressWarnings(suppressMessages(dpdt_fit(f, tr, max_depth = 3, min_bucket = mb)))
    fr <- fit$front
    for (rule in c("largest", "cp")) {
      m <- if (rule == "largest") nrow(fr) else cp_row(fr)
      res[[sprintf("dpdt mb=%d %s", mb, rule)]] <-
        c(score = rel(score(predict(fit, te, model = m, unseen = "missing"), y)),
          splits = fr$n_splits[m])
    }
  }
  rd <- rpart(f, tr, method = method)
  res[["rpart default"]] <- c(score = rel(score(predict(rd, te, type = type), y)),
                              splits = sum(rd$frame$var != "<leaf>"))
  r1 <- rpart_one_se(f, tr, method)
  res[["rpart CV one-SE"]] <- c(score = rel(score(predict(r1, te, type = type), y)),
                                splits = sum(r1$frame$var != "<leaf>"))
  res
}

## 2/3 : 1/3 splits of an R data set (stratified for classification).
r_splits <- function(d, yname, seeds = 1:5) {
  lapply(seeds, function(s) {
    set.seed(s)
    y <- d[[yname]]
    idx <- if (is.factor(y)) unlist(lapply(split(seq_len(nrow(d)), y), function(i)
      i[sample.int(length(i), round(2 * length(i) / 3))])) else sample.int(nrow(d), round(2 * nrow(d) / 3))
    list(tr = d[idx, ], te = d[-idx, ])
  })
}

r_sets <- list(
  kyphosis = list(Kyphosis ~ ., rpart::kyphosis),
  biopsy = list(class ~ ., na.omit(MASS::biopsy[, -1])),
  fgl = list(type ~ ., MASS::fgl),
  birthwt = list(low ~ . - bwt, transform(MASS::birthwt, low = factor(low), race = factor(race))),
  cars93 = list(Type ~ Price + MPG.city + EngineSize + Horsepower + Origin + DriveTrain +
                  Passengers + Weight, MASS::Cars93),
  boston = list(medv ~ ., MASS::Boston),
  cpus = list(perf ~ syct + mmin + mmax + cach + chmin + chmax, MASS::cpus),
  car90 = list(Price ~ Type + Country + Disp + HP + Tank + Weight, rpart::car90[!is.na(rpart::car90$Price), ]),
  airquality = list(Ozone ~ ., airquality[!is.na(airquality$Ozone), ]))

rows <- NULL
add_rows <- function(set, kind, res_list) {
  for (cfg in names(res_list[[1]])) {
    s <- vapply(res_list, function(r) r[[cfg]][["score"]], 0)
    k <- vapply(res_list, function(r) r[[cfg]][["splits"]], 0)
    rows <<- rbind_fill(rows, data.frame(set = set, kind = kind, config = cfg,
                                         score = mean(s), splits = mean(k), splits_n = length(s)))
  }
}

for (nm in bench_sets(data$paper$dataset)) {
  tr <- read_part(data$qdir, nm)
  te <- read_part(data$qdir, nm, "test", levels(tr$y))
  add_rows(nm, "accuracy", list(run_split(y ~ ., tr, te, "y")))
  cat(nm, "done\n")
}
add_rows("pima", "accuracy", list(run_split(type ~ ., MASS::Pima.tr, MASS::Pima.te, "type")))
for (nm in names(r_sets)) {
  f <- r_sets[[nm]][[1]]
  d <- r_sets[[nm]][[2]]
  yname <- all.vars(f)[1]
  res <- lapply(r_splits(d, yname), function(s) run_split(f, s$tr, s$te, yname))
  add_rows(nm, if (is.factor(d[[yname]])) "accuracy" else "relative MSE", res)
  cat(nm, "done\n")
}
write.csv(rows, paste0(out, ".csv"), row.names = FALSE)

## Summary: per configuration, mean test accuracy over the classification
## sets, mean relative MSE over the regression ones, and wins / losses
## against rpart's defaults, set by set.
cfgs <- unique(rows$config)
summ <- do.call(rbind, lapply(cfgs, function(cfg) {
  r <- rows[rows$config == cfg, ]
  rp <- rows[rows$config == "rpart default", ]
  better <- ifelse(r$kind == "accuracy", r$score > rp$score + 1e-12, r$score < rp$score - 1e-12)
  worse <- ifelse(r$kind == "accuracy", r$score < rp$score - 1e-12, r$score > rp$score + 1e-12)
  data.frame(config = cfg,
             accuracy = 100 * mean(r$score[r$kind == "accuracy"]),
             rel_mse = mean(r$score[r$kind != "accuracy"]),
             splits = mean(r$splits),
             better = sum(better), worse = sum(worse))
}))
md <- c("# Default tree and leaf size, decided on held-out rows",
        "",
        sprintf("Run %s; dpdt %s; max_depth 3. %d classification sets (16 Quant-BnB with their split, Pima with its own, 5 R sets over 5 random 2/3 : 1/3 splits) and %d regression sets (5 random splits each). Test rows are never used to choose.",
                format(Sys.time(), "%Y-%m-%d"), utils::packageVersion("dpdt"),
                length(unique(rows$set[rows$kind == "accuracy"])),
                length(unique(rows$set[rows$kind != "accuracy"]))),
        "",
        "| configuration | mean test accuracy (%) | mean test MSE / MSE of the mean | mean splits | sets better / worse than rpart's defaults |",
        "|---|---:|---:|---:|---:|",
        sprintf("| %s | %.2f | %.3f | %.1f | %d / %d |", summ$config, summ$accuracy, summ$rel_mse,
                summ$splits, summ$better, summ$worse),
        "", "## Per set", "",
        "| set | measure | rpart default | rpart one-SE | dpdt mb=1 largest | dpdt mb=7 largest | dpdt mb=1 cp | dpdt mb=7 cp |",
        "|---|---|---:|---:|---:|---:|---:|---:|")
for (s in unique(rows$set)) {
  r <- rows[rows$set == s, ]
  g <- function(cfg) {
    v <- r$score[r$config == cfg]
    if (r$kind[1] == "accuracy") sprintf("%.2f (%.1f)", 100 * v, r$splits[r$config == cfg])
    else sprintf("%.3f (%.1f)", v, r$splits[r$config == cfg])
  }
  md <- c(md, sprintf("| %s | %s | %s | %s | %s | %s | %s | %s |", s, r$kind[1], g("rpart default"),
                      g("rpart CV one-SE"), g("dpdt mb=1 largest"), g("dpdt mb=7 largest"),
                      g("dpdt mb=1 cp"), g("dpdt mb=7 cp")))
}
md <- c(md, "", "Cells: the score, and in brackets the mean number of splits of the tree used.")
writeLines(md, paste0(out, ".md"))
print(summ)
cat("wrote", paste0(out, c(".md", ".csv")), "\n")
