#!/usr/bin/env bash
# The main job: installs what is missing, builds voicerack, makes a demo echo scenario (espeak-ng
# speech played into a simulated room with sox, a near-end talker on top) and cleans it with the
# echo-cancel preset. Prints what the engine measured and where the files are.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product voicerack >&2
bin=$(swift build -c release --show-bin-path)/voicerack
out=${1:-demo-out}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Far end: a talker on the loudspeakers. Near end: you, joining after 4 s.
espeak-ng -v en-us -s 150 -w "$tmp/far.wav" \
  "The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background. It is easy to tell the depth of a well. These days a chicken leg is a rare dish. Rice is often served in round bowls."
espeak-ng -v en+f3 -s 140 -w "$tmp/near.wav" \
  "Hello, this is the near end talking over the far end. The juice of lemons makes fine punch."
sox "$tmp/far.wav" -r 48000 -c 1 -b 32 -e float "$out/far.wav" norm -6
# The room: 90 ms of playback and capture latency, reverberation, 10 dB quieter at the mic.
sox "$out/far.wav" "$tmp/echo.wav" pad 0.09 reverb 40 50 30 vol 0.3
sox "$tmp/near.wav" -r 48000 -c 1 -b 32 -e float "$tmp/near48.wav" norm -12 pad 4
sox -m "$tmp/echo.wav" "$tmp/near48.wav" "$out/mic.wav" trim 0 "$(soxi -D "$out/far.wav")"
echo "demo scenario: $out/mic.wav (near-end voice + echo of $out/far.wav)"
"$bin" process --preset echo-cancel --mic "$out/mic.wav" --ref "$out/far.wav" --out "$out/voice.wav" --force
echo "listen: play $out/mic.wav (before) and $out/voice.wav (after)"
