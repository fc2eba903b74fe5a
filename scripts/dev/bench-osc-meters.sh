#!/bin/sh
# A/B: the process thread's worst cycle with and without OSC meter pushes.
# Usage: scripts/dev/bench-osc-meters.sh [ROUNDS] [SECONDS]   (needs jackd, jack_simple_client,
# python3-liblo and a built .build/debug/voicerack). Run it in a private /dev/shm:
#   unshare -m sh -c 'mount -t tmpfs tmpfs /dev/shm && scripts/dev/bench-osc-meters.sh'
# Each round runs voicerack (echo-cancel, a sine on mic_in and far_in_L, period 256 at 48 kHz)
# twice with the same four python3-liblo peers: once registered for meters at 30 Hz ("on"),
# once registered to a port nobody serves ("peers": the same peer load, no pushes). It prints
# voicerack's callback summary for each run and the pushes each peer got.
set -eu
rounds=${1:-3}
seconds=${2:-30}
cd "$(dirname "$0")/../.."
server=bench-osc-$$
work=$(mktemp -d)
jackd -n "$server" -S -d dummy -r 48000 -p 256 >"$work/jackd.log" 2>&1 &
jackd=$!
trap 'kill $jackd 2>/dev/null; rm -rf "$work"' EXIT
sleep 1
jack_simple_client sine "$server" >/dev/null 2>&1 &
sine=$!
sleep 1
round=1
while [ "$round" -le "$rounds" ]; do
  for mode in peers on; do
    .build/debug/voicerack run --server "$server" --name vr --no-auto-connect --preset echo-cancel --osc 9300 \
      >"$work/$mode.log" 2>&1 &
    voicerack=$!
    sleep 2
    jack_connect -s "$server" sine:output1 vr:mic_in
    jack_connect -s "$server" sine:output1 vr:far_in_L
    target=9300
    [ "$mode" = peers ] && target=9301
    peers=""
    for p in 1 2 3 4; do
      /usr/bin/python3 Tests/JACKIntegrationTests/osc-peer.py meters "$target" 30 "$((seconds - 2))" >"$work/peer-$p.json" &
      peers="$peers $!"
    done
    sleep "$seconds"
    kill -INT "$voicerack"
    wait "$voicerack" || true
    for peer in $peers; do wait "$peer"; done
    pushes=$(for p in 1 2 3 4; do /usr/bin/python3 -c "import json,sys;print(len(json.load(open(sys.argv[1]))['meters']), end=' ')" "$work/peer-$p.json"; done)
    echo "round $round, $mode: $(grep 'summary: callback' "$work/$mode.log" | sed 's/.*summary: //'); pushes per peer: $pushes"
  done
  round=$((round + 1))
done
kill "$sine"
