#!/usr/bin/env bash
# Benchmark (not a test): CPU time of the full voicerack chain against the bare speexdsp calls
# with the same settings, for blocks of 64, 256 and 1024 at 48 kHz. Release build.
#   scripts/bench.sh [voicerack-bench options]   thread CPU time, min of 3 runs
#   scripts/bench.sh --instructions [options]    instruction counts under callgrind: repeatable
#                                                whatever else the machine is doing (options such as
#                                                --speaker-drive 5 or --drift-ppm 100 go to the bench),
#                                                then each stage's share of the chain, in units of
#                                                the bare speexdsp calls (the shares add up to the
#                                                ratio). BENCH_BLOCKS="256" narrows the block sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product voicerack-bench >&2
bench="$(swift build -c release --show-bin-path)/voicerack-bench"
if [ "${1:-}" != "--instructions" ]; then
  exec "$bench" "$@"
fi
shift
command -v valgrind >/dev/null || { apt-get install -y -qq valgrind >&2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# valgrind 3.19 gives up on this toolchain's DWARF ("possibly corrupted debuginfo file") and then
# counts nothing: it measures a copy without debug information (the symbols stay, so the
# functions are still named).
strip --strip-debug -o "$out/bench" "$bench"
echo "block  full chain Ir     bare speexdsp Ir  ratio"
shares=()
for block in ${BENCH_BLOCKS:-64 256 1024}; do
  # --ratio-only: one run of each, so the render cycle's inclusive count is one run's.
  VOICERACK_PRESETS="$PWD/presets" valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$out/bench" \
    --seconds 5 --repeat 1 --blocks "$block" --ratio-only "$@" >/dev/null 2>&1
  # Inclusive instruction counts of the render cycle and of the bare speexdsp loop.
  # (Through a file: grep -m1 closing a pipe early would fail the pipeline under pipefail.)
  callgrind_annotate --inclusive=yes "$out/cg" > "$out/annotated"
  full=$(grep -m1 'StateV6render3mic7farLeft' "$out/annotated" | awk '{gsub(",","",$1); print $1}')
  bare=$(grep -m1 'runBareSpeex' "$out/annotated" | awk '{gsub(",","",$1); print $1}')
  awk -v b="$block" -v f="$full" -v s="$bare" 'BEGIN { printf "%5d  %16.0f  %16.0f  %5.3f\n", b, f, s, f / s }'
  # The stages: the inclusive counts of what the canceller's frame and its deferred analysis (small
  # blocks move the analysis to the next cycle) call, from callgrind's calling tree, by the mangled
  # names' stable parts; what no pattern names (the delay estimator, the leveller, re-framing,
  # meters, the high-pass) is the rest.
  callgrind_annotate --inclusive=yes --tree=calling "$out/cg" > "$out/calling"
  shares+=("$(awk -v b="$block" -v f="$full" -v s="$bare" '
    function count(line) { gsub(",", "", line); split(line, w, " "); return w[1] }
    /^ *[0-9,]+ .*\*  .*SpeexB9CancellerV(12processFrame|17finishPendingWork)/ { inside = 1; next }
    inside && /^$/ { inside = 0 }
    inside && /ProcessorV6cancel/ { filter += count($0) }
    inside && /VoiceSuppressor08SpectralB0V7process/ { suppressor += count($0) }
    inside && (/CancellerResidualV6update/ || /ResidualB10SuppressorV/ || /LeftoverB0V7observe/) { post += count($0) }
    inside && /SpeakerCurveV/ { curve += count($0) }
    END {
      if (filter == 0) print "bench.sh: no speexdsp filter call under the canceller frame (renamed or inlined?)" > "/dev/stderr"
      rest = f - filter - suppressor - post - curve
      printf "%5d  %6.3f  %10.3f  %11.3f  %13.3f  %5.3f  %5.3f\n", b, filter / s, suppressor / s, post / s, curve / s, rest / s, f / s
    }' "$out/calling")")
done
echo
echo "Each stage in units of the bare speexdsp calls (filter: speexdsp's echo filter inside the chain;"
echo "post-filter: the residual echo model, coherence and leftover-echo gains; rest: delay estimator,"
echo "leveller, re-framing, high-pass, meters):"
echo "block  filter  suppressor  post-filter  speaker curve  rest   = ratio"
printf '%s\n' "${shares[@]}"
