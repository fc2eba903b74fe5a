/// The running session's meters and state at one moment, for surfaces to show.
///
/// The main thread takes it from the engine's health board and the driver between signals
/// (`ControlHub.publish`), at least 60 times a second while a surface watches meters
/// (`ControlHub.watchMeters`), else every 100 ms. Levels are dBFS (-infinity for silence);
/// optional figures are nil until measured.
///
/// - Realtime: never; any thread (a plain value).
public struct LiveSnapshot: Sendable, Equatable {
    /// Seconds on the monotonic clock (`ProcessInfo.systemUptime`) when it was taken.
    public var time: Double = 0
    /// Counts the snapshots published; a surface sees whether it got a new one.
    public var sequence = 0

    /// One level meter: RMS over about 300 ms, and the peak with a slow release, dBFS.
    public struct Meter: Sendable, Equatable {
        public var level: Double
        public var peak: Double
        public init(level: Double = -.infinity, peak: Double = -.infinity) {
            self.level = level
            self.peak = peak
        }
    }
    /// mic_in after input gain and high-pass; the far end (echo reference); voice_out; the
    /// monitor mix (louder of its two channels).
    public var mic = Meter()
    public var far = Meter()
    public var voice = Meter()
    public var monitor = Meter()
    /// Each effect-chain unit's meters, in chain order.
    public var units: [UnitMeter] = []

    /// Echo removed (ERLE over far-end-only speech), dB, and its verdict in words ("good: …").
    public var echoRemovalDB: Double?
    public var echoVerdict: String?
    /// The estimated echo delay, milliseconds, and the estimator's confidence 0…1.
    public var delayMilliseconds: Double?
    public var delayConfidence: Double = 0
    /// Clock drift between playback and mic, ppm.
    public var driftPPM: Double?
    /// The near end talks (voice activity after echo removal); the far end plays; both at once.
    /// `voiceActive` is false and `talking` unmeasured when nothing detects voice (`voiceDetected`).
    public var voiceActive = false
    /// A detector decides `voiceActive` (false with the null canceller, the `raw` preset).
    public var voiceDetected = true
    public var farActive = false
    public var doubleTalk = false
    /// voice_out is muted; the talker talks into the mute now; times they started to.
    public var voiceMuted = false
    public var talkingWhileMuted = false
    public var mutedTalkEvents = 0
    /// The feedback guard muted the monitor (`unmuteMonitor` re-arms it).
    public var monitorMuted = false
    /// Gain the voice leveller applies, dB.
    public var levellerGainDB: Double = 0
    /// voice_out's loudness (EBU R128, the live loudness meter); nil without the meter.
    public var loudness: Loudness?
    /// Momentary (400 ms) and short-term (3 s) loudness now, and the take's integrated loudness,
    /// LUFS; the take's loudness range, LU, and true peak, dBTP. Nil until measured (silence).
    public struct Loudness: Sendable, Equatable {
        public var momentary: Double?
        public var shortTerm: Double?
        public var integrated: Double?
        public var range: Double?
        public var truePeak: Double?
        public init(
            momentary: Double? = nil, shortTerm: Double? = nil, integrated: Double? = nil, range: Double? = nil,
            truePeak: Double? = nil
        ) {
            self.momentary = momentary
            self.shortTerm = shortTerm
            self.integrated = integrated
            self.range = range
            self.truePeak = truePeak
        }
    }
    /// JACK's DSP load, percent of the period; the worst process callback, percent of the
    /// period; xruns since activation.
    public var dspLoadPercent: Double = 0
    public var worstCyclePercent: Double = 0
    public var xruns = 0
    /// Process callbacks that took longer than their period.
    public var overruns = 0
    /// Frames of the server's timeline this client did not run for (xruns, a stopped process),
    /// since activation; a recording pads them with silence.
    public var framesNotRun = 0
    public var sampleRate = 0
    public var blockSize = 0
    /// Samples voice_out lags mic_in.
    public var latencySamples = 0

    /// The running recordings; nil when not recording.
    public var recording: Recording?
    public struct Recording: Sendable, Equatable {
        /// Seconds since they started.
        public var seconds: Double
        public var files: [String]
        /// Files a write error stopped; frames lost (written as silence), all of them: to a slow
        /// disk, and `framesNotRun`, those no cycle ran for (xruns).
        public var failedFiles: Int
        public var framesLost: Int
        public var framesNotRun: Int
        public init(seconds: Double, files: [String], failedFiles: Int, framesLost: Int, framesNotRun: Int = 0) {
            self.seconds = seconds
            self.files = files
            self.failedFiles = failedFiles
            self.framesLost = framesLost
            self.framesNotRun = framesNotRun
        }
    }
    /// The stream's state in words ("on air 00:01:02, …"); nil when not streaming.
    public var stream: String?
    /// The stream as figures; nil when the session has no stream configured (`--stream`).
    public var streamFigures: StreamFigures?
    /// The backing track plays (nil without one), and how far, seconds.
    public var backingPlaying: Bool?
    public var backingSeconds: Double = 0

    /// Live changes (`set`, `load`, SIGHUP) since the setup was last saved (`savePreset`) or,
    /// when never saved, since the start: a session manager's dirty flag.
    public var unsavedChanges = false
    /// Warnings and errors the session logged (a recording stopped, the monitor muted, a stream
    /// dropped), the newest last, at most `problemsKept`; `problemCount` counts all ever logged,
    /// so a surface sees which ones it has not shown yet.
    public var problems: [String] = []
    public var problemCount = 0
    public static let problemsKept = 16

    public init() {}
}
