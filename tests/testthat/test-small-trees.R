# The best small trees (issue 18): every state also proposes its own best
# split for the training loss, so the front's best tree of at most k splits
# is never worse than rpart's pruned tree of k splits at the same depth and
# leaf size, rpart growing with either split criterion.

small_tree_sets <- function() {
  list(
    kyphosis = list(Kyphosis ~ ., rpart::kyphosis),
    pima = list(type ~ ., MASS::Pima.tr),
    iris = list(Species ~ ., iris),
    fgl = list(type ~ ., MASS::fgl),
    crabs = list(sp ~ . - index, MASS::crabs),
    birthwt = list(low ~ . - bwt, transform(MASS::birthwt, low = factor(low), race = factor(race))),
    biopsy = list(class ~ . - ID, MASS::biopsy),
    cars93 = list(Type ~ Price + MPG.city + EngineSize + Horsepower + Origin + DriveTrain +
                    Passengers + Weight, MASS::Cars93),
    cu = list(Reliability ~ Price + Country + Mileage + Type, rpart::cu.summary),
    car90 = list(Type ~ Price + Disp + HP + Tank + Weight + Country, rpart::car90))
}

test_that("one-split trees on the front are the best stumps", {
  for (cs in small_tree_sets()) {
    f3 <- suppressWarnings(suppressMessages(dpdt_fit(cs[[1]], cs[[2]], max_depth = 3,
                                                     complexity = "splits")))
    stump <- suppressWarnings(suppressMessages(dpdt_fit(cs[[1]], cs[[2]], max_depth = 1,
                                                        complexity = "splits")))
    expect_equal(f3$front$train_loss[f3$front$n_splits == 1],
                 stump$front$train_loss[stump$front$n_splits == 1], tolerance = 1e-12,
                 info = deparse(cs[[1]]))
  }
  # the case of the issue: kyphosis, depth 3, default settings
  k <- dpdt_fit(Kyphosis ~ ., rpart::kyphosis, max_depth = 3, min_bucket = 1)
  expect_equal(k$front$train_loss[k$front$n_splits == 1], 14 / 81)
})

test_that("the best tree of k splits is never worse than rpart's (depth 3, both criteria)", {
  skip_if_not_installed("rpart")
  skip_if_not_installed("MASS")
  for (nm in names(small_tree_sets())) {
    cs <- small_tree_sets()[[nm]]
    y <- stats::model.response(stats::model.frame(cs[[1]], cs[[2]], na.action = stats::na.pass))
    keep <- !is.na(y)
    for (mb in c(1, 7)) {
      fit <- suppressWarnings(suppressMessages(dpdt_fit(cs[[1]], cs[[2]], max_depth = 3,
                                                        complexity = "splits", min_bucket = mb)))
      for (split in c("gini", "information")) {
        r <- rpart::rpart(cs[[1]], cs[[2]], method = "class", parms = list(split = split),
                          control = rpart::rpart.control(cp = 0, minsplit = 2 * mb, minbucket = mb,
                                                         maxdepth = 3, xval = 0, maxcompete = 0,
                                                         maxsurrogate = 0))
        cpt <- r$cptable
        for (i in seq_len(nrow(cpt))) {
          k <- cpt[i, "nsplit"]
          pr <- rpart::prune(r, cp = cpt[i, "CP"] * (1 + 1e-9))
          lr <- mean(as.character(predict(pr, cs[[2]], type = "class"))[keep] !=
                       as.character(y)[keep])
          ld <- min(fit$front$train_loss[fit$front$n_splits <= k])
          expect_lte(ld, lr + 1e-12, label = sprintf("%s, min_bucket %d, %s, %d splits: dpdt",
                                                     nm, mb, split, k))
        }
      }
    }
  }
})
