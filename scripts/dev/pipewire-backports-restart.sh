#!/usr/bin/env bash
# Issue 30's must-show on a newer PipeWire: WirePlumber restarted alone mid-call, in a Debian 12
# root with bookworm-backports' PipeWire 1.4 and WirePlumber 0.5 (or, with --stock, bookworm's
# own 0.3.65 and 0.4.13), leaving the host's PipeWire alone.
#
# The root: the minbase bookworm tarball scripts/test-package.sh caches (made with debootstrap
# when missing), bookworm-backports in its sources, and in it pipewire, pipewire-pulse,
# wireplumber, pipewire-jack, pipewire-bin, pulseaudio-utils, dbus (from bookworm-backports
# unless --stock), the libraries voicerack's debug binary links and jq. No libjack of jackd2:
# pw-jack's libjack is the one. The Swift runtime is /opt/swift, bind-mounted read-only (the
# debug binary's RUNPATH); the binary and the repository's presets are copied in as an installed
# tree, and the repository's PipeWire fragment (packaging/pipewire/voicerack.conf) goes in
# PipeWire's pipewire.conf.d.
#
# Each run, in its own mount and PID namespaces (own /proc, /dev, /dev/shm, /tmp), a private
# runtime folder and a private `dbus-daemon --session`: PipeWire headless on a dummy driver with
# the tests' sound card (a null sink `system-playback`, ALSA's null device as `system-capture`),
# pipewire-pulse, WirePlumber, and `pw-jack voicerack run --preset echo-cancel --pipewire
# --wait-for-server`; voicerack-testpeer (built beside the binary) is the room, as in the call
# tests: from the far end's first sound at speaker_out it plays its echo and a near-end talker
# into mic_in over JACK links of its own; it also records the card's monitor over such a link
# (WirePlumber's restart does not touch it): what the card played, gaps included. Mid-call: a far-end talker `paplay`ed into
# voicerack-call, `parecord` from voicerack-mic, music `paplay`ed to system-playback by another
# app. Then WirePlumber alone is SIGKILLed and started again, and the checks (each prints its
# figure, seconds after the restart; "-" when it never came):
#   (a) the music stream is linked to system-playback again, and a new 2 s `paplay` to
#       system-playback ends within 4 s;
#   (b) voicerack's six links are back, a `parecord` from voicerack-mic started at the restart
#       is linked, and its take's last 3 s (after the link) hold voice (RMS above -40 dBFS).
# Also printed, not checked: the longest silence of the music at the card (a 15 kHz marker in it,
# in the room's recording of the card's monitor).
# voicerack's log is searched for its stall warning ("has not linked the desktop again"): its
# figure is the seconds after the restart, or "no". Links are read with a one-shot pw-dump
# (0.3.65's does not answer while WirePlumber 0.4 stalls: no links then).
# The script's microphone is not a module-loopback: on 1.4.2 one broke at the WirePlumber
# restart (docs/measurements.md).
# Exits non-zero when a run fails a check.
#
# Usage: scripts/dev/pipewire-backports-restart.sh [--stock] [--runs N] [--root DIR]
#          [--voicerack BINARY]     (root: chroot, mounts, namespaces)
#   BINARY defaults to the repository's .build/debug/voicerack; --root to a folder under /tmp
#   that is kept for the next runs (delete it to rebuild it).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
kind=backports runs=1 root="" binary="$repo/.build/debug/voicerack"
while [ $# -gt 0 ]; do
  case $1 in
    --stock) kind=stock ;;
    --runs) runs=$2; shift ;;
    --root) root=$2; shift ;;
    --voicerack) binary=$2; shift ;;
    *) echo "usage: $0 [--stock] [--runs N] [--root DIR] [--voicerack BINARY]" >&2; exit 64 ;;
  esac
  shift
done
root=${root:-${TMPDIR:-/tmp}/voicerack-wp-restart-$kind-root}
say() { echo "wp-restart: $*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root (chroot, mounts)"; exit 1; }
[ -x "$binary" ] || { say "no voicerack binary at $binary (swift build, or --voicerack)"; exit 1; }
for tool in sox espeak-ng python3 unshare chroot; do
  command -v $tool >/dev/null || { say "$tool is missing"; exit 1; }
done

