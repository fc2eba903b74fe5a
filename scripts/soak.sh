#!/usr/bin/env bash
# Soak test (not a CI test): how voicerack's process callback holds up over MINUTES (default 10)
# at a 64-sample period, recording, compared with a trivial pass-through on the same server.
#
#   scripts/soak.sh [MINUTES] [--web | --web-alternate | --attack | --pipewire | --loudness]
#
# Starts its own jackd (dummy driver, 48 kHz, period 64, unique name), feeds jack_simple_client's
# sine into mic_in and far_in_L, and runs
#   1. voicerack run --preset echo-cancel --record voice + tuning   for MINUTES, then
#   2. voicerack run --preset raw (no recording)                     for MINUTES,
# printing for each the callback cycles, those longer than the period, the worst callback time
# and its p99 and p99.9 as % of the period (wall clock, and the thread's own CPU time), the xruns
# JACK reported, the CPU time voicerack used and the machine's load average (1, 5, 15 min) as the
# run ended: other work on the machine shows there. With --web-alternate the echo-cancel run
# without and with the web panel take turns, SOAK_ROUNDS times (default 3: A B A B A B), so a
# difference the panel makes can be told from the machine's load drifting. With --web the
# first run is repeated with the web panel open in headless chromium (scripts/dev/panel-browser.py,
# streaming meters all along), side by side with the run without it; the difference in CPU time
# is the panel's own cost. With --attack the web panel run is repeated under hostile clients
# (Tests/JACKIntegrationTests/panel-attack.py over and over: a 1 MB header line, 2,000 idle
# connections, a slowloris of 500, a 512 MB WebSocket frame), voicerack limited to 1,024
# descriptors in both, side by side with the panel left alone. With --pipewire the server is a
# private headless PipeWire desktop instead (scripts/pipewire-desktop.sh: pipewire-pulse and
# WirePlumber, voicerack's nodes, a null sound card; quantum 256 unless SOAK_PERIOD says), every
# JACK client runs under pw-jack, and echo-cancel runs patched by hand, then with --pipewire (its
# six links kept, the graph watched), side by side. With --loudness the first run (which measures
# voice_out's loudness, as run does by default) runs between two runs with --no-loudness-meter, so
# the order of the runs on a busy machine shows apart from the live loudness meter's cost. SOAK_PERIOD=N picks another period (a busy machine may not hold 64).
# SOAK_PRESETS="podcast podcast-lv2" runs those presets instead (no recording), back to back:
# e.g. built-in units against LV2 units. VOICERACK=path picks the binary (default: a release
# build, made if missing). Needs jackd2's tools (jackd, jack_lsp, jack_connect,
# jack_simple_client).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
web=${2:-}
period=${SOAK_PERIOD:-64}
# The JACK clients' launcher: none on jackd, pw-jack on PipeWire.
jack=()
if [ "$web" = "--pipewire" ]; then
  period=${SOAK_PERIOD:-256}
  jack=(pw-jack)
  . scripts/pipewire-desktop.sh
fi
seconds=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')
export JACK_NO_START_SERVER=1
unset JACK_DEFAULT_SERVER

if [ -z "${VOICERACK:-}" ]; then
  swift build -c release --product voicerack >&2
  VOICERACK=$(swift build -c release --show-bin-path)/voicerack
