import Foundation
import VoiceControl

/// A command from the page, checked for shape here (known operation, bounded text, names made
/// of safe characters); the session checks values exactly like preset values.
///
/// - Realtime: never.
public enum PanelRequest: Sendable, Equatable {
    /// Set a preset key (`section.name`) to a value, as `--control`'s `set` (the page sends
    /// its values as words, read by the key's type when the command runs).
    case set(key: String, value: LiveValue)
    /// Start recording (the `--record` files, else the voice), or stop.
    case record(Bool)
    /// Start recording these taps only (tap names, each once; at most `maximumTaps`).
    case recordTaps([String])
    /// Pause or resume the backing track.
    case pauseBacking
    /// Unmute the monitor after the feedback guard muted it.
    case unmuteMonitor
    case muteVoice(Bool)
    /// Start (true) or stop (false) the `--stream` stream.
    case stream(Bool)
    /// Load a preset of the library by name: its live keys apply, the rest is reported.
    case loadPreset(String)
    /// Save the running setup as a preset file `NAME.toml` in the user's preset folder.
    case savePreset(String)

    /// The longest key or value text accepted.
    public static let maximumText = 200
    /// The most taps one record request names (there are six).
    public static let maximumTaps = 6

    /// Decodes one message (`{"op":"set","key":"output.gain_db","value":"-6","id":3}`); the error
    /// says what is wrong. Returns the request and its id (echoed in the reply).
    public static func decode(_ text: String) throws(PanelError) -> (PanelRequest, Int) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw PanelError("not a JSON object")
        }
        let id = (object["id"] as? Int) ?? 0
        func string(_ field: String) throws(PanelError) -> String {
            guard let value = object[field] as? String, !value.isEmpty, value.utf8.count <= maximumText else {
                throw PanelError("'\(field)' must be text of 1 to \(maximumText) bytes")
            }
            guard value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw PanelError("'\(field)' holds a control character")
            }
            return value
        }
        func flag(_ field: String) throws(PanelError) -> Bool {
            guard let value = object[field] as? Bool else { throw PanelError("'\(field)' must be true or false") }
            return value
        }
        switch object["op"] as? String {
        case "set":
            return (.set(key: try string("key"), value: .word(try string("value"))), id)
        case "record":
            let start = try flag("start")
            guard start, let taps = object["taps"] else { return (.record(start), id) }
            // Names only (the session checks that each is a tap): short words, a few of them.
            guard let names = taps as? [String], (1...maximumTaps).contains(names.count),
                names.allSatisfy({ (1...16).contains($0.utf8.count) && $0.allSatisfy { $0.isASCII && $0.isLetter } })
            else {
                throw PanelError("'taps' must be a list of 1 to \(maximumTaps) tap names (voice, mic, reference, ...)")
            }
            return (.recordTaps(names), id)
        case "pause":
            return (.pauseBacking, id)
        case "unmute":
            return (.unmuteMonitor, id)
        case "mute":
            return (.muteVoice(try flag("on")), id)
        case "stream":
            return (.stream(try flag("on")), id)
        case "load":
            let name = try string("preset")
            guard isName(name) else { throw PanelError("'\(name)' is not a preset name (letters, digits, - and _)") }
            return (.loadPreset(name), id)
        case "save":
            let name = try string("name")
            guard isName(name) else {
                throw PanelError(
                    "'\(name)' is not a preset name: use 1 to 64 letters, digits, - and _ (no folders, no dots)")
            }
            return (.savePreset(name), id)
        case let op?:
            throw PanelError("unknown op '\(op.prefix(40))'")
        case nil:
            throw PanelError("no 'op'")
        }
    }

    /// A file-name-safe name (`PresetName.isValid`): it can name nothing outside the folder it is put in.
    public static func isName(_ text: String) -> Bool { PresetName.isValid(text) }
}

/// The session's answer to a request: whether it was done, and what to tell the user.
///
/// - Realtime: never.
public struct PanelReply: Codable, Sendable, Equatable {
    public var ok: Bool
    public var lines: [String]

    public init(ok: Bool, lines: [String]) {
        self.ok = ok
        self.lines = lines
    }
}

/// What the panel needs of the session: its figures, its controls, and a way to run requests.
///
/// - Realtime: never; called from the server's tasks (any thread), so implementations hand
///   requests to the session's own thread rather than acting on them here.
public protocol PanelBackend: Sendable {
    /// The latest figures (a copy; cheap).
    func meters() -> PanelMeters
    /// The controls and choices, with the running values.
    func setup() async -> PanelSetup
    /// Runs `request` on the session's thread and returns its answer.
    func perform(_ request: PanelRequest) async -> PanelReply
    /// Called while a page is open: keeps the figures fresh until the returned value is dropped.
    func watch() -> (any Sendable)?
}
