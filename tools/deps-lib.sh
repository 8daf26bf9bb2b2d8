#!/usr/bin/env bash
# Prints the path of the project's own R library: the packages the tests need
# that R's libraries do not hold in a recent enough version (the tidymodels
# ones and their newer dependencies; see install-deps.sh). DPDT_DEPS_LIB
# overrides it. Only the test command puts it on R's library path.
set -euo pipefail
if [ -n "${DPDT_DEPS_LIB:-}" ]; then
  printf '%s\n' "$DPDT_DEPS_LIB"
  exit 0
fi
v="$(Rscript -e 'cat(R.version$major, ".", strsplit(R.version$minor, ".", fixed = TRUE)[[1]][1], sep = "")')"
printf '%s\n' "${XDG_CACHE_HOME:-$HOME/.cache}/dpdt/R-$v"
