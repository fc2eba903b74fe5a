import Foundation

/// The shared secret an OSC port may demand (`run --osc-secret-file FILE`): every message then
/// carries it as its first argument, a string, which is checked and taken off before the
/// message is routed, so no reply, error or log line can quote it.
///
/// It keeps out whoever can reach the port but does not know the secret (other users' programs,
/// a LAN); it travels unencrypted, so it does not keep out whoever can watch the network.
///
/// - Realtime: never; built on the main thread, checked on the surface's thread.
public struct OSCSecret: Sendable {
    private let bytes: [UInt8]
    /// The longest secret read, bytes: it must fit every message beside the command.
    public static let maximumLength = 256
    /// The shortest: a secret a sender can guess in a few datagrams protects nothing.
    public static let minimumLength = 8

    /// The secret from the first line of `path` (a trailing newline is not part of it). Throws
    /// a message naming the file and what is wrong, never quoting its contents.
    public init(file path: String) throws(OSCSecretError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OSCSecretError("--osc-secret-file \(path): cannot read it (missing, or permissions?)")
        }
        var line = Array(data.prefix { $0 != UInt8(ascii: "\n") })
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard (Self.minimumLength...Self.maximumLength).contains(line.count) else {
            throw OSCSecretError(
                "--osc-secret-file \(path): its first line must hold \(Self.minimumLength) to \(Self.maximumLength) bytes; it holds \(line.count)"
            )
        }
        guard !line.contains(0), String(validating: line, as: UTF8.self) != nil else {
            throw OSCSecretError("--osc-secret-file \(path): the secret must be UTF-8 text without NUL bytes")
        }
        bytes = line
    }

    /// `message` without its first argument when that is the secret; nil otherwise. The
    /// comparison takes as long whatever the bytes, so timing tells nothing of the secret.
    func admit(_ message: OSCMessage) -> OSCMessage? {
        guard case .string(let given)? = message.arguments.first else { return nil }
        let candidate = Array(given.utf8)
        var difference = UInt8(candidate.count == bytes.count ? 0 : 1)
        for index in bytes.indices {
            difference |= bytes[index] ^ (index < candidate.count ? candidate[index] : 0)
        }
        guard difference == 0 else { return nil }
        return OSCMessage(message.path, Array(message.arguments.dropFirst()))
    }

    /// The error answering a message without the secret: what to send, never what was sent.
    static let refusal = "this OSC port needs its secret as each message's first argument (s); see --osc-secret-file"
}

/// Why the secret could not be read, in words that never quote it.
public struct OSCSecretError: Error, Sendable {
    public let message: String
    init(_ message: String) { self.message = message }
}
