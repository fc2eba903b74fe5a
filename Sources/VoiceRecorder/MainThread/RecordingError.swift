import VoiceFiles

/// Why a recording could not start or had to stop; each names the file.
public struct RecordingError: Error, CustomStringConvertible, Equatable, Sendable {
    public let path: String
    public let message: String
    /// True for problems with the request (format, path) found before recording started.
    public let beforeStart: Bool

    public var description: String { "recording \(path): \(message)" }
}
