#!/usr/bin/env bash
# libFuzzer campaign on the case-file parser, the loader and the query parsing (Linux; needs the Swift toolchain's
# libFuzzer and lld). The same contract runs in `swift test` as a deterministic mutation fuzzer (FuzzTests).
#
#   bash Fuzz/run.sh                 # 60 seconds, corpus seeded from Conformance/cases
#   bash Fuzz/run.sh -max_total_time=600
set -euo pipefail
cd "$(dirname "$0")/.."
work=.build-fuzz
rm -rf "$work/src" && mkdir -p "$work/src" "$work/corpus"
# One module: the three layers' sources with their cross-module imports removed, plus the entry point.
for module in AppFlipSyntax AppFlipDigest AppFlipModel; do
  find "Sources/$module" -name '*.swift' | while read -r file; do
    sed -e '/^import AppFlipSyntax$/d' -e '/^import AppFlipDigest$/d' "$file" > "$work/src/${module}_$(basename "$file")"
  done
done
cp Fuzz/CaseFileFuzzer.swift "$work/src/"
cp Conformance/cases/*/*/*.case Conformance/cases/*/*.case "$work/corpus/" 2>/dev/null || true
swiftc -O -sanitize=fuzzer,address -parse-as-library -use-ld=lld -module-name AppFlipFuzz "$work"/src/*.swift -o "$work/fuzz-cases"
"$work/fuzz-cases" "$work/corpus" -max_len=65536 -max_total_time=60 -print_final_stats=1 "$@"
