#!/usr/bin/env bash
# Install what dpdt needs, if missing, for one of two jobs:
#
#   bash tools/install-deps.sh demo    # build, install and run the demo
#   bash tools/install-deps.sh tests   # also everything the tests use
#
# Idempotent: on a prepared machine it only asks R whether the packages load
# (a second or so). It never upgrades a package R already has:
# 1. Debian/Ubuntu as root: prebuilt r-cran-* packages (and pandoc) via
#    apt-get, which adds packages and leaves R's own library alone.
# 2. Anything still missing: install.packages() from R's configured
#    repositories, into the first writable library (or R_LIBS_USER).
# 3. tests only: the tidymodels packages the parsnip-engine tests use are
#    not prebuilt in Debian, and need newer versions of packages Debian has
#    (rlang, vctrs, ...). They go, with those newer versions, into a library
#    of the project's own, $DPDT_DEPS_LIB (default ~/.cache/dpdt/R-<version>),
#    which only the test command puts on R's library path: R's own library
#    and the site library are not touched. If they cannot be installed, the
#    tidymodels tests are skipped, and the test command says so.
# A package the job cannot do without that fails to install stops this
# script with its name.
set -euo pipefail

job="${1:-tests}"
case "$job" in demo|tests) ;; *)
  echo "usage: bash tools/install-deps.sh [demo|tests]" >&2; exit 2 ;; esac

# dpdt's Imports and LinkingTo, the demo's data and competitor (MASS and
# rpart come with R), knitr and rmarkdown for the vignettes.
DEMO_PKGS="Rcpp RcppEigen generics future.apply MASS rpart knitr rmarkdown"
TEST_PKGS="testthat withr future parallelly progressr partykit ggplot2 tibble DBI RSQLite mlbench callr bit64 ranger randomForest"
TIDY_PKGS="parsnip tune workflows yardstick dials rsample hardhat"

say() { printf '[install-deps] %s\n' "$*"; }

command -v Rscript >/dev/null 2>&1 || {
  say "Rscript not found: install R (>= 3.5) first."; exit 1; }

need="$DEMO_PKGS"
[ "$job" = tests ] && need="$need $TEST_PKGS"

# The R packages among $1 that do not load (with the libraries R_LIBS names).
missing_r_pkgs() {
  PKGS="$1" Rscript -e '
    p <- strsplit(Sys.getenv("PKGS"), " +")[[1]]
    ok <- vapply(p, requireNamespace, logical(1), quietly = TRUE)
    cat(p[!ok], sep = " ")' 2>/dev/null
}

miss_r="$(missing_r_pkgs "$need")"
miss_tools=""
command -v pandoc >/dev/null 2>&1 || miss_tools="pandoc"
if [ -z "$miss_r" ] && [ -z "$miss_tools" ]; then
  say "$job: all R packages and tools present."
else
  say "$job: missing R packages: ${miss_r:-none}; missing tools: ${miss_tools:-none}"
fi

# ---- 1. apt (Debian prebuilt packages), only as root with apt-get ---------
if [ -n "$miss_r$miss_tools" ] && command -v apt-get >/dev/null 2>&1 &&
   [ "$(id -u)" = "0" ]; then
  debs=""
  for p in $miss_r; do debs="$debs r-cran-$(printf '%s' "$p" | tr 'A-Z' 'a-z')"; done
  debs="$debs $miss_tools"
  export DEBIAN_FRONTEND=noninteractive
  say "apt-get update"
  if apt-get update -qq >/dev/null; then
    say "apt-get install -y$debs"
    if ! apt-get install -y -qq --no-install-recommends $debs >/dev/null 2>&1; then
      # One unavailable name makes the whole call fail: retry one by one.
      for d in $debs; do
        apt-get install -y -qq --no-install-recommends "$d" >/dev/null 2>&1 ||
          say "apt: $d not available"
      done
    fi
  else
    say "apt-get update failed; falling back to R's repositories."
  fi
  miss_r="$(missing_r_pkgs "$need")"
fi

