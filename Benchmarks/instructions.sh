#!/usr/bin/env bash
# Instructions the suite itself spends a case, per thread, counted by valgrind's callgrind: unlike wall-clock time,
# the count does not move with the machine's other load, so it shows what a change to the suite's own work did even
# where the timings drown it (a shared VM's floors move ±50% between runs). Kernel time (the loopback send, a pipe's
# wake-up) is not in it; floors.sh measures that.
#
#   bash Benchmarks/instructions.sh [BINARY] [pages|cookie|link]   # default .build/release/appflip-conformance, pages
#
# pages, cookie: 200 generated authorize cases (the success case) against `appflip-reference serve` in its own process,
# so the server's work is not counted; the worker's and the judging thread's instructions a request and a case.
# `pages`: the sign-in walk, four requests a case (the sign-in page, the login POST, the consent page, the consent
# POST); `cookie`: one request a case, the approving user's cookie on it (floors.sh's one-request row).
# link: 1,000 generated app-link cases (the valid-link case) on the persistent loop, `--jobs 1`, once with an adapter that
# declines every link and once with one that consents (../shared/bench/minihandler.c and openhandler.c, floors.sh's two
# persistent rows); the worker's and the judging thread's instructions a case, and the parts of the judging thread's.
# Needs valgrind (apt-get install valgrind); the binary is copied without its debug information, which valgrind 3.19
# cannot read. KEEP=1 leaves the scratch directory (its callgrind files and their annotations) for a closer look.
set -euo pipefail
trap 'echo "instructions: stopped at line $LINENO" >&2' ERR
cd "$(dirname "$0")/.."
bin=${1:-.build/release/appflip-conformance}
mode=${2:-pages}
reference="$(dirname "$bin")/appflip-reference"
command -v valgrind >/dev/null || { echo "instructions: valgrind is not installed" >&2; exit 1; }

# The inclusive count of a function (a part of its mangled name) in whichever thread's file of DIRECTORY has it
# (threads are told apart by what they ran). Each annotation is written out whole before it is searched: a search
# that stops at its first match would end the annotator early (SIGPIPE), which pipefail takes for a failure.
inclusive_in() {
  local directory=$1 name=$2
  for file in "$directory"/callgrind.*-*; do
    case $file in *.annotated) continue ;; esac
    [ -f "$file.annotated" ] || callgrind_annotate --inclusive=yes "$file" > "$file.annotated" 2>/dev/null || true
    awk -v name="$name" 'index($0, name) { gsub(",", "", $1); print $1; exit }' "$file.annotated"
  done | sort -n | tail -1
}
per() { awk -v n="${1:-0}" -v d="$2" 'BEGIN { printf "%.0fk", n / d / 1000 }'; }
# Every instruction of the process, all its threads (each thread's file says its total on its `summary:` or `totals:`
# line), in millions.
whole() {
  local files=()
  for file in "$1"/callgrind.*-*; do case $file in *.annotated) ;; *) files+=("$file") ;; esac; done
  awk '/^(summary|totals): / { if (!seen[FILENAME]++) total += $2 } END { printf "%.0fM", total / 1e6 }' "${files[@]}"
}

if [ "$mode" = link ]; then
  floors_src=${FLOORS_SRC:-"$(dirname "$0")/../../shared/bench"}
  [ -d "$floors_src" ] || { echo "instructions: $floors_src is missing (../shared beside the checkout)" >&2; exit 1; }
  scratch=$(mktemp -d)
  trap '[ -n "${KEEP:-}" ] || rm -rf "$scratch"' EXIT
  cases=1000
  mkdir -p "$scratch/cases"
  {
    sed -e 's#^id: .*#id: bench/valid-link/${row.key}#' -e '/^#/d' Conformance/cases/app-link/baseline/valid-link.case
    echo "table:"
    awk -v n="$cases" 'BEGIN { for (i = 1; i <= n; i++) printf "  - key: r%06d\n", i }'
  } > "$scratch/cases/bench.case"
  strip --strip-debug -o "$scratch/suite" "$bin"
  echo "| 1,000 app-link cases, persistent, \`--jobs 1\` | whole process | worker: the exchange (StepExecutor.sendOnly) | judging thread, all | of it: the judging (DeferredJudgement.outcome) | its texts spooled |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  for adapter in minihandler openhandler; do
    cc -O2 -o "$scratch/$adapter" "$floors_src/$adapter.c"
    mkdir -p "$scratch/$adapter-counts"
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$scratch/$adapter-counts/callgrind.%p" "$scratch/suite" run \
      --link https://app.example/flip --client-id google-client --profile app-link --jobs 1 --quiet --seed 1 --mode persistent \
      --cases "$scratch/cases" --reports "$scratch/reports-$adapter" -- "$scratch/$adapter" > "$scratch/$adapter.log" 2>&1 || true
    expected=$([ "$adapter" = openhandler ] && echo "$cases pass" || echo "$cases fail")
    grep -q "$expected" "$scratch/$adapter.log" || { grep -a "cases:" "$scratch/$adapter.log" >&2; echo "instructions: expected $expected with $adapter" >&2; exit 1; }
    directory="$scratch/$adapter-counts"
    worker=$(inclusive_in "$directory" '12StepExecutorC8sendOnly')
    judging=$(inclusive_in "$directory" '9runWorker7judgingyAA12JudgingQueueC_tFyyYbcfU1_ [')
    outcome=$(inclusive_in "$directory" '17DeferredJudgementV7outcome')
    pack=$(inclusive_in "$directory" '10CaseResultV5spool')
    label=$([ "$adapter" = openhandler ] && echo "consenting (openhandler)" || echo "declining (minihandler)")
    echo "| $label | $(whole "$directory") | $(per "$worker" "$cases") | $(per "$judging" "$cases") | $(per "$outcome" "$cases") | $(per "$pack" "$cases") |"
  done
  exit 0
fi
[ -x "$reference" ] || { echo "instructions: $reference is missing (swift build -c release --product appflip-reference)" >&2; exit 1; }
scratch=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$scratch"' EXIT
cases=200
case $mode in
  pages) requests=$(( cases * 4 )) ;;
  cookie) requests=$cases ;;
  *) echo "instructions: the mode is 'pages', 'cookie' or 'link', not '$mode'" >&2; exit 2 ;;
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

inclusive() { inclusive_in "$scratch" "$1"; }
worker=$(inclusive '12StepExecutorC8sendOnly')
judging=$(inclusive '17DeferredJudgementV7outcome')
echo "| Thread (200 authorize cases, $requests requests ($mode), external reference server) | A request | A case |"
echo "| --- | ---: | ---: |"
echo "| the whole process, every thread: $(whole "$scratch") | | |"
echo "| worker: the exchange (HTTP client, cookies; the pages and forms of a walk), StepExecutor.sendOnly | $(per "$worker" "$requests") | $(per "$worker" "$cases") |"
echo "| judging thread: evidence, redaction, checks, DeferredJudgement.outcome | $(per "$judging" "$requests") | $(per "$judging" "$cases") |"
