import Synchronization

/// Health figures the process thread publishes and the main thread reads, one atomic per figure.
///
/// Levels are linear (1.0 = full scale), delays are in samples at the engine's rate, counters
/// only grow. The process thread stores with `.relaxed` ordering: each figure is independent and a
/// reader that sees a slightly stale mix of figures is fine for a status line.
///
/// - Realtime: the `publish…` side is safe for the process thread; `snapshot()` is for any other
///   thread. Allocate the board once (it lives at a stable address: atomics cannot move).
public struct HealthBoard: ~Copyable, @unchecked Sendable {
    @usableFromInline let micLevel = Atomic<UInt32>(0)
    @usableFromInline let micPeak = Atomic<UInt32>(0)
    @usableFromInline let farLevel = Atomic<UInt32>(0)
    @usableFromInline let farPeak = Atomic<UInt32>(0)
    @usableFromInline let monitorLevel = Atomic<UInt32>(0)
    @usableFromInline let monitorPeak = Atomic<UInt32>(0)
    @usableFromInline let outputLevel = Atomic<UInt32>(0)
    @usableFromInline let outputPeak = Atomic<UInt32>(0)
    @usableFromInline let echoReturnLossEnhancement = Atomic<UInt32>(0)
    @usableFromInline let levellerGain = Atomic<UInt32>(0)
    @usableFromInline let delayConfidence = Atomic<UInt32>(0)
    @usableFromInline let estimatedDelay = Atomic<Int>(-1)
    @usableFromInline let appliedDelay = Atomic<Int>(0)
    @usableFromInline let voiceActive = Atomic<Bool>(false)
    @usableFromInline let farActive = Atomic<Bool>(false)
    @usableFromInline let clippedInputSamples = Atomic<Int>(0)
    @usableFromInline let clippedOutputSamples = Atomic<Int>(0)
    @usableFromInline let framesProcessed = Atomic<Int>(0)
    @usableFromInline let nonFiniteSamples = Atomic<Int>(0)
    @usableFromInline let cancellerResets = Atomic<Int>(0)
    @usableFromInline let parametersApplied = Atomic<Int>(0)
    @usableFromInline let parametersRejected = Atomic<Int>(0)
    @usableFromInline let monitorMuted = Atomic<Bool>(false)
    @usableFromInline let feedbackFrequency = Atomic<UInt32>(0)
    @usableFromInline let feedbackEvents = Atomic<Int>(0)
    @usableFromInline let clockDriftPPM = Atomic<UInt32>(Float.nan.bitPattern)
    @usableFromInline let driftCompensation = Atomic<Int>(0)
    @usableFromInline let speakerDrive = Atomic<UInt32>(0)

    public init() {}

