#!/usr/bin/env bash
# The core tests and a few representative R fits under valgrind memcheck;
# fails on any memcheck error (and on definite leaks in the core tests).
#
#   bash tools/fuzz/valgrind.sh            # installs the checkout into a temporary library
#   bash tools/fuzz/valgrind.sh --lib DIR  # or tests the dpdt already installed in DIR
#
# The core tests are built without sanitizers (valgrind and ASan do not mix);
# the package is built with R's usual flags (-g -O2). Takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$(pwd)"
say() { printf '[valgrind] %s\n' "$*"; }
command -v valgrind >/dev/null 2>&1 || { say "valgrind not found (Debian: apt-get install valgrind)"; exit 1; }

lib=""
if [ "${1:-}" = "--lib" ]; then lib="$2"; fi
work="$(mktemp -d "${TMPDIR:-/tmp}/dpdt-valgrind-XXXXXX")"
trap 'rm -rf "$work"' EXIT
status=0

# ---- 1. the standalone core tests -------------------------------------------
say "building tools/core-tests/core_tests.cpp without sanitizers"
${CXX:-g++} -std=c++17 -O1 -g -Isrc tools/core-tests/core_tests.cpp -o "$work/core_tests" -pthread
say "core tests under valgrind"
if valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
     --show-leak-kinds=definite -q "$work/core_tests" > "$work/core.log" 2>&1; then
  tail -n 1 "$work/core.log"
else
  say "core tests: valgrind reported errors (or a test failed):"
  grep -E '^==[0-9]+==|FAIL' "$work/core.log" | head -n 60 || tail -n 40 "$work/core.log"
  status=1
fi

# ---- 2. representative fits in R ----------------------------------------------
if [ -z "$lib" ]; then
  lib="$work/lib"
  mkdir -p "$lib"
  say "installing the checkout into $lib"
  R CMD INSTALL --no-test-load -l "$lib" "$root" > "$work/install.log" 2>&1 ||
    { tail -n 30 "$work/install.log"; exit 1; }
fi
say "R fits (tools/fuzz/valgrind-fits.R) under valgrind"
set +e
R_LIBS="$lib" R -d "valgrind --error-exitcode=99 --leak-check=no -q" --vanilla --slave \
  -f tools/fuzz/valgrind-fits.R > "$work/fits.log" 2>&1
rc=$?
set -e
if [ "$rc" -ne 0 ] || grep -qE '^==[0-9]+==' "$work/fits.log" ||
   ! grep -q 'valgrind fits: done' "$work/fits.log"; then
  say "R fits: valgrind reported errors (exit status $rc):"
  head -n 80 "$work/fits.log"
  status=1
else
  grep -v '^valgrind fits' "$work/fits.log" | sed 's/^/  /'
fi

if [ "$status" -eq 0 ]; then say "OK: no memcheck errors"; else say "FAILED"; fi
exit "$status"
