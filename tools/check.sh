#!/usr/bin/env bash
# The test suite: install what is missing, run the standalone C++ tests (if
# tools/core-tests/ has a Makefile), a short fixed-seed run of the R-level
# fuzzer (tools/fuzz/), then R CMD build + R CMD check (with the testthat
# tests and the vignette) in ./check/.
#
#   bash tools/check.sh
#
# Fails on any ERROR or WARNING of R CMD check and on any failed test; prints
# the NOTEs; the last line is the testthat totals, e.g. "123 passed, 0 failed".
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

say() { printf '[check] %s\n' "$*"; }

bash tools/install-deps.sh tests
# The project's own library (tidymodels packages and the newer versions of
# their dependencies, see install-deps.sh) comes first on R's library path,
# for this command only.
deps_lib="$(bash tools/deps-lib.sh)"
if [ -d "$deps_lib" ]; then
  export R_LIBS="$deps_lib${R_LIBS:+:$R_LIBS}"
  say "R_LIBS: $deps_lib first (the project's own library)"
fi
# Compile without debugging symbols (faster; see tools/Makevars.fast).
if [ -z "${R_MAKEVARS_USER:-}" ] && [ ! -f "$HOME/.R/Makevars" ]; then
  export R_MAKEVARS_USER="$root/tools/Makevars.fast"
fi

# ---- the glue's dependencies list every engine header ---------------------
say "bash tools/makevars-deps.sh --check"
bash tools/makevars-deps.sh --check

# ---- standalone C++ unit tests of the engine (optional) -------------------
if [ -f tools/core-tests/Makefile ]; then
  say "make -C tools/core-tests test"
  make -C tools/core-tests test
fi

# ---- R-level fuzzer: a short fixed-seed run (tools/fuzz/README.md) --------
# On the package as installed from this checkout, in a temporary library;
# fails on any finding in a strict category (known categories are listed).
fuzz_tmp="$(mktemp -d "${TMPDIR:-/tmp}/dpdt-check-fuzz-XXXXXX")"
say "R CMD INSTALL into $fuzz_tmp/lib (for the fuzzer)"
mkdir -p "$fuzz_tmp/lib"
if ! R CMD INSTALL --no-test-load -l "$fuzz_tmp/lib" "$root" > "$fuzz_tmp/install.log" 2>&1; then
  tail -n 30 "$fuzz_tmp/install.log"
  say "installing the package for the fuzzer failed"
  exit 1
fi
say "Rscript tools/fuzz/run.R --cases ${DPDT_FUZZ_CASES:-300} --seed 1"
if Rscript tools/fuzz/run.R --cases "${DPDT_FUZZ_CASES:-300}" --seed 1 --batch 150 --quiet \
     --lib "$fuzz_tmp/lib" --out "$fuzz_tmp/results"; then
  rm -rf "$fuzz_tmp"
else
  say "the fuzzer found failures: cases and messages are in $fuzz_tmp/results"
  exit 1
fi

# ---- R CMD build ----------------------------------------------------------
rm -rf check
mkdir -p check
cd check

build_opts=""
check_opts="--no-manual"
if ! command -v pandoc >/dev/null 2>&1; then
  say "pandoc is missing: building and checking WITHOUT the vignette"
  build_opts="--no-build-vignettes"
  check_opts="$check_opts --ignore-vignettes"
fi

say "R CMD build $build_opts ."
R CMD build $build_opts "$root"
tarball="$(ls -t dpdt_*.tar.gz | head -n 1)"

# ---- R CMD check ----------------------------------------------------------
export _R_CHECK_TESTS_NLINES_=0          # show the whole test log on failure
# Without TZ, R asks timedatectl for the time zone when a package (lubridate,
# loaded with the tidymodels ones) wants it, which fails in containers and
# prints into the check log: fix the zone instead.
export TZ="${TZ:-UTC}"
export _R_CHECK_CRAN_INCOMING_=false     # no network
export _R_CHECK_CRAN_INCOMING_REMOTE_=false
# Suggested packages that are missing (say the tidymodels ones, offline):
# check without them; their tests skip.
if ! DESC="$root/DESCRIPTION" Rscript -e '
    s <- read.dcf(Sys.getenv("DESC"), "Suggests")[1, 1]
    p <- trimws(sub("[(].*", "", strsplit(s, ",")[[1]]))
    quit(status = !all(vapply(p, requireNamespace, logical(1), quietly = TRUE)))'; then
  say "some suggested packages are missing: checking without them"
  export _R_CHECK_FORCE_SUGGESTS_=false
