#!/usr/bin/env bash
# Several builds of the suite on the persistent loop, side by side: the same generated cases against the same minimal
# adapter, runs alternating between builds (so each build sees the machine in the same states), each build's times
# sorted (the fastest is the figure to compare: a run can only be slowed by other load). How issue 40's regression
# was found (bisecting with two builds at a time).
#
#   bash Benchmarks/persistent-builds.sh ROUNDS CASES_DIR BINARY...
#   ADAPTER=openhandler bash Benchmarks/persistent-builds.sh …   # the consenting adapter instead of the declining one
#
# CASES_DIR: generated app-link cases every build reads (floors.sh's generated-N, or one made from an older
# checkout's valid-link case for builds older than a change to it). The adapter is built from ../shared/bench:
# minihandler.c (the default: declines every link) or openhandler.c (consents: opens Google's redirect URI with a
# code and the state, so every check is judged whole), into a temporary directory; the pipe floor is that adapter's.
set -euo pipefail
rounds=$1 cases=$2
shift 2
floors_src=${FLOORS_SRC:-"$(dirname "$0")/../../shared/bench"}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
adapter=${ADAPTER:-minihandler}
case $adapter in minihandler|openhandler) ;; *) echo "persistent-builds: ADAPTER is minihandler or openhandler, not '$adapter'" >&2; exit 2 ;; esac
cc -O2 -o "$scratch/$adapter" "$floors_src/$adapter.c"
cc -O2 -o "$scratch/pipefloor" "$floors_src/pipefloor.c"
link=(--link https://app.example/flip --client-id google-client --profile app-link --jobs 1 --quiet --seed 1)
seconds() { sed -n 's/.*cases ran in \([0-9.]*\) \(m\{0,1\}s\).*/\1 \2/p' | awk '{ print ($2 == "ms") ? $1 / 1000 : $1 }'; }
declare -A times
for _ in $(seq "$rounds"); do
  for bin in "$@"; do
    t=$({ "$bin" run "${link[@]}" --mode persistent --cases "$cases" --reports "$scratch/reports" -- "$scratch/$adapter" 2>&1 || true; } | seconds)
    times[$bin]="${times[$bin]:-} $t"
  done
done
for bin in "$@"; do echo "$bin:$(tr ' ' '\n' <<<"${times[$bin]}" | sed '/^$/d' | sort -n | tr '\n' ' ')"; done
request="$scratch/request.json"
printf '%s\n' '{"id":"bench/valid-link/r000001","link":"https://app.example/flip?client_id=google-client&scope=devices&state=x6Tq1Lz0Qm8Vb3Nc5Rw7Yk&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.OPA","scenario":"consent"}' > "$request"
echo "pipe floor with $adapter (µs a round trip, five runs): $(for _ in 1 2 3 4 5; do "$scratch/pipefloor" 20000 "$request" "$scratch/$adapter" | sed -n 's/.*per=\([0-9.]*\) us.*/\1/p'; done | sort -n | tr '\n' ' ')"
