/// A failure talking to the JACK server. Every one means the server (or the client's place in
/// it) is unavailable, so the CLI exits with 69 (EX_UNAVAILABLE); the message names the server or
/// port at fault and what was expected.
public struct JACKError: Error, CustomStringConvertible, Equatable {
    public let message: String
    /// True when no server answered at all (none is running under that name), as opposed to a
    /// server that refused the client: `--wait-for-server` waits only for the former.
    public let serverIsAway: Bool

    public init(_ message: String, serverIsAway: Bool = false) {
        self.message = message
        self.serverIsAway = serverIsAway
    }

    public var description: String { message }
}
