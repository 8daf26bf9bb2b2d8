# Load-time actions. The parsnip engine is registered now if parsnip is
# loaded, else as soon as parsnip loads (a hook): loading dpdt never loads
# parsnip and its dependencies itself.
.onLoad <- function(libname, pkgname) {
  if (isNamespaceLoaded("parsnip")) register_parsnip_engine_safely()
  setHook(packageEvent("parsnip", "onLoad"), register_parsnip_engine_safely)
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
