#!/usr/bin/env bash
# Exhaustive depth 3 with dpdt_fit()'s default complexity "tests" and
# min_bucket 5 (what a newcomer's `candidates = "exhaustive"` runs), built
# from two commits side by side (DPDT_BEFORE, default HEAD~3: before this
# bench's change; and HEAD), with complexity "splits" at HEAD beside them.
# The C++ driver (bench/lean_engine_driver.cpp, -O2 as R builds the
# package), one thread, CPU seconds (user + system) of the process, one run
# each, the two builds' runs of a set side by side on the two cores; the
# fronts of the two builds are compared.
#   DPDT_DATA=../shared/data bash bench/tests_complexity.sh [set ...]
# Writes bench/results/tests_complexity.md (DPDT_BENCH_OUT: another path, no .md).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${DPDT_DATA:-../shared/data}/quantbnb"
before="${DPDT_BEFORE:-HEAD~3}"
out="${DPDT_BENCH_OUT:-bench/results/tests_complexity}.md"
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(bank raisin bidding occupancy wilt)
tmp="$(mktemp -d)"
trap 'git worktree remove --force "$tmp/before" 2>/dev/null || true; rm -rf "$tmp"' EXIT
git worktree add --detach -q "$tmp/before" "$before"
g++ -std=c++17 -O2 -I"$tmp/before/src" "$tmp/before/bench/lean_engine_driver.cpp" -o "$tmp/driver_before" -pthread
g++ -std=c++17 -O2 -Isrc bench/lean_engine_driver.cpp -o "$tmp/driver" -pthread
measure() {  # $1: tag; the rest: the command. Writes $tmp/$tag.time and $tmp/$tag.out
  local tag="$1"; shift
  /usr/bin/time -f "%U %S %M" -o "$tmp/$tag.time" "$@" > "$tmp/$tag.out" 2>&1
}
seconds() { tail -n 1 "$tmp/$1.time" | awk '{printf "%.3g", $1 + $2}'; }
megabytes() { tail -n 1 "$tmp/$1.time" | awk '{printf "%.0f", $3 / 1024}'; }
states() { grep -o '^states [0-9]*' "$tmp/$1.out" | cut -d' ' -f2; }
points() { grep -o '([^)]*)' "$tmp/$1.out" | wc -l; }
{
  echo "# Exhaustive depth 3 with complexity \"tests\" and min_bucket 5 (dpdt_fit()'s defaults)"
  echo
  echo "Written by \`bench/tests_complexity.sh\`: the C++ driver, exhaustive search, depth 3, one thread,"
  echo "min_bucket 5; before = commit $(git rev-parse --short "$before"), after = commit $(git rev-parse --short HEAD)."
  echo "CPU seconds (user + system) of the whole process, one run each, the two builds side by side."
  echo "points: the front's length; same: the two builds' fronts identical."
  echo
  echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') ($(nproc) logical CPUs)."
  echo
  echo "| set | tests before s | tests after s | before / after | states before | states after | points | same | MB after | splits after s | tests / splits |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} > "$out"
for s in "${sets[@]}"; do
  zcat "$data/${s}_train.csv.gz" > "$tmp/$s.csv"
  measure before "$tmp/driver_before" "$tmp/$s.csv" 3 0 1 bound 1 tests -1 5 &
  measure after "$tmp/driver" "$tmp/$s.csv" 3 0 1 bound 1 tests -1 5 &
  wait
  measure splits "$tmp/driver" "$tmp/$s.csv" 3 0 1 bound 1 splits -1 5
  same=no
  cmp -s <(cut -d' ' -f3- "$tmp/before.out") <(cut -d' ' -f3- "$tmp/after.out") && same=yes
  b=$(seconds before); a=$(seconds after); sp=$(seconds splits)
  echo "| $s | $b | $a | $(awk -v x="$b" -v y="$a" 'BEGIN { printf "%.2f", x / y }') | $(states before) | $(states after) | $(points after) | $same | $(megabytes after) | $sp | $(awk -v x="$a" -v y="$sp" 'BEGIN { printf "%.1f", x / y }') |" >> "$out"
done
echo "Wrote $out"