# The root, made once.
if [ ! -e "$root/.ready" ]; then
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/voicerack
  tarball="$cache/bookworm-minbase.tar"
  rm -rf "$root" && mkdir -p "$root" "$cache"
  if [ -f "$tarball" ]; then
    tar -xf "$tarball" -C "$root"
  else
    say "making a Debian 12 root with debootstrap (a few minutes)"
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$root.debootstrap.log" 2>&1
    tar -cf "$tarball.partial" -C "$root" . && mv "$tarball.partial" "$tarball"
  fi
  cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/" 2>/dev/null \
    || cp /etc/apt/sources.list "$root/etc/apt/sources.list"
  echo 'deb http://deb.debian.org/debian bookworm-backports main' >"$root/etc/apt/sources.list.d/backports.list"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  target=""
  [ "$kind" = backports ] && target="-t bookworm-backports"
  # The binary's own libraries (ldd, less the Swift runtime), as Debian packages.
  libraries="libsndfile1 libebur128-1 libshout3 libopusenc0 libmp3lame0 libspeexdsp1 liblilv-0-0 liblo7 libstdc++6 libcairo2"
  say "installing PipeWire ($kind) into $root"
  unshare --mount --pid --fork --kill-child chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root DEBIAN_FRONTEND=noninteractive /bin/sh -ec "mount -t proc proc /proc; mount -t tmpfs tmpfs /tmp
      apt-get update -qq
      apt-get install -y -qq --no-install-recommends $target pipewire pipewire-pulse wireplumber pipewire-jack \
        pipewire-bin pulseaudio-utils dbus >/dev/null
      apt-get install -y -qq --no-install-recommends $libraries jq >/dev/null" >"$root.apt.log" 2>&1 \
    || { tail -20 "$root.apt.log" >&2; say "apt-get in the root failed"; exit 1; }
  ! chroot "$root" dpkg -s libjack-jackd2-0 >/dev/null 2>&1 || { say "jackd2's libjack got into the root"; exit 1; }
  touch "$root/.ready"
fi
say "$(chroot "$root" dpkg-query -W -f '${Package} ${Version}, ' pipewire wireplumber)in $root"

# voicerack as an installed tree (its presets in ../share), the fragment, the sounds.
rm -rf "$root/opt/voicerack" "$root/opt/voicerack-test"
mkdir -p "$root/opt/voicerack/bin" "$root/opt/voicerack/share/voicerack" "$root/opt/swift" "$root/opt/voicerack-test/in"
cp "$binary" "$root/opt/voicerack/bin/voicerack"
cp "$(dirname "$binary")/voicerack-testpeer" "$root/opt/voicerack/bin/"
cp -r "$repo/presets" "$root/opt/voicerack/share/voicerack/presets"
cp "$repo/packaging/pipewire/voicerack.conf" "$root/opt/voicerack-test/in/voicerack.conf"
in="$root/opt/voicerack-test/in"
espeak-ng -v en-us -s 150 -w "$in/far-speech.wav" \
  "The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background. It is easy to tell the depth of a well."
espeak-ng -v en-gb -s 140 -w "$in/near-speech.wav" \
  "These days a chicken leg is a rare dish. Rice is often served in round bowls. The juice of lemons makes fine punch."
# 60 s of the far end, 20 s of the near end (the speech repeated), music (two tones) and a 2 s tone.
sox "$in/far-speech.wav" -r 48000 -c 2 -b 16 "$in/far.wav" norm -6 repeat 9 trim 0 60
sox "$in/near-speech.wav" -r 48000 -c 1 -b 16 "$in/near.wav" norm -6 repeat 9 trim 0 20
# The music carries a 15 kHz tone, a marker no speech here has (espeak-ng speaks at 22.05 kHz).
sox -n -r 48000 -c 2 -b 16 "$in/music.wav" synth 60 sine 220 sine 330 sine 15000 vol 0.2
sox -n -r 48000 -c 2 -b 16 "$in/beep.wav" synth 2 sine 440 vol 0.2
# The room's echo path: a few taps (20 to 90 ms), -10 dB and less.
python3 - "$in/room-ir.wav" <<'PY'
import struct, sys, wave
taps = {960: 0.3, 1680: -0.15, 2400: 0.08, 4320: 0.04}
with wave.open(sys.argv[1], "wb") as w:
    w.setnchannels(1); w.setsampwidth(2); w.setframerate(48000)
    w.writeframes(b"".join(struct.pack("<h", int(taps.get(i, 0) * 32767)) for i in range(4800)))
PY

