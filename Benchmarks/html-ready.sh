#!/usr/bin/env bash
# How soon report.html is interactive in a real browser: the whole reference run's page opened in headless Chromium
# ROUNDS times, each time reading `data-ready-ms` (the page's script sets it when its filters are ready: milliseconds
# since navigation started, parsing included). Prints the page's size and the times, sorted.
#
#   bash Benchmarks/html-ready.sh BINARY [ROUNDS]
set -euo pipefail
bin=$1 rounds=${2:-5}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$bin" run --target reference --seed 1 --quiet --reports "$scratch/reports" >/dev/null
echo "report.html: $(wc -c < "$scratch/reports/report.html") bytes"
times=()
for _ in $(seq "$rounds"); do
  dom=$(chromium --headless --no-sandbox --disable-gpu --user-data-dir="$scratch/profile" --virtual-time-budget=5000 \
    --dump-dom "file://$scratch/reports/report.html" 2>/dev/null)
  times+=("$(sed -n 's/.*data-ready-ms="\([0-9]*\)".*/\1/p' <<<"$dom" | head -1)")
done
echo "data-ready-ms: $(printf '%s\n' "${times[@]}" | sort -n | tr '\n' ' ')"
