/// A failure talking to the JACK server. Every one means the server (or the client's place in
/// it) is unavailable, so the CLI exits with 69 (EX_UNAVAILABLE); the message names the server or
/// port at fault and what was expected.
public struct JACKError: Error, CustomStringConvertible, Equatable {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
