#!/usr/bin/env bash
# The glue files depend on every header of the engine (header only): this
# writes that list into src/Makevars and src/Makevars.win, or with --check
# fails when either is out of date (tools/check.sh runs it), so a header
# added later still rebuilds the package when changed.
#   bash tools/makevars-deps.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/../src"
deps="\$(OBJECTS): $( (find core -name '*.h' | LC_ALL=C sort; ls ./*.h | sed 's|^\./||' | LC_ALL=C sort) | tr '\n' ' ' | sed 's/ $//')"
status=0
for f in Makevars Makevars.win; do
  current="$(grep '^\$(OBJECTS):' "$f")"
  [ "$current" = "$deps" ] && continue
  if [ "${1:-}" = "--check" ]; then
    echo "src/$f: the headers its \$(OBJECTS) depend on are out of date; run bash tools/makevars-deps.sh" >&2
    status=1
  else
    awk -v line="$deps" '/^\$\(OBJECTS\):/ { print line; next } { print }' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
    echo "src/$f updated"
  fi
done
exit "$status"
