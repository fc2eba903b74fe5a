import Foundation

/// A PipeWire desktop on the private daemon: voicerack's `pipewire.conf.d` fragment (the one the
/// installer ships) read by the daemon, `pipewire-pulse` for PulseAudio clients (pactl, paplay,
/// parecord) and, where a test needs a session manager, WirePlumber on a private session bus.
///
/// WirePlumber runs headless: without D-Bus it exits, so a private `dbus-daemon --session` runs
/// beside it; its Bluetooth part is off and its ALSA monitor reserves no device. Its config and
/// state live in the runtime folder, so nothing of the user's is read or written. Without a
/// session manager no PulseAudio stream is ever linked to a device.
extension PipeWireServer {
    struct Desktop {
        /// Run WirePlumber (and the session bus it needs).
        var sessionManager = true
        /// A second sound card (`second-playback`, `second-capture`; a headset plugged in), of
        /// lower priority: the first stays the default.
        var secondDevices = false
    }

    /// The second card's ports as JACK clients see them (`Desktop.secondDevices`).
    static let secondCapturePorts = ["second-capture:capture_FL", "second-capture:capture_FR"]
    static let secondPlaybackPorts = ["second-playback:playback_FL", "second-playback:playback_FR"]

    static let pipewirePulse = Tools.which("pipewire-pulse")
    static let wireplumber = Tools.which("wireplumber")
    static let dbusDaemon = Tools.which("dbus-daemon")
    static let pactl = Tools.which("pactl")
    static let paplay = Tools.which("paplay")
    static let parecord = Tools.which("parecord")
    static let wpctl = Tools.which("wpctl")

    /// True when pipewire-pulse and the PulseAudio tools are installed (and PipeWire's JACK).
    static var desktopAvailable: Bool {
        available && pipewirePulse != nil && pactl != nil && paplay != nil && parecord != nil
    }

    /// True when WirePlumber, wpctl and dbus-daemon are installed too.
    static var sessionManagerAvailable: Bool {
        desktopAvailable && wireplumber != nil && wpctl != nil && dbusDaemon != nil
    }

    /// voicerack's config fragment in this checkout.
    static let fragmentPath =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("packaging/pipewire/voicerack.conf").path

    /// What the clients of a desktop add: the PulseAudio socket, and libpulse's cookie, runtime
    /// and state folders in the runtime folder (not the user's home).
    static func desktopClientEnvironment(_ directory: String) -> [String: String?] {
        [
            "PULSE_SERVER": "unix:\(directory)/pulse/native", "PULSE_COOKIE": "\(directory)/pulse-cookie",
            "PULSE_RUNTIME_PATH": "\(directory)/pulse", "PULSE_STATE_PATH": "\(directory)/pulse-state",
        ]
    }

    /// The daemons' environment: on a desktop they read their config from the runtime folder
    /// (`PIPEWIRE_CONFIG_DIR`, which also finds `pipewire.conf.d/`); clients never get it, as
    /// they would look for their own config there.
    static func daemonEnvironment(
        _ environment: [String: String?], desktop: Desktop?, directory: String
    ) -> [String: String?] {
        guard desktop != nil else { return environment }
        return environment.merging(["PIPEWIRE_CONFIG_DIR": "\(directory)/config"]) { $1 }
    }

