#!/usr/bin/env bash
# Evidence (not a test): jackd2's synchronous engine wedges for good when a client opens and
# closes while another client in the graph is late; its default asynchronous mode recovers.
#
# A private dummy-driver jackd (FLAGS, default "-S"; give "" for asynchronous mode) runs voicerack
# fed by jack_simple_client's sine, as the JACK tests do. ROUNDS times (default 30): the sine is
# stopped (SIGSTOP) for 10-300 ms, meanwhile a second jack_simple_client opens, activates and is
# stopped with SIGTERM after 0-190 ms, then the sine goes on. The server counts as wedged when
# jackd keeps printing "engine may now behave abnormally" for a whole second once all clients run
# again. Prints the round it wedged at, or that it never did, and voicerack's callback summary
# (a wedged server calls voicerack about once in ten periods).
#
# Measured with jackd2 1.9.21 (Debian 12): synchronous mode wedged in 3 of 3 runs, at rounds 13,
# 2 and 4; asynchronous mode in none of 4 runs (120 rounds); synchronous with -t 2000 in none of
# 2 runs. This is why the JACK suites run a test again on a fresh server when its jackd wedged
# (Tests/JACKIntegrationTests/JACKWedgeWatch.swift) and nothing else.
# Run it in a private /dev/shm when other JACK servers run: unshare -m sh -c 'mount -t tmpfs
# tmpfs /dev/shm && scripts/dev/jackd-sync-wedge-probe.sh -S 30'.
set -uo pipefail
cd "$(dirname "$0")/../.."
flags=${1--S}
rounds=${2:-30}
voicerack=${VOICERACK:-.build/debug/voicerack}
[ -x "$voicerack" ] || { echo "build voicerack first (swift build), or set VOICERACK" >&2; exit 66; }
name="wedge-probe-$$"
dir=$(mktemp -d)
trap 'kill $vr $sine 2>/dev/null; kill $jackd 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT
# shellcheck disable=SC2086 # FLAGS are words for jackd
jackd -n "$name" $flags -d dummy -r 48000 -p 256 >"$dir/jackd.log" 2>&1 &
jackd=$!
for _ in $(seq 50); do jack_lsp -s "$name" >/dev/null 2>&1 && break; sleep 0.1; done
"$voicerack" run --server "$name" --name vr --no-auto-connect --preset raw >"$dir/voicerack.log" 2>&1 &
vr=$!
jack_simple_client sine "$name" >/dev/null 2>&1 &
sine=$!
sleep 2
jack_connect -s "$name" sine:output1 vr:mic_in
incomplete() { grep -c 'engine may now behave abnormally' "$dir/jackd.log"; }
result="never wedged in $rounds rounds"
for round in $(seq "$rounds"); do
    kill -STOP $sine
    (jack_simple_client other "$name" >/dev/null 2>&1 & other=$!; sleep 0.$((RANDOM % 20)); kill $other 2>/dev/null; wait $other) &
    closer=$!
    sleep 0.$(((RANDOM % 30) + 1))
    kill -CONT $sine
    wait $closer
    sleep 0.3
    before=$(incomplete); sleep 1; after=$(incomplete)
    if [ "$after" -gt $((before + 2)) ]; then result="wedged at round $round ($((after - before)) incomplete cycles in the last second)"; break; fi
done
kill -INT $vr; wait $vr
echo "jackd ${flags:-(asynchronous)}: $result"
grep -o 'summary: callback: .*' "$dir/voicerack.log"
