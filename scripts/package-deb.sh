#!/usr/bin/env bash
# Builds voicerack_<version>_amd64.deb with Debian's own tools, from the release build (the Swift
# runtime linked in, so the package runs where no Swift toolchain is):
#   * the files scripts/install.sh installs, staged for /usr (--destdir), laid out as Debian
#     wants them: man pages gzipped, zsh completion in vendor-completions, the binary stripped;
#   * /usr/share/doc/voicerack/copyright (packaging/debian/copyright: voicerack's licence and those
#     of what the binary links statically) and changelog.gz;
#   * DEBIAN/control with Depends from dpkg-shlibdeps, and DEBIAN/md5sums;
#   * dpkg-deb --root-owner-group, then lintian, whose report is printed; an error fails the build.
# Prints the package's path on standard output.
#
# Usage: scripts/package-deb.sh [--out DIR]        (default DIR: .build/deb)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
out=.build/deb
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package-deb.sh: unknown argument '$1' (usage: scripts/package-deb.sh [--out DIR])" >&2; exit 64 ;;
  esac
done
for tool in dpkg-deb dpkg-shlibdeps lintian strip; do
  command -v "$tool" >/dev/null || { echo "package-deb.sh: $tool is missing (apt-get install dpkg-dev lintian binutils)" >&2; exit 69; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/voicerack-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root="$stage/voicerack"

scripts/install.sh --prefix /usr --destdir "$root" --configuration release
version=$("$root/usr/bin/voicerack" --version)
architecture=$(dpkg --print-architecture)

# Debian's layout and what its policy asks of the files.
mv "$root/usr/share/zsh/site-functions" "$root/usr/share/zsh/vendor-completions"
gzip -9n "$root"/usr/share/man/man1/*.1
# As dh_strip does for a program: symbols and the compiler's notes go; the Swift runtime's
# reflection metadata lives in allocated sections and stays.
strip --remove-section=.comment --remove-section=.note "$root/usr/bin/voicerack"
doc="$root/usr/share/doc/voicerack"
install -d "$doc"
install -m 644 packaging/debian/copyright "$doc/copyright"
{
  echo "voicerack ($version) unstable; urgency=medium"
  echo
  echo "  * Release $version: see the project's README and docs/ for what it does."
  echo
  echo " -- voicerack developers <voicerack@users.noreply.github.com>  $(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")"
} >"$doc/changelog"
gzip -9n "$doc/changelog"
chmod 644 "$doc/changelog.gz"
find "$root" -type d -exec chmod 755 {} +

# Depends: the shared libraries the binary needs, as dpkg-shlibdeps names their packages. It
# reads a debian/control of the source; a minimal one is enough.
mkdir -p "$stage/debian"
printf 'Source: voicerack\n\nPackage: voicerack\nArchitecture: any\n' >"$stage/debian/control"
depends=$(cd "$stage" && dpkg-shlibdeps -O -e voicerack/usr/bin/voicerack 2>"$stage/shlibdeps.err" | sed -n 's/^shlibs:Depends=//p') \
  || { cat "$stage/shlibdeps.err" >&2; exit 70; }
[ -n "$depends" ] || { echo "package-deb.sh: dpkg-shlibdeps found no dependencies" >&2; cat "$stage/shlibdeps.err" >&2; exit 70; }

install -d "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<CONTROL
Package: voicerack
Version: $version
Architecture: $architecture
Maintainer: voicerack developers <voicerack@users.noreply.github.com>
Installed-Size: $size
Depends: $depends
Recommends: jackd2 | pipewire-jack, pipewire-bin, libglib2.0-bin
Suggests: qjackctl, x42-plugins, lsp-plugins-lv2, swh-lv2, liblo-tools
Section: sound
Priority: optional
Description: voice processing host for JACK: echo cancellation, noise suppression
 voicerack takes the microphone and the far-end audio the loudspeakers play,
 cancels the echo of the far end from the microphone, suppresses noise,
 levels the voice and hands clean voice on: to a recording, to another JACK
 or PipeWire client, or to an Icecast stream. It runs an effect chain with
 LV2 plugins, an ear-return monitor and a backing track, and is controlled
 from presets, a terminal, OSC, NSM or a web panel. The same engine
 processes files offline.
CONTROL
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

package="$out/voicerack_${version}_${architecture}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$package" >&2
echo "package-deb.sh: built $package ($(du -h "$package" | cut -f1); the binary $(du -h "$root/usr/bin/voicerack" | cut -f1))" >&2
# lintian: its whole report goes to standard error; errors fail the package.
lintian --info --pedantic --display-info --tag-display-limit 0 "$package" >"$stage/lintian.txt" 2>&1 || true
sed 's/^/lintian: /' "$stage/lintian.txt" >&2
if grep -q '^E: ' "$stage/lintian.txt"; then
  echo "package-deb.sh: lintian reports errors (above)" >&2
  exit 65
fi
cp "$stage/lintian.txt" "$out/lintian.txt"
cd "$repo"
echo "$package"
