import Synchronization
import VoiceControl

/// The web panel as a control surface of the session (`voicerack run --web`).
///
/// - Realtime: never; `start` and `stop` on the main thread.
public final class WebSurface: ControlSurface {
    private let address: PanelAddress
    private let preset: String
    private let restartKeys: Set<String>
    private let presets: @Sendable () -> [String]
    private let save: @Sendable (String, [LiveKey]) -> LiveReply
    private let server = Mutex<PanelServer?>(nil)

    /// A panel at `address` for a session running `preset`; `restartKeys` are shown as needing a
    /// restart, `presets` lists what may be loaded and `save` writes a preset from `show`'s keys.
    public init(
        address: PanelAddress, preset: String, restartKeys: Set<String>,
        presets: @escaping @Sendable () -> [String], save: @escaping @Sendable (String, [LiveKey]) -> LiveReply
    ) {
        self.address = address
        self.preset = preset
        self.restartKeys = restartKeys
        self.presets = presets
        self.save = save
    }

    public func start(_ hub: ControlHub) throws(ControlSurfaceError) -> [String] {
        let backend = HubBackend(hub: hub, preset: preset, restartKeys: restartKeys, presets: presets, save: save)
        let started: PanelServer
        do {
            started = try PanelServer(address: address, backend: backend)
            try started.start()
        } catch {
            throw ControlSurfaceError(code: 69, error.description)
        }
        server.withLock { $0 = started }
        var lines: [String] = []
        if !address.isLoopback {
            lines.append(
                "warning: the web panel listens on \(address.host), reachable from other machines; anyone with its address (and token) can steer this session"
            )
        }
        // The token is the panel's key; it is shown once, in the address to open.
        lines.append("web panel: open \(started.url)")
        return lines
    }

    public func stop() {
        let running = server.withLock { s in
            defer { s = nil }
            return s
        }
        running?.stop()
    }
}
