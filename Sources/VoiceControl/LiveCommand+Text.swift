extension LiveCommand {
    /// The text commands (`--control`, one per line), as `help` lists them: each line fits 80
    /// columns after the log's `voicerack: ` prefix (68 characters at most).
    public static let textHelp = [
        "commands (one per line):",
        "  set KEY VALUE   change a preset key live: set monitor.master_db -6",
        "                  (keys: `voicerack presets show NAME`); an LV2",
        "                  unit's control by its port symbol: set eq.gain 6",
        "  get KEY         one key's running value and what it allows",
        "  show            every key's running value and what it allows",
        "  load PRESET     load a preset (name or path), apply the live keys",
        "  save FILE       write the running setup as a preset file",
        "  unmute          unmute the monitor after the feedback guard",
        "  record          start recording (as SIGUSR1)",
        "  record TAP...   record these taps (voice, mic, reference,",
        "                  monitor, tuning, karaoke)",
        "  stop            stop recording and finalise the files",
        "  pause           pause or resume the backing track (as SIGUSR2)",
        "  status          the status with every number",
        "  stream start|stop  start or stop the Icecast stream",
        "  mute on|off     mute voice_out; talking while muted is reported",
        "  help            this list",
        "  quit, exit      stop as SIGINT does, then exit (also Ctrl-D)",
    ]

    /// Parses one text command line. Nil for an empty line; a failure reply (usage, unknown
    /// command) for a line that is not a command.
    ///
    /// - Realtime: never; any thread.
    public static func parse(_ line: String) -> Result<LiveCommand, ParseFailure>? {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let command = words.first else { return nil }
        let rest = Array(words.dropFirst())
        func usage(_ text: String) -> Result<LiveCommand, ParseFailure> { .failure(ParseFailure("usage: " + text)) }
        switch (command, rest.count) {
        case ("set", 2...):
            return .success(.set(key: rest[0], value: .word(rest.dropFirst().joined(separator: " "))))
        case ("set", _):
            return usage("set KEY VALUE (e.g. set monitor.master_db -6)")
        case ("get", 1):
            return .success(.get(key: rest[0]))
        case ("get", _):
            return usage("get KEY (e.g. get monitor.master_db)")
        case ("load", 1...):
            return .success(.loadPreset(rest.joined(separator: " ")))
        case ("load", _):
            return usage("load PRESET (a name from `voicerack presets list`, or a path)")
        case ("save", 1...):
            return .success(.savePreset(rest.joined(separator: " ")))
        case ("save", _):
            return usage("save FILE (e.g. save my-voice.toml)")
        case ("show", _): return .success(.show)
        case ("unmute", _): return .success(.unmuteMonitor)
        case ("record", 0): return .success(.record(true))
        case ("record", _): return .success(.recordTaps(rest))
        case ("stop", 0): return .success(.record(false))
        case ("pause", 0): return .success(.backing(.toggle))
        case ("status", 0): return .success(.status)
        case ("help", _): return .success(.help)
        case ("backing", 1):
            guard let action = BackingAction(rawValue: rest[0]) else { return usage("backing play|pause|toggle") }
            return .success(.backing(action))
        case ("backing", _):
            return usage("backing play|pause|toggle")
        case ("stream", _):
            guard rest.count == 1, let on = ["start": true, "stop": false][rest[0]] else {
                return usage("stream start|stop")
            }
            return .success(.stream(on))
        case ("mute", _):
            guard rest.count == 1, let on = ["on": true, "off": false][rest[0]] else { return usage("mute on|off") }
            return .success(.muteVoice(on))
        default:
            return .failure(ParseFailure("unknown command '\(command)'; try help"))
        }
    }

    /// Why a text line is not a command, in words.
    public struct ParseFailure: Error, Sendable, Equatable {
        public let message: String
        public init(_ message: String) { self.message = message }
    }
}

extension LiveCommand: CustomStringConvertible {
    /// The command as its `--control` text line (`set monitor.master_db -6`), for logs.
    public var description: String {
        switch self {
        case .set(let key, let value): "set \(key) \(value)"
        case .get(let key): "get \(key)"
        case .show: "show"
        case .record(let on): on ? "record" : "stop"
        case .recordTaps(let taps): "record " + taps.joined(separator: " ")
        case .backing(let action): "backing \(action.rawValue)"
        case .unmuteMonitor: "unmute"
        case .muteVoice(let on): "mute \(on ? "on" : "off")"
        case .stream(let on): "stream \(on ? "start" : "stop")"
        case .loadPreset(let name): "load \(name)"
        case .savePreset(let path): "save \(path)"
        case .status: "status"
        case .help: "help"
        }
    }
}
