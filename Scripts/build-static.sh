#!/usr/bin/env bash
# Builds appflip-conformance as one file you can copy anywhere: on Linux with the Swift runtime and Foundation
# linked in (only the system's C libraries, libcurl and libssl among them, stay shared); on macOS a plain release build,
# since macOS carries the Swift runtime itself. Usage: Scripts/build-static.sh [--output PATH]
set -euo pipefail
cd "$(dirname "$0")/.."

output=""
if [ "${1:-}" = "--output" ]; then output="${2:?--output takes a path}"; fi

case "$(uname -s)" in
  Linux)
    # FoundationNetworking links against libcurl and the suite's TLS against the system's OpenSSL: their development
    # files must be installed (Debian/Ubuntu: apt-get install -y libcurl4-openssl-dev libssl-dev); the binary then
    # needs only libcurl4 and libssl3 at run time.
    swift build -c release --static-swift-stdlib --product appflip-conformance -Xlinker -lcurl || {
      echo "error: the static build failed; on Debian or Ubuntu install libcurl4-openssl-dev and libssl-dev and try again" >&2
      exit 1
    }
    flags=(--static-swift-stdlib)
    ;;
  Darwin)
    swift build -c release --product appflip-conformance
    flags=()
    ;;
  *)
    echo "error: unsupported system $(uname -s)" >&2
    exit 1
    ;;
esac

binary="$(swift build -c release "${flags[@]}" --show-bin-path)/appflip-conformance"
if [ "$(uname -s)" = Linux ] && ldd "$binary" | grep -q 'libswift'; then
  echo "error: $binary still needs the Swift runtime's shared libraries" >&2
  exit 1
fi
"$binary" --version
if [ -n "$output" ]; then
  cp "$binary" "$output"
  binary="$output"
fi
echo "built $binary: copy it anywhere; it carries the suite's cases and catalog"