# ---- 2. R's configured repositories for what is still missing -------------
if [ -n "$miss_r" ]; then
  say "install.packages(): $miss_r"
  MISS_R="$miss_r" Rscript -e '
    p <- strsplit(Sys.getenv("MISS_R"), " +")[[1]]
    lib <- Filter(function(l) file.access(l, 2) == 0, .libPaths())
    if (length(lib) == 0) {
      lib <- Sys.getenv("R_LIBS_USER")
      dir.create(lib, recursive = TRUE, showWarnings = FALSE)
      message("installing into ", lib, " (R_LIBS_USER)")
    }
    repos <- getOption("repos")
    if (is.null(repos) || any(repos == "@CRAN@"))
      stop("R has no package repository configured: set options(repos = ...) ",
           "in Rprofile.site, or install: ", paste(p, collapse = " "))
    install.packages(p, lib = lib[1], repos = repos,
                     Ncpus = max(1L, parallel::detectCores() - 1L))
  ' || say "install.packages() reported a problem"
  miss_r="$(missing_r_pkgs "$need")"
fi
if [ -n "$miss_r" ]; then
  say "FAILED: could not install $miss_r, which the $job job needs (see above)."
  exit 1
fi
command -v pandoc >/dev/null 2>&1 ||
  say "pandoc not available: vignettes cannot be built here."

# ---- 3. tests: the tidymodels packages, in the project's own library -------
if [ "$job" = tests ]; then
  deps_lib="$(bash "$(dirname "$0")/deps-lib.sh")"
  mkdir -p "$deps_lib"
  miss_tidy="$(R_LIBS="$deps_lib${R_LIBS:+:$R_LIBS}" missing_r_pkgs "$TIDY_PKGS")"
  if [ -n "$miss_tidy" ]; then
    say "install.packages() into the project's library $deps_lib: $miss_tidy (and the newer versions of their dependencies they need)"
    # bounded (DPDT_DEPS_TIMEOUT seconds, default 55 minutes; from source on
    # 2 cores it takes about 30): it must not take the whole time budget of
    # the test command
    DEPS_LIB="$deps_lib" MISS_TIDY="$miss_tidy" R_LIBS="$deps_lib${R_LIBS:+:$R_LIBS}" \
      timeout "${DPDT_DEPS_TIMEOUT:-3300}" Rscript -e '
      p <- strsplit(Sys.getenv("MISS_TIDY"), " +")[[1]]
      lib <- Sys.getenv("DEPS_LIB")
      repos <- getOption("repos")
      if (is.null(repos) || any(repos == "@CRAN@"))
        stop("R has no package repository configured: set options(repos = ...)")
      ap <- utils::available.packages(repos = repos)
      p <- intersect(p, rownames(ap))
      need <- unique(c(p, unlist(tools::package_dependencies(
        p, db = ap, which = c("Depends", "Imports", "LinkingTo"), recursive = TRUE))))
      inst <- utils::installed.packages()
      inst <- inst[!duplicated(rownames(inst)), , drop = FALSE]  # the one loaded
      # the least version of each package the others ask for ("pkg (>= v)")
      fields <- ap[intersect(need, rownames(ap)), c("Depends", "Imports", "LinkingTo"), drop = FALSE]
      req <- unlist(strsplit(fields[!is.na(fields)], ","))
      req <- trimws(gsub("\\s+", " ", req))
      req <- regmatches(req, regexec("^([A-Za-z0-9.]+) *\\(>= *([-0-9.]+)\\)", req))
      req <- do.call(rbind, Filter(length, req))
      have <- intersect(need, rownames(inst))
      # a package R has in a version older than asked for is installed anew
      # here, in the project library, never over the one R has
      older <- character(0)
      if (length(req)) for (pk in intersect(have, req[, 2])) {
        v <- max(package_version(req[req[, 2] == pk, 3]))
        if (package_version(inst[pk, "Version"]) < v) older <- c(older, pk)
      }
      base <- rownames(utils::installed.packages(priority = "base"))
      todo <- setdiff(union(union(setdiff(need[need %in% rownames(ap)], rownames(inst)),
                                  older), p), base)
      if (length(older)) message("newer versions, in ", lib, ": ", paste(older, collapse = " "))
      install.packages(todo, lib = lib, repos = repos,
                       Ncpus = max(1L, parallel::detectCores()))
    ' || say "install.packages() reported a problem"
    miss_tidy="$(R_LIBS="$deps_lib${R_LIBS:+:$R_LIBS}" missing_r_pkgs "$TIDY_PKGS")"
  fi
  if [ -n "$miss_tidy" ]; then
    say "could not install $miss_tidy: the tidymodels tests will be SKIPPED."
  else
    say "tidymodels packages ready in $deps_lib (used by the test command only)."
  fi
fi
say "done."