    /// Writes the daemon's config, voicerack's fragment beside it, pipewire-pulse's config and
    /// WirePlumber's overrides.
    static func writeDesktopConfig(in directory: String, name: String, quantum: Int, desktop: Desktop) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: "\(directory)/config/pipewire.conf.d", withIntermediateDirectories: true)
        try config(name: name, quantum: quantum, desktop: true, secondDevices: desktop.secondDevices)
            .write(toFile: "\(directory)/config/pipewire.conf", atomically: true, encoding: .utf8)
        try files.copyItem(atPath: fragmentPath, toPath: "\(directory)/config/pipewire.conf.d/voicerack.conf")
        try pulseConfig.write(toFile: "\(directory)/config/pipewire-pulse.conf", atomically: true, encoding: .utf8)
        let wirePlumber = "\(directory)/xdg/wireplumber"
        for folder in ["main.lua.d", "bluetooth.lua.d"] {
            try files.createDirectory(atPath: "\(wirePlumber)/\(folder)", withIntermediateDirectories: true)
        }
        // Same file names as the shipped ones, so these replace them.
        try wirePlumberMain.write(
            toFile: "\(wirePlumber)/main.lua.d/90-enable-all.lua", atomically: true, encoding: .utf8)
        try "".write(toFile: "\(wirePlumber)/bluetooth.lua.d/90-enable-all.lua", atomically: true, encoding: .utf8)
    }

    /// pipewire-pulse's config: its socket in the runtime folder, no D-Bus.
    static let pulseConfig = """
        context.properties = { support.dbus = false }
        context.spa-libs = {
            audio.convert.* = audioconvert/libspa-audioconvert
            support.* = support/libspa-support
        }
        context.modules = [
            { name = libpipewire-module-protocol-native }
            { name = libpipewire-module-client-node }
            { name = libpipewire-module-adapter }
            { name = libpipewire-module-metadata }
            { name = libpipewire-module-protocol-pulse args = { server.address = [ "unix:native" ] } }
        ]
        """

    /// WirePlumber's main part without cameras and without reserving ALSA devices (that needs
    /// the device-reservation service on D-Bus).
    static let wirePlumberMain = """
        default_access.enable()
        alsa_monitor.properties["alsa.reserve"] = false
        alsa_monitor.enable()
        device_defaults.enable()
        stream_defaults.enable()
        """

    /// True once the desktop's parts answer: pipewire-pulse lists voicerack's nodes.
    var desktopServes: Bool {
        guard desktop != nil else { return true }
        guard pulse?.isRunning == true, let sinks = try? pactl(["list", "short", "sinks"]) else { return false }
        return sinks.contains("voicerack-call")
    }

    /// Starts the session bus (once), pipewire-pulse and WirePlumber, as the desktop asks.
    func startCompanions() throws {
        guard let desktop else { return }
        let daemons = Self.daemonEnvironment(environment, desktop: desktop, directory: runtimeDirectory)
        pulse = try ChildProcess(Self.pipewire!, ["-c", "pipewire-pulse.conf"], environment: daemons)
        guard desktop.sessionManager else { return }
        let address = "unix:path=\(runtimeDirectory)/bus"
        if bus?.isRunning != true {
            bus = try ChildProcess(Self.dbusDaemon!, ["--session", "--address=\(address)", "--nofork", "--nopidfile"])
            _ = poll(timeout: 5) { FileManager.default.fileExists(atPath: "\(runtimeDirectory)/bus") }
        }
        try startWirePlumber()
    }

    /// Starts WirePlumber on the session bus, its config and state in the runtime folder.
    private func startWirePlumber() throws {
        wirePlumber = try ChildProcess(
            Self.wireplumber!, [],
            environment: environment.merging([
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtimeDirectory)/bus",
                "XDG_CONFIG_HOME": "\(runtimeDirectory)/xdg", "XDG_STATE_HOME": "\(runtimeDirectory)/state",
                "XDG_DATA_HOME": "\(runtimeDirectory)/data",
            ]) { $1 })
    }

    /// Kills WirePlumber (SIGKILL) and starts it again at once, alone: PipeWire, pipewire-pulse
    /// and the session bus stay. The links WirePlumber made go with it.
    func restartSessionManager() throws {
        wirePlumber?.stop(SIGKILL)
        try startWirePlumber()
    }

    /// Stops WirePlumber and pipewire-pulse (the bus stays for the next start).
    func stopCompanions() {
        wirePlumber?.stop(SIGTERM)
        pulse?.stop(SIGTERM)
    }

    /// The companions' output, for failure messages.
    var companionLogs: String {
        [("pipewire-pulse", pulse), ("wireplumber", wirePlumber)].compactMap { name, child in
            child.map { "\n--- \(name):\n\($0.output)" }
        }.joined()
    }

    /// Runs pactl against this desktop's pipewire-pulse; its output, or throws when it fails.
    func pactl(_ arguments: [String]) throws -> String {
        let (status, output) = try runTool(Self.pactl!, arguments, timeout: 10, environment: environment)
        guard status == 0 else {
            throw JACKServer.ServerError(message: "pactl \(arguments.joined(separator: " ")) failed: \(output)")
        }
        return output
    }

    /// Runs wpctl (WirePlumber's control tool) against this daemon; its output.
    func wpctl(_ arguments: [String]) throws -> String {
        try runTool(Self.wpctl!, arguments, timeout: 10, environment: environment).output
    }
}
