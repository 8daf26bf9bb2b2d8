#!/usr/bin/env bash
# The main job: install what is missing, install dpdt from this checkout,
# and run its demo (a Pareto front of depth-3 trees on MASS::Pima.tr).
#
#   bash tools/demo.sh
#
# The package goes into DPDT_LIB if set, else the first library R can write
# to, else R_LIBS_USER.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh

lib="${DPDT_LIB:-}"
if [ -z "$lib" ]; then
  lib="$(Rscript -e 'l <- Filter(function(p) file.access(p, 2) == 0, .libPaths()); cat(if (length(l)) l[1] else Sys.getenv("R_LIBS_USER"))')"
fi
mkdir -p "$lib"
export R_LIBS="$lib${R_LIBS:+:$R_LIBS}"

echo "[demo] R CMD INSTALL . into $lib"
log="$(mktemp)"
R CMD INSTALL --no-multiarch --library="$lib" . > "$log" 2>&1 || {
  cat "$log"; echo "[demo] installation failed (log above)"; exit 1; }
rm -f "$log"

echo "[demo] demo(\"pima\", package = \"dpdt\")"
echo
Rscript -e 'demo("pima", package = "dpdt", ask = FALSE, echo = FALSE)'
