## dpdt demo: the front of depth-3 trees, a tree chosen by cross-validation
## on the training data, and its accuracy on women it has never seen, next
## to rpart's own cross-validated choices.
##
## Data (package MASS, shipped with R): diabetes (`type`: No / Yes) among
## Pima women, seven clinical predictors. Pima.tr (200 women) is used to fit
## AND to choose the tree (10-fold cross-validation); Pima.te (332 women) is
## touched once, at the end, to report the chosen trees' accuracy.
##
## Run it with  demo("pima", package = "dpdt")  or  bash tools/demo.sh

library(dpdt)
for (p in c("MASS", "rpart"))
  if (!requireNamespace(p, quietly = TRUE))
    stop("this demo needs the recommended package ", p)
train <- MASS::Pima.tr
test  <- MASS::Pima.te

rule <- function(title) cat("\n", strrep("=", 72), "\n== ", title, "\n",
                            strrep("=", 72), "\n", sep = "")

rule("Fit: dpdt_fit(type ~ ., data = MASS::Pima.tr, max_depth = 3)")
fit_time <- system.time(
  fit <- dpdt_fit(type ~ ., data = train, max_depth = 3)
)
print(fit)
writeLines(c(
  "",
  "One row per tree that no other tree beats on both training error and complexity.",
  "avg_tests  = mean number of questions a woman is asked before she is classified",
  "train_loss = training misclassification rate (rel_error: relative to the leaf)",
  "alpha_min, alpha_max = the penalties alpha for which the tree minimises",
  "             train_loss + alpha * avg_tests; NA: off the convex hull",
  "The training error always prefers the largest tree: it cannot choose.",
  "Without model =, predict() uses the tree rpart's default cp = 0.01 keeps;",
  "cross-validation below chooses on the data instead."))

rule("Choose by 10-fold cross-validation on the training women only")
set.seed(2024)
cv_time <- system.time(cv <- dpdt_cv(fit, folds = 10))
print(cv)
writeLines(c(
  "",
  "Each fold refits the search on 9/10 of Pima.tr and scores, on the 10th, the",
  "fold's best tree within each tree's complexity budget (cv_loss, every tree)",
  "or at each hull tree's penalty alpha (cv_loss_alpha, as rpart's xerror).",
  "cv_se: standard error across folds. 'min': least CV error; '1se': the",
  "simplest tree within one standard error of it (the default of predict())."))

rule("The one-SE tree, as rules")
print(dpdt_tree(cv))

rule("rpart's own choices, by its cross-validation (xval = 10) on Pima.tr")
# rpart grown to the same depth and leaf size limits, and rpart as most
# users run it (its defaults: cp = 0.01, minsplit = 20, any depth); each
# pruned at the xerror minimum and by the one-SE rule.
rpart_choices <- function(rp) {
  cpt <- rp$cptable
  imin <- which.min(cpt[, "xerror"])
  i1se <- which(cpt[, "xerror"] <= cpt[imin, "xerror"] + cpt[imin, "xstd"])[1]
  list(min = rpart::prune(rp, cp = cpt[imin, "CP"]),
       `1se` = rpart::prune(rp, cp = cpt[i1se, "CP"]))
}
set.seed(2024)
rp_time <- system.time(
  rp3 <- rpart::rpart(type ~ ., data = train, method = "class",
                      parms = list(split = "information"),
                      control = rpart::rpart.control(maxdepth = 3, cp = 0,
                                                     minsplit = 10, minbucket = 5))
)
set.seed(2024)
rpd <- rpart::rpart(type ~ ., data = train, method = "class")
cat("rpart, depth <= 3, cp = 0, minbucket = 5 (the same limits as dpdt's defaults):\n")
rpart::printcp(rp3)
cat("\nrpart with its defaults:\n")
rpart::printcp(rpd)

