# The test at an internal node, described in terms of the original
# variable: the one place that reads a tree's split fields. Rules, printed
# trees, plots, SQL, partykit conversion and tidiers all go through
# node_split(), so a new kind of test is taught to them here once.

# Split of internal node `i` of `tree` (a tree list of a front object whose
# feature table and training levels are `features`, `xlevels`). Returns a
# list: `variable`; `kind`, "numeric" (x <= threshold goes left) or
# "categorical" (a group of levels goes left); `threshold` (numeric tests;
# for dates and times a number of days / seconds, printed as such);
# `left_levels`, `right_levels` (categorical tests, character); `na_left`
# (TRUE, FALSE, or NA: no side known, missing values stop there);
# `na_learned`, TRUE where that side was learned from training rows with a
# missing value (only then do printed rules say "or NA"; elsewhere it is
# the default, the heavier child);
# `class`, the variable's class in training ("numeric", "factor",
# "ordered", "logical", "categorical", "Date", "POSIXct"); `tz`, the time
# zone of a POSIXct variable (else NULL).
node_split <- function(tree, i, features, xlevels) {
  f <- features[tree$feature[i], ]
  v <- f$variable
  na_left <- if (is.null(tree$na_left)) NA else tree$na_left[i]
  # converted trees carry no na_learned: their known sides are their rules
  na_learned <- if (is.null(tree$na_learned)) !is.na(na_left)
                else isTRUE(tree$na_learned[i])
  codes <- if (is.null(tree$levels_left)) NULL else tree$levels_left[[i]]
  out <- list(variable = v, kind = "numeric", threshold = tree$threshold[i],
              left_levels = NULL, right_levels = NULL, na_left = na_left,
              na_learned = na_learned,
              class = f$kind)
  categorical <- function(left) {
    lev <- xlevels[[v]]
    out$kind <- "categorical"
    out$threshold <- NA_real_
    out$left_levels <- lev[left]
    out$right_levels <- lev[!left]
    out
  }
  switch(f$kind,
    numeric = out,
    Date = out,
    POSIXct = {
      out$tz <- f$level
      out
    },
    logical = {
      out$kind <- "categorical"
      out$threshold <- NA_real_
      out$left_levels <- "FALSE"
      out$right_levels <- "TRUE"
      out
    },
    ordered = {
      lev <- xlevels[[v]]
      k <- min(max(0L, floor(tree$threshold[i])), length(lev))
      categorical(seq_along(lev) <= k)
    },
    categorical = categorical(seq_along(xlevels[[v]]) %in% codes),
    # a 0/1 indicator of one level: x <= 0.5 (the other levels) goes left
    factor = if (is.null(codes)) categorical(xlevels[[v]] != f$level)
             else categorical(seq_along(xlevels[[v]]) %in% codes),
    stop("unknown feature kind ", f$kind)
  )
}

# Text of the left and right branch of a split, as printed rules read them:
# `x <= 2.5` / `x > 2.5`, `g = u` / `g != u` when one side is one level,
# `g in {a, b}` otherwise (the side of more than three levels, if larger,
# as `g not in {c, d}`), `o <= lev` / `o > lev` for ordered factors; the
# side that takes missing values says `or NA`. Thresholds are written
# exactly (threshold_text()), so no value can fall between a label and the
# test; `digits` is kept for the callers' other numbers.
split_labels <- function(s, digits = 6) {
  v <- s$variable
  lab <- if (s$kind == "numeric") {
    tt <- threshold_text(s)
    paste(v, tt$ops, tt$value)
  } else if (s$class == "ordered") {
    c(paste(v, "<=", s$left_levels[length(s$left_levels)]),
      paste(v, ">", s$left_levels[length(s$left_levels)]))
  } else {
    level_set_labels(v, s$left_levels, s$right_levels)
  }
  if (isTRUE(s$na_learned) && !is.na(s$na_left)) {
    side <- if (s$na_left) 1L else 2L
    lab[side] <- paste(lab[side], "or NA")
  }
  lab
}

# A numeric test as text: the operators of its two sides and the value.
# Numbers: the shortest decimal that reads back as the threshold itself
# (fits choose thresholds with few digits); a threshold whose next double
# above needs fewer digits (rpart's `x < c` becomes our `x <= the double
# below c`) reads `x < c` / `x >= c`. Dates
# and times: the threshold lies between two training values, and `d <= t`
# holds for the dates (whole seconds) up to floor(t), which is printed.
threshold_text <- function(s) {
  t <- s$threshold
  if (s$class %in% c("Date", "POSIXct")) {
    value <- if (s$class == "Date") format(as.Date(floor(t), origin = "1970-01-01"))
             else format(as.POSIXct(floor(t), origin = "1970-01-01",
                                    tz = if (is.null(s$tz)) "" else s$tz))
    return(list(ops = c("<=", ">"), value = value))
  }
  own <- exact_number(t)
  if (attr(own, "digits") > 3) {
    above <- exact_number(cpp_double_next(t, TRUE))
    if (attr(above, "digits") < attr(own, "digits"))
      return(list(ops = c("<", ">="), value = c(above)))
  }
  list(ops = c("<=", ">"), value = c(own))
}

# A summary number (a loss in a title) for reading: 3 significant digits,
# thousands separated (10,400,000), scientific beyond 1e9 and below 1e-4.
readable_number <- function(x, digits = 3) {
  if (!is.finite(x) || x == 0) return(format(x))
  if (abs(x) >= 1e9 || abs(x) < 1e-4) return(formatC(x, digits = digits, format = "g"))
  formatC(signif(x, digits), digits = digits, format = "fg", big.mark = ",")
}

# The shortest text of `digits` significant digits (1 to 17) that reads back
# as exactly x; attribute "digits": how many it took.
exact_number <- function(x) {
  if (!is.finite(x)) return(structure(format(x), digits = 1L))
  for (d in 1:17) {
    txt <- format(x, digits = d, scientific = abs(x) >= 1e15 || (x != 0 && abs(x) < 1e-5))
    if (as.numeric(txt) == x) return(structure(txt, digits = d))
  }
  structure(sprintf("%.17g", x), digits = 17L)
}

level_set_labels <- function(v, left, right) {
  one <- function(lev) paste(v, "=", lev)
  set <- function(lev) paste0(v, " in {", paste(lev, collapse = ", "), "}")
  if (length(right) == 1) return(c(if (length(left) == 1) one(left)
                                   else paste(v, "!=", right), one(right)))
  if (length(left) == 1) return(c(one(left), paste(v, "!=", left)))
  # the larger side reads as "not in" the smaller one
  if (length(right) > 3 && length(right) > length(left))
    return(c(set(left), paste0(v, " not in {", paste(left, collapse = ", "), "}")))
  if (length(left) > 3 && length(left) > length(right))
    return(c(paste0(v, " not in {", paste(right, collapse = ", "), "}"), set(right)))
  c(set(left), set(right))
}