cat >"$root/opt/voicerack-test/scenario.sh" <<'SCENARIO'
#!/bin/bash
# Runs inside the root (see the script that writes it). $1: run number. Writes figures to
# stdout as "figure NAME VALUE" lines and the logs to out/RUN/.
set -u
run=$1
out=/opt/voicerack-test/out/$run
mkdir -p "$out"
export XDG_RUNTIME_DIR=/tmp/runtime HOME=/tmp/home
mkdir -p -m 700 "$XDG_RUNTIME_DIR" "$HOME"
export PIPEWIRE_RUNTIME_DIR=$XDG_RUNTIME_DIR DBUS_SESSION_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/bus
export PULSE_SERVER=unix:$XDG_RUNTIME_DIR/pulse/native PULSE_RUNTIME_PATH=$XDG_RUNTIME_DIR/pulse
export PULSE_COOKIE=$XDG_RUNTIME_DIR/pulse-cookie PULSE_STATE_PATH=$XDG_RUNTIME_DIR/pulse-state
export XDG_CONFIG_HOME=$HOME/config XDG_STATE_HOME=$HOME/state XDG_DATA_HOME=$HOME/data
conf=$XDG_RUNTIME_DIR/config
mkdir -p "$conf/pipewire.conf.d" "$XDG_CONFIG_HOME/wireplumber/wireplumber.conf.d" \
  "$XDG_CONFIG_HOME/wireplumber/main.lua.d" "$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d"
cp /opt/voicerack-test/in/voicerack.conf "$conf/pipewire.conf.d/"
# The sound card, as the tests make it: a null sink, and ALSA's null device as its microphone.
cat >"$conf/pipewire.conf" <<'CONF'
context.properties = { core.daemon = true core.name = pipewire-0 support.dbus = false
    default.clock.rate = 48000 default.clock.allowed-rates = [ 48000 ] default.clock.quantum = 256
    default.clock.min-quantum = 16 default.clock.max-quantum = 2048 }
context.spa-libs = { audio.convert.* = audioconvert/libspa-audioconvert api.alsa.* = alsa/libspa-alsa
    support.* = support/libspa-support }
context.modules = [
    { name = libpipewire-module-protocol-native } { name = libpipewire-module-metadata }
    { name = libpipewire-module-spa-node-factory } { name = libpipewire-module-client-node }
    { name = libpipewire-module-access } { name = libpipewire-module-adapter }
    { name = libpipewire-module-link-factory }
]
context.objects = [
    { factory = metadata args = { metadata.name = default } }
    { factory = spa-node-factory args = { factory.name = support.node.driver node.name = Dummy-Driver
        node.group = pipewire.dummy priority.driver = 20000 } }
    { factory = adapter args = { factory.name = support.null-audio-sink node.name = system-playback
        media.class = Audio/Sink audio.position = [ FL FR ] device.api = alsa priority.session = 1000 } }
    { factory = adapter args = { factory.name = api.alsa.pcm.source node.name = system-capture
        media.class = Audio/Source api.alsa.path = "null" audio.channels = 2 audio.position = [ FL FR ]
        audio.rate = 48000 audio.format = S16LE
        priority.session = 1000 } }
]
CONF
cat >"$conf/pipewire-pulse.conf" <<'CONF'
context.properties = { support.dbus = false }
context.spa-libs = { audio.convert.* = audioconvert/libspa-audioconvert support.* = support/libspa-support }
context.modules = [
    { name = libpipewire-module-protocol-native } { name = libpipewire-module-client-node }
    { name = libpipewire-module-adapter } { name = libpipewire-module-metadata }
    { name = libpipewire-module-protocol-pulse args = { server.address = [ "unix:native" ] } }
]
CONF
# WirePlumber headless: 0.5 reads wireplumber.conf.d, 0.4 the Lua folders.
cat >"$XDG_CONFIG_HOME/wireplumber/wireplumber.conf.d/90-headless.conf" <<'CONF'
wireplumber.profiles = {
  main = {
    hardware.bluetooth = disabled
    hardware.video-capture = disabled
    monitor.alsa.reserve-device = disabled
  }
}
CONF
wireplumber --version | grep -q 'libwireplumber 0\.4' && printf '%s\n' 'default_access.enable()' 'alsa_monitor.properties["alsa.reserve"] = false' \
  'alsa_monitor.enable()' 'device_defaults.enable()' 'stream_defaults.enable()' \
  >"$XDG_CONFIG_HOME/wireplumber/main.lua.d/90-enable-all.lua"