rule("Accuracy on the 332 held-out women (MASS::Pima.te), touched only now")
pick3 <- rpart_choices(rp3)
pickd <- rpart_choices(rpd)
pred <- list(
  "dpdt, CV minimum"            = predict(cv, test, model = cv$model_min),
  "dpdt, CV one-SE"             = predict(cv, test, model = cv$model_1se),
  "rpart depth 3, xerror min"   = predict(pick3$min, test, type = "class"),
  "rpart depth 3, one-SE"       = predict(pick3$`1se`, test, type = "class"),
  "rpart default, xerror min"   = predict(pickd$min, test, type = "class"),
  "rpart default, one-SE"       = predict(pickd$`1se`, test, type = "class"))
n_splits <- c(cv$front$n_splits[c(cv$model_min, cv$model_1se)],
              vapply(c(pick3, pickd), function(r) sum(r$frame$var != "<leaf>"),
                     numeric(1)))
acc <- vapply(pred, function(p) mean(p == test$type), numeric(1))
print(data.frame(choice = names(pred), n_splits = n_splits,
                 test_accuracy = round(acc, 3)), row.names = FALSE)

# Paired comparison on the same women: difference in accuracy and its
# standard error (from the rows where exactly one of the two is right).
compare <- function(a, b) {
  ra <- pred[[a]] == test$type
  rb <- pred[[b]] == test$type
  n <- length(ra)
  d <- mean(ra) - mean(rb)
  se <- sqrt(sum(ra != rb) - n * d^2) / n
  verdict <- if (abs(d) < 1e-12) "a tie"
             else if (abs(d) <= 2 * se) "within two standard errors: no clear winner"
             else if (d > 0) paste(a, "is better")
             else paste(b, "is better")
  cat(sprintf("%-26s vs %-26s: %+5.1f points (paired se %.1f) -> %s\n",
              a, b, 100 * d, 100 * se, verdict))
}
cat("\n")
compare("dpdt, CV minimum", "rpart depth 3, xerror min")
compare("dpdt, CV one-SE", "rpart depth 3, one-SE")
compare("dpdt, CV minimum", "rpart default, xerror min")
compare("dpdt, CV one-SE", "rpart default, one-SE")
writeLines(c(
  "",
  "A test accuracy on 332 women has a standard error of about 2.4 points, so",
  "differences of a point or two are noise. Every tree above was chosen",
  "without looking at Pima.te."))

rule("The choice depends on the random folds: ten fold draws")
draws <- t(vapply(1:10, function(s) {
  set.seed(s)
  cvs <- dpdt_cv(fit, folds = 10)
  set.seed(s)
  r <- rpart_choices(rpart::rpart(type ~ ., data = train, method = "class",
                                  parms = list(split = "information"),
                                  control = rpart::rpart.control(
                                    maxdepth = 3, cp = 0, minsplit = 10,
                                    minbucket = 5)))
  a <- function(p) mean(p == test$type)
  c(dpdt_min = a(predict(cvs, test, model = cvs$model_min)),
    dpdt_1se = a(predict(cvs, test)),
    rpart3_min = a(predict(r$min, test, type = "class")),
    rpart3_1se = a(predict(r$`1se`, test, type = "class")))
}, numeric(4)))
print(round(rbind(draws, mean = colMeans(draws)), 3))
m <- colMeans(draws)
cat(sprintf(paste0("\nMean test accuracy over the ten draws: dpdt %.3f (min) / %.3f (one-SE), ",
                   "rpart depth 3 %.3f / %.3f.\n%s\n"),
            m[1], m[2], m[3], m[4],
            if (max(abs(m[1:2] - m[3:4])) < 0.024)
              "Within a standard error of each other: on this problem neither method wins clearly."
            else if (all(m[1:2] > m[3:4])) "dpdt's choices do better on average."
            else if (all(m[1:2] < m[3:4])) "rpart's choices do better on average."
            else "Mixed: each method wins with one of the two rules."))

rule("Timing")
cat(sprintf(paste0("dpdt_fit(): %.2f s; dpdt_cv(), 10 folds, sequential plan, ",
                   "one thread per fold: %.2f s\n",
                   "rpart with its 10-fold cross-validation: %.2f s\n"),
            fit_time[["elapsed"]], cv_time[["elapsed"]], rp_time[["elapsed"]]))
cat("Set a future plan, e.g. future::plan(future::multisession), to run the folds in parallel.\n")
