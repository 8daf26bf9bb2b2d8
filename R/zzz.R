# Load-time actions. Methods for generics of packages dpdt only suggests
# (ggplot2's autoplot, partykit's as.party) are registered when, and if,
# those packages load: they stay optional, and the methods work as soon as
# the user loads them. The parsnip engine likewise is registered now if
# parsnip is loaded, else as soon as parsnip loads (a hook): loading dpdt
# never loads parsnip and its dependencies itself.
.onLoad <- function(libname, pkgname) {
  s3_register("ggplot2::autoplot", "dpdt")
  s3_register("ggplot2::autoplot", "dpdt_tree")
  s3_register("partykit::as.party", "dpdt")
  s3_register("partykit::as.party", "dpdt_tree")
  if (isNamespaceLoaded("parsnip")) register_parsnip_engine_safely()
  setHook(packageEvent("parsnip", "onLoad"), register_parsnip_engine_safely)
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

# A failure to register (say, after an incompatible parsnip release) must
# not stop dpdt, or parsnip, from loading: it becomes a warning.
register_parsnip_engine_safely <- function(...) {
  tryCatch(register_parsnip_engine(), error = function(e) {
    warning("dpdt could not register its parsnip engine \"dpdt\": ",
            conditionMessage(e), call. = FALSE)
    invisible(FALSE)
  })
}
