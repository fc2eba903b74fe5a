import VoiceControl

/// voicerack's OSC addresses and what each maps to: a `LiveCommand` for the session, or a
/// meters registration the OSC thread keeps itself.
///
/// - Realtime: never; the OSC thread.
public enum OSCAddressSpace {
    /// Every address with its arguments and what it does, one entry each, for `/voicerack/help`
    /// and `--help` (which sets them a blank line apart: the man page joins single lines).
    /// Replies go to the sender's address and port, or its host at `--osc-reply-port`.
    public static let help = [
        "/voicerack/set KEY VALUE     set a preset key (s) live; VALUE f, i, s or T/F",
        "/voicerack/get KEY           reply /voicerack/get KEY VALUE ALLOWED",
        "/voicerack/SECTION/NAME VALUE  set one declared parameter by its own address (VALUE f, i, s or T/F),",
        "                             e.g. /voicerack/compressor/threshold_dbfs -18; no VALUE: get it; the list below",
        "/voicerack/show              /voicerack/key KEY VALUE ALLOWED per key, a reply",
        "/voicerack/record/start      start recording (--record files, else the voice)",
        "/voicerack/record/start TAP... (s) record only these taps (voice, mic, ...)",
        "/voicerack/record/stop       stop recording, finalise the files",
        "/voicerack/backing/play      play the backing track (also /pause, /toggle)",
        "/voicerack/backing/level DB  the backing track's level, dB",
        "/voicerack/monitor/unmute    unmute the monitor after the feedback guard",
        "/voicerack/voice/mute ON     mute voice_out (1 or T), open it (0 or F)",
        "/voicerack/stream/start      start the Icecast stream (also /stop)",
        "/voicerack/preset/load NAME  load a preset from the preset folders; live keys apply",
        "/voicerack/preset/save NAME  save the running setup as NAME.toml in the user's preset folder",
        "/voicerack/status            reply: the status with every number",
        "/voicerack/meters/register HZ PORT  push meters 1...30 Hz (10) to PORT on the sender's host (else its port)",
        "/voicerack/meters/unregister PORT  stop the pushes (to PORT, if registered with one)",
        "/voicerack/help              this list",
        "Replies: /voicerack/reply ADDRESS LINE...; /voicerack/error ADDRESS WHY; to the sender's port, "
            + "or to --osc-reply-port on the sender's host (oscsend's port is gone: listen with oscdump there).",
        "/voicerack/meters: level, peak of mic, far, voice, monitor (8 f, dBFS).",
        "/voicerack/loudness: momentary, short-term, take LUFS, range, true peak (5 f).",
        "/voicerack/units: UNIT.peak_dbfs f, UNIT.reduction_db f (N: none) per chain unit, in order.",
        "/voicerack/state: NAME VALUE pairs (s, then f, i or s; N while not measured): "
            + LiveFigure.all.map(\.helpName).joined(separator: ", ") + ".",
    ]

    /// What a message asks for.
    enum Route: Equatable {
        case command(LiveCommand)
        /// Meters at `rate` Hz to the sender, or to its host at `port` when the message named one.
        case registerMeters(rate: Double, port: Int?)
        /// No more meters to the sender, or to its host at `port`.
        case unregisterMeters(port: Int?)
        case help
        /// What is wrong with the message, in words.
        case failure(String)
    }

    static let prefix = "/voicerack"
    /// The highest meter rate a client may ask for, Hz.
    static let maximumRate = 30.0

    /// The address of a declared parameter: `compressor.threshold_dbfs` at
    /// `/voicerack/compressor/threshold_dbfs`.
    public static func address(of key: String) -> String {
        prefix + "/" + key.split(separator: ".", maxSplits: 1).joined(separator: "/")
    }

    /// The key a parameter's own address names, when `parameters` declares it.
    static func parameterKey(_ path: String, in parameters: Set<String>) -> String? {
        guard path.hasPrefix(prefix + "/") else { return nil }
        let parts = path.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let key = parts.joined(separator: ".")
        return parameters.contains(key) ? key : nil
    }

