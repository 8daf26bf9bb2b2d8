# Random cases for the R-level fuzzer: a data frame and an argument set for
# dpdt_fit(), drawn from (seed, id) alone, so that any case is rebuilt
# exactly from those two numbers (`Rscript tools/fuzz/run.R --seed S
# --case ID`). Sourced by run.R; base R only.
#
# A case is a list:
#   id, seed       what it was drawn from
#   data           the data frame
#   formula        the formula, as text
#   weights        NULL, a numeric vector (passed as `.w`), or the name of a
#                  column of `data` (passed as that column)
#   subset         NULL, a logical vector (passed as `.s`), or the text of an
#                  expression evaluated in `data`
#   args           the other arguments of dpdt_fit() (max_depth, ...)
#   expect_error   NULL, or why the case must be refused (an invalid input)
#   tags           what the case exercises; tags in fz_magnitude_tags mark
#                  extreme magnitudes (defects 1, 2 and 4 of issue 9)

fz_magnitude_tags <- c("extreme_y", "far_clusters", "extreme_w", "wide_w")

fz_case_seed <- function(seed, id) {
  as.integer((as.numeric(seed) * 1000003 + as.numeric(id)) %% 2147483647)
}

# One element of x (a vector or list), with probabilities prob.
fz_pick <- function(x, prob = NULL) x[[sample.int(length(x), 1L, prob = prob)]]
fz_coin <- function(p) stats::runif(1) < p

