#!/usr/bin/env bash
# Benchmark (not a test): peak memory of `voicerack process` against the length of the files,
# which streams its inputs and outputs in blocks, so the peak stays flat. Measured with
# /usr/bin/time -v (maximum resident set size) on generated files (16-bit WAV inputs, float WAV
# output) in a temporary folder, for each preset and length given.
#   scripts/dev/bench-memory.sh [PRESET:MINUTES ...]     default: raw:10 raw:240 echo-cancel:10 echo-cancel:60
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/install-deps.sh
command -v /usr/bin/time >/dev/null || apt-get install -y -qq time >&2
swift build -c release --product voicerack >&2
bin="$(swift build -c release --show-bin-path)/voicerack"
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(raw:10 raw:240 echo-cancel:10 echo-cancel:60)
work=$(mktemp -d "${TMPDIR:-/tmp}/voicerack-bench-memory.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "preset        minutes  input MB  peak RSS MB  CPU s"
for run in "${runs[@]}"; do
  preset=${run%%:*} minutes=${run##*:}
  seconds=$((minutes * 60))
  sox -q -n -r 48000 -b 16 -c 1 "$work/mic.wav" synth "$seconds" pinknoise vol 0.1
  sox -q -n -r 48000 -b 16 -c 1 "$work/ref.wav" synth "$seconds" whitenoise vol 0.1
  /usr/bin/time -v "$bin" process --preset "$preset" --mic "$work/mic.wav" --ref "$work/ref.wav" \
    --out "$work/out.wav" --force -q 2> "$work/time.txt"
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time.txt")
  cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$work/time.txt")
  input=$(( ($(stat -c %s "$work/mic.wav") + $(stat -c %s "$work/ref.wav")) / 1000000 ))
  awk -v p="$preset" -v m="$minutes" -v i="$input" -v r="$rss" -v c="$cpu" 'BEGIN { printf "%-13s %7d  %8d  %11.1f  %5.1f\n", p, m, i, r / 1024, c }'
  rm -f "$work/mic.wav" "$work/ref.wav" "$work/out.wav"
done