    /// The route of `message`; a failure names the address and what it takes. `parameters`
    /// holds the declared parameters' keys, each answered at its own address (`address(of:)`).
    static func route(_ message: OSCMessage, parameters: Set<String> = []) -> Route {
        let a = message.arguments
        let tags = message.typeTags
        func takesNothing(_ command: LiveCommand) -> Route {
            a.isEmpty ? .command(command) : .failure("\(message.path) takes no arguments; got ,\(tags)")
        }
        switch message.path {
        case prefix + "/set":
            guard a.count == 2, case .string(let key) = a[0], let value = a[1].liveValue else {
                return .failure("\(message.path) takes a key (s) and a value (f, i, d, s, T or F); got ,\(tags)")
            }
            return .command(.set(key: key, value: value))
        case prefix + "/get":
            guard a.count == 1, case .string(let key) = a[0] else {
                return .failure("\(message.path) takes a key (s); got ,\(tags)")
            }
            return .command(.get(key: key))
        case prefix + "/preset/load":
            guard a.count == 1, case .string(let name) = a[0] else {
                return .failure("\(message.path) takes a preset name (s); got ,\(tags)")
            }
            return .command(.loadPreset(name))
        case prefix + "/preset/save":
            guard a.count == 1, case .string(let path) = a[0] else {
                return .failure("\(message.path) takes a preset name (s); got ,\(tags)")
            }
            return .command(.savePreset(path))
        case prefix + "/backing/level":
            guard a.count == 1, let level = a[0].number else {
                return .failure("\(message.path) takes a level in dB (f or i); got ,\(tags)")
            }
            return .command(.set(key: "backing.level_db", value: .number(level)))
        case prefix + "/voice/mute":
            switch a.count == 1 ? a[0] : .nil {
            case .true, .int(1), .float(1): return .command(.muteVoice(true))
            case .false, .int(0), .float(0): return .command(.muteVoice(false))
            default: return .failure("\(message.path) takes 1 or T to mute, 0 or F to open; got ,\(tags)")
            }
        case prefix + "/meters/register":
            // [HZ [PORT]]: a port names where the pushes go on the sender's host (oscdump's).
            let rate: Double? = a.isEmpty ? 10 : a[0].number
            let port: Double? = a.count == 2 ? a[1].number : nil
            guard a.count <= 2, let rate, rate >= 1, rate <= maximumRate else {
                return .failure(
                    "\(message.path) takes a rate in Hz (f or i), 1...\(Int(maximumRate)), and optionally a reply port (i); got ,\(tags)"
                        + (a.first?.text.map { " \($0)" } ?? ""))
            }
            if a.count == 2 {
                guard let port, port == port.rounded(), (1...65535).contains(port) else {
                    return .failure("\(message.path): the reply port must be 1-65535 (i); got ,\(tags)")
                }
            }
            return .registerMeters(rate: rate, port: port.map { Int($0) })
        case prefix + "/meters/unregister":
            guard a.count <= 1 else {
                return .failure("\(message.path) takes a reply port (i) or nothing; got ,\(tags)")
            }
            guard let first = a.first else { return .unregisterMeters(port: nil) }
            guard let port = first.number, port == port.rounded(), (1...65535).contains(port) else {
                return .failure("\(message.path): the reply port must be 1-65535 (i); got ,\(tags)")
            }
            return .unregisterMeters(port: Int(port))
        case prefix + "/help": return a.isEmpty ? .help : .failure("\(message.path) takes no arguments; got ,\(tags)")
        case prefix + "/show": return takesNothing(.show)
        case prefix + "/record/start":
            guard !a.isEmpty else { return .command(.record(true)) }
            let taps = a.compactMap { if case .string(let name) = $0 { name } else { nil } }
            guard taps.count == a.count else {
                return .failure("\(message.path) takes tap names (s), or nothing; got ,\(tags)")
            }
            return .command(.recordTaps(taps))
        case prefix + "/record/stop": return takesNothing(.record(false))
        case prefix + "/backing/play": return takesNothing(.backing(.play))
        case prefix + "/backing/pause": return takesNothing(.backing(.pause))
        case prefix + "/backing/toggle": return takesNothing(.backing(.toggle))
        case prefix + "/monitor/unmute": return takesNothing(.unmuteMonitor)
        case prefix + "/stream/start": return takesNothing(.stream(true))
        case prefix + "/stream/stop": return takesNothing(.stream(false))
        case prefix + "/status": return takesNothing(.status)
        default:
            guard let key = parameterKey(message.path, in: parameters) else {
                return .failure("unknown address \(message.path); /voicerack/help lists them")
            }
            guard let first = a.first else { return .command(.get(key: key)) }
            guard a.count == 1, let value = first.liveValue else {
                return .failure(
                    "\(message.path) takes a value (f, i, d, s, T or F) to set \(key), or nothing to read it; got ,\(tags)"
                )
            }
            return .command(.set(key: key, value: value))
        }
    }
}
