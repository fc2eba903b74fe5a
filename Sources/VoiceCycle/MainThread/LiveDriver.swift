/// A driver a live session runs on: an `AudioDriver` on a server other programs share (JACK, or
/// PipeWire through its JACK library), as the session's main loop sees it.
///
/// The live loop (VoiceHost's `LiveLoop`) holds one of these and never a concrete driver, so a
/// second live driver is a second conformance: the loop, its commands, recordings, restarts and
/// links stay as they are. The graph members at the end are what `--pipewire` links and
/// `--wait-for-server` restores, by full port names (`system:capture_1`).
///
/// - Realtime: never; main thread.
public protocol LiveDriver: AudioDriver {
    /// The client's name on the server: the one asked for, or the one the server gave.
    var clientName: String { get }
    /// True once the server has gone away.
    var serverHasShutDown: Bool { get }
    /// The server's reason for going away, when it gave one.
    var shutdownReason: String? { get }
    /// The server's new sample rate when it changed since the client opened, else nil.
    var changedSampleRate: Int? { get }
    /// The driver's figures now: xruns, load, the cycle's timing, frames missed.
    func status() -> DriverStatus
    /// Tells the server the outputs' latencies again when it asked for them.
    func updateLatenciesIfNeeded()
    /// Samples from the far end leaving the speakers' port to its echo reaching the mic's port,
    /// from the server's port latencies (playback + capture); nil when unknown.
    func echoPathLatency() -> Int?
    /// Connects the ports to the first physical ones, never adding a second source to a port
    /// already connected; returns a line for the log per connection made or left.
    func autoConnect() -> [String]
    /// Stops rendering and leaves the server, waiting at most `timeout` seconds for each step;
    /// false when the server did not answer (the client is then left to the operating system).
    @discardableResult func close(timeout: Double) -> Bool
    /// `close` for a server that went away, without its library's complaints about that.
    @discardableResult func closeAfterServerLoss(timeout: Double) -> Bool

    /// Ports registered on the server so far (any client's); a change means the graph moved.
    var portRegistrations: Int { get }
    /// Whether the server has a port called `name`.
    func hasPort(_ name: String) -> Bool
    /// The ports connected to port `name`.
    func peers(of name: String) -> [String]
    /// Connects `source` to `destination`; 0 when done, the server's error code otherwise.
    func link(_ source: String, _ destination: String) -> Int32
    /// Disconnects `source` from `destination`; 0 when done, the server's error code otherwise.
    func unlink(_ source: String, _ destination: String) -> Int32
    /// Every connection of the client's ports now; none once the server has gone away.
    func connections() -> [PortConnection]
    /// Makes `connections` again (after a server restart, once started); returns a note per
    /// connection that could not be made.
    func restore(_ connections: [PortConnection]) -> [String]
}

extension LiveDriver {
    /// Leaves the server, waiting at most 5 s for each step.
    public func close() { close(timeout: 5) }
}

/// One connection of one of the session's ports, by port names: the own port by its short name
/// (`mic_in`), so it still names the right port when a new client gets another name.
///
/// - Realtime: never; any thread (a plain value).
public struct PortConnection: Sendable, Equatable {
    /// The session's port, e.g. `mic_in`.
    public let port: String
    /// The other end's full name, e.g. `system:capture_1`.
    public let peer: String
    /// True when the session's port is the output (the source of the connection).
    public let outgoing: Bool

    public init(port: String, peer: String, outgoing: Bool) {
        (self.port, self.peer, self.outgoing) = (port, peer, outgoing)
    }
}
