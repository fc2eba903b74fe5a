#!/usr/bin/env bash
# Runs voicerack's fuzz tests with many inputs and prints their totals: inputs tried, accepted
# (or answered), clean errors (sysexits codes, refusals), crashes (a signal or any other exit
# code), hangs (a connection open past its bound) and disclosures (a password or a file's
# contents in an error, a file reached outside the preset folders); the last three must be 0.
# The normal suite runs the same tests with a few hundred inputs each.
#
#   scripts/fuzz.sh [INPUTS] [SEED]     (default 3000 inputs per fuzzer, seed from the tests)
set -euo pipefail
cd "$(dirname "$0")/.."
inputs="${1:-3000}"
export VOICERACK_FUZZ_INPUTS="$inputs"
if [ -n "${2:-}" ]; then export VOICERACK_FUZZ_SEED="$2"; fi
swift build --build-tests >&2
log="$(mktemp)"
totals="$(mktemp)"
trap 'rm -f "$log" "$totals"' EXIT
status=0
# The --control fuzzer needs jackd (it starts a private dummy-driver server). The full-disk one
# mounts tmpfs disks (root; it skips otherwise) and runs a handful of inputs whatever INPUTS says.
filters=(
  PresetFuzzTests PresetLibraryFuzzTests AudioHeaderFuzzTests fuzzControlLines
  LV2StateFuzzTests PanelHTTPFuzzTests PanelWebSocketFuzzTests StreamURLFuzzTests PresetAccessFuzzTests
  SessionCheckFuzzTests RecorderDiskFullFuzzTests
)
# FUZZ_FILTERS="A B" runs only those.
if [ -n "${FUZZ_FILTERS:-}" ]; then read -r -a filters <<<"$FUZZ_FILTERS"; fi
for filter in "${filters[@]}"; do
  swift test --skip-build --filter "$filter" >"$log" 2>&1 || status=1
  grep -h '^fuzz ' "$log" | tee -a "$totals" || { echo "fuzz $filter: no totals (failed to run?)"; tail -20 "$log"; status=1; }
done
# "fuzz NAME: T inputs, A accepted or answered, E clean errors, C crashes, H hangs, D disclosures"
awk -F'[:,]' '{ for (i = 2; i <= NF; i++) { split($i, w, " "); n[w[2]] += w[1] } }
  END { printf "total: %d inputs, %d accepted or answered, %d clean errors, %d crashes, %d hangs, %d disclosures\n",
    n["inputs"], n["accepted"], n["clean"], n["crashes"], n["hangs"], n["disclosures"] }' "$totals"
exit $status
