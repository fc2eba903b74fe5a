#!/usr/bin/env bash
# Installs what voicerack needs from Debian (and, with --eval, what the echo-cancellation
# yardstick needs from Debian and PyPI). Installs only what is missing; safe to run every time.
set -euo pipefail
# dbus-daemon and python3-dbus: jackdbus + jack_control, the only way to change a running server's
# sample rate (switch-master), which the live tests use.
# man-db, groff-base, desktop-file-utils, systemd, zsh and fish: scripts/test-install.sh renders the
# installed man page, validates the .desktop file, verifies the user unit and tries the completions;
# tmux: the status-line test.
packages=(pkg-config libjack-jackd2-dev jackd2 jack-capture libspeexdsp-dev libsndfile1-dev sox espeak-ng
  dbus-daemon python3-dbus man-db groff-base desktop-file-utils systemd zsh fish tmux)
python_modules=()
if [ "${1:-}" = "--eval" ]; then
  packages+=(festival festvox-us-slt-hts festvox-kallpc16k festvox-kdlpc16k build-essential)
  python_modules=(numpy scipy soundfile pesq pystoi pyroomacoustics)
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
for m in "${python_modules[@]}"; do
  python3 -c "import $m" 2>/dev/null || pip install -q "$m" >&2
done
