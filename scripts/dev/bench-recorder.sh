#!/usr/bin/env bash
# Benchmark (not a test): the recorder's CPU per audio second against jack_capture, for 2 and 8
# channels at 48 kHz, float WAV, 256-frame periods, SECONDS long each (default 20).
# jack_capture records the capture ports of a private dummy-driver jackd with 8 capture channels.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
scripts/install-deps.sh
swift build -c release --product voicerack-bench >&2
bench="$(swift build -c release --show-bin-path)/voicerack-bench"
tmp=$(mktemp -d)
server=voicerack-recbench-$$
jackd --no-realtime -n "$server" -d dummy -r 48000 -p 256 -C 8 -P 2 >"$tmp/jackd.log" 2>&1 &
jackd_pid=$!
trap 'kill $jackd_pid 2>/dev/null; wait $jackd_pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do jack_lsp -s "$server" >/dev/null 2>&1 && break; sleep 0.1; done
TIMEFORMAT="%U %S"
for channels in 2 8; do
  "$bench" --recorder-channels "$channels" --seconds "$seconds"
  ports=()
  for c in $(seq "$channels"); do ports+=(--port "system:capture_$c"); done
  cpu=$( { time JACK_DEFAULT_SERVER=$server jack_capture --daemon --no-stdin -f wav -d "$seconds" \
      --channels "$channels" "${ports[@]}" "$tmp/jc-$channels.wav" >/dev/null 2>&1; } 2>&1 )
  awk -v c="$channels" -v s="$seconds" -v t="$cpu" 'BEGIN { split(t, a, " "); cpu = a[1] + a[2];
    printf "jack_capture:       %d ch, %d s at 48000 Hz float WAV: %.3f s CPU = %.2f ms per audio second\n", c, s, cpu, cpu * 1000 / s }'
done
