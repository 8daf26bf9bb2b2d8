#' A tree as one SQL CASE WHEN expression
#'
#' Writes one tree of a front as a single SQL `CASE WHEN ... END`
#' expression with one `WHEN` per leaf (its rule, as in [dpdt_rules()]), to
#' score rows inside a database: `SELECT <expression> AS pred FROM t`.
#'
#' Columns are named as the model's variables (the columns of the model
#' frame: a term such as `factor(cyl)` is written as a column of that
#' name), quoted with double quotes; quotes inside names and levels are
#' doubled. Thresholds are written exactly (the fewest digits that read back
#' as the threshold itself; a `Date` or `POSIXct` threshold as its number of
#' days or seconds); means and proportions with `digits` significant digits
#' (the default 17 reads back as the same double). Factor tests are `IN (...)` lists of
#' levels (character columns); logical tests use the column as a boolean
#' (`"x"` or `NOT "x"`, for SQL engines where 0/1 or booleans are truth
#' values). A test adds `OR "x" IS NULL` to the side its missing values go
#' to (every split of a dpdt tree has one), so missing values are routed as
#' [predict.dpdt()] routes them. A level the tree never saw in training is
#' in neither side's list, so such a row gets `NULL`, where
#' [predict.dpdt()] gives an error (or, with `unseen = "missing"`, routes it
#' as a missing value).
#'
#' @param x A front of trees (class `"dpdt"`).
#' @param model Which tree: a row of `x$front`; `NULL` is the object's
#'   default tree.
#' @param type What the expression returns: `"response"` (the class label
#'   as a string, or the mean), `"node"` (the leaf id, as
#'   `predict(type = "node")`), or `"prob"` (classification: one
#'   expression per class, the leaf's proportion of that class).
#' @param digits Significant digits of means and proportions; the default
#'   17 round-trips doubles exactly. Thresholds are always exact.
#' @return A string (for `"prob"`, a named character vector, one per class).
#' @seealso [dpdt_rules()].
#' @examples
#' fit <- dpdt_fit(Species ~ ., data = iris, max_depth = 2)
#' cat(dpdt_sql(fit, digits = 6), "\n")
#' dpdt_sql(fit, type = "prob", digits = 4)
#' @export
dpdt_sql <- function(x, model = NULL, type = c("response", "node", "prob"),
                     digits = 17) {
  check_front(x, "x")
  model <- resolve_model(x, model)
  type <- check_choice(type, c("response", "node", "prob"), "type")
  digits <- check_whole(digits, "digits", 1, 17)
  if (type == "prob" && x$type != "classification") {
    stop_arg("`type = \"prob\"` needs a classification front; this is a ",
             "regression, use type = \"response\" or \"node\".")
  }
  tr <- front_tree(x, model)
  paths <- leaf_paths(x, tr)
  leaves <- as.integer(names(paths))
  cond <- vapply(paths, function(p) {
    if (!length(p)) return("1 = 1")
    paste(vapply(p, function(step) sql_condition(step$split, step$side, digits),
                 character(1)), collapse = " AND ")
  }, character(1))
  case <- function(values) {
    paste0("CASE ", paste0("WHEN ", cond, " THEN ", values, collapse = " "),
           " ELSE NULL END")
  }
  num <- function(v) sql_number(v, digits)
  if (type == "node") return(case(leaves))
  if (type == "response") {
    return(case(if (x$type == "classification") sql_string(x$levels[tr$value[leaves]])
                else num(tr$value[leaves])))
  }
  w <- pmax(tr$weight[leaves], .Machine$double.xmin)
  out <- vapply(seq_along(x$levels), function(k) {
    case(num(tr$class_weight[leaves, k] / w))
  }, character(1))
  names(out) <- x$levels
  out
}

# The SQL test sending rows to `side` (1 left, 2 right) of split `s`.
sql_condition <- function(s, side, digits) {
  col <- sql_name(s$variable)
  test <- if (s$kind == "numeric") {
    # the threshold itself, exactly, whatever `digits` (Date and POSIXct
    # columns compare as their numbers of days or seconds)
    tt <- if (s$class %in% c("Date", "POSIXct")) list(ops = c("<=", ">"), value = exact_number(s$threshold))
          else threshold_text(s)
    paste(col, tt$ops[side], tt$value)
  } else if (s$class == "logical") {
    c(paste("NOT", col), col)[side]
  } else {
    lev <- if (side == 1L) s$left_levels else s$right_levels
    paste0(col, " IN (", paste(sql_string(lev), collapse = ", "), ")")
  }
  na_here <- !is.na(s$na_left) && (s$na_left == (side == 1L))
  if (na_here) paste0("(", test, " OR ", col, " IS NULL)") else test
}

sql_name <- function(v) paste0("\"", gsub("\"", "\"\"", v, fixed = TRUE), "\"")
sql_string <- function(s) paste0("'", gsub("'", "''", s, fixed = TRUE), "'")
# Numbers with `digits` significant digits; from 15 up, the fewest digits
# (15, 16 or 17) that read back as the same double.
sql_number <- function(v, digits) {
  out <- sprintf(paste0("%.", digits, "g"), v)
  if (digits <= 15) return(out)
  for (d in (digits - 1):15) {
    try <- sprintf(paste0("%.", d, "g"), v)
    ok <- as.numeric(try) == v
    out[ok] <- try[ok]
  }
  out
}