fi

say "R CMD check $check_opts $tarball"
set +e
R CMD check $check_opts "$tarball"
check_rc=$?
set -e

rcheck="$root/check/dpdt.Rcheck"
log="$rcheck/00check.log"
status=0

if [ ! -f "$log" ]; then
  say "no $log: R CMD check did not run"
  exit 1
fi

# The blocks of the check log ("* checking ..." up to the next "* " line)
# whose result is $1 (NOTE, WARNING or ERROR).
report() {
  awk -v kind="$1" '
    function flush() { if (hit) printf "%s", buf; buf = ""; hit = 0 }
    /^\* / || /^Status:/ { flush() }
    /^Status:/ { exit }
    { buf = buf $0 "\n"
      if ($0 ~ ("[.][.][.] " kind "$") || $0 ~ ("^ *" kind "$")) hit = 1 }
    END { flush() }' "$log"
}
status_line="$(grep -E '^Status:' "$log" | tail -n 1 || true)"
count() { # number of $1 (ERROR|WARNING|NOTE) in the Status: line
  printf '%s\n' "$status_line" | grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+' || echo 0
}
n_err="$(count ERROR)"; n_warn="$(count WARNING)"; n_note="$(count NOTE)"

echo
say "summary of $log"
echo "${status_line:-Status: (missing: R CMD check did not finish)}"
for k in ERROR WARNING NOTE; do
  out="$(report "$k")"
  if [ -n "$out" ]; then
    echo "---- ${k}s ----"
    printf '%s\n' "$out"
  fi
done
if [ -z "$status_line" ] || [ "$n_err" -gt 0 ] || [ "$n_warn" -gt 0 ]; then
  say "R CMD check: $n_err ERROR(s), $n_warn WARNING(s) -> failing"
  status=1
fi
if [ "$check_rc" -ne 0 ] && [ "$status" -eq 0 ]; then
  say "R CMD check exited with status $check_rc -> failing"
  status=1
fi

# ---- testthat totals ------------------------------------------------------
rout=""
for f in "$rcheck/tests/testthat.Rout" "$rcheck/tests/testthat.Rout.fail"; do
  [ -f "$f" ] && rout="$f"
done
if [ -z "$rout" ]; then
  say "no testthat output under $rcheck/tests: no test ran"
  echo "0 passed, 0 failed"
  exit 1
fi
# testthat (>= 3) ends with a line such as  [ FAIL 0 | WARN 1 | SKIP 2 | PASS 123 ]
totals="$(grep -E '\[ *FAIL [0-9]+ *\| *WARN [0-9]+ *\| *SKIP [0-9]+ *\| *PASS [0-9]+ *\]' "$rout" | tail -n 1 || true)"
if [ -z "$totals" ]; then
  say "could not find the testthat totals in $rout"
  tail -n 30 "$rout"
  echo "0 passed, 0 failed"
  exit 1
fi
num() { printf '%s\n' "$totals" | sed -E "s/.*$1 ([0-9]+).*/\\1/"; }
failed="$(num FAIL)"; skipped="$(num SKIP)"; passed="$(num PASS)"
if [ "$failed" -gt 0 ]; then
  say "$failed test(s) failed (see $rout)"
  status=1
fi
if [ $((passed + failed)) -eq 0 ]; then
  say "no test ran"
  status=1
fi
if [ "$status" -eq 0 ]; then
  say "OK: R CMD check passed ($n_note NOTE(s))"
else
  say "FAILED"
fi
# Skipped test groups, by reason, so that a missing package is never buried.
if [ "$skipped" -gt 0 ]; then
  say "skipped tests, by reason:"
  grep -E "^[0-9]+\. .* - Reason: " "$rout" | sed -E 's/.* - Reason: //' | sort | uniq -c |
    sed 's/^/[check]   /' || true
fi
line="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
echo "$line"
exit "$status"
