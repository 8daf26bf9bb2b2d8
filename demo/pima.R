## dpdt demo: the whole accuracy/complexity front of depth-3 trees, in one fit.
##
## Data (package MASS, shipped with R): diabetes (`type`: No / Yes) among
## Pima women, seven clinical predictors. Pima.tr (200 women) is used to fit,
## Pima.te (332 women) to judge the trees on data they have not seen.
##
## Run it with  demo("pima", package = "dpdt")  or  bash tools/demo.sh

library(dpdt)
if (!requireNamespace("MASS", quietly = TRUE))
  stop("this demo needs the recommended package MASS")
train <- MASS::Pima.tr
test  <- MASS::Pima.te

rule <- function(title) cat("\n", strrep("=", 72), "\n== ", title, "\n",
                            strrep("=", 72), "\n", sep = "")

rule("Fit: dpdt_fit(type ~ ., data = MASS::Pima.tr, max_depth = 3)")
timing <- system.time(
  fit <- dpdt_fit(type ~ ., data = train, max_depth = 3)
)
print(fit)

front <- as.data.frame(fit)
writeLines(c(
  "",
  "One row per tree that no other tree beats on both training error and complexity.",
  "model 1 is the single leaf; the last row, the most accurate tree, is the default",
  "of predict() and dpdt_tree().",
  "avg_tests  = mean number of questions a woman is asked before she is classified",
  "train_loss = training misclassification rate (rel_error: relative to the leaf)",
  "alpha_min, alpha_max = the penalties alpha for which the tree minimises",
  "             train_loss + alpha * avg_tests; NA: off the convex hull"))

rule("The default tree (most accurate on the training data), as rules")
print(dpdt_tree(fit))

rule("Accuracy on the held-out women (MASS::Pima.te) for every tree")
test_acc <- vapply(front$model, function(m)
  mean(predict(fit, newdata = test, model = m) == test$type), numeric(1))
menu <- data.frame(model     = front$model,
                   n_splits  = front$n_splits,
                   avg_tests = round(front$avg_tests, 2),
                   train_acc = round(1 - front$train_loss, 3),
                   test_acc  = round(test_acc, 3))
print(menu, row.names = FALSE)
best <- front$model[which.max(test_acc)]   # first maximum = simplest such tree
cat(sprintf("\nHighest test accuracy: %.3f, by model %d (%d splits, %.2f tests on average).\n",
            max(test_acc), best, front$n_splits[best], front$avg_tests[best]))
if (best != nrow(front)) {
  cat("Its rules:\n")
  print(dpdt_tree(fit, model = best))
}

if (requireNamespace("rpart", quietly = TRUE)) {
  rule("For comparison: greedy CART (rpart) grown to depth 3, no pruning")
  rp <- rpart::rpart(type ~ ., data = train, method = "class",
                     parms = list(split = "information"),
                     control = rpart::rpart.control(maxdepth = 3, cp = 0,
                                                    minsplit = 2, minbucket = 1,
                                                    xval = 0))
  rp_train <- mean(predict(rp, train, type = "class") == train$type)
  rp_test  <- mean(predict(rp, test,  type = "class") == test$type)
  cat(sprintf("rpart depth 3: %d splits, train accuracy %.3f, test accuracy %.3f\n",
              sum(rp$frame$var != "<leaf>"), rp_train, rp_test))
  cat(sprintf("dpdt  depth 3: %d splits, train accuracy %.3f, test accuracy %.3f (default tree)\n",
              front$n_splits[nrow(front)], 1 - front$train_loss[nrow(front)],
              test_acc[nrow(front)]))
}

rule("Timing")
cat(sprintf("dpdt_fit(): %.3f s elapsed (search engine %.3f s, %s search states, %d thread(s))\n",
            timing[["elapsed"]], fit$seconds, format(fit$n_states, big.mark = ","),
            as.integer(fit$control$threads)))
