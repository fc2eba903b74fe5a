/// What a control surface can ask of a running session: the one vocabulary the `--control`
/// text commands, OSC and the web panel share, so all of them behave alike.
///
/// Surfaces build a command and submit it to the session's `ControlHub`; the main thread runs
/// it and answers with a `LiveReply`. Nothing here touches the audio; values are checked when
/// the command runs (a key's range comes from the preset schema).
///
/// - Realtime: never; any thread may build one.
public enum LiveCommand: Sendable, Equatable {
    /// Sets a preset key (`section.name`, as in presets) to `value`: a number or switch as a
    /// typed surface sent it, or a word as in a preset (`-18`, `true`, `processed`); the change
    /// glides in.
    case set(key: String, value: LiveValue)
    /// One key's running value and what it allows.
    case get(key: String)
    /// Every key's running value and what it allows.
    case show
    /// Starts (true) or stops (false) recording.
    case record(Bool)
    /// Starts recording these taps (names as in `--record TAP=FILE`: voice, mic, reference,
    /// monitor, tuning, karaoke), each to the `--record` file given for it, else to the default
    /// name; checked when it runs.
    case recordTaps([String])
    /// Plays, pauses or toggles the backing track.
    case backing(BackingAction)
    /// Unmutes the monitor after the feedback guard muted it, and re-arms the guard.
    case unmuteMonitor
    /// Mutes `voice_out` (true) or opens it (false).
    case muteVoice(Bool)
    /// Starts (true) or stops (false) the Icecast stream.
    case stream(Bool)
    /// Loads a preset (name or path) and applies every key that can change while running.
    case loadPreset(String)
    /// Writes the running setup, live changes included, as a preset file at the path (written
    /// to a temporary file beside it, then renamed: a crash leaves the old file or the new one).
    case savePreset(String)
    /// The status with every number.
    case status
    /// The list of text commands.
    case help

    /// What `backing` does to the track.
    public enum BackingAction: String, Sendable, Equatable, CaseIterable {
        case play, pause, toggle
    }
}

/// The answer to one `LiveCommand`: whether it was done, what to tell the user, and for `get`
/// and `show` the keys as data.
///
/// - Realtime: never; any thread.
public struct LiveReply: Sendable, Equatable {
    /// False when the command was refused or failed; `lines` then say what is wrong.
    public var succeeded: Bool
    /// What to print, one line each.
    public var lines: [String]
    /// The keys asked for (`get`, `show`); empty for other commands.
    public var keys: [LiveKey]

    public init(succeeded: Bool = true, lines: [String], keys: [LiveKey] = []) {
        self.succeeded = succeeded
        self.lines = lines
        self.keys = keys
    }

    /// A reply saying what is wrong.
    public static func failure(_ lines: String...) -> LiveReply { LiveReply(succeeded: false, lines: lines) }
}

/// One preset key as a surface shows it: its name, running value and what it allows.
///
/// - Realtime: never; any thread.
public struct LiveKey: Sendable, Equatable {
    /// `section.name`, as in presets.
    public var key: String
    /// The running value as written in a preset (`-18`, `true`, `"processed"` without quotes).
    public var value: String
    /// What it allows, in words (`-60...0 dBFS`, `true or false`).
    public var allowed: String
    public var kind: Kind
    /// What the key does, one line.
    public var help: String

    /// What kind of value the key takes.
    public enum Kind: Sendable, Equatable {
        /// A number from `minimum` to `maximum` in `unit` (empty when none); 0 is also allowed
        /// when `zero` names what it means ("off", "auto").
        case number(minimum: Double, maximum: Double, unit: String, zero: String?)
        case boolean
        /// One of `choices`.
        case choice([String])
        /// A comma-separated list of distinct names from `choices`.
        case list([String])
        case text
    }

    public init(key: String, value: String, allowed: String, kind: Kind, help: String) {
        self.key = key
        self.value = value
        self.allowed = allowed
        self.kind = kind
        self.help = help
    }
}
