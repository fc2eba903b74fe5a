#!/usr/bin/env bash
# Benchmark (not a test): the streamer's CPU per audio second against ffmpeg's, for Ogg Opus at
# 64 kb/s and MP3 at 128 kb/s. A private icecast2 (own config in a temp folder, 127.0.0.1, a free
# port, run as nobody when started as root) takes both streams at once: voicerack-bench feeds a
# spoken file (espeak-ng, 48 kHz mono, SECONDS long, default 20) in real-time 256-frame periods to
# the streamer while `ffmpeg -re` streams the same file to another mount. Both count user + system
# CPU of their whole process. darkice cannot read a file (only ALSA, JACK, PulseAudio), so ffmpeg
# is the reference.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
scripts/install-deps.sh
swift build -c release --product voicerack-bench >&2
bench="$(swift build -c release --show-bin-path)/voicerack-bench"
tmp=$(mktemp -d)
chmod 777 "$tmp"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
password="bench$RANDOM$RANDOM"
owner=""
[ "$(id -u)" -eq 0 ] && owner="<changeowner><user>nobody</user><group>nogroup</group></changeowner>"
cat >"$tmp/icecast.xml" <<XML
<icecast>
  <limits><sources>4</sources></limits>
  <authentication><source-password>$password</source-password><admin-user>admin</admin-user>
    <admin-password>$password</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>$port</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <paths><basedir>$tmp</basedir><logdir>$tmp</logdir><webroot>/usr/share/icecast2/web</webroot>
    <adminroot>/usr/share/icecast2/admin</adminroot><pidfile>$tmp/icecast.pid</pidfile></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot>$owner</security>
</icecast>
XML
icecast2 -c "$tmp/icecast.xml" >/dev/null 2>&1 &
icecast_pid=$!
trap 'kill $icecast_pid 2>/dev/null; wait $icecast_pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done

# Speech, looped to SECONDS, 48 kHz mono float.
espeak-ng -w "$tmp/speech.wav" "Testing the voicerack streamer. One, two, three, four. \
  The quick brown fox jumps over the lazy dog while the podcast goes live to the world."
sox "$tmp/speech.wav" -r 48000 -c 1 -e float -b 32 "$tmp/signal.wav" repeat 20 trim 0 "$seconds" norm -6

base="icecast://source:$password@127.0.0.1:$port"
TIMEFORMAT="%U %S"
printf '%-6s %5s  %22s  %22s  %s\n' format kb/s "voicerack ms CPU/audio s" "ffmpeg ms CPU/audio s" "ratio"
for run in "opus 64 libopus ogg audio/ogg" "mp3 128 libmp3lame mp3 audio/mpeg"; do
  read -r format kbps codec container type <<<"$run"
  "$bench" --stream-url "$base/voicerack.$format" --stream-format "$format" --stream-bitrate "$kbps" \
    --stream-input "$tmp/signal.wav" >"$tmp/voicerack.txt" &
  vr_pid=$!
  ff=$( { time ffmpeg -nostdin -loglevel error -re -i "$tmp/signal.wav" -c:a "$codec" -b:a "${kbps}k" \
      -content_type "$type" -f "$container" "$base/ffmpeg.$format" >/dev/null 2>&1; } 2>&1 )
  wait $vr_pid
  vr=$(sed -n 's/.*= \([0-9.]*\) ms per audio second.*/\1/p' "$tmp/voicerack.txt")
  awk -v f="$format" -v k="$kbps" -v vr="$vr" -v t="$ff" -v s="$seconds" 'BEGIN { split(t, a, " ");
    ff = (a[1] + a[2]) * 1000 / s; printf "%-6s %5d  %22.2f  %22.2f  %.2f\n", f, k, vr, ff, vr / ff }'
  sed 's/^/  /' "$tmp/voicerack.txt"
done
