import VoiceControl

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

    /// `key` and `message` may quote the file (a CR-only file's CR, a NUL, an escape sequence):
    /// their control characters are kept as visible escapes (`ControlText`), never raw.
    public init(file: String, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key.map(ControlText.escaped)
        self.message = ControlText.escaped(message)
    }

    public var description: String {
        if file.isEmpty { return message }
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

extension PresetError {
    /// The error as a remote surface (OSC, the web panel, NSM) and its log line see it: the file,
    /// the line and the key when it is one of voicerack's own (never a key, value or line taken
    /// from the file, which may not be a preset at all: a password file's first word would be
    /// "the key"). `presets check FILE`, run by the user, says the rest.
    public var withoutContents: String {
        // Nothing read from the file: a missing, unreadable or non-UTF-8 file, or no file at all.
        guard line != nil || key != nil, !file.isEmpty else { return description }
        var text = line.map { "\(file):\($0): " } ?? "\(file): "
        text += "not a valid preset"
        if let key, PresetSchema.keys.contains(where: { $0.fullName == key }) || key == "base" {
            text += " (key \(key))"
        } else if let line {
            text += " (the key on line \(line))"
        }
        return text + "; voicerack presets check \(file) says why"
    }
}
