/// Where the panel listens: `--web [HOST:]PORT`, IPv4, loopback unless a wider host is named.
///
/// - Realtime: never.
public struct PanelAddress: Sendable, Equatable {
    /// Dotted IPv4 address to bind (`127.0.0.1` by default; `localhost` means the same).
    public let host: String
    /// TCP port; 0 lets the system choose one (tests).
    public let port: UInt16

    /// Parses `PORT` or `HOST:PORT`; the error says what was expected.
    public init(parsing text: String) throws(PanelError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let portText = parts.last, let port = UInt16(portText) else {
            throw PanelError("--web \(text): expected PORT or HOST:PORT with an IPv4 host, e.g. 8080 or 127.0.0.1:8080")
        }
        var host = parts.count == 2 ? parts[0] : "127.0.0.1"
        if host == "localhost" { host = "127.0.0.1" }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil && $0.count <= 3 }) else {
            throw PanelError("--web \(text): '\(host)' is not an IPv4 address (e.g. 127.0.0.1 or 0.0.0.0)")
        }
        self.host = host
        self.port = port
    }

    /// True for 127.0.0.0/8: only programs on this machine can reach the panel.
    public var isLoopback: Bool { host.hasPrefix("127.") }
}

/// Why the panel cannot start: a bad `--web` value, or a port that cannot be bound.
public struct PanelError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
