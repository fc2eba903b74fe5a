import Foundation

/// A private, headless PipeWire daemon that JACK clients join through `pw-jack` (PipeWire's JACK
/// library, Debian's pipewire-jack), as on a PipeWire desktop, but with no D-Bus, no session
/// manager (wireplumber) and no sound card.
///
/// It runs from a private `XDG_RUNTIME_DIR` with a config of its own (`config`): the dummy driver
/// as the clock, a `support.null-audio-sink` as the playback device and an ALSA `null` source as
/// the capture device, both with automatic port configuration (without it an adapter node has no
/// ports), so JACK clients see physical-looking `system-capture:capture_FL/FR` and
/// `system-playback:playback_FL/FR`. Its core name is unique and is the JACK server name: PipeWire's
/// JACK takes a server name as the name of the PipeWire socket to join.
///
/// With no session manager, PipeWire itself puts a JACK client under a driver; linking it to a
/// device moves it under that device's driver (each driver keeps its own frame count).
final class PipeWireServer: JACKGraph {
    static let pipewire = Tools.which("pipewire")
    static let pwJack = Tools.which("pw-jack")
    static let pwMetadata = Tools.which("pw-metadata")

    /// True when PipeWire, its JACK library and the JACK tools are installed.
    static var available: Bool {
        pipewire != nil && pwJack != nil && pwMetadata != nil && Tools.jackLsp != nil && Tools.jackConnect != nil
    }

    /// The graph's capture and playback ports as JACK clients see them.
    static let capturePorts = ["system-capture:capture_FL", "system-capture:capture_FR"]
    static let playbackPorts = ["system-playback:playback_FL", "system-playback:playback_FR"]

    let name: String
    var label: String { "PipeWire" }
    /// The private runtime folder: the daemon's socket and the config live here.
    let runtimeDirectory: String
    /// The daemon (a new one after `restart`).
    private(set) var daemon: ChildProcess
    /// `desktop`'s processes beside the daemon: the session bus, pipewire-pulse, WirePlumber
    /// (new ones after `restart`; the bus stays).
    var bus: ChildProcess?
    var pulse: ChildProcess?
    var wirePlumber: ChildProcess?
    let desktop: Desktop?
    let configPath: String
    /// Every client's environment: the private runtime folder, this daemon's socket, and never a
    /// JACK server started or picked up by accident.
    let environment: [String: String?]

