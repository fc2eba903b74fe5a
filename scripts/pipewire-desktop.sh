# Sourced by scripts/soak.sh --pipewire: start_pipewire_desktop NAME FOLDER PERIOD starts a
# private headless PipeWire desktop, what the PipeWire tests run (Tests/JACKIntegrationTests/
# PipeWireServer*.swift): the dummy driver at 48 kHz and PERIOD samples, a null sink and ALSA's
# null source as the sound card, voicerack's pipewire.conf.d fragment, pipewire-pulse and
# WirePlumber on a private session bus, all in FOLDER (its runtime folder, exported as
# XDG_RUNTIME_DIR with the PipeWire, PulseAudio and D-Bus variables pointing into it). Adds the
# daemons to the caller's pids array (newest last); returns once a JACK client sees the card,
# else prints the daemons' logs and returns 69.
start_pipewire_desktop() {
  local name=$1 work=$2 period=$3
  chmod 700 "$work"
  export XDG_RUNTIME_DIR=$work PIPEWIRE_RUNTIME_DIR=$work PIPEWIRE_REMOTE=$name
  export PULSE_SERVER="unix:$work/pulse/native" PULSE_COOKIE="$work/pulse-cookie"
  export PULSE_RUNTIME_PATH="$work/pulse" PULSE_STATE_PATH="$work/pulse-state"
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus"
  mkdir -p "$work/config/pipewire.conf.d" "$work/xdg/wireplumber/main.lua.d" "$work/xdg/wireplumber/bluetooth.lua.d"
  cp packaging/pipewire/voicerack.conf "$work/config/pipewire.conf.d/"
  cat >"$work/config/pipewire.conf" <<CONF
context.properties = { core.daemon = true core.name = $name support.dbus = false
    default.clock.rate = 48000 default.clock.allowed-rates = [ 48000 ] default.clock.quantum = $period
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
        priority.session = 1000 } }
]
CONF
  cat >"$work/config/pipewire-pulse.conf" <<'CONF'
context.properties = { support.dbus = false }
context.spa-libs = { audio.convert.* = audioconvert/libspa-audioconvert support.* = support/libspa-support }
context.modules = [
    { name = libpipewire-module-protocol-native } { name = libpipewire-module-client-node }
    { name = libpipewire-module-adapter } { name = libpipewire-module-metadata }
    { name = libpipewire-module-protocol-pulse args = { server.address = [ "unix:native" ] } }
]
CONF
  # WirePlumber without cameras, Bluetooth or device reservation (as the tests run it).
  printf '%s\n' 'default_access.enable()' 'alsa_monitor.properties["alsa.reserve"] = false' \
    'alsa_monitor.enable()' 'device_defaults.enable()' 'stream_defaults.enable()' \
    >"$work/xdg/wireplumber/main.lua.d/90-enable-all.lua"
  : >"$work/xdg/wireplumber/bluetooth.lua.d/90-enable-all.lua"
  dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --nofork --nopidfile >"$work/dbus.log" 2>&1 &
  pids+=("$!")
  for _ in $(seq 50); do [ -S "$work/bus" ] && break; sleep 0.1; done
  PIPEWIRE_CONFIG_DIR="$work/config" pipewire -c "$work/config/pipewire.conf" >"$work/pipewire.log" 2>&1 &
  pids+=("$!")
  sleep 0.5
  PIPEWIRE_CONFIG_DIR="$work/config" pipewire -c pipewire-pulse.conf >"$work/pulse.log" 2>&1 &
  pids+=("$!")
  XDG_CONFIG_HOME="$work/xdg" XDG_STATE_HOME="$work/state" XDG_DATA_HOME="$work/data" wireplumber \
    >"$work/wireplumber.log" 2>&1 &
  pids+=("$!")
  for _ in $(seq 100); do
    pw-jack jack_lsp -s "$name" 2>/dev/null | grep -q "system-playback:playback_FL" && return 0
    sleep 0.2
  done
  echo "soak: the PipeWire desktop did not come up:" >&2
  cat "$work/pipewire.log" "$work/wireplumber.log" >&2
  return 69
}