fi
# Short: jack_lsp 1.9.21 aborts in malloc for some longer server names (seen with 24 characters).
server="vr-soak-$$"
work=$(mktemp -d "${TMPDIR:-/tmp}/voicerack-soak.XXXXXX")
# The web panel's lasting token goes to a private config folder, not the user's.
export XDG_CONFIG_HOME="$work/config"
pids=()
# Stops what we started, newest first, each before the next: jackd last, once its clients are
# gone (a jackd that dies unclean keeps its slot in JACK's 8-server registry in /dev/shm).
cleanup() {
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2>/dev/null || true
    wait "${pids[i]}" 2>/dev/null || true
  done
  if [ -n "${SOAK_KEEP_LOGS:-}" ]; then echo "soak: logs in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

if [ "$web" = "--pipewire" ]; then
  start_pipewire_desktop "$server" "$work" "$period" || exit 69
  : >"$work/jackd.log"
else
  jackd -n "$server" -d dummy -r 48000 -p "$period" >"$work/jackd.log" 2>&1 &
  pids+=("$!")
  for _ in $(seq 100); do jack_lsp -s "$server" >/dev/null 2>&1 && break; sleep 0.2; done
  jack_lsp -s "$server" >/dev/null 2>&1 || { echo "soak: jackd did not start:" >&2; cat "$work/jackd.log" >&2; exit 69; }
fi

"${jack[@]}" jack_simple_client sine "$server" >"$work/sine.log" 2>&1 &
pids+=("$!")

# run LABEL ARGS...: runs voicerack for $seconds with the sine on mic_in/far_in_L, prints its summary.
run() {
  local label=$1
  shift
  local log="$work/$label.log"
  local attack=""
  if [ "${1:-}" = "--under-attack" ]; then attack=1 && shift; fi
  # --pipewire links ports itself; every other run is patched here alone.
  local linking=--no-auto-connect
  case " $* " in *" --pipewire "*) linking="" ;; esac
  (ulimit -n "${SOAK_NOFILE:-$(ulimit -n)}" && exec "${jack[@]}" "$VOICERACK" run --server "$server" --name soak ${linking:+"$linking"} "$@") >"$log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  for _ in $(seq 100); do grep -q "running as JACK client" "$log" && break; sleep 0.1; done
  "${jack[@]}" jack_connect -s "$server" sine:output1 soak:mic_in
  "${jack[@]}" jack_connect -s "$server" sine:output2 soak:far_in_L
  echo "soak: $label for $minutes min..." >&2
  local browser=""
  if [ -n "$attack" ]; then
    for _ in $(seq 50); do grep -q "web panel: open" "$log" && break; sleep 0.1; done
    local url
    url=$(grep -o 'http://127.0.0.1:[0-9]*/?token=[0-9a-f]*' "$log" | head -1)
    (end=$((SECONDS + seconds)); while [ $SECONDS -lt $end ]; do
      python3 Tests/JACKIntegrationTests/panel-attack.py "$url" "$pid" >>"$work/$label-attack.log" 2>&1 || true; done) &
    browser=$!
  elif grep -q "web panel: open" "$log"; then
    local url
    url=$(grep -o 'http://127.0.0.1:[0-9]*/?token=[0-9a-f]*' "$log" | head -1)
    # The page stays open, drawing the meters, until the run ends.
    (printf '{"cmd":"open","url":"%s"}\n' "$url"; sleep "$seconds"; echo '{"cmd":"quit"}') |
      .build/browser-venv/bin/python scripts/dev/panel-browser.py >"$work/$label-browser.log" 2>&1 &
    browser=$!
  fi
  sleep "$seconds"
  # utime + stime (clock ticks) of the whole process, fields 14 and 15 of /proc/PID/stat.
  local ticks
  ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
  kill -INT "$pid"
  local status=0
  wait "$pid" || status=$?
  local summary
  summary=$(sed -n 's/^.*voicerack: summary: callback: //p' "$log")
  [ -z "$browser" ] || wait "$browser" || true
  printf '%-28s exit %s  CPU %.1f s  load %s  %s\n' "$label" "$status" "$(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { print t / hz }')" \
    "$(cut -d' ' -f1-3 /proc/loadavg)" "${summary:-no summary; see below}"
  sed -n 's/^.*voicerack: summary: recorded/  recorded/p; s/^.*voicerack: summary: loudness/  loudness/p' "$log"
  [ "$web" != "--pipewire" ] || echo "  pipewire links made: $(grep -c 'pipewire: linked' "$log" || true)"
  [ -n "$summary" ] || cat "$log"
}

echo "soak: ${jack[*]:-jackd} '$server' (dummy, 48 kHz, $period-sample periods = $(awk -v p="$period" 'BEGIN { printf "%.2f", p / 48 }') ms), $minutes min per run, binary $VOICERACK"
if [ "$web" = "--pipewire" ]; then
  run "echo-cancel, patched by hand" --preset echo-cancel
  run "echo-cancel --pipewire" --preset echo-cancel --pipewire
elif [ "$web" = "--web-alternate" ]; then
  # The same run without and with the panel, in turns: the machine's load drifts over minutes.
  for round in $(seq "${SOAK_ROUNDS:-3}"); do
    run "A$round echo-cancel + rec" --preset echo-cancel --record "voice=$work/voice-a$round.wav"
    run "B$round echo-cancel + rec + web" --preset echo-cancel --record "voice=$work/voice-b$round.wav" --web 0
  done
elif [ -n "${SOAK_PRESETS:-}" ]; then
  # A preset given as a path is labelled by its file name (the label names the log file).
  for preset in $SOAK_PRESETS; do run "$(basename "$preset" .toml)" --preset "$preset"; done
else
  if [ "$web" = "--loudness" ]; then
    run "echo-cancel + rec, no meter, first" --preset echo-cancel --record "voice=$work/voice0.wav" \
      --record "tuning=$work/tuning0.wav" --no-loudness-meter
  fi
  run "echo-cancel + recording" --preset echo-cancel --record "voice=$work/voice.wav" --record "tuning=$work/tuning.wav"
  if [ "$web" = "--loudness" ]; then
    run "echo-cancel + rec, no meter" --preset echo-cancel --record "voice=$work/voice2.wav" \
      --record "tuning=$work/tuning2.wav" --no-loudness-meter
  elif [ "$web" = "--attack" ]; then
    export SOAK_NOFILE=1024
    run "echo-cancel + web panel" --preset echo-cancel --record "voice=$work/voice2.wav" --web 0
    run "echo-cancel + web under attack" --under-attack --preset echo-cancel --record "voice=$work/voice3.wav" --web 0
    echo "soak: attack rounds: $(grep -c '^{' "$work/echo-cancel + web under attack-attack.log" || true); page slowest, s: $(grep -o '"page_slowest_s": [0-9.]*' "$work/echo-cancel + web under attack-attack.log" | awk '{ if ($2 > m) m = $2 } END { print m }'); page failures: $(grep -o '"page_failure_count": [0-9]*' "$work/echo-cancel + web under attack-attack.log" | awk '{ s += $2 } END { print s + 0 }')"
  elif [ "$web" = "--web" ]; then
    run "echo-cancel + rec + web panel" --preset echo-cancel --record "voice=$work/voice2.wav" \
      --record "tuning=$work/tuning2.wav" --web 0
  fi
  run "raw pass-through" --preset raw
fi
echo "soak: jackd log lines mentioning xruns: $(grep -ci xrun "$work/jackd.log" || true)"
