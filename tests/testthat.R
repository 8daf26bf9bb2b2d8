library(testthat)
library(dpdt)

test_check("dpdt")
