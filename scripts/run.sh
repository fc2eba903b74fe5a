#!/usr/bin/env bash
# The main job: the live JACK client on a demo call.
#
# Installs what is missing, builds voicerack, makes a demo echo scenario (espeak-ng speech played
# into a simulated room with sox, a near-end talker on top), starts a dummy-driver JACK server when
# none is running (and stops it afterwards), runs `voicerack run --preset echo-cancel` recording
# its processed voice, plays the scenario through voicerack's real JACK ports (mic_in, far_in_L/R)
# with voicerack-testpeer, and prints where the recording is and what the engine measured.
#
#   scripts/run.sh [OUT_FOLDER]        (default demo-out/)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release >&2
bin=$(swift build -c release --show-bin-path)
out=${1:-demo-out}
mkdir -p "$out"
tmp=$(mktemp -d)
jackd_pid="" voicerack_pid=""
cleanup() {
  [ -n "$voicerack_pid" ] && kill -INT "$voicerack_pid" 2>/dev/null && wait "$voicerack_pid" 2>/dev/null || true
  [ -n "$jackd_pid" ] && kill "$jackd_pid" 2>/dev/null && wait "$jackd_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

scripts/dev/make-demo-scenario.sh "$out" >&2
echo "demo scenario: $out/mic.wav (your voice + the echo of $out/far.wav)"

# A JACK server: the one already running, else a private dummy-driver server.
if jack_lsp >/dev/null 2>&1; then
  server=${JACK_DEFAULT_SERVER:-default}
  echo "using the running JACK server '$server' (nothing is connected to your speakers)"
else
  server=voicerack-demo-$$
  jackd --no-realtime -n "$server" -d dummy -r 48000 -p 256 >"$tmp/jackd.log" 2>&1 &
  jackd_pid=$!
  for _ in $(seq 100); do jack_lsp -s "$server" >/dev/null 2>&1 && break; sleep 0.1; done
  jack_lsp -s "$server" >/dev/null 2>&1 || { cat "$tmp/jackd.log" >&2; echo "run.sh: jackd did not start" >&2; exit 69; }
  echo "started a dummy JACK server '$server' (48 kHz, 256-frame periods)"
fi

client=voicerack-demo
"$bin/voicerack" run --server "$server" --name "$client" --preset echo-cancel --no-auto-connect \
  --record "$out/voice.wav" --force >"$tmp/voicerack.log" 2>&1 &
voicerack_pid=$!
for _ in $(seq 100); do jack_lsp -s "$server" 2>/dev/null | grep -q "^$client:voice_out" && break; sleep 0.1; done
jack_lsp -s "$server" -p | grep -A1 "^$client:" | sed 's/^/  /'

echo "playing the call through $client's ports..."
"$bin/voicerack-testpeer" --server "$server" --target "$client" --mic "$out/mic.wav" --ref "$out/far.wav" \
  --out "$out/voice-seen-by-peer.wav"

kill -INT "$voicerack_pid"
wait "$voicerack_pid" || true
voicerack_pid=""
echo
echo "--- voicerack ---"
cat "$tmp/voicerack.log"
echo "---"
echo "recorded the processed voice: $out/voice.wav"
echo "listen: play $out/mic.wav (before) and $out/voice.wav (after)"
