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
    private let presetFolder: @Sendable () -> String?
    private let tokenFile: PanelTokenFile?
    private let server = Mutex<PanelServer?>(nil)

    /// A panel at `address` for a session running `preset`; `restartKeys` are shown as needing a
    /// restart, `presets` lists what may be loaded and `presetFolder` is where presets are saved.
    /// `tokenFile` keeps the token across runs; nil (or a file that cannot be written) makes a
    /// token for this run only.
    public init(
        address: PanelAddress, preset: String, restartKeys: Set<String>,
        presets: @escaping @Sendable () -> [String], presetFolder: @escaping @Sendable () -> String?,
        tokenFile: PanelTokenFile? = nil
    ) {
        self.address = address
        self.preset = preset
        self.restartKeys = restartKeys
        self.presets = presets
        self.presetFolder = presetFolder
        self.tokenFile = tokenFile
    }

    public func start(_ hub: ControlHub) throws(ControlSurfaceError) -> [String] {
        let backend = HubBackend(
            hub: hub, preset: preset, restartKeys: restartKeys, presets: presets, presetFolder: presetFolder)
        var lines: [String] = []
        var token = PanelToken()
        var file = tokenFile
        if let tokenFile {
            do {
                token = try tokenFile.token()
            } catch {
                file = nil
                lines.append("warning: \(error.description); the panel's token lasts this run only")
            }
        }
        let started: PanelServer
        do {
            started = try PanelServer(
                address: address, token: token, tokenFile: file, backend: backend, note: { hub.note($0) })
            try started.start()
        } catch {
            throw ControlSurfaceError(code: 69, error.description)
        }
        server.withLock { $0 = started }
        file?.noteAddress(address, port: started.port)
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