wireplumber --version | grep -q 'libwireplumber 0\.4' && : >"$XDG_CONFIG_HOME/wireplumber/bluetooth.lua.d/90-enable-all.lua"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
figure() { echo "figure $1 $2"; }
# Every link as "output-port -> input-port" (node.name:port.name), from pw-dump.
links() {
  timeout 3 pw-dump 2>/dev/null | jq -r '
    (map(select(.type == "PipeWire:Interface:Node")) | map({key: (.id|tostring), value: .info.props["node.name"]}) | from_entries) as $n
    | (map(select(.type == "PipeWire:Interface:Port")) | map({key: (.id|tostring), value: ($n[(.info.props["node.id"]|tostring)] + ":" + .info.props["port.name"])}) | from_entries) as $p
    | .[] | select(.type == "PipeWire:Interface:Link") | select(.info.state == "active" or .info.state == "paused" or .info.state == "allocating" or .info.state == "negotiating")
    | "\($p[(.info["output-port-id"]|tostring)]) -> \($p[(.info["input-port-id"]|tostring)])"'
}
# The node named by an app's application.name (what pipewire-pulse calls its stream).
linked() { links >"$out/links.txt"; grep -Eq "$1" "$out/links.txt"; }
voicerack_links() {
  links >"$out/links.txt"
  local n=0
  for pattern in '^voicerack:speaker_out_L -> system-playback:' '^voicerack:speaker_out_R -> system-playback:' \
    '^system-capture:[^ ]* -> voicerack:mic_in$' '^voicerack-call:monitor_FL -> voicerack:far_in_L$' \
    '^voicerack-call:monitor_FR -> voicerack:far_in_R$' '^voicerack:voice_out -> voicerack-mic:'; do
    grep -Eq "$pattern" "$out/links.txt" && n=$((n + 1))
  done
  echo $n
}
# wait_for SECONDS COMMAND...: polls every 0.1 s; 0 once it succeeds.
wait_for() {
  local end=$(($(date +%s) + $1)); shift
  while [ "$(date +%s)" -lt $end ]; do "$@" && return 0; sleep 0.1; done
  return 1
}
six() { [ "$(voicerack_links)" = 6 ]; }
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; }
trap cleanup EXIT

dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --nofork --nopidfile >"$out/dbus.log" 2>&1 &
pids+=($!)
wait_for 5 test -S "$XDG_RUNTIME_DIR/bus"
PIPEWIRE_CONFIG_DIR=$conf pipewire -c "$conf/pipewire.conf" >"$out/pipewire.log" 2>&1 &
pids+=($!)
sleep 0.5
PIPEWIRE_CONFIG_DIR=$conf pipewire -c pipewire-pulse.conf >"$out/pulse.log" 2>&1 &
pids+=($!)
wireplumber >"$out/wireplumber-1.log" 2>&1 &
wp=$!
pids+=($wp)
wait_for 20 sh -c 'pactl list short sinks 2>/dev/null | grep -q voicerack-call' \
  || { echo "FAIL: the desktop did not come up"; exit 1; }
pw-jack /opt/voicerack/bin/voicerack run --name voicerack --preset echo-cancel --pipewire --wait-for-server \
  >"$out/voicerack.log" 2>&1 &
pids+=($!)
wait_for 30 six || { echo "FAIL: voicerack's links did not come up: $(voicerack_links) of 6"; cat "$out/links.txt"; exit 1; }

# The call, and another app's music on the sound card.
cd /opt/voicerack-test/in
# The room (as in the call tests): voicerack-testpeer hears speaker_out, and from the far end's
# first sound plays its echo and the near-end talker into mic_in, over JACK links of its own.
pw-jack /opt/voicerack/bin/voicerack-testpeer --name room --target voicerack --room room-ir.wav --mic near.wav \
  --out "$out/room.wav" --listen speaker_out_L,system-playback:monitor_FL --timeout 120 >"$out/room.log" 2>&1 &
room=$!; pids+=($room)
wait_for 10 grep -q connected "$out/room.log"
paplay --client-name=far-end -d voicerack-call far.wav >"$out/far.log" 2>&1 & pids+=($!)
paplay --client-name=music -d system-playback music.wav >"$out/music.log" 2>&1 & pids+=($!)
parecord --client-name=call-app --latency-msec=100 -d voicerack-mic --file-format=wav --channels=1 --rate=48000 "$out/before.wav" \
  >"$out/rec-before.log" 2>&1 & recBefore=$!; pids+=($recBefore)
