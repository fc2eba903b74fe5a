#!/usr/bin/env bash
# Scores `voicerack process` on the shared echo-cancellation yardstick (../shared/eval) at 48 and
# 16 kHz, next to the textbook speexdsp baseline and WebRTC AEC3 (pywebrtc-audio). Prints the tables and writes JSON/markdown into
# OUT (default: eval-results/). Usage: scripts/eval.sh [--preset NAME] [--block N] [--seed N] [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=echo-cancel block=256 seed=""
while [ $# -gt 0 ]; do
  case "$1" in
    --preset) preset=$2; shift 2 ;;
    --block) block=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    *) break ;;
  esac
done
out=${1:-eval-results}
eval_dir=${VOICERACK_EVAL:-../shared/eval}
[ -d "$eval_dir" ] || { echo "eval.sh: yardstick not found at $eval_dir (set VOICERACK_EVAL)" >&2; exit 69; }
scripts/install-deps.sh --eval
swift build -c release --product voicerack >&2
bin=$(swift build -c release --show-bin-path)/voicerack
mkdir -p "$out"
for rate in 48000 16000; do
  scen=${TMPDIR:-/tmp}/voicerack-scen${rate}${seed:+-seed$seed}
  [ -f "$scen/index.json" ] || python3 "$eval_dir/make_scenarios.py" --out "$scen" --rate "$rate" ${seed:+--seed "$seed"} >&2
  python3 "$eval_dir/evaluate.py" --scenarios "$scen" \
    --cmd "$bin process --preset $preset --block $block --mic {mic} --ref {ref} --out {out} --quiet" \
    --name "voicerack-$preset" --system speexdsp-ref --system webrtc \
    --json "$out/eval-$rate.json" --md "$out/eval-$rate.md" --details
done
