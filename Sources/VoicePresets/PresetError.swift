/// Why a preset could not be loaded, pointing at the file, line and key to fix.
///
/// `description` reads `file:line: message` (or `file: message` when no line applies, and just
/// `message` when there is no file, e.g. an unknown preset name), the form editors and terminals
/// recognise as a jump target. `message` names the full key (`echo_canceller.tail_ms`) and what is
/// allowed, so it stands on its own.
///
/// - Realtime: never.
public struct PresetError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Path of the offending file as given or found (empty when no file is involved).
    public let file: String
    /// 1-based line, when the problem sits on one line.
    public let line: Int?
    /// Full key such as `echo_canceller.tail_ms`, a section name, or nil for whole-file problems.
    public let key: String?
    /// What is wrong and what is allowed.
    public let message: String

    public init(file: String, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        if file.isEmpty { return message }
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
