#!/usr/bin/env bash
# Tests the Debian package on a clean Debian 12 root that has no Swift toolchain:
#   * builds it (scripts/package-deb.sh: static release build, dpkg-shlibdeps, lintian clean of
#     errors) and checks its control fields and the binary's libraries (none from the toolchain);
#   * makes a minbase bookworm root with debootstrap (kept as a tarball in the cache folder for
#     the next run, at most a week), and inside it, with its own /proc and /dev/shm in private
#     namespaces, `apt-get install ./voicerack_*.deb` (Depends from Debian) and jackd2;
#   * inside: voicerack --version, presets list, process over a generated far-end-only echo with
#     echo-cancel (the echo removed must match the build tree's within 0.1 dB), and run against a
#     dummy-driver jackd started there (ports registered, SIGINT exits 0);
#   * `run --wait-for-server` with no server waits (does not exit) and stops cleanly on SIGTERM:
#     what the user unit relies on; the unit verifies with systemd-analyze --user verify;
#   * `apt-get purge voicerack` leaves no file of the package in the root.
# Exits non-zero with a message naming the failed check.
#
# Usage: scripts/test-package.sh        (root: debootstrap and mount need it)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
fail() { echo "test-package: FAIL: $*" >&2; exit 1; }
pass() { echo "test-package: ok: $*" >&2; }
[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot and mounts)"
command -v debootstrap >/dev/null || fail "debootstrap is missing (scripts/install-deps.sh installs it)"
work=$(mktemp -d "${TMPDIR:-/tmp}/voicerack-package-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The package, and what it says of itself.
package=$(scripts/package-deb.sh --out "$work/deb" 2>"$work/package.log") || { cat "$work/package.log" >&2; fail "package-deb.sh failed"; }
grep '^lintian: ' "$work/package.log" >&2 || true
info=$(dpkg-deb --info "$package")
echo "$info" | sed 's/^/test-package: dpkg-deb --info: /' >&2
grep -q '^ Depends: .*libjack-jackd2-0.*libspeexdsp1.*' <<<"$info" || grep -q '^ Depends: .*libspeexdsp1' <<<"$info" \
  || fail "Depends does not name libspeexdsp1: $info"
grep -q '^ Depends: .*libsndfile1' <<<"$info" || fail "Depends does not name libsndfile1"
# --pipewire runs pw-dump, pw-cli and pw-metadata (pipewire-bin) and sends notifications with
# gdbus (libglib2.0-bin): recommended, as a desktop without them still runs voicerack on JACK.
for recommended in pipewire-bin libglib2.0-bin; do
  grep -q "^ Recommends: .*\\b$recommended\\b" <<<"$info" || fail "Recommends does not name $recommended: $info"
done
contents=$(dpkg-deb --contents "$package")
for f in ./usr/bin/voicerack ./usr/share/voicerack/presets/echo-cancel.toml ./usr/share/man/man1/voicerack.1.gz \
  ./usr/share/bash-completion/completions/voicerack ./usr/share/zsh/vendor-completions/_voicerack \
  ./usr/share/fish/vendor_completions.d/voicerack.fish ./usr/share/applications/voicerack.desktop \
  ./usr/lib/voicerack/voicerack-launch ./usr/lib/systemd/user/voicerack.service ./usr/share/doc/voicerack/copyright \
  ./usr/share/pipewire/pipewire.conf.d/voicerack.conf ./usr/lib/systemd/user/voicerack-pipewire.service; do
  grep -q " $f\$" <<<"$contents" || fail "the package lacks $f"
done
dpkg-deb --extract "$package" "$work/extracted"
binary="$work/extracted/usr/bin/voicerack"
libraries=$(ldd "$binary")
echo "$libraries" | sed 's/^/test-package: ldd: /' >&2
! grep -q 'not found' <<<"$libraries" || fail "the binary needs a library that is not installed"
! grep -qi 'swift' <<<"$libraries" || fail "the binary still needs a Swift library: $libraries"
pass "package built: $(basename "$package"), binary $(du -h "$binary" | cut -f1), $(grep -c '=>' <<<"$libraries") shared libraries"
unit="$work/extracted/usr/lib/systemd/user/voicerack.service"
grep -qx 'ExecStart=/usr/bin/voicerack run --preset echo-cancel --wait-for-server' "$unit" || fail "the unit does not run --wait-for-server"
grep -qx 'After=pipewire.service pipewire-pulse.service wireplumber.service' "$unit" || fail "the unit is not ordered after PipeWire"
if command -v systemd-analyze >/dev/null; then
  # The unit as installed: systemd resolves ExecStart against the host, so it verifies a copy
  # whose program exists here.
  sed "s|/usr/bin/voicerack|$binary|" "$unit" >"$work/voicerack.service"
  mkdir -m 700 "$work/runtime"
  XDG_RUNTIME_DIR="$work/runtime" systemd-analyze --user verify --man=no "$work/voicerack.service" 2>"$work/unit.err" \
    || fail "systemd-analyze --user verify: $(cat "$work/unit.err")"
  pw_unit="$work/extracted/usr/lib/systemd/user/voicerack-pipewire.service"
  grep -qx 'ExecStart=/usr/bin/pw-jack /usr/bin/voicerack run --preset echo-cancel --pipewire --wait-for-server' "$pw_unit" \
    || fail "the PipeWire unit does not run pw-jack voicerack run --pipewire --wait-for-server"
  sed "s|/usr/bin/voicerack|$binary|" "$pw_unit" >"$work/voicerack-pipewire.service"
  XDG_RUNTIME_DIR="$work/runtime" systemd-analyze --user verify --man=no "$work/voicerack-pipewire.service" 2>"$work/unit.err" \
    || fail "systemd-analyze --user verify of the PipeWire unit: $(cat "$work/unit.err")"
  pass "the user units verify (systemd-analyze --user verify)"
fi

# The clean root: Debian 12 minbase, no Swift anywhere in it.
cache=${XDG_CACHE_HOME:-$HOME/.cache}/voicerack
tarball="$cache/bookworm-minbase.tar"
root="$work/root"
mkdir -p "$cache" "$root"
if [ -f "$tarball" ] && [ -n "$(find "$tarball" -mtime -7)" ]; then
  tar -xf "$tarball" -C "$root"
else
  echo "test-package: making a Debian 12 root with debootstrap (a few minutes)" >&2
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap failed"; }
  tar -cf "$tarball.partial" -C "$root" . && mv "$tarball.partial" "$tarball"
fi
# The host's suites (updates and security), so the root's libraries are as new as the build's.
cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/" 2>/dev/null \
  || cp /etc/apt/sources.list "$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf"
swift_files=$(find "$root" \( -name 'libswift*' -o -name 'libFoundation*' -o -name swift -o -name swiftc \) -print -quit)
[ -z "$swift_files" ] || fail "the clean root holds a part of the Swift toolchain: $swift_files"

# Runs a script inside the root: own mount and PID namespaces (its /proc, a private /dev/shm for
# JACK), so nothing stays mounted and every process it started dies with it.
in_root() {
  unshare --mount --pid --fork --kill-child chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/sh -ec \
    "mount -t proc proc /proc; mount -t tmpfs tmpfs /dev/shm; mount -t tmpfs tmpfs /tmp; $1"
}
cp "$package" "$root/root/"
in_root "apt-get update -qq && apt-get install -y -qq /root/$(basename "$package") jackd2 sox >/dev/null 2>/root/apt.err || { cat /root/apt.err; exit 1; }" \
  >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get install of the package in the clean root failed"; }
[ ! -e "$root/opt/swift" ] && ! in_root 'command -v swift || ls /usr/lib/*/libswiftCore* /usr/lib/libswiftCore*' >/dev/null 2>&1 \
  || fail "the root has a Swift toolchain"
pass "installed with apt-get into a clean Debian 12 root without Swift"
in_root 'dpkg -L voicerack' >"$work/files.txt"

# Generated input: far-end speech and its echo alone through a room (90 ms late, reverberant).
espeak-ng -v en-us -s 150 -w "$work/speech.wav" \
  "The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background. It is easy to tell the depth of a well. These days a chicken leg is a rare dish."
sox "$work/speech.wav" -r 48000 -c 1 -b 32 -e float "$work/far.wav" norm -6
sox -V1 "$work/far.wav" "$work/mic.wav" pad 0.09 reverb 40 50 30 vol 0.3 trim 0 "$(soxi -D "$work/far.wav")"
mkdir -p "$root/root/in"
cp "$work/far.wav" "$work/mic.wav" "$root/root/in/"
# rms FILE: the RMS level in dB after the first 3 s (the canceller's start).
rms() { sox "$1" -n trim 3 stats 2>&1 | awk '/^RMS lev dB/ {print $4}'; }

out=$(in_root 'cd /root && voicerack --version && voicerack presets list && voicerack process --preset echo-cancel --mic in/mic.wav --ref in/far.wav --out in/clean.wav' 2>&1) \
  || fail "voicerack in the clean root failed: $out"
grep -qx "$(grep -o '"[0-9][^"]*"' Sources/voicerack/Version.swift | tr -d '"')" <<<"$out" || fail "--version in the root: $out"
grep -q '^echo-cancel .*\[shipped\]$' <<<"$out" || fail "presets list in the root does not show echo-cancel as shipped: $out"
"$repo/.build/debug/voicerack" process --preset echo-cancel --mic "$work/mic.wav" --ref "$work/far.wav" --out "$work/clean-tree.wav" \
  >/dev/null 2>&1 || fail "the build tree's voicerack process failed"
mic_db=$(rms "$work/mic.wav")
root_erle=$(awk -v m="$mic_db" -v o="$(rms "$root/root/in/clean.wav")" 'BEGIN {printf "%.2f", m - o}')
tree_erle=$(awk -v m="$mic_db" -v o="$(rms "$work/clean-tree.wav")" 'BEGIN {printf "%.2f", m - o}')
awk -v a="$root_erle" -v b="$tree_erle" 'BEGIN {d = a - b; exit !(d <= 0.1 && d >= -0.1 && a > 20)}' \
  || fail "echo removed in the root $root_erle dB, in the build tree $tree_erle dB (must agree within 0.1 dB, above 20)"
pass "process in the root: --version, presets list, echo removed $root_erle dB (build tree $tree_erle dB)"

# run against a dummy-driver jackd inside the root; then --wait-for-server with no server.
out=$(in_root '
  jackd -n pkgtest -d dummy -r 48000 -p 256 >/tmp/jackd.log 2>&1 &
  i=0; until jack_lsp -s pkgtest >/dev/null 2>&1; do i=$((i+1)); [ $i -lt 100 ] || { echo "jackd did not start"; cat /tmp/jackd.log; exit 1; }; sleep 0.1; done
  voicerack run --server pkgtest --name pkg --preset echo-cancel --no-auto-connect >/tmp/run.log 2>&1 &
  pid=$!
  i=0; until jack_lsp -s pkgtest 2>/dev/null | grep -q "^pkg:voice_out$"; do i=$((i+1)); [ $i -lt 300 ] || { echo "no ports"; cat /tmp/run.log; exit 1; }; sleep 0.1; done
  jack_lsp -s pkgtest | grep "^pkg:" | sort | tr "\n" " "; echo
  kill -INT $pid; status=0; wait $pid || status=$?
  [ $status -eq 0 ] || { echo "run exited $status on SIGINT"; cat /tmp/run.log; exit 1; }
  voicerack run --server nobody-here --preset echo-cancel --wait-for-server >/tmp/wait.log 2>&1 &
  pid=$!; sleep 3
  kill -0 $pid 2>/dev/null || { echo "run --wait-for-server exited without a server"; cat /tmp/wait.log; exit 1; }
  kill -TERM $pid; status=0; wait $pid || status=$?
  [ $status -eq 0 ] || { echo "run --wait-for-server exited $status on SIGTERM"; cat /tmp/wait.log; exit 1; }
  grep -q "waiting for one" /tmp/wait.log || { echo "no waiting message"; cat /tmp/wait.log; exit 1; }
' 2>&1) || fail "voicerack run in the root: $out"
for port in mic_in far_in_L far_in_R voice_out speaker_out_L speaker_out_R monitor_out_L monitor_out_R; do
  grep -q "pkg:$port " <<<"$out " || fail "run in the root did not register $port: $out"
done
pass "run in the root joins a dummy-driver jackd with its 8 ports and stops on SIGINT; --wait-for-server waits"

# Purge: no file of the package stays.
in_root 'apt-get purge -y -qq voicerack >/dev/null' >"$work/purge.log" 2>&1 || { cat "$work/purge.log" >&2; fail "apt-get purge failed"; }
left=()
while IFS= read -r path; do
  [ -f "$root$path" ] || [ -L "$root$path" ] && left+=("$path")
done <"$work/files.txt"
[ ${#left[@]} -eq 0 ] || fail "files of the package left after purge: ${left[*]}"
[ ! -e "$root/usr/share/voicerack" ] && [ ! -e "$root/usr/lib/voicerack" ] || fail "voicerack's folders left after purge"
pass "apt-get purge leaves no file of the package ($(wc -l <"$work/files.txt") paths checked)"
echo "test-package: all checks passed" >&2
