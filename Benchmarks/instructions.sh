#!/usr/bin/env bash
# Instructions the suite itself spends on the authorize sign-in walk, per request and per thread, counted by
# valgrind's callgrind: unlike wall-clock time, the count does not move with the machine's other load, so it shows
# what a change to the suite's own per-request work did even where the timings drown it (a shared VM's floors move
# ±50% between runs). Kernel time (the loopback send, waking the server) is not in it; floors.sh measures that.
#
#   bash Benchmarks/instructions.sh [BINARY] [pages|cookie]   # default .build/release/appflip-conformance, pages
#
# Runs 200 generated authorize cases (the success case) against `appflip-reference serve` in its own process, so the
# server's work is not counted, and prints the worker's and the judging thread's instructions a request and a case.
# `pages`: the sign-in walk, four requests a case (the sign-in page, the login POST, the consent page, the consent
# POST); `cookie`: one request a case, the approving user's cookie on it (floors.sh's one-request row). Needs valgrind
# (apt-get install valgrind); the binary is copied without its debug information, which valgrind 3.19 cannot read.
# KEEP=1 leaves the scratch directory (its callgrind files and their annotations) for a closer look.
set -euo pipefail
trap 'echo "instructions: stopped at line $LINENO" >&2' ERR
cd "$(dirname "$0")/.."
bin=${1:-.build/release/appflip-conformance}
mode=${2:-pages}
reference="$(dirname "$bin")/appflip-reference"
command -v valgrind >/dev/null || { echo "instructions: valgrind is not installed" >&2; exit 1; }
[ -x "$reference" ] || { echo "instructions: $reference is missing (swift build -c release --product appflip-reference)" >&2; exit 1; }
scratch=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$scratch"' EXIT
cases=200
case $mode in
  pages) requests=$(( cases * 4 )) ;;
  cookie) requests=$cases ;;
  *) echo "instructions: the user signs in by 'pages' or 'cookie', not '$mode'" >&2; exit 2 ;;
esac

mkdir -p "$scratch/cases"
{
  sed -e '/^table:/,$d' -e '/^#/d' Conformance/cases/authorize/success.case | sed 's#^id: .*#id: authorize/success/${row.key}#'
  echo "table:"
  awk -v n="$cases" 'BEGIN { for (i = 1; i <= n; i++) printf "  - key: r%06d\n    host: the production host\n    uri: https://oauth-redirect.googleusercontent.com/r/${project_id}\n", i }'
} > "$scratch/cases/bench.case"

"$reference" serve --port 0 > "$scratch/server.out" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q '^listening on ' "$scratch/server.out" && break; sleep 0.05; done
base=$(sed -n 's/^listening on //p' "$scratch/server.out")
[ -n "$base" ] || { echo "instructions: the reference server did not start" >&2; exit 1; }
bash Benchmarks/reference-target.sh "$base" "$mode" > "$scratch/target.yaml"

strip --strip-debug -o "$scratch/suite" "$bin"
APPFLIP_CLIENT_SECRET=reference-secret valgrind --tool=callgrind --separate-threads=yes \
  --callgrind-out-file="$scratch/callgrind.%p" "$scratch/suite" run --config "$scratch/target.yaml" --profile authorize \
  --cases "$scratch/cases" --jobs 1 --quiet --seed 1 --reports "$scratch/reports" > "$scratch/run.log" 2>&1 \
  || { tail -20 "$scratch/run.log" >&2; echo "instructions: the run failed" >&2; exit 1; }
grep -q "$cases pass" "$scratch/run.log" || { grep -a "cases:" "$scratch/run.log" >&2; echo "instructions: not every case passed" >&2; exit 1; }

# The inclusive count of a function in whichever thread's file has it (threads are told apart by what they ran).
inclusive() {
  # Each annotation is written out whole before it is searched: a search that stops at its first match would end
  # the annotator early (SIGPIPE), which pipefail takes for a failure.
  for file in "$scratch"/callgrind.*-*; do
    callgrind_annotate --inclusive=yes "$file" > "$file.annotated" 2>/dev/null || true
    awk -v name="$1" 'index($0, name) { gsub(",", "", $1); print $1; exit }' "$file.annotated"
  done | sort -n | tail -1
}
worker=$(inclusive '12StepExecutorC8sendOnly')
judging=$(inclusive '17DeferredJudgementV7outcome')
# The case's result redacted whole (Runner.Worker.finished), after the outcome, on the same thread.
sweep=$(inclusive '8RedactorV6redactyAA10CaseResultV')
per() { awk -v n="${1:-0}" -v d="$2" 'BEGIN { printf "%.0fk", n / d / 1000 }'; }
echo "| Thread (200 authorize cases, $requests requests ($mode), external reference server) | A request | A case |"
echo "| --- | ---: | ---: |"
echo "| worker: the exchange (HTTP client, cookies; the pages and forms of a walk), StepExecutor.sendOnly | $(per "$worker" "$requests") | $(per "$worker" "$cases") |"
echo "| judging thread: evidence, redaction, checks, DeferredJudgement.outcome | $(per "$judging" "$requests") | $(per "$judging" "$cases") |"
if [ -n "$sweep" ]; then
  echo "| judging thread: the result redacted whole, Redactor.redact(CaseResult) | $(per "$sweep" "$requests") | $(per "$sweep" "$cases") |"
fi
