#!/usr/bin/env bash
# The most accurate tree alone (SearchOptions::best_only) against the whole
# front, exhaustive search, complexity "splits", one thread, min_bucket 1,
# through the C++ driver (bench/lean_engine_driver.cpp, built here with -O2
# as R builds the package); with DPDT_CONTREE (a locally built ConTree
# program), ConTree beside them. CPU seconds (user + system) and peak RSS of
# each process, one run each (the sets below take 1 to 120 s). DPDT_BEST_DEPTH
# (default 3) sets the depth, DPDT_BEST_TIMEOUT (default 1800) stops a run
# after that many seconds; a run stopped, or refused by the engine (its
# memo's memory), is recorded as such with its CPU seconds and peak memory.
#   DPDT_DATA=../shared/data bash bench/best_only.sh [set ...]
# Writes bench/results/best_only.md (DPDT_BENCH_OUT: another path, no .md).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${DPDT_DATA:-../shared/data}/quantbnb"
depth="${DPDT_BEST_DEPTH:-3}"
limit="${DPDT_BEST_TIMEOUT:-1800}"
out="${DPDT_BENCH_OUT:-bench/results/best_only}.md"
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(bank bidding raisin occupancy room wilt)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
g++ -std=c++17 -O2 -Isrc bench/lean_engine_driver.cpp -o "$tmp/driver" -pthread
measure() {  # prints "cpu_seconds peak_mb", and the command's output to $tmp/last
  /usr/bin/time -f "%U %S %M" -o "$tmp/time" timeout "$limit" "$@" > "$tmp/last" 2>&1 || true
  tail -n 1 "$tmp/time" | awk '{printf "%.3g %.0f\n", $1 + $2, $3 / 1024}'
}
# The most accurate tree's misclassifications from the driver's output, or
# why there is none (the memo's memory, or the time limit).
errors_of() {
  if grep -q "max_memory" "$tmp/last"; then echo "memo > 4 GB"
  elif ! grep -q "^states" "$tmp/last"; then echo "> ${limit} s"
  else grep -o '([^)]*)$' "$tmp/last" | tr -d '(' | cut -d, -f1; fi
}
{
  echo "# The most accurate tree alone against the whole front (exhaustive, depth $depth)"
  echo
  echo "Written by \`bench/best_only.sh\`: the C++ driver, exhaustive search, complexity \"splits\","
  echo "one thread, min_bucket 1; \`front\`: the whole front (what dpdt_fit() returns),"
  echo "\`best\`: SearchOptions::best_only (one tree, the least training loss). CPU seconds"
  echo "(user + system) of the whole process (reading the CSV included), one run each; MB: peak RSS."
  echo "errors: training misclassifications of the most accurate tree (front / best / ConTree)."
  echo
  echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg); ConTree commit ${DPDT_CONTREE_COMMIT:-unknown}; runs stopped after ${limit} s."
  echo
  echo "| set | front_s | best_s | front / best | front_mb | best_mb | contree_s | best / contree | errors |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} > "$out"
for s in "${sets[@]}"; do
  zcat "$data/${s}_train.csv.gz" > "$tmp/$s.csv"
  read -r fs fm < <(measure "$tmp/driver" "$tmp/$s.csv" "$depth" 0 1 bound 1 splits)
  fe=$(errors_of)
  read -r bs bm < <(measure "$tmp/driver" "$tmp/$s.csv" "$depth" 0 1 bestonly 1 splits)
  be=$(errors_of)
  cs="–"; ce="–"; ratio_c="–"
  if [ -n "${DPDT_CONTREE:-}" ]; then
    tail -n +2 "$tmp/$s.csv" | awk -F, '{printf "%s", $NF; for (i = 1; i < NF; i++) printf " %s", $i; print ""}' > "$tmp/$s.txt"
    read -r cs _ < <(measure "$DPDT_CONTREE" -file "$tmp/$s.txt" -max-depth "$depth")
    ce=$(sed -n 's/^Misclassification score: //p' "$tmp/last")
    ratio_c=$(awk -v a="$bs" -v b="$cs" 'BEGIN { printf (b > 0 ? "%.2f" : "–"), a / b }')
  fi
  ratio="–"  # the front's run stopped or refused: no ratio
  if [[ "$fe" =~ ^[0-9.]+$ && "$be" =~ ^[0-9.]+$ ]]; then
    ratio=$(awk -v a="$fs" -v b="$bs" 'BEGIN { printf (b > 0 ? "%.1f" : "–"), a / b }')
  fi
  echo "| $s | $fs | $bs | $ratio | $fm | $bm | $cs | $ratio_c | $fe / $be / $ce |" >> "$out"
  echo "$s: front $fs s, best $bs s, ConTree $cs s; errors $fe / $be / $ce"
done
echo "written: $out"
