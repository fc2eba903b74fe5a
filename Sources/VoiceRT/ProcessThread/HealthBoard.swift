import Synchronization

/// Health figures the process thread publishes and other threads read: the bytes of one
/// `HealthFigures`, a relaxed atomic per 8-byte word, so the figures are declared once (in
/// `HealthFigures`) and every field travels without a line of its own here.
///
/// Levels are linear (1.0 = full scale), delays are in samples at the engine's rate, counters
/// only grow. Each word is stored and loaded whole with `.relaxed` ordering: figures in one word
/// always come from the same publish, and a reader that sees a slightly stale mix of words is fine
/// for a status line (as with one atomic per figure before). Every word comes from a valid set of
/// figures, so the snapshot is one.
///
/// - Realtime: `publish` is safe for the process thread; `snapshot()` is for any other thread.
///   Allocate the board once and never move it (`init` allocates the words, deinit frees them).
public struct HealthBoard: ~Copyable, @unchecked Sendable {
    /// The words of the last published figures (`wordCount` of them).
    @usableFromInline let words: UnsafeMutablePointer<Atomic<UInt64>>
    /// Where `publish` lays the figures out to read their words (the publishing thread's only).
    @usableFromInline let staging: UnsafeMutablePointer<HealthFigures>

    /// Words that hold one `HealthFigures` (its stride is a whole number of words: it holds Ints).
    @inlinable static var wordCount: Int {
        @inline(__always) @_noLocks get { MemoryLayout<HealthFigures>.stride / 8 }
    }

    /// A board holding the default figures (no delay found, no drift measured). - Realtime: never
    /// (allocates).
    public init() {
        words = .allocate(capacity: Self.wordCount)
        for i in 0..<Self.wordCount { (words + i).initialize(to: Atomic<UInt64>(0)) }
        staging = .allocate(capacity: 1)
        staging.initialize(to: HealthFigures())
        publish(HealthFigures())
    }

    deinit {
        words.deinitialize(count: Self.wordCount)
        words.deallocate()
        staging.deallocate()
    }

    /// Publishes one set of figures. - Realtime: safe.
    @inlinable @_noLocks
    public func publish(_ figures: borrowing HealthFigures) {
        staging.pointee = copy figures
        let raw = UnsafeRawPointer(staging)
        for i in 0..<Self.wordCount {
            words[i].store(raw.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self), ordering: .relaxed)
        }
    }

    /// The figures as last published. - Realtime: not needed there; any thread may call.
    public func snapshot() -> HealthFigures {
        var f = HealthFigures()
        withUnsafeMutableBytes(of: &f) { raw in
            for i in 0..<Self.wordCount {
                raw.storeBytes(of: words[i].load(ordering: .relaxed), toByteOffset: 8 * i, as: UInt64.self)
            }
        }
        return f
    }
}

/// One set of health figures: levels linear (1.0 = full scale), delays in samples.
public struct HealthFigures: Sendable, BitwiseCopyable {
    /// Microphone RMS level after input gain and high-pass, smoothed over about 300 ms.
    public var micLevel: Float = 0
    /// Microphone peak level with a slow release.
    public var micPeak: Float = 0
    /// Clock drift between playback and mic in ppm, from the slope of the echo delay; NaN
    /// until measured (positive: the echo's delay grows).
    public var clockDriftPPM: Float = .nan
    /// Whether the reference follows that drift (see `DriftCompensation`).
    public var driftCompensation = DriftCompensation.off
    /// The loudspeaker's soft-clipping drive a (per full scale) the canceller's reference is
    /// shaped with, f(x) = tanh(a·x) / a; 0 while the loudspeaker is modelled as linear.
    public var speakerDrive: Float = 0
    /// Far-end (echo reference) RMS level.
    public var farLevel: Float = 0
    /// Far-end peak level with a slow release.
    public var farPeak: Float = 0
    /// Monitor mix (monitor_out, the louder channel) RMS and peak levels, as of the cycle
    /// before; 0 while the monitor is off.
    public var monitorLevel: Float = 0
    public var monitorPeak: Float = 0
    /// Processed voice RMS level.
    public var outputLevel: Float = 0
    /// Processed voice peak level with a slow release.
    public var outputPeak: Float = 0
    /// Echo return loss enhancement as a power ratio (mic / output) over far-end-only frames;
    /// 0 until measured.
    public var echoReturnLossEnhancement: Float = 0
    /// Gain the voice leveller applies, linear.
    public var levellerGain: Float = 1
    /// Normalised correlation at the estimated delay, 0...1.
    public var delayConfidence: Float = 0
    /// Estimated mic/reference bulk delay in samples; -1 until found.
    public var estimatedDelay: Int = -1
    /// Delay applied to the reference in samples.
    public var appliedDelay: Int = 0
    /// Near-end voice detected in the last frame.
    public var voiceActive = false
    /// Far-end signal present in the last frame.
    public var farActive = false
    /// Microphone samples at or beyond full scale.
    public var clippedInputSamples = 0
    /// Output samples that had to be clamped to full scale.
    public var clippedOutputSamples = 0
    /// Samples of microphone audio processed.
    public var framesProcessed = 0
    /// NaN or infinite input samples replaced by silence.
    public var nonFiniteSamples = 0
    /// Times the echo canceller was reset (e.g. after a reference delay change).
    public var cancellerResets = 0
    /// Live parameter messages applied, and refused (a slot the chain does not have).
    public var parametersApplied = 0
    public var parametersRejected = 0
    /// The feedback guard muted the monitor (until re-armed).
    public var monitorMuted = false
    /// Frequency of the howl that muted the monitor, Hz; 0 when none.
    public var feedbackFrequency: Float = 0
    /// Times the feedback guard muted the monitor.
    public var feedbackEvents = 0
    /// The learned noise suppressor (`suppressor = "deepfilter"`): hops its worker returned in
    /// time and hops it missed, for which the classical suppressor's output went out instead.
    public var learnedHops = 0
    public var learnedMissedHops = 0

    public init() {}
}

/// What the echo canceller's reference does about clock drift.
public enum DriftCompensation: Int, Sendable, BitwiseCopyable {
    /// Not following (no drift seen, or compensation off in the preset).
    case off = 0
    /// The reference is resampled to follow the drift.
    case following = 1
    /// Drift is there but larger than the resampler takes (±1000 ppm): echo will leak.
    case beyondRange = 2
}
