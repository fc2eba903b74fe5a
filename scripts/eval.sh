#!/usr/bin/env bash
# Scores `voicerack process` on the shared echo-cancellation yardstick (../shared/eval): the
# synthetic and the real-speech set, at 48 and 16 kHz, seeds 1 and 7, with AECMOS and DNSMOS,
# beside the textbook speexdsp baseline, WebRTC AEC3 (pywebrtc-audio), DeepFilterNet 3
# (scripts/dev/dfn3-process.py, noise only) and the kit's oracle (the clean near end).
# Writes each run's JSON and markdown into OUT (default: eval-results/), then prints one summary
# table per set and rate (scripts/dev/eval-summary.py; also OUT/summary.md and OUT/summary.json).
#
# Usage: scripts/eval.sh [--set syn|real] [--rate HZ] [--seed N] [--no-mos] [--preset NAME]
#                        [--block N] [OUT]
# --set, --rate and --seed narrow the run and may be repeated (--seed 1 --seed 7).
# Scenario sets are generated once into ${TMPDIR:-/tmp}/voicerack-eval-<set><rate>-s<seed>.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=echo-cancel block=256 mos=(--mos)
sets=() rates=() seeds=()
while [ $# -gt 0 ]; do
  case "$1" in
    --preset) preset=$2; shift 2 ;;
    --block) block=$2; shift 2 ;;
    --set) sets+=("$2"); shift 2 ;;
    --rate) rates+=("$2"); shift 2 ;;
    --seed) seeds+=("$2"); shift 2 ;;
    --no-mos) mos=(); shift ;;
    -*) echo "eval.sh: unknown option $1" >&2; exit 64 ;;
    *) break ;;
  esac
done
[ ${#sets[@]} -gt 0 ] || sets=(syn real)
[ ${#rates[@]} -gt 0 ] || rates=(48000 16000)
[ ${#seeds[@]} -gt 0 ] || seeds=(1 7)
out=${1:-eval-results}
eval_dir=${VOICERACK_EVAL:-../shared/eval}
[ -d "$eval_dir" ] || { echo "eval.sh: yardstick not found at $eval_dir (set VOICERACK_EVAL)" >&2; exit 69; }
for s in "${sets[@]}"; do
  case "$s" in syn | real) ;; *) echo "eval.sh: --set is syn or real, not $s" >&2; exit 64 ;; esac
done
scripts/install-deps.sh --eval
# The yardstick's Python modules live in the venv install-deps.sh made.
PATH="$(pwd)/.build/eval-venv/bin:$PATH"
swift build -c release --product voicerack >&2
bin=$(printf %q "$(swift build -c release --show-bin-path)/voicerack")
dfn3="python3 $(printf %q "$(pwd)/scripts/dev/dfn3-process.py")"
dfn3_latency=$(python3 scripts/dev/dfn3-process.py --print-latency)
mkdir -p "$out"

# make_set SET RATE SEED: prints the folder of that scenario set, generating it when missing
# (into a private folder renamed at the end, so concurrent runs never read half a set).
make_set() {
  local dir=${TMPDIR:-/tmp}/voicerack-eval-$1$2-s$3 config=()
  [ "$1" = real ] && config=(--config "$eval_dir/real-config.json")
  if [ ! -f "$dir/index.json" ]; then
    rm -rf "$dir.part$$"
    python3 "$eval_dir/make_scenarios.py" "${config[@]}" --out "$dir.part$$" --rate "$2" --seed "$3" >&2
    mv -T "$dir.part$$" "$dir" 2>/dev/null || rm -rf "$dir.part$$"
  fi
  echo "$dir"
}

start=$(date +%s) results=()
for set in "${sets[@]}"; do
  for rate in "${rates[@]}"; do
    for seed in "${seeds[@]}"; do
      scen=$(make_set "$set" "$rate" "$seed")
      run=$out/eval-$set-$rate-s$seed
      echo "eval.sh: $set set, $rate Hz, seed $seed" >&2
      # evaluate.py takes one --cmd per call: voicerack with the built-in systems, then DFN3.
      python3 "$eval_dir/evaluate.py" --scenarios "$scen" "${mos[@]}" \
        --cmd "$bin process --preset $preset --block $block --mic {mic} --ref {ref} --out {out} --quiet" \
        --name "voicerack-$preset" --system speexdsp-ref --system webrtc --system oracle \
        --json "$run.json" --md "$run.md" --details >/dev/null
      python3 "$eval_dir/evaluate.py" --scenarios "$scen" "${mos[@]}" \
        --cmd "$dfn3 --mic {mic} --out {out}" --name dfn3 --latency-ms "$dfn3_latency" \
        --json "$run-dfn3.json" --md "$run-dfn3.md" --details >/dev/null
      results+=("$run.json" "$run-dfn3.json")
    done
  done
done
echo "eval.sh: $(($(date +%s) - start)) s for sets ${sets[*]}, rates ${rates[*]}, seeds ${seeds[*]}" >&2
python3 scripts/dev/eval-summary.py --md "$out/summary.md" --json "$out/summary.json" "${results[@]}"