    /// Publishes one set of figures. - Realtime: safe.
    @inlinable @_noLocks
    public func publish(_ figures: borrowing HealthFigures) {
        micLevel.store(figures.micLevel.bitPattern, ordering: .relaxed)
        micPeak.store(figures.micPeak.bitPattern, ordering: .relaxed)
        farLevel.store(figures.farLevel.bitPattern, ordering: .relaxed)
        farPeak.store(figures.farPeak.bitPattern, ordering: .relaxed)
        monitorLevel.store(figures.monitorLevel.bitPattern, ordering: .relaxed)
        monitorPeak.store(figures.monitorPeak.bitPattern, ordering: .relaxed)
        outputLevel.store(figures.outputLevel.bitPattern, ordering: .relaxed)
        outputPeak.store(figures.outputPeak.bitPattern, ordering: .relaxed)
        echoReturnLossEnhancement.store(figures.echoReturnLossEnhancement.bitPattern, ordering: .relaxed)
        levellerGain.store(figures.levellerGain.bitPattern, ordering: .relaxed)
        delayConfidence.store(figures.delayConfidence.bitPattern, ordering: .relaxed)
        estimatedDelay.store(figures.estimatedDelay, ordering: .relaxed)
        appliedDelay.store(figures.appliedDelay, ordering: .relaxed)
        voiceActive.store(figures.voiceActive, ordering: .relaxed)
        farActive.store(figures.farActive, ordering: .relaxed)
        clippedInputSamples.store(figures.clippedInputSamples, ordering: .relaxed)
        clippedOutputSamples.store(figures.clippedOutputSamples, ordering: .relaxed)
        framesProcessed.store(figures.framesProcessed, ordering: .relaxed)
        nonFiniteSamples.store(figures.nonFiniteSamples, ordering: .relaxed)
        cancellerResets.store(figures.cancellerResets, ordering: .relaxed)
        parametersApplied.store(figures.parametersApplied, ordering: .relaxed)
        parametersRejected.store(figures.parametersRejected, ordering: .relaxed)
        monitorMuted.store(figures.monitorMuted, ordering: .relaxed)
        feedbackFrequency.store(figures.feedbackFrequency.bitPattern, ordering: .relaxed)
        feedbackEvents.store(figures.feedbackEvents, ordering: .relaxed)
        clockDriftPPM.store(figures.clockDriftPPM.bitPattern, ordering: .relaxed)
        driftCompensation.store(figures.driftCompensation.rawValue, ordering: .relaxed)
        speakerDrive.store(figures.speakerDrive.bitPattern, ordering: .relaxed)
    }

    /// The figures as last published. - Realtime: not needed there; any thread may call.
    public func snapshot() -> HealthFigures {
        var f = HealthFigures()
        f.micLevel = Float(bitPattern: micLevel.load(ordering: .relaxed))
        f.micPeak = Float(bitPattern: micPeak.load(ordering: .relaxed))
        f.farLevel = Float(bitPattern: farLevel.load(ordering: .relaxed))
        f.farPeak = Float(bitPattern: farPeak.load(ordering: .relaxed))
        f.monitorLevel = Float(bitPattern: monitorLevel.load(ordering: .relaxed))
        f.monitorPeak = Float(bitPattern: monitorPeak.load(ordering: .relaxed))
        f.outputLevel = Float(bitPattern: outputLevel.load(ordering: .relaxed))
        f.outputPeak = Float(bitPattern: outputPeak.load(ordering: .relaxed))
        f.echoReturnLossEnhancement = Float(bitPattern: echoReturnLossEnhancement.load(ordering: .relaxed))
        f.levellerGain = Float(bitPattern: levellerGain.load(ordering: .relaxed))
        f.delayConfidence = Float(bitPattern: delayConfidence.load(ordering: .relaxed))
        f.estimatedDelay = estimatedDelay.load(ordering: .relaxed)
        f.appliedDelay = appliedDelay.load(ordering: .relaxed)
        f.voiceActive = voiceActive.load(ordering: .relaxed)
        f.farActive = farActive.load(ordering: .relaxed)
        f.clippedInputSamples = clippedInputSamples.load(ordering: .relaxed)
        f.clippedOutputSamples = clippedOutputSamples.load(ordering: .relaxed)
        f.framesProcessed = framesProcessed.load(ordering: .relaxed)
        f.nonFiniteSamples = nonFiniteSamples.load(ordering: .relaxed)
        f.cancellerResets = cancellerResets.load(ordering: .relaxed)
        f.parametersApplied = parametersApplied.load(ordering: .relaxed)
        f.parametersRejected = parametersRejected.load(ordering: .relaxed)
        f.monitorMuted = monitorMuted.load(ordering: .relaxed)
        f.feedbackFrequency = Float(bitPattern: feedbackFrequency.load(ordering: .relaxed))
        f.feedbackEvents = feedbackEvents.load(ordering: .relaxed)
        f.clockDriftPPM = Float(bitPattern: clockDriftPPM.load(ordering: .relaxed))
        f.driftCompensation = DriftCompensation(rawValue: driftCompensation.load(ordering: .relaxed)) ?? .off
        f.speakerDrive = Float(bitPattern: speakerDrive.load(ordering: .relaxed))
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