streams_linked() {
  links >"$out/links.txt"
  grep -q ' -> system-playback:' "$out/links.txt" && grep -q '^room:[^ ]* -> voicerack:mic_in' "$out/links.txt" \
    && grep -q ' -> voicerack-call:' "$out/links.txt" && grep -q '^voicerack-mic:' "$out/links.txt" \
    && [ "$(grep -c ' -> system-playback:' "$out/links.txt")" -ge 4 ]
}
wait_for 15 streams_linked || { echo "FAIL: the call's streams were not linked before the restart"; cat "$out/links.txt"; exit 1; }
sleep 3
cp "$out/links.txt" "$out/links-before.txt"
music_node=$(grep -E ' -> system-playback:playback_FL$' "$out/links-before.txt" | grep -v '^voicerack:' | head -1 | cut -d: -f1)
[ -n "$music_node" ] || { echo "FAIL: no music link"; exit 1; }

# WirePlumber alone, killed and started again.
kill -9 $wp; wait $wp 2>/dev/null
wireplumber >"$out/wireplumber-2.log" 2>&1 &
wp=$!; pids+=($wp)
t0=$(now)
parecord --client-name=call-app-again --latency-msec=100 -d voicerack-mic --file-format=wav --channels=1 --rate=48000 "$out/after.wav" \
  >"$out/rec-after.log" 2>&1 & recAfter=$!; pids+=($recAfter)
paplay --client-name=beep -d system-playback beep.wav >"$out/beep.log" 2>&1 & beep=$!; pids+=($beep)
fail=0
music=- beepEnd=- six=- rec=- far=- recOld=-
deadline=$(awk -v t="$t0" 'BEGIN { printf "%.3f", t + 15 }')
while awk -v d="$deadline" -v n="$(now)" 'BEGIN { exit !(n < d) }'; do
  links >"$out/links.txt"  # empty when pw-dump does not answer within 3 s
  [ "$music" = - ] && grep -Eq "^$music_node:[^ ]* -> system-playback:" "$out/links.txt" && music=$(since "$t0")
  [ "$far" = - ] && grep -Eq "^far-end[^ ]* -> voicerack-call:|^[^ ]* -> voicerack-call:" "$out/links.txt" && far=$(since "$t0")
  [ "$six" = - ] && six && six=$(since "$t0")
  if [ "$rec" = - ] || [ "$recOld" = - ]; then
    n=$(grep -c '^voicerack-mic:' "$out/links.txt")
    [ "$recOld" = - ] && [ "$n" -ge 1 ] && recOld=$(since "$t0")
    [ "$rec" = - ] && [ "$n" -ge 2 ] && rec=$(since "$t0")
  fi
  [ "$beepEnd" = - ] && ! kill -0 $beep 2>/dev/null && beepEnd=$(since "$t0")
  [ "$music" != - ] && [ "$far" != - ] && [ "$six" != - ] && [ "$rec" != - ] \
    && [ "$beepEnd" != - ] && break
  sleep 0.1
done
cp "$out/links.txt" "$out/links-after.txt"
figure music_relinked "$music"
figure new_paplay_2s_ended "$beepEnd"
figure voicerack_six_links "$six"
figure far_end_relinked "$far"
figure parecord_across_restart_relinked "$recOld"
figure new_parecord_linked "$rec"
# The new take: 3 s more once it is linked.
[ "$rec" != - ] && sleep 3.5
timeout 3 pw-dump >"$out/pw-dump-after.json" 2>/dev/null
# parecord writes its file out when SIGINT ends it.
kill -INT $recAfter $recBefore 2>/dev/null
wait_for 5 sh -c "! kill -0 $recAfter 2>/dev/null && ! kill -0 $recBefore 2>/dev/null"
kill -0 $beep 2>/dev/null && kill -9 $beep
wait $beep; figure new_paplay_status $?
# The room's take (the card's monitor) is written when its near-end talker has ended.
wait_for 30 sh -c "! kill -0 $room 2>/dev/null"
# voicerack's stall warning, and how long after the restart it came (its log's timestamps).
warned=$(grep -m1 'has not linked the desktop again' "$out/voicerack.log" | cut -c1-23)
if [ -n "$warned" ]; then
  figure voicerack_stall_warning "$(awk -v w="$(date -d "${warned}Z" +%s.%N)" -v t="$t0" 'BEGIN { printf "%.2f", w - t }')"
else
  figure voicerack_stall_warning no
