#!/usr/bin/env bash
# Proves that a change left `voicerack process`'s audio sample-identical: renders the yardstick's
# scenarios (../shared/eval) with the release build and writes one line per output, "NAME SHA256",
# the hash of the float samples (not of the file: a float WAV's header carries a time stamp).
#
# Covers the 10 scenarios at 48 and 16 kHz, seeds 1 and 7, through `echo-cancel` at blocks 256 and
# 64 (80 outputs), every other shipped preset in presets/ at block 256 over the 48 kHz, seed 1 set,
# and karaoke with a backing track there (its karaoke and tuning taps too). The scenarios are made
# once and cached under ${TMPDIR:-/tmp} (as scripts/eval.sh does).
#
# Usage: scripts/dev/output-identity.sh [--out LIST] [--compare LIST]
#   --out LIST      write the list there (default: standard output)
#   --compare LIST  also compare with a list saved earlier (e.g. on the starting commit): names
#                   each output that differs or is missing, and exits 1 if any does
#   VOICERACK=BIN   (environment) hash BIN's outputs instead of building, e.g. a copy of the
#                   starting commit's binary
set -euo pipefail
cd "$(dirname "$0")/../.."
out="" compare=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --compare) compare=$2; shift 2 ;;
    *) echo "usage: $0 [--out LIST] [--compare LIST]" >&2; exit 64 ;;
  esac
done
eval_dir=${VOICERACK_EVAL:-../shared/eval}
[ -d "$eval_dir" ] || { echo "output-identity.sh: yardstick not found at $eval_dir (set VOICERACK_EVAL)" >&2; exit 69; }
command -v sox > /dev/null || { echo "output-identity.sh: needs sox" >&2; exit 69; }
# The shipped presets of this checkout, wherever the binary lies.
export VOICERACK_PRESETS=$PWD/presets
# The yardstick's Python modules, where scripts/install-deps.sh --eval put them.
[ -d .build/eval-venv ] && PATH="$PWD/.build/eval-venv/bin:$PATH"
if [ -n "${VOICERACK:-}" ]; then
  bin=$VOICERACK
else
  swift build -c release --product voicerack >&2
  bin=$(swift build -c release --show-bin-path)/voicerack
fi

scenarios() { # RATE SEED: the cached scenario folder, made when missing
  local dir=${TMPDIR:-/tmp}/voicerack-scen$1-seed$2
  [ -f "$dir/index.json" ] || python3 "$eval_dir/make_scenarios.py" --out "$dir" --rate "$1" --seed "$2" >&2
  echo "$dir"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
list=$work/list

samples() { sox -V1 "$1" -t f32 - | sha256sum | cut -d' ' -f1; }

render() { # PRESET BLOCK SCENARIO-FOLDER NAME [OPTION ...]: one output's line, and one per tap-*.wav
  local wav=$work/out.wav preset=$1 block=$2 scenario=$3 name=$4 tap
  shift 4
  "$bin" process --preset "$preset" --block "$block" --mic "$scenario/mic.wav" --ref "$scenario/ref.wav" \
    --out "$wav" --force --quiet "$@"
  echo "$name $(samples "$wav")" >> "$list"
  for tap in "$work"/tap-*.wav; do
    [ -e "$tap" ] || continue
    echo "$name/$(basename "$tap" .wav) $(samples "$tap")" >> "$list"
    rm "$tap"
  done
}

for rate in 48000 16000; do
  for seed in 1 7; do
    dir=$(scenarios "$rate" "$seed")
    for scenario in "$dir"/*/; do
      scenario=${scenario%/}
      for block in 256 64; do
        render echo-cancel "$block" "$scenario" "echo-cancel/$block/$rate/seed$seed/$(basename "$scenario")"
      done
    done
  done
done
dir=$(scenarios 48000 1)
for preset in presets/*.toml; do
  name=$(basename "$preset" .toml)
  [ "$name" = echo-cancel ] && continue
  for scenario in "$dir"/*/; do
    scenario=${scenario%/}
    render "$name" 256 "$scenario" "$name/256/48000/seed1/$(basename "$scenario")"
  done
done
# The backing track's path: karaoke over one scenario's clean near-end speech as the song, with
# the karaoke and tuning taps recorded too (the cycle's tap routes).
for scenario in "$dir"/*/; do
  scenario=${scenario%/}
  render karaoke 256 "$scenario" "karaoke+backing/256/48000/seed1/$(basename "$scenario")" \
    --backing "$dir/02_double_talk/near_clean.wav" --record "karaoke=$work/tap-karaoke.wav" \
    --record "tuning=$work/tap-tuning.wav"
done

if [ -n "$out" ]; then cp "$list" "$out"; else cat "$list"; fi
echo "output-identity.sh: $(wc -l < "$list") outputs" >&2
if [ -n "$compare" ]; then
  differ=$(join -a1 -a2 -e missing -o 0,1.2,2.2 <(sort "$compare") <(sort "$list") | awk '$2 != $3 { print $1 }')
  if [ -n "$differ" ]; then
    echo "output-identity.sh: these outputs differ from $compare:" >&2
    echo "$differ" >&2
    exit 1
  fi
  echo "output-identity.sh: all $(wc -l < "$list") outputs identical to $compare" >&2
fi
