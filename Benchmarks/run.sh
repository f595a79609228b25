#!/usr/bin/env bash
# Rerunnable benchmark for AppFlip Conformance. Prints a Markdown table; Benchmarks/RESULTS.md records past runs.
#
#   bash Benchmarks/run.sh            # everything, including a clean release build (about a minute on 2 cores)
#   SKIP_BUILD=1 bash Benchmarks/run.sh   # reuse the last benchmark build
#
# Measures: clean release build; start-up (`--version`); loading and validating every case (`lint`); the whole
# suite against the reference handler in each mode with 1 job (per-case overhead) and with one job per core;
# report writing (as the run reports it). Each timing is the median of RUNS runs (default 5). Then floors.sh: the
# per-case cost against floor programs (../shared/bench) measured in the same run, lint against PyYAML's C loader,
# and 10,000 and 100,000 cases with peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-bench
runs=${RUNS:-5}
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu)

# Nanosecond wall clock without starting an interpreter inside the measured interval (GNU date; perl on macOS).
if [ "$(date +%N)" != "N" ]; then now() { date +%s%N; }; else now() { perl -MTime::HiRes=time -e 'printf "%d\n", time * 1e9'; }; fi
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
elapsed_ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", (b - a) / 1e6 }'; }

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  rm -rf "$scratch"
  start=$(now)
  build_log=$(mktemp)
  swift build -c release --scratch-path "$scratch" --product appflip-conformance >"$build_log" 2>&1 \
    || { cat "$build_log" >&2; echo "benchmark: the release build failed" >&2; exit 1; }
  build_s=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.1f\n", (b - a) / 1e9 }')
  # The reference server, for the HTTP floor (not part of the timed build).
  swift build -c release --scratch-path "$scratch" --product appflip-reference >"$build_log" 2>&1 \
    || { cat "$build_log" >&2; echo "benchmark: the release build of appflip-reference failed" >&2; exit 1; }
else
  build_s="(skipped)"
fi
bin="$scratch/release/appflip-conformance"

time_command() {  # median wall milliseconds of a command, run $runs times
  for _ in $(seq "$runs"); do
    start=$(now); "$@" >/dev/null 2>&1 || true; end=$(now)
    elapsed_ms "$start" "$end"
  done | median
}

# The whole-suite figures measure per-case cost, so the cases that only wait (code expiry waits out the code
# lifetime) are left out of a copy of the cases; lint and list still read the real directory.
timed_cases="$scratch/cases-without-waits"
rm -rf "$timed_cases" && mkdir -p "$scratch" && cp -R Conformance/cases "$timed_cases"
grep -rl '^ *wait:' "$timed_cases" | xargs rm -f

startup_ms=$(time_command "$bin" --version)
lint_ms=$(time_command "$bin" lint)
cases=$("$bin" list "$timed_cases" | wc -l | tr -d ' ')

echo "| Measure | Value |"
echo "| --- | ---: |"
echo "| Clean release build (\`swift build -c release\`, product appflip-conformance) | ${build_s} s |"
echo "| Start-up (\`appflip-conformance --version\`) | ${startup_ms} ms |"
echo "| Load and validate ${cases} cases and the catalog (\`lint\`) | ${lint_ms} ms |"
for mode in one-shot persistent; do
  for jobs in 1 "$cores"; do
    walls=(); writes=()
    for _ in $(seq "$runs"); do
      start=$(now)
      out=$("$bin" run --target reference --cases "$timed_cases" --mode "$mode" --jobs "$jobs" --reports "$scratch/reports" 2>/dev/null)
      end=$(now)
      walls+=("$(elapsed_ms "$start" "$end")")
      writes+=("$(sed -n 's/.*written in \([0-9.]*\) ms.*/\1/p' <<<"$out")")
    done
    wall=$(printf '%s\n' "${walls[@]}" | median)
    write=$(printf '%s\n' "${writes[@]}" | median)
    per_case=$(awk -v w="$wall" -v c="$cases" 'BEGIN { printf "%.2f\n", w / c }')
    echo "| Whole suite, $mode, --jobs $jobs: wall time (per case) | ${wall} ms (${per_case} ms) |"
    [ "$jobs" = 1 ] && [ "$mode" = persistent ] && echo "| Writing the reports (junit.xml, report.md, results.json) for ${cases} cases | ${write} ms |"
  done
done
echo
echo "Machine: $(uname -sm), ${cores} cores; $(swift --version 2>&1 | head -n 1); median of ${runs} runs; $(date -u +%Y-%m-%d)."
echo
echo "Against the machine's floors, measured in the same run (one run each; Benchmarks/floors.sh):"
echo
bash "$(dirname "$0")/floors.sh" "$bin" "$scratch"
