#!/usr/bin/env bash
# Benchmark (not a test): LV2 hosting overhead. LV2Unit.process (mono mapping, atom buffers,
# worker delivery, block splitting) against the plugin's bare run() on the same audio, for a
# few plugins from Debian packages. Release build, plugins from the system's LV2 folder only.
#   scripts/dev/bench-lv2.sh [voicerack-bench options, e.g. --blocks 64]
# (Instruction counts under callgrind, as scripts/bench.sh --instructions does, are not offered:
# this valgrind cannot read the release binary's debug info.)
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/install-deps.sh
swift build -c release --product voicerack-bench >&2
bench="$(swift build -c release --show-bin-path)/voicerack-bench"
export LV2_PATH=/usr/lib/lv2
# x42 dpl and LSP limiter: look-ahead limiters (the signal is loud enough for them to work); LSP
# gate: a gate; SWH singlePara: one biquad, the cheapest run() there is, so the worst case for
# relative overhead.
plugins=(http://gareus.org/oss/lv2/dpl#mono http://lsp-plug.in/plugins/lv2/limiter_mono
  http://lsp-plug.in/plugins/lv2/gate_mono http://plugin.org.uk/swh-plugins/singlePara)
list=$(IFS=,; echo "${plugins[*]}")
exec "$bench" --lv2 "$list" --seconds 120 --repeat 7 --blocks 256 "$@"
