#' Predict with one tree of a dpdt front
#'
#' @param object A `"dpdt"` front of trees: a fit from [dpdt_fit()], or
#'   any object of class `"dpdt"` such as a cross-validation result from
#'   [dpdt_cv()].
#' @param newdata A data frame with the predictors used in the fit (extra
#'   columns are ignored). Missing: the training data (as kept after
#'   `na.action`; with `na.exclude` the result is padded back with NA).
#' @param model Which tree: a row number of `object$front`. The default
#'   `NULL` is the object's default tree, `object$default_model`: for a fit
#'   the tree rpart's default `cp = 0.01` would keep (see [dpdt_fit()]; the
#'   most accurate is `model = nrow(object$front)`), for a [dpdt_cv()]
#'   result the tree chosen by the one-SE rule, for a pruning front the
#'   unpruned tree.
#' @param type `"class"` (classification default), `"prob"` (matrix of
#'   class proportions of the leaf, one column per level), `"response"`
#'   (regression default: the leaf's weighted mean; for classification the
#'   class), or `"node"` (the id of the leaf reached, as printed by
#'   [dpdt_tree()]).
#' @param unseen What a factor level not seen in training does: `"error"`
#'   (the default: an error naming the predictor and the levels) or
#'   `"missing"` (the value is treated as missing, so the row goes down the
#'   side its test sends missing values; rows that meet no test on that
#'   predictor are unaffected).
#' @param ... Not used; anything passed is an error.
#'
#' @details A missing value goes down the side its test learned in the
#'   search; where the node saw no missing value in training, down the child
#'   with the larger training weight (see [dpdt_fit()], `na.action`). A
#'   missing column is an error naming it; a factor level not seen in
#'   training too, unless `unseen = "missing"`.
#' @return A factor (`"class"`), a numeric vector (`"response"` in
#'   regression), a numeric matrix (`"prob"`) or an integer vector
#'   (`"node"`), one element or row per row of `newdata`.
#' @examples
#' fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
#' table(predict(fit), iris$Species)
#' head(predict(fit, iris, type = "prob"))
#' predict(fit, iris[1:3, ], model = 1)
#' @importFrom stats predict
#' @export
predict.dpdt <- function(object, newdata, model = NULL,
                         type = c("class", "prob", "response", "node"),
                         unseen = c("error", "missing"), ...) {
  check_dots(match.call(expand.dots = FALSE)$..., character(0), "predict")
  model <- resolve_model(object, model)
  classif <- object$type == "classification"
  type <- if (missing(type)) if (classif) "class" else "response"
          else check_choice(type, c("class", "prob", "response", "node"), "type")
  if (!classif && type %in% c("class", "prob")) {
    stop_arg("`type = \"", type, "\"` needs a classification fit; this is a ",
             "regression, use type = \"response\" or \"node\".")
  }
  unseen <- check_choice(unseen, c("error", "missing"), "unseen")
  training <- missing(newdata) || is.null(newdata)
  mf <- if (training) object$model_frame else newdata_frame(object, newdata)
  out <- predict_frame(object, mf, model, type, unseen)
  if (training) out <- stats::napredict(object$na.action, out)
  out
}

# Predictions of tree `model` for the rows of model frame `mf`.
predict_frame <- function(object, mf, model, type, unseen = "error") {
  if (!is.null(object$ensemble)) return(ensemble_predictions(object, mf, model, type))
  x <- feature_matrix(mf, object$features, object$xlevels, unseen)
  tree_predictions(object, front_tree(object, model), x, type)
}

# Predictions of one tree (a tree list of `object`) for the engine matrix x.
tree_predictions <- function(object, tree, x, type) {
  node <- cpp_route(x, tree)
  switch(type,
    node = as.integer(node),
    prob = {
      p <- tree$class_weight[node, , drop = FALSE] / tree$weight[node]
      dimnames(p) <- list(NULL, object$levels)
      p
    },
    if (object$type == "classification") {
      factor(object$levels[tree$value[node]], levels = object$levels)
    } else {
      tree$value[node]
    }
  )
}
