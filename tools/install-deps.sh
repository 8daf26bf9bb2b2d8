#!/usr/bin/env bash
# Install what building, checking and demonstrating dpdt needs, if missing.
#
#   bash tools/install-deps.sh
#
# Idempotent: on a prepared machine it only asks R whether the packages load
# (a second or so) and does nothing else.
# 1. Debian/Ubuntu as root: prebuilt r-cran-* packages, pandoc and qpdf via
#    apt-get (apt-get update runs once, and only when something is missing).
# 2. Any R package still missing: install.packages() from R's configured
#    repositories, into the first writable library (or R_LIBS_USER).
# 3. The tidymodels packages the parsnip-engine tests use ($R_REPO_PKGS):
#    not prebuilt in Debian, so always from R's repositories; packages of
#    their dependency tree that are older there than in the repositories
#    (Debian's rlang, vctrs, dplyr... are too old for parsnip) are updated
#    first, into the same library. Only suggested: if they cannot be
#    installed the check still runs and their tests are skipped.
# Without pandoc the vignette cannot be built; tools/check.sh then skips it
# and says so.
set -euo pipefail

R_PKGS="Rcpp RcppEigen generics knitr rmarkdown testthat rpart tibble future future.apply MASS ggplot2 partykit DBI RSQLite withr mlbench callr bit64"
R_REPO_PKGS="parsnip tune workflows yardstick dials rsample hardhat"

say() { printf '[install-deps] %s\n' "$*"; }

command -v Rscript >/dev/null 2>&1 || {
  say "Rscript not found: install R (>= 3.5) first."; exit 1; }

# Print the R packages (from $1, default $R_PKGS) that do not load.
missing_r_pkgs() {
  PKGS="${1:-$R_PKGS}" Rscript -e '
    p <- strsplit(Sys.getenv("PKGS"), " +")[[1]]
    ok <- vapply(p, requireNamespace, logical(1), quietly = TRUE)
    cat(p[!ok], sep = " ")' 2>/dev/null
}
export R_PKGS

miss_r="$(missing_r_pkgs)"
miss_repo="$(missing_r_pkgs "$R_REPO_PKGS")"
miss_tools=""
command -v pandoc >/dev/null 2>&1 || miss_tools="$miss_tools pandoc"
command -v qpdf   >/dev/null 2>&1 || miss_tools="$miss_tools qpdf"

if [ -z "$miss_r" ] && [ -z "$miss_repo" ] && [ -z "$miss_tools" ]; then
  say "all dependencies present."
  exit 0
fi
say "missing R packages: ${miss_r:-none}; from R's repositories only: ${miss_repo:-none}; missing tools:${miss_tools:- none}"

# ---- 1. apt (Debian prebuilt packages), only as root with apt-get ---------
if [ -n "$miss_r$miss_tools" ] && command -v apt-get >/dev/null 2>&1 &&
   [ "$(id -u)" = "0" ]; then
  debs=""
  for p in $miss_r; do debs="$debs r-cran-$(printf '%s' "$p" | tr 'A-Z' 'a-z')"; done
  debs="$debs$miss_tools"
  export DEBIAN_FRONTEND=noninteractive
  say "apt-get update"
  if apt-get update -qq >/dev/null; then
    say "apt-get install -y$debs"
    if ! apt-get install -y -qq --no-install-recommends $debs >/dev/null; then
      # One unavailable name makes the whole call fail: retry one by one.
      for d in $debs; do
        apt-get install -y -qq --no-install-recommends "$d" >/dev/null 2>&1 ||
          say "apt: $d not available"
      done
    fi
  else
    say "apt-get update failed; falling back to R's repositories."
  fi
  miss_r="$(missing_r_pkgs)"
fi

# ---- 2. R's configured repositories for what is still missing -------------
if [ -n "$miss_r" ]; then
  say "install.packages(): $miss_r"
  export MISS_R="$miss_r"
  Rscript -e '
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
fi
miss_r="$(missing_r_pkgs)"

# ---- 3. tidymodels packages: R's repositories only --------------------------
if [ -n "$miss_repo" ]; then
  say "install.packages() with updated dependencies: $miss_repo"
  export MISS_REPO="$miss_repo"
  Rscript -e '
    p <- strsplit(Sys.getenv("MISS_REPO"), " +")[[1]]
    lib <- Filter(function(l) file.access(l, 2) == 0, .libPaths())
    if (length(lib) == 0) {
      lib <- Sys.getenv("R_LIBS_USER")
      dir.create(lib, recursive = TRUE, showWarnings = FALSE)
      .libPaths(c(lib, .libPaths()))
    }
    repos <- getOption("repos")
    if (is.null(repos) || any(repos == "@CRAN@"))
      stop("R has no package repository configured: set options(repos = ...) ",
           "in Rprofile.site, or install: ", paste(p, collapse = " "))
    ap <- utils::available.packages(repos = repos)
    p <- intersect(p, rownames(ap))
    need <- unique(c(p, unlist(tools::package_dependencies(
      p, db = ap, which = c("Depends", "Imports", "LinkingTo"),
      recursive = TRUE))))
    inst <- utils::installed.packages()
    inst <- inst[!duplicated(rownames(inst)), , drop = FALSE]  # the one loaded
    have <- intersect(intersect(need, rownames(inst)), rownames(ap))
    older <- have[package_version(inst[have, "Version"]) <
                  package_version(ap[have, "Version"])]
    todo <- union(setdiff(need[need %in% rownames(ap)], rownames(inst)), older)
    todo <- union(todo, p)
    if (length(older)) message("updating: ", paste(older, collapse = " "))
    install.packages(todo, lib = lib[1], repos = repos,
                     Ncpus = max(1L, parallel::detectCores() - 1L))
  ' || say "install.packages() reported a problem"
  miss_repo="$(missing_r_pkgs "$R_REPO_PKGS")"
  if [ -n "$miss_repo" ]; then
    say "could not install $miss_repo: the tidymodels tests will be skipped."
  fi
fi

if [ -n "$miss_r" ]; then
  say "still missing R packages: $miss_r"
  exit 1
fi
command -v pandoc >/dev/null 2>&1 ||
  say "pandoc not available: vignettes cannot be built here."
say "done."
