#!/usr/bin/env bash
# Where exhaustive depth 3 spends its time, set by set, beside ConTree (issue
# 20: "where one set stays above ConTree, say by how much and why, with a
# profile"). For each set, the C++ driver (bench/lean_engine_driver.cpp,
# built with -O2 as R builds the package, plus -g for symbols) runs the
# whole front (complexity "splits", one thread, min_bucket 1) and the most
# accurate tree alone (best_only): CPU seconds (user + system) of each
# process, one run each; then the front again under `perf record`, whose
# self time by symbol is summed into the engine's parts. ConTree's seconds
# and dpdt's ratio are read from the last record of bench/exact_vs_contree.R
# (results/exact_vs_contree_depth3.csv), not run again.
#   DPDT_DATA=../shared/data bash bench/profile_depth3.sh [set ...]
# Without sets: those above ConTree in that record. Writes
# bench/results/profile_depth3.md (DPDT_BENCH_OUT: another path, no .md).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${DPDT_DATA:-../shared/data}/quantbnb"
record=bench/results/exact_vs_contree_depth3.csv
out="${DPDT_BENCH_OUT:-bench/results/profile_depth3}.md"
command -v perf > /dev/null || { echo "perf is needed (apt-get install linux-perf)" >&2; exit 1; }
# A column of the record's row for a set (the CSV's header names it).
from_record() {
  awk -F, -v set="\"$1\"" -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) { h = $i; gsub(/"/, "", h); if (h == col) c = i } }
    NR > 1 && $1 == set && $4 == 3 { v = $c; gsub(/"/, "", v); print v }' "$record"
}
ratio_of() {
  awk -v a="$(from_record "$1" dpdt_s)" -v b="$(from_record "$1" contree_s)" 'BEGIN { printf "%.2f\n", a / b }'
}
sets=("$@")
if [ ${#sets[@]} -eq 0 ]; then
  mapfile -t sets < <(awk -F, 'NR > 1 && $4 == 3 { s = $1; gsub(/"/, "", s); print s }' "$record" |
    while read -r s; do r=$(ratio_of "$s"); awk -v r="$r" 'BEGIN { exit !(r > 1) }' && echo "$s"; done)
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
g++ -std=c++17 -O2 -g -Isrc bench/lean_engine_driver.cpp -o "$tmp/driver" -pthread
cpu_of() {  # CPU seconds of the command, its output to $tmp/last
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" > "$tmp/last" 2>&1
  tail -n 1 "$tmp/time" | awk '{ printf "%.3g\n", $1 + $2 }'
}
states_of() { sed -n 's/^states \([0-9]*\) .*/\1/p' "$tmp/last"; }
# The engine's parts, by the symbols perf names (inlined code counts as its
# caller's): the last level's scans for each child's best split; writing
# the children's sorted blocks and coded columns; the depth-two solver; the bounded sweep's
# interval bounds (with the prefix sums they read); the CART proposals that
# seed each state; state statistics; allocation and copies.
parts() {
  perf report -i "$tmp/perf.data" --no-children --sort symbol --stdio 2> /dev/null |
    awk '/^ *[0-9.]+%/ { pct = $1; sub(/%/, "", pct); $1 = ""; $2 = ""; sym = $0
      if (sym ~ /[Ee]ntropy|CandidateGenerator|for_each_boundary/) k = "seeds"
      else if (sym ~ /solve_child|coded_children|write_side|sides_of_|side_of_|by_position|CutPositions|mark_sides|rows_in_order/) k = "write"
      else if (sym ~ /best_last_split|best_split|scan_whole_scores|first_least_coded|new_coded_child|in_lanes|ManyClass|fewest_split_errors|SuffixAdd|HistogramScan|last_split/) k = "scans"
      else if (sym ~ /DepthTwoSolver/) k = "depth2"
      else if (sym ~ /PrefixLeaves|BoundedSweep|dominated|side_bound|keep_bounding|keep_pareto/) k = "bounds"
      else if (sym ~ /class_counts|stats_of|class_stats|coded_stats/) k = "stats"
      else if (sym ~ /malloc|free|_int_|mem(move|cpy|set)|page|realloc|operator new|~vector|_M_|clear_page|fault/) k = "alloc"
      else k = "other"
      sum[k] += pct
      if (k == "other" && pct > top) { top = pct; topsym = sym } }
      END { sub(/[(<].*/, "", topsym); gsub(/ +/, "", topsym); sub(/-+$/, "", topsym)
            printf "%.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %s\n", sum["scans"], sum["write"], sum["depth2"],
            sum["bounds"], sum["seeds"], sum["stats"], sum["alloc"], sum["other"],
            topsym == "" ? "–" : topsym " " top "%" }'
}
{
  echo "# Where exhaustive depth 3 spends its time, beside ConTree"
  echo
  echo "Written by \`bench/profile_depth3.sh\`: the C++ driver (-O2 -g), exhaustive depth 3, complexity"
  echo "\"splits\", one thread, min_bucket 1. \`front_s\`, \`best_s\`: CPU seconds of the whole front and"
  echo "of the most accurate tree alone (best_only), one run each, reading the CSV included; \`states\`:"
  echo "the search's states, front / best. \`contree_s\`, \`ratio\`: ConTree's seconds and dpdt's front"
  echo "over them at R level, from the last record of \`bench/exact_vs_contree.R\`"
  echo "(\`exact_vs_contree_depth3.md\`). The parts are the front's self time by symbol in a second"
  echo "run under \`perf record\` (inlined code counts as its caller's), in percent: \`scans\`, the last level's"
  echo "scans for each child's best split; \`write\`, writing the children's sorted blocks and coded columns; \`depth2\`,"
  echo "the depth-two solver; \`bounds\`, the bounded sweep's interval bounds and the prefix sums they"
  echo "read; \`seeds\`, the CART proposals that seed each state; \`stats\`, state statistics;"
  echo "\`alloc\`, allocation and copies; \`other\`, the rest (its largest symbol named)."
  echo
  echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//' | cut -c1-40)."
  echo
  echo "| set | n | contree_s | ratio | front_s | best_s | front / best | states | scans | write | depth2 | bounds | seeds | stats | alloc | other | largest other |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} > "$out"
for s in "${sets[@]}"; do
  zcat "$data/${s}_train.csv.gz" > "$tmp/$s.csv"
  n=$(($(wc -l < "$tmp/$s.csv") - 1))
  front_s=$(cpu_of "$tmp/driver" "$tmp/$s.csv" 3 0 1 bound 1 splits)
  front_states=$(states_of)
  perf record -q -F 499 -o "$tmp/perf.data" "$tmp/driver" "$tmp/$s.csv" 3 0 1 bound 1 splits > /dev/null 2>&1
  read -r scans write depth2 bounds seeds stats alloc other largest < <(parts)
  best_s=$(cpu_of "$tmp/driver" "$tmp/$s.csv" 3 0 1 bestonly 1 splits)
  best_states=$(states_of)
  contree_s=$(from_record "$s" contree_s)
  ratio=$(ratio_of "$s")
  fb=$(awk -v a="$front_s" -v b="$best_s" 'BEGIN { printf "%.1f", a / b }')
  echo "| $s | $n | $contree_s | $ratio | $front_s | $best_s | $fb | $front_states / $best_states | $scans | $write | $depth2 | $bounds | $seeds | $stats | $alloc | $other | $largest |" >> "$out"
  echo "$s: front $front_s s, best $best_s s" >&2
done
