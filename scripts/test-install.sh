#!/usr/bin/env bash
# Tests scripts/install.sh: installs into a temporary prefix (the debug build, already built by
# scripts/test.sh) and checks, from another working folder and with an empty home:
#   * the installed binary finds the shipped presets (presets list, [shipped]) and --version;
#   * it runs as a JACK client on a private dummy-driver jackd and stops cleanly on SIGINT;
#   * man -l renders the page without warnings, with EXAMPLES, FILES, ENVIRONMENT, EXIT STATUS (each
#     sysexits code) and SEE ALSO;
#   * bash completion offers echo-cancel after --preset, .toml files for a path, files for --mic,
#     the levels after --log-level;
#   * the zsh and fish scripts parse, the .desktop file
#     validates, the systemd unit verifies and runs the installed binary with --wait-for-server;
#   * the launcher says what is wrong and waits for Enter when voicerack stops on an error, and
#     waits for a server (saying so) when none runs;
#   * --prefix ~/.local puts the unit where systemd looks (share/systemd/user);
#   * --uninstall removes exactly what was installed (a foreign file beside it stays).
# Exits non-zero with a message naming the failed check.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/voicerack-install-test.XXXXXX")
server="voicerack-install-$$"
jackd_pid=""
voicerack_pid=""
cleanup() {
  [ -n "$voicerack_pid" ] && kill -KILL "$voicerack_pid" 2>/dev/null || true
  [ -n "$jackd_pid" ] && kill -TERM "$jackd_pid" 2>/dev/null && wait "$jackd_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }
pass() { echo "test-install: ok: $*" >&2; }
# Polls `$1` (a shell condition) every 0.1 s for at most $2 seconds.
wait_for() {
  local tries=$(($2 * 10))
  while [ "$tries" -gt 0 ]; do
    eval "$1" && return 0
    sleep 0.1
    tries=$((tries - 1))
  done
  return 1
}

prefix="$work/prefix"
status=0
"$repo/scripts/install.sh" --prefix "$prefix" --configuration debug 2>"$work/install.log" || status=$?
[ "$status" -eq 0 ] || { cat "$work/install.log" >&2; fail "install.sh exited $status"; }
for f in bin/voicerack share/voicerack/presets/echo-cancel.toml share/man/man1/voicerack.1 \
  share/bash-completion/completions/voicerack share/zsh/site-functions/_voicerack \
  share/fish/vendor_completions.d/voicerack.fish share/applications/voicerack.desktop \
  lib/systemd/user/voicerack.service lib/systemd/user/voicerack-pipewire.service lib/voicerack/voicerack-launch \
  share/voicerack/installed-files \
  share/pipewire/pipewire.conf.d/voicerack.conf; do
  [ -f "$prefix/$f" ] || fail "install.sh did not install $f"
done
pass "install.sh installed every file"

# From elsewhere, with an empty home and no $VOICERACK_PRESETS: only share/ can supply presets.
elsewhere="$work/elsewhere"
mkdir -p "$elsewhere" "$work/home"
cd "$elsewhere"
# env execs the program, so a background run's $! is voicerack's own pid (SIGINT reaches it).
run_installed() { exec env -u VOICERACK_PRESETS -u XDG_CONFIG_HOME HOME="$work/home" "$prefix/bin/voicerack" "$@"; }
listing=$(run_installed presets list) || fail "presets list exited $?"
grep -q '^echo-cancel .*\[shipped\]$' <<<"$listing" || fail "presets list does not show echo-cancel as shipped: $listing"
[ "$(grep -c '\[shipped\]$' <<<"$listing")" -eq "$(ls "$repo"/presets/*.toml | wc -l)" ] \
  || fail "presets list does not show every shipped preset: $listing"
[ "$(run_installed --version)" = "$(grep -o '"[0-9][^"]*"' "$repo/Sources/voicerack/Version.swift" | tr -d '"')" ] \
  || fail "--version does not print the version constant"
pass "the installed binary lists the shipped presets from another folder"

# run: a private dummy-driver server; voicerack joins it, then leaves on SIGINT with exit 0.
jackd -n "$server" -d dummy -r 48000 -p 256 >"$work/jackd.log" 2>&1 &
jackd_pid=$!
wait_for "jack_lsp -s $server >/dev/null 2>&1" 20 || fail "jackd '$server' did not come up: $(cat "$work/jackd.log")"
(run_installed run --server "$server" --name installed --preset echo-cancel --no-auto-connect) >"$work/run.log" 2>&1 &
voicerack_pid=$!
wait_for "jack_lsp -s $server 2>/dev/null | grep -q '^installed:mic_in$'" 30 \
  || fail "the installed voicerack did not open its ports: $(cat "$work/run.log")"
wait_for "grep -q 'running as JACK client' '$work/run.log'" 10 || fail "no start line: $(cat "$work/run.log")"
kill -INT "$voicerack_pid"
wait_for "! kill -0 $voicerack_pid 2>/dev/null" 15 || fail "voicerack did not stop within 15 s of SIGINT: $(cat "$work/run.log")"
status=0
wait "$voicerack_pid" || status=$?
voicerack_pid=""
[ "$status" -eq 0 ] || fail "voicerack run exited $status on SIGINT: $(cat "$work/run.log")"
pass "the installed binary runs as a JACK client and stops on SIGINT"

manual=$(MANWIDTH=80 man -l "$prefix/share/man/man1/voicerack.1" 2>"$work/man.err") || fail "man -l exited $?"
[ ! -s "$work/man.err" ] || fail "man -l warned: $(cat "$work/man.err")"
grep -q 'voicerack.*Echo cancellation' <<<"$manual" || fail "the man page has no NAME line: $manual"
grep -q -- '--preset' <<<"$manual" || fail "the man page does not describe --preset"
for section in EXAMPLES FILES ENVIRONMENT 'EXIT STATUS' 'SEE ALSO'; do
  grep -qx "$section" <<<"$manual" || fail "the man page has no $section section"
done
for code in 64 65 66 69 70 73 74 77; do
  grep -qE "^ +$code\b" <<<"$manual" || fail "the man page's EXIT STATUS does not list $code"
done
! grep -q 'BSD General Commands Manual' <<<"$manual" || fail "the man page has the BSD header"
pass "man -l renders the page without warnings, with EXAMPLES, FILES, ENVIRONMENT, EXIT STATUS and SEE ALSO"

# Bash completion as the shell calls it (complete -F): COMP_* set, the function given the
# command, the current word and the previous one.
complete_words() {
  PATH="$prefix/bin:$PATH" HOME="$work/home" bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _voicerack "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf "%s\n" "${COMPREPLY[@]}"' _ "$prefix/share/bash-completion/completions/voicerack" "$@"
}
offered=$(complete_words voicerack run --preset "")
grep -qx 'echo-cancel' <<<"$offered" || fail "bash completion after 'run --preset ' offers: $offered"
grep -qx 'karaoke' <<<"$offered" || fail "bash completion after 'run --preset ' lacks karaoke: $offered"
offered=$(complete_words voicerack process --preset ec | sort | tr '\n' ' ')
[ "$offered" = "echo-cancel echo-cancel-dfn echo-cancel-speexdsp echo-cancel-strong " ] || fail "bash completion of 'process --preset ec' offers: $offered"
offered=$(complete_words voicerack process --preset kar)
[ "$offered" = "karaoke" ] || fail "bash completion of 'process --preset kar' offers: $offered"
mkdir -p mine && echo 'description = "mine"' >mine/my-setup.toml && touch mine/notes.txt
offered=$(complete_words voicerack run --preset mine/)
[ "$offered" = "mine/my-setup.toml" ] || fail "bash completion of '--preset mine/' offers: $offered"
touch take.wav
offered=$(complete_words voicerack process --mic ta)
grep -qx 'take.wav' <<<"$offered" || fail "bash completion of '--mic ta' offers: $offered"
offered=$(complete_words voicerack run --log-level "" | sort | tr '\n' ' ')
[ "$offered" = "critical debug error info notice trace warning " ] || fail "bash completion of 'run --log-level ' offers: $offered"
offered=$(complete_words voicerack run --stream-tap m | sort | tr '\n' ' ')
[ "$offered" = "mic monitor " ] || fail "bash completion of 'run --stream-tap m' offers: $offered"
pass "bash completion offers preset names, .toml paths, files and the values of --log-level and --stream-tap"

if command -v zsh >/dev/null; then zsh -n "$prefix/share/zsh/site-functions/_voicerack" || fail "zsh completion does not parse"; fi
# fish: parsed only; `complete -C` outside an interactive command line makes argument-parser's
# script pass the program arguments it cannot parse (fish 3.6), so it proves nothing here.
if command -v fish >/dev/null; then fish -n "$prefix/share/fish/vendor_completions.d/voicerack.fish" || fail "fish completion does not parse"; fi
desktop-file-validate "$prefix/share/applications/voicerack.desktop" || fail "the .desktop file does not validate"
grep -qx "Exec=$prefix/lib/voicerack/voicerack-launch" "$prefix/share/applications/voicerack.desktop" \
  || fail "the .desktop file does not run the installed launcher"
unit="$prefix/lib/systemd/user/voicerack.service"
grep -qx "ExecStart=$prefix/bin/voicerack run --preset echo-cancel --wait-for-server" "$unit" \
  || fail "the unit does not run the installed binary with --wait-for-server"
grep -qx "Restart=on-failure" "$unit" || fail "the unit does not restart on failure"
if command -v systemd-analyze >/dev/null; then
  # A user manager's checks want a runtime folder, as a login session has.
  mkdir -m 700 "$work/runtime"
  XDG_RUNTIME_DIR="$work/runtime" systemd-analyze --user verify --man=no "$unit" 2>"$work/unit.err" || fail "systemd-analyze --user verify: $(cat "$work/unit.err")"
  pw_unit="$prefix/lib/systemd/user/voicerack-pipewire.service"
  grep -qx "ExecStart=.*pw-jack $prefix/bin/voicerack run --preset echo-cancel --pipewire --wait-for-server" "$pw_unit" \
    || fail "the PipeWire unit does not run pw-jack voicerack run --pipewire --wait-for-server"
  if command -v pw-jack >/dev/null; then
    XDG_RUNTIME_DIR="$work/runtime" systemd-analyze --user verify --man=no "$pw_unit" 2>"$work/unit.err" \
      || fail "systemd-analyze --user verify of the PipeWire unit: $(cat "$work/unit.err")"
  fi
fi
grep -qx "X-NSM-Capable=true" "$prefix/share/applications/voicerack.desktop" \
  || fail "the .desktop file does not say X-NSM-Capable=true"
pass "completion scripts, .desktop file and systemd unit"

# The launcher: an error keeps the window open with what to do, until Enter.
status=0
printf '\n' | HOME="$work/home" "$prefix/lib/voicerack/voicerack-launch" --preset no-such-preset >"$work/launch.log" 2>&1 || status=$?
[ "$status" -eq 65 ] || fail "the launcher with a missing preset exited $status, not 65: $(cat "$work/launch.log")"
grep -q "a preset or an option is wrong" "$work/launch.log" || fail "the launcher does not say what went wrong: $(cat "$work/launch.log")"
grep -q "Press Enter to close this window" "$work/launch.log" || fail "the launcher does not wait for a key: $(cat "$work/launch.log")"
# With no server it waits, saying so, instead of flashing shut; SIGTERM stops it with exit 0.
HOME="$work/home" JACK_DEFAULT_SERVER="voicerack-none-$$" "$prefix/lib/voicerack/voicerack-launch" </dev/null >"$work/wait.log" 2>&1 &
launcher=$!
wait_for "grep -q 'waiting for one' '$work/wait.log'" 15 || fail "the launcher without a server does not say it waits: $(cat "$work/wait.log")"
kill -0 "$launcher" 2>/dev/null || fail "the launcher without a server exited: $(cat "$work/wait.log")"
pkill -TERM -P "$launcher" || fail "the launcher runs no voicerack"
status=0
wait "$launcher" || status=$?
[ "$status" -eq 0 ] || fail "the waiting launcher exited $status on SIGTERM: $(cat "$work/wait.log")"
pass "the launcher explains an error and waits for Enter; without a server it waits for one"

# --prefix ~/.local: the unit goes where systemd looks for a user's units.
home="$work/home"
HOME="$home" "$repo/scripts/install.sh" --prefix "$home/.local" --configuration debug 2>"$work/install-local.log" || status=$?
[ "$status" -eq 0 ] || { cat "$work/install-local.log" >&2; fail "install.sh --prefix ~/.local exited $status"; }
[ -f "$home/.local/share/systemd/user/voicerack.service" ] \
  || fail "--prefix ~/.local did not put the unit in ~/.local/share/systemd/user: $(find "$home/.local" -name voicerack.service)"
grep -q "systemctl --user enable --now voicerack.service" "$work/install-local.log" || fail "install.sh --prefix ~/.local does not print the enable command"
grep -q "systemctl --user enable" "$work/install.log" && fail "install.sh under a prefix systemd does not search still prints the enable command"
grep -q "systemctl --user link" "$work/install.log" || fail "install.sh under a prefix systemd does not search does not say how to link the unit"
pass "--prefix ~/.local installs the unit in ~/.local/share/systemd/user"

# --uninstall: exactly what was installed goes; a foreign file and the user's presets stay.
mkdir -p "$home/.config/voicerack/presets" && echo 'description = "mine"' >"$home/.config/voicerack/presets/mine.toml"
echo foreign >"$home/.local/share/man/man1/other.1"
HOME="$home" "$repo/scripts/install.sh" --uninstall --prefix "$home/.local" 2>"$work/uninstall.log" || status=$?
[ "$status" -eq 0 ] || { cat "$work/uninstall.log" >&2; fail "install.sh --uninstall exited $status"; }
left=$(find "$home/.local" -type f ! -path "$home/.local/share/man/man1/other.1")
[ -z "$left" ] || fail "--uninstall left files: $left"
[ -f "$home/.local/share/man/man1/other.1" ] || fail "--uninstall removed a file it did not install"
[ -f "$home/.config/voicerack/presets/mine.toml" ] || fail "--uninstall removed the user's preset"
[ ! -e "$home/.local/share/voicerack" ] && [ ! -e "$home/.local/lib/voicerack" ] || fail "--uninstall left voicerack's folders"
status=0
"$repo/scripts/install.sh" --uninstall --prefix "$home/.local" 2>/dev/null || status=$?
[ "$status" -eq 66 ] || fail "a second --uninstall exited $status, not 66"
pass "--uninstall removes exactly what was installed"
echo "test-install: all checks passed" >&2
