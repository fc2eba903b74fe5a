#!/usr/bin/env bash
# Evidence (not a test): what PipeWire's JACK does to a client's cycles when the quantum changes.
# A minimal JACK client (scripts/dev/pipewire-probe/quantum-probe.c: it logs JACK's frame time and the
# size of every process callback) runs through pw-jack on a private headless PipeWire (the same
# setup as the PipeWire tests: dummy driver, null sink, ALSA null source, no D-Bus, no session
# manager) while the quantum is forced 256 -> 64 -> 256 -> 1024 -> 128. Its buffer-size callback
# takes DELAY ms (default 0: returns at once). It prints every gap in its timeline.
#
# Measured with PipeWire 0.3.65: with DELAY 0 exactly one cycle of each new size is never run
# (64 + 256 + 1024 + 128 = 1472 frames), so voicerack cannot record those frames; with DELAY 40
# the gaps grow by the callback's time (9472-9600 frames): PipeWire's JACK holds its process lock
# (jack.locked-process) while the buffer-size callback runs and skips the process callback.
# Run it in a private /dev/shm when other JACK servers run: unshare -m sh -c 'mount -t tmpfs
# tmpfs /dev/shm && scripts/dev/pipewire-quantum-probe.sh 40'.
set -euo pipefail
cd "$(dirname "$0")/../.."
delay=${1:-0}
dir=$(mktemp -d)
trap 'kill "${pw:-}" 2>/dev/null || true; rm -rf "$dir"' EXIT
gcc -O2 -o "$dir/probe" scripts/dev/pipewire-probe/quantum-probe.c -ljack
name="probe-$$"
cat > "$dir/pipewire.conf" <<CONF
context.properties = { core.daemon = true core.name = $name support.dbus = false
  default.clock.rate = 48000 default.clock.allowed-rates = [ 48000 ] default.clock.quantum = 256
  default.clock.min-quantum = 16 default.clock.max-quantum = 2048 }
context.spa-libs = { audio.convert.* = audioconvert/libspa-audioconvert api.alsa.* = alsa/libspa-alsa
  support.* = support/libspa-support }
context.modules = [ { name = libpipewire-module-protocol-native } { name = libpipewire-module-metadata }
  { name = libpipewire-module-spa-node-factory } { name = libpipewire-module-client-node }
  { name = libpipewire-module-access } { name = libpipewire-module-adapter } { name = libpipewire-module-link-factory } ]
context.objects = [
  { factory = metadata args = { metadata.name = default } }
  { factory = spa-node-factory args = { factory.name = support.node.driver node.name = Dummy-Driver
      node.group = pipewire.dummy priority.driver = 20000 } }
  { factory = adapter args = { factory.name = api.alsa.pcm.source node.name = system-capture
      media.class = Audio/Source api.alsa.path = "null" audio.channels = 2 audio.position = [ FL FR ]
      adapter.auto-port-config = { mode = dsp monitor = false control = false position = preserve } } } ]
CONF
export XDG_RUNTIME_DIR=$dir PIPEWIRE_RUNTIME_DIR=$dir PIPEWIRE_REMOTE=$name JACK_NO_START_SERVER=1
unset DBUS_SESSION_BUS_ADDRESS JACK_DEFAULT_SERVER
pipewire -c "$dir/pipewire.conf" > "$dir/pipewire.log" 2>&1 &
pw=$!
for _ in $(seq 100); do pw-jack jack_lsp -s "$name" 2>/dev/null | grep -q system-capture && break; sleep 0.1; done
pw-jack "$dir/probe" "$name" "$delay" > "$dir/probe.log" &
probe=$!
for _ in $(seq 100); do pw-jack jack_lsp -s "$name" 2>/dev/null | grep -q probe:in && break; sleep 0.1; done
pw-jack jack_connect -s "$name" system-capture:capture_FL probe:in
sleep 0.5
for quantum in 64 256 1024 128; do
  pw-metadata -r "$name" -n settings 0 clock.force-quantum "$quantum" > /dev/null
  sleep 0.7
done
kill -INT "$probe"
wait "$probe" || true
cat "$dir/probe.log"