fz_generate <- function(seed, id) {
  RNGkind("Mersenne-Twister", "Inversion", "Rejection")
  set.seed(fz_case_seed(seed, id))
  tags <- character(0)
  tag <- function(...) tags <<- union(tags, c(...))

  # ---- size ---------------------------------------------------------------
  n <- switch(fz_pick(c("tiny", "small", "medium", "large"), c(.15, .45, .33, .07)),
    tiny = sample.int(5L, 1L),
    small = sample(6:40, 1L),
    medium = sample(41:300, 1L),
    large = sample(301:1500, 1L))
  if (n <= 5) tag("tiny_n")
  p <- fz_pick(1:6, c(.2, .25, .22, .15, .1, .08))

  # ---- predictors ---------------------------------------------------------
  kinds <- c("num", "num_ties", "int", "binary", "const", "factor", "char",
             "logical", "ordered", "num_extreme", "num_offset", "char_many")
  kind_prob <- c(.22, .14, .1, .06, .05, .12, .07, .06, .07, .04, .07, .04)
  x <- list()
  x_kind <- character(p)
  for (j in seq_len(p)) {
    k <- fz_pick(kinds, kind_prob)
    x_kind[j] <- k
    x[[j]] <- fz_predictor(k, n, tag)
  }
  names(x) <- paste0("x", seq_len(p))
  if (fz_coin(.05)) {  # names that need backquotes in a formula
    names(x)[1] <- fz_pick(c("my x", "x-1", "1x", "x.y z"))
    tag("odd_names")
  }

  # ---- response -----------------------------------------------------------
  signal <- fz_signal(x, n)
  regression <- fz_coin(.45)
  y <- if (regression) fz_response_reg(signal, n, tag) else fz_response_class(signal, n, tag)
  data <- as.data.frame(x, stringsAsFactors = FALSE, optional = TRUE)
  if (p == 0 || ncol(data) != p) stop("generator: bad predictor list")
  names(data) <- names(x)
  data$y <- y

  # ---- missing values -----------------------------------------------------
  if (fz_coin(.25)) {
    tag("na")
    for (j in sample.int(p, sample.int(p, 1L))) {
      rate <- fz_pick(c(.02, .1, .3, .9, 1), c(.3, .3, .2, .15, .05))
      data[[j]][stats::runif(n) < rate] <- NA
    }
    if (fz_coin(.2)) data$y[stats::runif(n) < .05] <- NA
  }

  # ---- arguments ----------------------------------------------------------
  args <- list()
  n_feat <- sum(vapply(data[names(x)], function(v) {
    if (is.factor(v) && !is.ordered(v) || is.character(v)) max(1L, length(unique(v)))
    else 1L
  }, 1L))
  depth <- fz_pick(1:5, c(.2, .35, .3, .12, .03))
  if (depth == 5 && n > 80) depth <- 3L
  if (depth == 4 && n > 400) depth <- 3L
  exhaustive <- fz_coin(.25)
  if (exhaustive) {
    # keep the exhaustive search small: a case must take well under a second
    budget <- c(Inf, 3000, 150, 40, 15)[depth]
    if (n * n_feat > budget) {
      depth <- if (n * n_feat <= 150) 3L else if (n * n_feat <= 3000) 2L else 1L
    }
    args$candidates <- "exhaustive"
  } else if (fz_coin(.5)) {
    args$candidates <- "cart"
  }
  args$max_depth <- depth
  if (!exhaustive || fz_coin(.3)) {
    args$cart_depth <- if (fz_coin(.7)) sample.int(5L, 1L)
                       else sample.int(4L, sample(2:3, 1L), replace = TRUE)
    if (n > 300 && depth >= 3) args$cart_depth <- pmin(args$cart_depth, 3L)
  }
  if (fz_coin(.85)) args$complexity <- fz_pick(c("tests", "splits"))
  if (fz_coin(.7)) args$criterion <- fz_pick(c("entropy", "gini"))
  args$min_bucket <- switch(fz_pick(c("one", "few", "some", "above_n", "huge"),
                                    c(.5, .3, .15, .03, .02)),
    one = 1, few = sample(2:5, 1L), some = sample.int(max(1L, n %/% 2), 1L),
    above_n = n + sample.int(5L, 1L), huge = fz_pick(c(2^30, 2^31 - 1)))
  args$threads <- fz_pick(c(1L, 2L))
  if (fz_coin(.12)) { args$max_bins <- fz_pick(c(2, 3, 5, 16, 255)); tag("max_bins") }
  na <- fz_pick(c("default", "na.omit", "na.exclude", "na.fail"), c(.4, .25, .25, .1))
  if (na != "default") args$na.action <- na
  if (fz_coin(.03)) { args$max_memory <- fz_pick(c(1e-4, 1e-3)); tag("small_memory") }
  if (fz_coin(.03)) args$progress <- TRUE

  # ---- weights ------------------------------------------------------------
  weights <- NULL
  expect_error <- NULL
  wmode <- fz_pick(c("none", "whole", "frac", "zeros", "scaled", "extreme", "wide",
                     "all_zero", "invalid"),
                   c(.42, .14, .1, .12, .08, .05, .05, .01, .03))
  if (wmode != "none") tag(paste0("w_", wmode))
  w <- switch(wmode,
    none = NULL,
    whole = as.numeric(sample.int(5L, n, replace = TRUE)),
    frac = stats::runif(n, .05, 3),
    zeros = sample(c(0, 0, 1, 2, 3), n, replace = TRUE),
    scaled = stats::runif(n, .5, 2) * 10^stats::runif(1, -8, 8),
    extreme = {
      tag("extreme_w")
      stats::runif(n, .5, 2) * 10^fz_pick(c(-300, -250, -200, -20, 20, 155, 160, 200, 306))
    },
    wide = { tag("wide_w"); 10^stats::runif(n, -6, 6) },
    all_zero = { expect_error <- "all weights are zero"; rep(0, n) },
    invalid = {
      v <- switch(fz_pick(c("neg", "na", "len", "chr", "inf")),
        neg = { v <- rep(1, n); v[sample.int(n, 1L)] <- -1; v },
        na = { v <- rep(1, n); v[sample.int(n, 1L)] <- NA; v },
        len = rep(1, n + 1L),
        chr = rep("1", n),
        inf = { v <- rep(1, n); v[sample.int(n, 1L)] <- Inf; v })
      expect_error <- "invalid weights"
      v
    })
  if (!is.null(w)) {
    if (fz_coin(.3) && length(w) == n) {
      data$wt <- w
      weights <- "wt"
    } else {
      weights <- w
    }
  }

  # ---- subset -------------------------------------------------------------
  subset <- NULL
  r <- stats::runif(1)
  if (r < .12) {
    subset <- stats::runif(n) < fz_pick(c(.3, .7, .95))
    tag("subset")
  } else if (r < .18) {
    num <- names(x)[vapply(data[names(x)], is.numeric, TRUE)]
    if (length(num)) {
      v <- fz_pick(num)
      q <- stats::quantile(data[[v]], fz_pick(c(.2, .5, .8)), na.rm = TRUE, names = FALSE)
      if (is.finite(q)) {
        subset <- sprintf("%s > %s", fz_backquote(v), format(q, digits = 17))
        tag("subset")
      }
    }
  }

  # ---- formula ------------------------------------------------------------
  preds <- names(x)
  fmode <- fz_pick(c("dot", "some", "transform"), c(.6, .3, .1))
  rhs <- switch(fmode,
    dot = ".",
    some = paste(fz_backquote(sample(preds, sample.int(p, 1L))), collapse = " + "),
    transform = {
      j <- sample.int(p, 1L)
      v <- fz_backquote(preds[j])
      t <- if (is.numeric(data[[j]])) {
        fz_pick(c(sprintf("factor(%s)", v), sprintf("I(%s * 2)", v),
                  sprintf("log1p(abs(%s))", v)))
      } else {
        v
      }
      paste(c(t, fz_backquote(preds[-j])), collapse = " + ")
    })
  formula <- paste("y ~", rhs)

  # ---- test costs (complexity "cost", front column avg_cost) ---------------
  if (fmode == "dot" && fz_coin(.12)) {
    v <- sample(preds, sample.int(p, 1L))
    args$test_cost <- stats::setNames(sample(c(0, 0.3, 1, 2.5, 10), length(v), replace = TRUE), v)
    args$complexity <- if (fz_coin(.5)) "cost"  # NULL: implied by test_cost
    tag("test_cost")
  }

  # ---- misclassification costs and priors ---------------------------------
  if (!regression) {
    K <- if (is.factor(y)) nlevels(y) else length(unique(y[!is.na(y)]))
    if (is.logical(y)) K <- 2L
    if (K >= 2 && fz_coin(.1)) {
      L <- matrix(sample(c(0.5, 1, 2, 5), K * K, replace = TRUE), K)
      diag(L) <- 0
      args$loss_matrix <- L
      tag("loss_matrix")
    }
    if (K >= 2 && fz_coin(.08)) {
      pr <- stats::runif(K, .2, 1)
      args$prior <- pr / sum(pr)
      tag("prior")
    }
  }

  # ---- now and then, an input that must be refused ------------------------
  if (is.null(expect_error) && fz_coin(.05)) {
    bad <- fz_pick(c("max_depth", "cart_depth", "min_bucket", "criterion",
                     "candidates", "complexity", "threads", "dots", "interaction",
                     "no_column", "list_column", "data_matrix", "max_memory", "max_bins"))
    expect_error <- bad
    switch(bad,
      max_depth = args$max_depth <- fz_pick(list(0, 21, 1.5, NA, "3", c(2, 3), -1)),
      cart_depth = args$cart_depth <- fz_pick(list(0, c(2, NA), 2.5, 21, numeric(0))),
      min_bucket = args$min_bucket <- fz_pick(list(0, -1, 0.5, NA, Inf)),
      criterion = args$criterion <- fz_pick(list("foo", NA_character_, 1)),
      candidates = args$candidates <- fz_pick(list("all", c("cart", "x"))),
      complexity = args$complexity <- fz_pick(list("leaves", NA_character_)),
      threads = args$threads <- fz_pick(list(0, 1025, 1.5, "two")),
      dots = args$max_dept <- 3,
      interaction = formula <- paste("y ~", paste(fz_backquote(preds), collapse = " * "),
                                     if (p == 1) "* x_missing_too" else ""),
      no_column = formula <- paste(formula, "+ not_a_column"),
      list_column = { data$x1 <- I(as.list(seq_len(n))); formula <- "y ~ x1" },
      data_matrix = tag("data_matrix"),
      max_memory = args$max_memory <- fz_pick(list(0, -1, Inf, "1")),
      max_bins = args$max_bins <- fz_pick(list(1, 0, 2.5, NA, "16", c(4, 8), -Inf)))
    tag("invalid")
  }

  list(id = id, seed = seed, data = data, formula = formula, weights = weights,
       subset = subset, args = args, expect_error = expect_error, tags = tags,
       x_kind = x_kind)
}