    /// Starts the daemon (48 kHz, `quantum` samples) and waits (up to `timeout` seconds) until a
    /// JACK client sees its capture and playback ports. With `desktop`, a PipeWire desktop
    /// instead (PipeWireServer+Desktop.swift): voicerack's config fragment, pipewire-pulse and,
    /// if asked, WirePlumber on a private session bus.
    init(quantum: Int = 256, timeout: Double = 10, desktop: Desktop? = nil) throws {
        let name = "voicerack-pw-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let directory = NSTemporaryDirectory() + name
        self.name = name
        runtimeDirectory = directory
        self.desktop = desktop
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        configPath = directory + (desktop == nil ? "/pipewire.conf" : "/config/pipewire.conf")
        environment = Tools.environment.merging(
            [
                "XDG_RUNTIME_DIR": directory, "PIPEWIRE_RUNTIME_DIR": directory, "PIPEWIRE_REMOTE": name,
                "DBUS_SESSION_BUS_ADDRESS": nil,
            ].merging(desktop == nil ? [:] : Self.desktopClientEnvironment(directory)) { $1 }
        ) { $1 }
        do {
            if let desktop {
                try Self.writeDesktopConfig(in: directory, name: name, quantum: quantum, desktop: desktop)
            } else {
                try Self.config(name: name, quantum: quantum).write(
                    toFile: configPath, atomically: true, encoding: .utf8)
            }
            daemon = try ChildProcess(
                Self.pipewire!, ["-c", configPath],
                environment: Self.daemonEnvironment(environment, desktop: desktop, directory: directory))
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        do {
            try startCompanions()
            try waitUntilServing(timeout: timeout)
        } catch {
            stopCompanions()
            daemon.stop(SIGKILL)
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Starts the daemon again with the same name and config (after `kill`), and waits until it
    /// serves: the JACK server came back.
    func restart(timeout: Double = 10) throws {
        daemon.stop(SIGKILL)
        stopCompanions()
        daemon = try ChildProcess(
            Self.pipewire!, ["-c", configPath],
            environment: Self.daemonEnvironment(environment, desktop: desktop, directory: runtimeDirectory))
        try startCompanions()
        try waitUntilServing(timeout: timeout)
    }

    /// Waits (up to `timeout` seconds) until a JACK client sees the capture and playback ports;
    /// stops the daemon and throws with its log when it does not.
    private func waitUntilServing(timeout: Double) throws {
        let ready = poll(timeout: timeout) { [self] in
            guard daemon.isRunning else { return true }
            // A desktop without a session manager has no ports on its devices: nobody set them up.
            if desktop?.sessionManager == false { return desktopServes }
            guard let ports = try? lsp([]) else { return false }
            return (Self.capturePorts + Self.playbackPorts).allSatisfy { ports.contains($0) } && desktopServes
        }
        guard ready, daemon.isRunning else {
            let log = daemon.output + companionLogs
            daemon.stop(SIGKILL)
            stopCompanions()
            throw JACKServer.ServerError(message: "PipeWire '\(name)' did not come up within \(timeout) s:\n\(log)")
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    /// Stops the desktop's processes and the daemon (SIGTERM, then SIGKILL after 5 s).
    func stop() {
        stopCompanions()
        daemon.stop(SIGTERM)
        bus?.stop(SIGTERM)
    }

    /// The daemon's process id (to stop it with SIGSTOP and go on with SIGCONT).
    var daemonProcessID: pid_t { daemon.pid }

    /// Kills the daemon at once (SIGKILL): the server dies under its clients (a desktop's
    /// pipewire-pulse and WirePlumber lose it too; `restart` starts them again).
    func kill() { daemon.stop(SIGKILL) }

    /// Starts `executable` as a JACK client of this daemon, through `pw-jack` (which puts
    /// PipeWire's libjack first on the library path, then execs: the child's pid is the client's).
    func launch(
        _ executable: String, _ arguments: [String], environment extra: [String: String?]
    ) throws -> ChildProcess {
        try ChildProcess(Self.pwJack!, [executable] + arguments, environment: environment.merging(extra) { $1 })
    }

    /// Runs a JACK tool through `pw-jack` to completion; returns its status and output.
    func tool(
        _ executable: String, _ arguments: [String], timeout: Double = 10
    ) throws -> (status: Int32?, output: String) {
        try runTool(Self.pwJack!, [executable] + arguments, timeout: timeout, environment: environment)
    }

    func lsp(_ arguments: [String]) throws -> String {
        let (status, output) = try tool(Tools.jackLsp!, ["-s", name] + arguments)
        guard status == 0 else {
            throw JACKServer.ServerError(message: "jack_lsp on PipeWire '\(name)' failed: \(output)")
        }
        return output
    }

    @discardableResult
    func connect(_ source: String, _ destination: String) throws -> Int32? {
        try tool(Tools.jackConnect!, ["-s", name, source, destination]).status
    }

    /// Forces the graph's quantum to `frames` (`pw-metadata -n settings 0 clock.force-quantum`);
    /// returns pw-metadata's exit status. Never 0 to undo it: while JACK clients run, PipeWire
    /// 0.3.65 does not go back to the old quantum then.
    @discardableResult
    func forceQuantum(_ frames: Int) throws -> Int32? {
        try runTool(
            Self.pwMetadata!, ["-r", name, "-n", "settings", "0", "clock.force-quantum", "\(frames)"],
            environment: environment
        ).status
    }

    /// The daemon's config: no D-Bus, no realtime module (no rtkit here), the protocol, metadata
    /// (the `settings` metadata comes from the core itself), node factories and the three nodes.
    /// On a `desktop` the two devices are what a session manager's device monitor makes of a
    /// sound card: ports set up by the session manager, a session priority, `device.api`; with
    /// `secondDevices`, a second card of lower priority beside it.
    static func config(name: String, quantum: Int, desktop: Bool = false, secondDevices: Bool = false) -> String {
        let device =
            desktop
            ? "priority.session = 1000"
            : "adapter.auto-port-config = { mode = dsp monitor = false control = false position = preserve }"
        return """
            context.properties = {
                core.daemon = true
                core.name = \(name)
                support.dbus = false
                default.clock.rate = 48000
                default.clock.allowed-rates = [ 48000 ]
                default.clock.quantum = \(quantum)
                default.clock.min-quantum = 16
                default.clock.max-quantum = 2048
            }
            context.spa-libs = {
                audio.convert.* = audioconvert/libspa-audioconvert
                api.alsa.* = alsa/libspa-alsa
                support.* = support/libspa-support
            }
            context.modules = [
                { name = libpipewire-module-protocol-native }
                { name = libpipewire-module-metadata }
                { name = libpipewire-module-spa-node-factory }
                { name = libpipewire-module-client-node }
                { name = libpipewire-module-access }
                { name = libpipewire-module-adapter }
                { name = libpipewire-module-link-factory }
            ]
            context.objects = [
                { factory = metadata args = { metadata.name = default } }
                { factory = spa-node-factory
                    args = {
                        factory.name = support.node.driver
                        node.name = Dummy-Driver
                        node.group = pipewire.dummy
                        priority.driver = 20000
                    }
                }
                \(card("system", desktop ? "device.api = alsa" : "", device))
                \(secondDevices ? card("second", "device.api = alsa", "priority.session = 500") : "")
            ]
            """
    }

    /// A sound card's sink (`NAME-playback`, a null sink; `sinkSettings` on it only) and source
    /// (`NAME-capture`, ALSA's null device), both with `settings`. A desktop's second card (a
    /// headset plugged in) has a lower priority than the first.
    static func card(_ name: String, _ sinkSettings: String, _ settings: String) -> String {
        """
        { factory = adapter
            args = {
                factory.name = support.null-audio-sink
                node.name = \(name)-playback
                media.class = Audio/Sink
                audio.position = [ FL FR ]
                \(sinkSettings)
                \(settings)
            }
        }
        { factory = adapter
            args = {
                factory.name = api.alsa.pcm.source
                node.name = \(name)-capture
                media.class = Audio/Source
                api.alsa.path = "null"  # quoted: a bare null is JSON null, no device
                audio.channels = 2
                audio.position = [ FL FR ]
                \(settings)
            }
        }
        """
    }
}
