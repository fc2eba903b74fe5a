import VoiceControl

/// The messages voicerack sends: replies, errors, keys, and the meter pushes.
///
/// - Realtime: never; any thread.
enum OSCReplies {
    /// The messages answering `address` with `reply`: `/voicerack/error ADDRESS MESSAGE` when it
    /// failed; for `get` (and a parameter's address without a value) the key as
    /// `/voicerack/reply ADDRESS KEY VALUE ALLOWED`; for `show` one
    /// `/voicerack/key` per key, then the reply; else `/voicerack/reply ADDRESS LINE...`.
    static func messages(answering address: String, _ reply: LiveReply) -> [OSCMessage] {
        guard reply.succeeded else {
            return [error(address, reply.lines.joined(separator: "; "))]
        }
        // `/get` and a parameter's own address read without a value: the one key, typed.
        if address != OSCAddressSpace.prefix + "/show", reply.keys.count == 1, let key = reply.keys.first {
            return [OSCMessage(OSCAddressSpace.prefix + "/reply", [.string(address)] + fields(key))]
        }
        if address == OSCAddressSpace.prefix + "/show" {
            return reply.keys.map { OSCMessage(OSCAddressSpace.prefix + "/key", fields($0)) } + [
                OSCMessage(OSCAddressSpace.prefix + "/reply", [.string(address), .string("\(reply.keys.count) keys")])
            ]
        }
        return [lines(address, reply.lines)]
    }

    static func lines(_ address: String, _ lines: [String]) -> OSCMessage {
        OSCMessage(OSCAddressSpace.prefix + "/reply", [.string(address)] + lines.map { .string($0) })
    }

    static func error(_ address: String, _ message: String) -> OSCMessage {
        OSCMessage(OSCAddressSpace.prefix + "/error", [.string(address), .string(message)])
    }

    /// KEY VALUE ALLOWED, the value a float for number keys and text otherwise.
    private static func fields(_ key: LiveKey) -> [OSCValue] {
        let value: OSCValue
        if case .number = key.kind, let number = Float(key.value) {
            value = .float(number)
        } else {
            value = .string(key.value)
        }
        return [.string(key.key), value, .string(key.allowed)]
    }

    /// `/voicerack/meters`: level and peak of mic, far, voice and monitor, dBFS (-120 for silence).
    static func meters(_ s: LiveSnapshot) -> OSCMessage {
        let pairs = [s.mic, s.far, s.voice, s.monitor].flatMap { [$0.level, $0.peak] }
        return OSCMessage(OSCAddressSpace.prefix + "/meters", pairs.map { .float(Float(max(-120, $0))) })
    }

    /// `/voicerack/loudness`: voice_out's momentary and short-term loudness, the take's integrated
    /// loudness (LUFS), its range (LU) and true peak (dBTP), -120 where not measured yet; nil
    /// without the meter.
    static func loudness(_ s: LiveSnapshot) -> OSCMessage? {
        guard let l = s.loudness else { return nil }
        let figures = [l.momentary, l.shortTerm, l.integrated, l.range, l.truePeak]
        return OSCMessage(OSCAddressSpace.prefix + "/loudness", figures.map { .float(Float($0 ?? -120)) })
    }

    /// `/voicerack/state`: every `LiveFigure` as a name and its value: a count or a flag as i,
    /// a measurement as f, words as s, N while not measured.
    static func state(_ s: LiveSnapshot) -> OSCMessage {
        OSCMessage(
            OSCAddressSpace.prefix + "/state",
            LiveFigure.all.flatMap { figure -> [OSCValue] in
                [.string(figure.name), value(figure, s)]
            })
    }

    private static func value(_ figure: LiveFigure, _ s: LiveSnapshot) -> OSCValue {
        if case .words = figure.kind { return figure.words(s).map { .string($0) } ?? .nil }
        guard let v = figure.value(s), v.isFinite else { return .nil }
        switch figure.kind {
        case .count, .flag: return .int(Int32(clamping: Int(v)))
        case .number, .words: return .float(Float(v))
        }
    }
}