fz_backquote <- function(v) ifelse(make.names(v) == v, v, paste0("`", v, "`"))

fz_predictor <- function(kind, n, tag) {
  lev <- function(k) c("a", "b", "c", "d", "e", "f", "g", "h")[seq_len(k)]
  switch(kind,
    num = stats::rnorm(n) * 10^stats::runif(1, -3, 3),
    num_ties = sample(round(stats::rnorm(sample(2:6, 1L)), 1), n, replace = TRUE),
    int = sample.int(sample(2:10, 1L), n, replace = TRUE),
    binary = sample(0:1, n, replace = TRUE),
    const = fz_pick(list(rep(stats::rnorm(1), n), rep("k", n),
                         factor(rep("u", n), levels = c("u", "v")))),
    factor = {
      k <- sample(2:6, 1L)
      extra <- fz_pick(0:2)  # empty levels
      factor(sample(lev(k), n, replace = TRUE), levels = lev(k + extra))
    },
    char = sample(fz_pick(list(c("u", "v"), c("u", "v", "w"), c("p q", "r-s", "t"))),
                  n, replace = TRUE),
    logical = sample(c(TRUE, FALSE), n, replace = TRUE, prob = c(stats::runif(1), .5)),
    ordered = {
      k <- sample(2:6, 1L)
      factor(sample(lev(k), n, replace = TRUE), levels = rev(lev(k + fz_pick(0:1))),
             ordered = TRUE)
    },
    num_extreme = {
      tag("extreme_x")
      switch(fz_pick(c("huge", "tiny", "denormal", "edges")),
        huge = sample(c(-1, 1), n, replace = TRUE) * 10^stats::runif(n, 290, 308),
        tiny = 10^stats::runif(n, -320, -290),
        denormal = sample(c(0, 5e-324, 1e-323, -5e-324, 2.5e-323), n, replace = TRUE),
        edges = sample(c(-.Machine$double.xmax, .Machine$double.xmax, 0, 1),
                       n, replace = TRUE))
    },
    num_offset = 1e9 + stats::rnorm(n),  # big offset, unit spread
    char_many = {  # more levels than the exhaustive search enumerates
      tag("many_levels")
      sample(sprintf("L%02d", seq_len(sample(13:30, 1L))), n, replace = TRUE)
    }
  )
}