fi
timeout 3 pw-dump 2>/dev/null | jq -r '.[] | select(.type == "PipeWire:Interface:Node") | select(.info.props["node.name"] == "'"$music_node"'") | .info.state' \
  | head -1 | sed 's/^/figure music_state /'
exit 0
SCENARIO
chmod +x "$root/opt/voicerack-test/scenario.sh"

# One run in the root: own namespaces, /proc, /dev, /dev/shm, /tmp; /opt/swift read-only.
run_in_root() {
  unshare --mount --pid --fork --kill-child /bin/sh -ec "
    mount --bind /opt/swift '$root/opt/swift'; mount -o remount,bind,ro '$root/opt/swift'
    mount -t proc proc '$root/proc'
    mount -t tmpfs -o mode=755 tmpfs '$root/dev'
    for d in null zero full random urandom tty; do touch '$root/dev/'\$d; mount --bind /dev/\$d '$root/dev/'\$d; done
    mkdir '$root/dev/shm'; mount -t tmpfs tmpfs '$root/dev/shm'
    mount -t tmpfs tmpfs '$root/tmp'
    exec chroot '$root' /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 /opt/voicerack-test/scenario.sh $1"
}
# rms FILE SKIP: RMS level (dBFS) of FILE after SKIP s.
rms() { sox "$1" -n trim "$2" stats 2>&1 | awk '/^RMS lev dB/ {print $4}'; }

passed=0
for run in $(seq "$runs"); do
  output=$(run_in_root "$run" 2>&1) || true
  echo "$output" | sed "s/^/run $run: /"
  value() { echo "$output" | awk -v k="$1" '$1 == "figure" && $2 == k { print $3 }'; }
  ok=1
  why=""
  echo "$output" | grep -q '^FAIL' && { ok=0; why="setup"; }
  d="$root/opt/voicerack-test/out/$run"
  level=-
  if [ "$ok" = 1 ]; then
    for k in music_relinked voicerack_six_links new_parecord_linked new_paplay_2s_ended; do
      [ "$(value $k)" != - ] || { ok=0; why="$why $k"; }
    done
    e=$(value new_paplay_2s_ended)
    [ "$e" = - ] || awk -v e="$e" 'BEGIN { exit !(e <= 4) }' || { ok=0; why="$why paplay-slow"; }
    [ "$(value new_paplay_status)" = 0 ] || { ok=0; why="$why paplay-status"; }
    r=$(value new_parecord_linked)
    if [ "$r" != - ] && [ -s "$d/after.wav" ]; then
      length=$(soxi -D "$d/after.wav")
      # The take's last 3 s are those after the link (parecord writes nothing before it).
      skip=$(awk -v l="$length" 'BEGIN { s = l - 3; print (s < 0 ? 0 : s) }')
      level=$(rms "$d/after.wav" "$skip")
      awk -v l="$level" 'BEGIN { exit !(l > -40) }' || { ok=0; why="$why silent-take"; }
    else
      ok=0; why="$why no-take"
    fi
    before=$([ -s "$d/before.wav" ] && rms "$d/before.wav" 0 || echo -)
    echo "run $run: figure take_before_restart_rms_dbfs $before"
  fi
  echo "run $run: figure new_take_rms_dbfs $level"
  # The longest silence of the music's 15 kHz marker at the card from its first sound to the
  # take's end (the music lasts longer): a stall that never ends counts to the end.
  gap=-
  if [ -s "$d/room.wav" ]; then
    gap=$(sox -V1 "$d/room.wav" -t raw -r 48000 -e signed -b 16 -c 1 - remix 2 sinc 14500-15500 | python3 -c '
import struct, sys
data = sys.stdin.buffer.read()
samples = struct.unpack("<%dh" % (len(data) // 2), data)
window = 480  # 10 ms
loud = [max(abs(x) for x in samples[i:i + window]) > 300 for i in range(0, len(samples) - window, window)]
start = loud.index(True) if True in loud else len(loud)
longest = run = 0
for flag in loud[start:]:
    run = 0 if flag else run + 1
    longest = max(longest, run)
print("%.2f" % (longest * window / 48000))')
  fi
  echo "run $run: figure music_gap_at_card $gap"
  if [ "$ok" = 1 ]; then passed=$((passed + 1)); say "run $run: PASS"; else say "run $run: FAIL:$why (logs: $d)"; fi
done
say "$kind: $passed of $runs runs passed"
[ "$passed" = "$runs" ]
