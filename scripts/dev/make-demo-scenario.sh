#!/usr/bin/env bash
# Writes a demo echo scenario into FOLDER: far.wav (what the loudspeakers play: espeak-ng speech)
# and mic.wav (its echo through a simulated room, 90 ms late, plus a near-end talker from 7 s).
# 48 kHz float WAV. Needs espeak-ng and sox (scripts/install-deps.sh).
set -euo pipefail
out=${1:?usage: make-demo-scenario.sh FOLDER}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
espeak-ng -v en-us -s 150 -w "$tmp/far.wav" \
  "The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background. It is easy to tell the depth of a well. These days a chicken leg is a rare dish. Rice is often served in round bowls."
espeak-ng -v en+f3 -s 140 -w "$tmp/near.wav" \
  "Hello, this is the near end talking over the far end. The juice of lemons makes fine punch."
sox "$tmp/far.wav" -r 48000 -c 1 -b 32 -e float "$out/far.wav" norm -6
# The room: 90 ms of playback and capture latency, reverberation, 10 dB quieter at the mic.
sox "$out/far.wav" "$tmp/echo.wav" pad 0.09 reverb 40 50 30 vol 0.3
sox "$tmp/near.wav" -r 48000 -c 1 -b 32 -e float "$tmp/near48.wav" norm -12 pad 7
sox -m "$tmp/echo.wav" "$tmp/near48.wav" "$out/mic.wav" trim 0 "$(soxi -D "$out/far.wav")"
