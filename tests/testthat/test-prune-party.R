# dpdt_prune() on partykit trees with constant fits.

test_that("ctree trees convert exactly and prune back with nodeprune", {
  skip_if_not_installed("partykit")
  ct <- partykit::ctree(Species ~ ., data = iris,
                        control = partykit::ctree_control(alpha = 0.5, minsplit = 5))
  p <- dpdt_prune(ct)                       # the party's own data
  expect_equal(p$source, "party")
  expect_equal(p$nobs, 150L)
  ni <- length(partykit::nodeids(ct)) - length(partykit::nodeids(ct, terminal = TRUE))
  expect_equal(p$front$n_splits[nrow(p$front)], ni)
  expect_equal(unname(predict(ct, iris)), predict(p, iris))
  for (m in p$front$model) {
    pp <- partykit::as.party(p, model = m)
    expect_s3_class(pp, "party")
    expect_equal(unname(predict(pp, iris)), predict(p, iris, model = m))
    expect_equal(p$front$errors[m], sum(predict(pp, iris) != iris$Species))
  }
})

test_that("party fronts equal brute force; regression with missing values", {
  skip_if_not_installed("partykit")
  aq <- airquality[!is.na(airquality$Ozone), ]
  ct <- partykit::ctree(Ozone ~ ., data = aq,
                        control = partykit::ctree_control(alpha = 0.3, minsplit = 10))
  p <- dpdt_prune(ct, aq, labels = "relabel")
  src <- dpdt:::party_source(ct)
  inp <- or_inputs(p, src$tree)
  skip_if(sum(src$tree$feature > 0) > 8)
  expect_equal(p$front$errors,
               rev(or_replacement(src$tree, inp$x, inp$y, inp$w, inp$K, inp$keep, TRUE)),
               tolerance = 1e-9)
  expect_true(anyNA(aq$Solar.R))             # rows with NA are counted
  for (m in p$front$model) expect_equal(predicted_errors(p, m), p$front$errors[m])
  r <- dpdt_prune(ct, aq, method = "raise")
  expect_equal(r$front$errors,
               rev(or_raising(src$tree, inp$x, inp$y, inp$w, inp$K, inp$keep, FALSE)),
               tolerance = 1e-9)
})

test_that("as.party(rpart) prunes like the rpart tree itself", {
  skip_if_not_installed("partykit")
  skip_if_not_installed("rpart")
  tr <- rpart::rpart(Kyphosis ~ ., data = rpart::kyphosis,
                     control = rpart::rpart.control(cp = 0.01, minsplit = 8, xval = 0))
  a <- dpdt_prune(tr, rpart::kyphosis)
  b <- dpdt_prune(partykit::as.party(tr), rpart::kyphosis)
  expect_equal(a$front$errors, b$front$errors)
  expect_error(as_rpart(b), "returns pruned rpart trees only")
})

test_that("unsupported parties are refused", {
  skip_if_not_installed("partykit")
  ct <- partykit::ctree(Species ~ ., data = iris,
                        control = partykit::ctree_control(alpha = 1e-300))
  expect_error(dpdt_prune(ct), "single leaf")
  pn <- partykit::party(partykit::partynode(1L), data = iris)
  expect_error(dpdt_prune(pn), "without constant fits")
})

test_that("as.party() of a pruning predicts as the pruning does, or refuses", {
  skip_if_not_installed("partykit")
  skip_if_not_installed("rpart")
  tr <- rpart::rpart(type ~ ., MASS::Pima.tr, cp = 0.01)
  # pruned on its own training rows: the party's leaves hold those rows
  own <- dpdt_prune(tr, MASS::Pima.tr)
  for (m in own$front$model) {
    expect_equal(as.character(predict(partykit::as.party(own, model = m), MASS::Pima.te)),
                 as.character(predict(own, MASS::Pima.te, model = m)))
  }
  # kept labels on other rows: a party would predict their majority, which
  # differs on 14 of the 332 rows of the unpruned tree, so it is refused
  other <- dpdt_prune(tr, MASS::Pima.te)
  expect_error(partykit::as.party(other, model = nrow(other$front)),
               "otherwise on 14 of the 332 pruning rows.*labels = \"relabel\"")
  # relabelled leaves predict the pruning rows' majority: converted
  relabelled <- dpdt_prune(tr, MASS::Pima.te, labels = "relabel")
  m <- nrow(relabelled$front)
  expect_equal(as.character(predict(partykit::as.party(relabelled, model = m), MASS::Pima.te)),
               as.character(predict(relabelled, MASS::Pima.te, model = m)))
  # a regression fit pruned on rows it was not fitted on
  set.seed(1)
  i <- sample(nrow(mtcars), 20)
  fit <- dpdt_fit(mpg ~ ., mtcars[i, ], max_depth = 2, min_bucket = 2)
  held_out <- dpdt_prune(fit, mtcars[-i, ])
  expect_error(partykit::as.party(held_out, model = nrow(held_out$front)), "labels = \"keep\"")
})
