/// The figures the panel shows, sent to every open page about 25 times a second (JSON).
///
/// Levels are dBFS (RMS over about 300 ms; peaks with a slow release), -120 for silence; nil
/// where a figure is not measured yet. The page holds peaks, lights the clip lamps and keeps the
/// 30 s history itself, from these.
///
/// - Realtime: never; built on the session's main thread, read by the server's tasks.
public struct PanelMeters: Codable, Sendable, Equatable {
    /// Seconds since the session started (the history's time axis).
    public var time: Double = 0
    public var micDB: Double = -120
    public var micPeakDB: Double = -120
    public var farDB: Double = -120
    public var farPeakDB: Double = -120
    public var voiceDB: Double = -120
    public var voicePeakDB: Double = -120
    public var monitorDB: Double = -120
    public var monitorPeakDB: Double = -120
    /// Each effect-chain unit's output peak and gain reduction, in chain order.
    public var units: [PanelUnitMeter] = []
    /// Echo removed (ERLE, dB); nil until the far end has played alone long enough to measure.
    public var echoRemovalDB: Double?
    /// A few words for the user: "good", "fair: …", "poor: …", "measuring", "no far end yet"
    /// (before any far end was heard), "far end silent" (after; nothing to measure now); the page
    /// says "off" when echo_canceller.enabled is false.
    public var echoVerdict = "no far end yet"
    /// Estimated mic/far-end delay, ms; nil until found.
    public var delayMS: Double?
    /// Clock drift between playback and mic, ppm; nil until measured.
    public var driftPPM: Double?
    public var voiceActive = false
    /// Near and far end talking at once.
    public var doubleTalk = false
    public var levellerGainDB: Double = 0
    /// voice_out's short-term loudness (LUFS) and the take's integrated loudness (LUFS) and true
    /// peak (dBTP); nil until measured or without the meter.
    public var shortTermLUFS: Double?
    public var integratedLUFS: Double?
    public var truePeakDBTP: Double?
    /// JACK's DSP load, percent of the period.
    public var dspLoadPercent: Double = 0
    public var xruns = 0
    /// Process callbacks that took longer than their period.
    public var overruns = 0
    /// Worst process callback so far, percent of the period.
    public var worstCyclePercent: Double = 0
    public var monitorMuted = false
    public var voiceMuted = false
    public var recording = false
    public var recordingSeconds: Double = 0
    /// The files being recorded (names only, no folders).
    public var recordingFiles: [String] = []
    /// Frames the recording wrote as silence, per file: lost to a slow disk, or not run.
    public var framesLost = 0
    /// Frames of the timeline the process thread did not run for (xruns), since the start.
    public var framesNotRun = 0
    /// "playing", "paused", or nil without a backing track.
    public var backing: String?
    public var backingSeconds: Double = 0
    /// The stream card: `none` (no --stream), `off`, `connecting`, `live`, `reconnecting`,
    /// `stopped`; seconds on air and lost, reconnects, and why it reconnects or stopped.
    public var streamState = "none"
    public var streamSecondsOnAir: Double = 0
    public var streamSecondsLost: Double = 0
    public var streamReconnects = 0
    public var streamReason = ""

    public init() {}
}

/// One effect-chain unit's meters on its card: output peak (dBFS, -120 for silence) and, for a
/// dynamics unit, the gain it takes off (dB ≥ 0; nil for a unit that does not reduce gain).
///
/// - Realtime: never.
public struct PanelUnitMeter: Codable, Sendable, Equatable {
    public var unit: String
    public var peakDB: Double
    public var reductionDB: Double?

    public init(unit: String, peakDB: Double, reductionDB: Double? = nil) {
        self.unit = unit
        self.peakDB = peakDB
        self.reductionDB = reductionDB
    }
}

/// One control the page draws, generated from a preset key's descriptor.
///
/// - Realtime: never.
public struct PanelControl: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case number, toggle, choice, text
    }

    /// `section.name`, as in presets and `--control`.
    public var key: String
    public var kind: Kind
    public var minimum: Double?
    public var maximum: Double?
    /// What 0 means when it lies outside the range ("off", "auto").
    public var zero: String?
    public var unit: String
    public var choices: [String]?
    /// The running value as the key's text (`-6`, `true`, `processed`).
    public var value: String
    /// False: the key needs a restart; the page shows it without letting it be changed.
    public var live: Bool
    public var help: String
    /// What the page writes beside the control ("Threshold", "Speed"); the key when empty.
    public var label: String = ""
    /// Labels for `choices`, in order ("peak", "RMS" for 0 and 1); the choices themselves when nil.
    public var choiceLabels: [String]?
    /// What a switch sends on and off when it is not a true/false key (a unit's bypass: 1 and 0).
    public var onValue: String?
    public var offValue: String?

    public init(
        key: String, kind: Kind, minimum: Double? = nil, maximum: Double? = nil, zero: String? = nil,
        unit: String = "", choices: [String]? = nil, value: String, live: Bool, help: String
    ) {
        self.key = key
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.zero = zero
        self.unit = unit
        self.choices = choices
        self.value = value
        self.live = live
        self.help = help
    }
}

/// What the page builds its controls from: the keys and the presets it may load.
///
/// - Realtime: never.
public struct PanelSetup: Codable, Sendable, Equatable {
    /// The keys outside the chain, and the controls of the units in it (none of the others).
    public var controls: [PanelControl]
    public var presets: [String]
    /// The preset the session runs (the last one loaded).
    public var preset: String
    /// The chain's units in processing order (`chain.order`), and every unit that may be added.
    public var chain: [String]
    public var units: [String]

    public init(
        controls: [PanelControl], presets: [String], preset: String, chain: [String] = [], units: [String] = []
    ) {
        self.controls = controls
        self.presets = presets
        self.preset = preset
        self.chain = chain
        self.units = units
    }
}
