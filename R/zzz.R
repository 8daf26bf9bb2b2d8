# Methods for generics of packages dpdt only suggests (ggplot2's autoplot,
# partykit's as.party) are registered when, and if, those packages load:
# they stay optional, and the methods work as soon as the user loads them.
.onLoad <- function(libname, pkgname) {
  s3_register("ggplot2::autoplot", "dpdt")
  s3_register("ggplot2::autoplot", "dpdt_tree")
  s3_register("partykit::as.party", "dpdt")
  invisible()
}

# Register method `generic.class` (found in this namespace) for the
# generic "pkg::generic", now if pkg is loaded and again whenever it loads
# (the pattern of vctrs' s3_register()).
s3_register <- function(generic, class) {
  parts <- strsplit(generic, "::", fixed = TRUE)[[1]]
  pkg <- parts[1]
  gen <- parts[2]
  method <- get(paste0(gen, ".", class), envir = parent.frame(), mode = "function")
  register <- function(...) {
    registerS3method(gen, class, method, envir = asNamespace(pkg))
  }
  setHook(packageEvent(pkg, "onLoad"), function(...) register())
  if (isNamespaceLoaded(pkg)) register()
  invisible()
}