# A latent score built from the predictors, so that trees have something to
# find: a few thresholded predictors plus noise.
fz_signal <- function(x, n) {
  s <- stats::rnorm(n, sd = fz_pick(c(.1, .5, 1)))
  for (j in sample.int(length(x), min(length(x), 3L))) {
    v <- x[[j]]
    r <- if (is.numeric(v)) rank(v) else if (is.logical(v)) as.numeric(v)
         else as.numeric(as.factor(v))
    r <- (r - mean(r)) / (stats::sd(r) + 1e-9)
    if (n < 2) r <- 0
    s <- s + stats::rnorm(1, sd = 2) * (r > stats::rnorm(1, sd = .7))
  }
  s
}

fz_response_reg <- function(s, n, tag) {
  mode <- fz_pick(c("plain", "integer", "ties", "constant", "offset",
                    "far_clusters", "huge", "tiny"),
                  c(.45, .1, .1, .04, .09, .08, .07, .07))
  tag(paste0("y_", mode))
  switch(mode,
    plain = s * 10^stats::runif(1, -9, 9) + stats::rnorm(1) * 10^stats::runif(1, -2, 3),
    integer = as.integer(round(s * 3)),
    ties = round(s),
    constant = rep(stats::rnorm(1), n),
    offset = 1e6 * sample(c(1, 1e3, 1e6), 1L) + s,
    far_clusters = {
      tag("far_clusters")
      (s > stats::median(s)) * 10^stats::runif(1, 6, 13) + stats::rnorm(n)
    },
    huge = { tag("extreme_y"); s * 10^stats::runif(1, 100, 250) },
    tiny = { tag("extreme_y"); s * 10^stats::runif(1, -300, -100) })
}

fz_response_class <- function(s, n, tag) {
  k <- fz_pick(1:5, c(.05, .45, .25, .15, .1))
  labs <- c("no", "yes", "maybe", "other", "z")[seq_len(max(k, 1))]
  br <- if (k > 1) stats::quantile(s, seq(0, 1, length.out = k + 1)[-c(1, k + 1)], names = FALSE)
        else numeric(0)
  code <- findInterval(s, br) + 1L
  flip <- stats::runif(n) < fz_pick(c(0, .05, .2))
  code[flip] <- sample.int(k, sum(flip), replace = TRUE)
  mode <- fz_pick(c("factor", "unused_level", "character", "logical", "ordered", "integer_factor"),
                  c(.4, .15, .15, .1, .1, .1))
  tag(paste0("y_", mode))
  switch(mode,
    factor = factor(labs[code], levels = labs),
    unused_level = factor(labs[code], levels = c(labs, "never")),
    character = labs[code],
    logical = code %% 2 == 0,
    ordered = factor(labs[code], levels = labs, ordered = TRUE),
    integer_factor = factor(code))
}
