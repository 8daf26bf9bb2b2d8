# A data frame of equal-length columns, as data.frame() makes it (compact
# row names, names as given, strings kept), without its checks and name
# deparsing: data.frame() took 0.15 ms a call, a tenth of a small fit's R
# side, where this takes 0.01 ms.
columns_frame <- function(columns) {
  n <- if (length(columns)) length(columns[[1]]) else 0L
  structure(columns, class = "data.frame", row.names = c(NA_integer_, -n))
}
