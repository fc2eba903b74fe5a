#!/usr/bin/env bash
# Benchmark (not a test): CPU time of the full voicerack chain against the bare speexdsp calls
# with the same settings, for blocks of 64, 256 and 1024 at 48 kHz. Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product voicerack-bench >&2
"$(swift build -c release --show-bin-path)/voicerack-bench" "$@"
