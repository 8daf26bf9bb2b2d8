#!/usr/bin/env bash
# The main job: install what is missing, build and install dpdt from this
# checkout with its vignettes, and run its demo (a Pareto front of depth-3
# trees on MASS::Pima.tr, a tree chosen by cross-validation, its accuracy
# on MASS::Pima.te beside rpart's choices).
#
#   bash tools/demo.sh
#
# The package goes into DPDT_LIB if set, else the first library R can write
# to, else R_LIBS_USER.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh demo

# Compile without debugging symbols (R's default -g doubles the compile time
# and makes the library 13 times larger), unless the user has own settings.
if [ -z "${R_MAKEVARS_USER:-}" ] && [ ! -f "$HOME/.R/Makevars" ]; then
  export R_MAKEVARS_USER="$(pwd)/tools/Makevars.fast"
fi

lib="${DPDT_LIB:-}"
if [ -z "$lib" ]; then
  lib="$(Rscript -e 'l <- Filter(function(p) file.access(p, 2) == 0, .libPaths()); cat(if (length(l)) l[1] else Sys.getenv("R_LIBS_USER"))')"
fi
mkdir -p "$lib"
export R_LIBS="$lib${R_LIBS:+:$R_LIBS}"

# Build the source package first, so that the installed package has its
# vignettes (vignette(package = "dpdt")); without pandoc, build without them.
build_opts=""
if ! command -v pandoc >/dev/null 2>&1; then
  echo "[demo] pandoc is missing: installing WITHOUT the vignettes"
  build_opts="--no-build-vignettes"
fi
root="$(pwd)"
tmp="$(mktemp -d)"
log="$tmp/log"
echo "[demo] R CMD build${build_opts:+ $build_opts} . (builds the vignettes)"
(cd "$tmp" && R CMD build $build_opts "$root") > "$log" 2>&1 || {
  cat "$log"; echo "[demo] R CMD build failed (log above)"; exit 1; }
tarball="$(ls "$tmp"/dpdt_*.tar.gz)"
echo "[demo] R CMD INSTALL $(basename "$tarball") into $lib"
R CMD INSTALL --no-multiarch --library="$lib" "$tarball" > "$log" 2>&1 || {
  cat "$log"; echo "[demo] installation failed (log above)"; exit 1; }
rm -rf "$tmp"

echo "[demo] demo(\"pima\", package = \"dpdt\")"
echo
Rscript -e 'demo("pima", package = "dpdt", ask = FALSE, echo = FALSE)'
