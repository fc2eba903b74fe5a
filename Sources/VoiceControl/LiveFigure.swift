import Foundation

/// One health figure of a running session, described once: its name on the wire, its unit,
/// what it means, how to read it from a `LiveSnapshot` and how to write it for a person.
///
/// Every surface renders figures from these descriptions: OSC's `/voicerack/state` sends each
/// as a name/value pair and `/voicerack/help` lists them, the terminal's status line and the
/// exit summary write them with `text`, the panel's data takes its echo verdict from
/// `EchoVerdict`. A new figure is one more entry in `LiveFigure.all`.
///
/// - Realtime: never; any thread (plain values).
public struct LiveFigure: Sendable {
    /// How the value reads.
    public enum Kind: Sendable, Equatable {
        /// A measurement in `unit`, written with `decimals` decimals.
        case number(unit: String, decimals: Int)
        /// A count of events or frames, never falling.
        case count
        /// On (1) or off (0).
        case flag
        /// Words (the echo verdict); `value` is nil, `words` gives them.
        case words
    }

    /// The name on the wire and in help: `echo_db`, `delay_ms`.
    public let name: String
    public let kind: Kind
    /// What it is, a few words for help texts.
    public let meaning: String
    /// The value in a snapshot; nil while not measured (or for `.words`).
    public let value: @Sendable (LiveSnapshot) -> Double?
    /// The words in a snapshot, for `.words` figures.
    public let words: @Sendable (LiveSnapshot) -> String?

    init(
        _ name: String, _ kind: Kind, _ meaning: String,
        value: @escaping @Sendable (LiveSnapshot) -> Double? = { _ in nil },
        words: @escaping @Sendable (LiveSnapshot) -> String? = { _ in nil }
    ) {
        self.name = name
        self.kind = kind
        self.meaning = meaning
        self.value = value
        self.words = words
    }

    /// The value for a person, with its unit: `42 dB`, `90.0 ms`, `3`, `on`; `--` while not
    /// measured.
    public func text(_ snapshot: LiveSnapshot) -> String {
        if case .words = kind { return words(snapshot) ?? "--" }
        guard let v = value(snapshot), v.isFinite else { return "--" }
        switch kind {
        case .number(let unit, let decimals):
            return String(format: "%.\(decimals)f", v) + (unit.isEmpty ? "" : " \(unit)")
        case .count: return String(Int(v))
        case .flag: return v != 0 ? "on" : "off"
        case .words: return "--"
        }
    }

    /// `name (unit or type): meaning`, for help.
    public var helpText: String { "\(helpName): \(meaning)" }

    /// `name (unit or type)`: `echo_db (dB)`, `talking (0/1)`.
    public var helpName: String {
        switch kind {
        case .number(let unit, _): "\(name) (\(unit.isEmpty ? "number" : unit))"
        case .count: "\(name) (count)"
        case .flag: "\(name) (0/1)"
        case .words: "\(name) (words)"
        }
    }
}

extension LiveFigure {
    /// Echo removed: ERLE over far-end-only stretches, dB.
    public static let echo = LiveFigure(
        "echo_db", .number(unit: "dB", decimals: 0), "echo removed (ERLE where the far end talks alone)",
        value: { $0.echoRemovalDB.map { max(0, $0) } })
    /// The verdict on `echo`.
    public static let echoVerdict = LiveFigure(
        "echo_verdict", .words, "good (from 35 dB), fair (from 20 dB), poor; measuring; no far end yet",
        words: { EchoVerdict.words($0) })
    public static let delay = LiveFigure(
        "delay_ms", .number(unit: "ms", decimals: 0), "estimated echo delay", value: { $0.delayMilliseconds })
    public static let drift = LiveFigure(
        "drift_ppm", .number(unit: "ppm", decimals: 0), "clock drift, playback to mic", value: { $0.driftPPM })
    public static let talking = LiveFigure(
        "talking", .flag, "the near end talks (N where nothing detects voice: the raw preset)",
        value: { $0.voiceDetected ? ($0.voiceActive ? 1 : 0) : nil })
    public static let farEnd = LiveFigure("far_end", .flag, "the far end plays", value: { $0.farActive ? 1 : 0 })
    public static let doubleTalk = LiveFigure(
        "double_talk", .flag, "both ends at once", value: { $0.voiceDetected ? ($0.doubleTalk ? 1 : 0) : nil })
    public static let voiceMuted = LiveFigure(
        "voice_muted", .flag, "voice_out is muted", value: { $0.voiceMuted ? 1 : 0 })
    public static let talkingMuted = LiveFigure(
        "talking_muted", .flag, "talking into the mute", value: { $0.talkingWhileMuted ? 1 : 0 })
    public static let monitorMuted = LiveFigure(
        "monitor_muted", .flag, "the feedback guard muted the monitor", value: { $0.monitorMuted ? 1 : 0 })
    public static let leveller = LiveFigure(
        "leveller_db", .number(unit: "dB", decimals: 1), "gain the voice leveller applies",
        value: { $0.levellerGainDB })
    public static let dsp = LiveFigure(
        "dsp_percent", .number(unit: "%", decimals: 0), "DSP load, percent of the period",
        value: { $0.dspLoadPercent })
    public static let worstCycle = LiveFigure(
        "worst_cycle_percent", .number(unit: "%", decimals: 0), "worst process callback, percent of the period",
        value: { $0.worstCyclePercent })
    public static let xruns = LiveFigure("xruns", .count, "xruns since the start", value: { Double($0.xruns) })
    public static let recording = LiveFigure(
        "recording", .flag, "recording runs", value: { $0.recording != nil ? 1 : 0 })
    public static let recordingSeconds = LiveFigure(
        "recording_s", .number(unit: "s", decimals: 0), "how long the recording runs",
        value: { $0.recording?.seconds })
    /// Frames the disk did not take in time (written as silence).
    public static let diskLoss = LiveFigure(
        "frames_lost_disk", .count, "recorded frames the disk did not take in time (written as silence)",
        value: { $0.recording.map { Double($0.framesLost - $0.framesNotRun) } })
    /// Frames the server ran no cycle for while recording (xruns; written as silence).
    public static let framesNotRun = LiveFigure(
        "frames_not_run", .count, "recorded frames no cycle ran for (xruns; written as silence)",
        value: { $0.recording.map { Double($0.framesNotRun) } })
    public static let streaming = LiveFigure(
        "streaming", .flag, "a stream is configured and running", value: { $0.stream != nil ? 1 : 0 })
    public static let backing = LiveFigure(
        "backing", .number(unit: "", decimals: 0), "backing track: 1 playing, 0 paused, none without one",
        value: { $0.backingPlaying.map { $0 ? 1 : 0 } })

    /// Every figure, in the order surfaces list them.
    public static let all: [LiveFigure] = [
        echo, echoVerdict, delay, drift, talking, farEnd, doubleTalk, voiceMuted, talkingMuted, monitorMuted,
        leveller, dsp, worstCycle, xruns, recording, recordingSeconds, diskLoss, framesNotRun, streaming, backing,
    ]
}
