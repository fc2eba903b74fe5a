import Synchronization
import VoiceRT
import VoiceSpeex
import VoiceSuppressor
import VoiceUnits

/// speexdsp's echo canceller with what voicerack adds around it: the reference's delay
/// estimator and delay line, clock-drift estimation and compensation, the loudspeaker's learned
/// soft clipping (`SpeakerCurve`), the preprocessor (speexdsp's or voicerack's
/// `SpectralSuppressor`, fed the canceller's residual echo), the near-end detector, the
/// residual echo post-filter (coherence gain, leftover-echo fit, comfort noise), the residual
/// echo gate with start-up suppression, and the echo return loss figures.
///
/// ```
/// block: mic + mono ref ─► DelayEstimator ─► DriftEstimator / PhaseDrift ─► DriftFollower
///        ref L/R ─► DriftingDelay (bulk delay, drift resampling) ─► the host's FIFOs
/// frame: ref ─► SpeakerCurve ─┐
///        mic ────────────────►├─► speexdsp canceller ─► preprocessor / SpectralSuppressor
///                             │     (CancellerResidual)                    │
///        NearEndDetector ◄────┴─ post-filter analysis (may wait a cycle) ──► ResidualEchoSuppressor ─► output
/// ```
///
/// A plain `~Copyable` struct, stored in the engine's state (no class: reference counting on
/// the process thread can lock). The frame steps are in SpeexEchoCanceller+Frame.swift, the
/// block steps in SpeexEchoCanceller+Block.swift, the drift control loop in
/// DriftCompensation.swift, the deferred analysis in DeferredFrameAnalysis.swift.
///
/// - Realtime: `init` allocates (main thread); the `EchoCanceller` requirements run on the
///   process thread; `seedDelay` may be called from any thread.
public struct SpeexEchoCanceller: ~Copyable, EchoCanceller {
    /// Samples per canceller frame.
    public let frameSize: Int
    /// Largest host block, in samples.
    let blockSize: Int
    /// Samples per second.
    let sampleRate: Int
    /// Loudspeaker channels modelled by the canceller: 1 (mono downmix) or 2.
    let speakers: Int
    /// True when a cycle without a frame always comes between two frames.
    let leavesFrameFreeCycles: Bool
    public let latency: Int

    let processor: SpeexVoiceProcessor
    /// False when the canceller and the preprocessor are both off: frames then bypass the
    /// 16-bit conversion.
    let usesSpeex: Bool
    /// voicerack's preprocessor (`SpectralSuppressor`, VoiceSuppressor) in place of speexdsp's,
    /// and whether it runs; `cancellerResidual` feeds it the canceller's residual echo when the canceller runs.
    var suppressor: SpectralSuppressor
    let suppresses: Bool
    /// With the learned suppressor (`EchoSettings.Suppressor.deepfilter`): each frame also goes,
    /// residual echo suppressed by `echoOnlySuppressor` (no noise suppression) and the post-filter's
    /// gain applied, into `learnedInput`, the learned stage's input; `suppressor`'s full output
    /// stays the frame's output (the stage's fallback).
    public let feedsLearnedStage: Bool
    var echoOnlySuppressor: SpectralSuppressor
    /// One frame: the learned stage's input (see `feedsLearnedStage`). Process thread.
    public let learnedInput: UnsafeMutablePointer<Float>
    var cancellerResidual: CancellerResidual
    let estimatesResidual: Bool

    // Reference alignment.
    var estimator: DelayEstimator
    /// The estimator's analysis count at the start of the cycle (see `endCycle`).
    var analysesBefore = 0
    /// Clock drift from the slope of the estimator's peak lags; `driftPeaks` is the estimator's
    /// peak count last fed to it.
    var drift: DriftEstimator
    var driftPeaks = 0
    /// Phase drift samples taken so far, when the canceller last looked (see PhaseDrift).
    var phaseDriftSamples = 0
    /// Which drift figure engaged following and so leads it (see followDriftFigure): 0 none,
    /// 1 the phase figure, 2 the delay slope's (a plain number: the process thread compares it).
    var driftLead: UInt8 = 0
    /// Drift figures the delay slope has waited, before following, for a phase figure to stand
    /// beside it (see followDriftFigure).
    var slopeWaits = 0
    let tracksDelay: Bool
    let delayMargin: Int
    let delayTolerance: Int
    /// The reference's delay, drifting with the echo once drift is followed.
    var referenceDelay: DriftingDelay
    /// Clock-drift compensation: the filter's shifts between looks, and the control loop.
    let followsDrift: Bool
    var pathShift: EchoPathShift
    var follower: DriftFollower
    /// The step that moves the reference to the filter as following engages.
    var catchUp = DriftCatchUp()
    /// A bulk-delay seed in samples (e.g. from JACK's port latencies) posted by another thread;
    /// -1 when none is pending. Applied only until the estimator has an estimate of its own.
    let delaySeed = Atomic<Int>(-1)

    let buffers: EchoBuffers

    // Double-talk detection and the residual echo gate.
    var detector: NearEndDetector
    var outputFloor: NoiseFloorTracker
    let detectsVoice: Bool
    var residualGate: SmoothedGain
    /// Per-band residual echo suppression with comfort noise, after the preprocessor.
    var postFilter: ResidualEchoSuppressor
    /// True when a frame's post-filter analysis runs in the cycle after the frame (blocks of at
    /// most half a frame; see DeferredFrameAnalysis.swift), and what it needs from the frame.
    /// Tests switch it off before the first cycle to compare with the analysis in the frame's cycle.
    var defersFrameAnalysis: Bool
    var deferredAnalysis = DeferredFrameAnalysis()
    /// The post-filter's coherence exponent as set, and the one while a clipping loudspeaker is
    /// modelled (`speakerCurve`); `clippingDriveEngaged` says which is in use (see
    /// CoherenceDrive.swift).
    var coherenceDrive: Float
    var clippingCoherenceDrive: Float
    var clippingDriveEngaged = false
    /// The residual echo gate's gain on far-end-only frames, linear (changed live by
    /// `EchoParameter.residualEchoGate`; the gate glides to it over 10 ms).
    var residualGateGain: Float

    // Health.
    var erle = ERLEMeter()
    /// The same figure where the far end talks alone, double talk left out (see EchoAloneERLE).
    var echoAlone = EchoAloneERLE()
    /// Which frames the ERLE figure counts as the far end alone.
    var echoPath: EchoPathGate
    /// Suppression of echo-alone frames until the canceller first converges.
    var startup: StartupSuppression
    /// The loudspeaker's soft clipping, learned and applied to the canceller's reference.
    var speakerCurve: SpeakerCurve
    /// The canceller's own health figures, copied into the engine's by `report(into:)`.
    var health = EchoHealth()
    /// The frame in progress, between `processFrame` and `finishFrame`.
    var frame = FrameInProgress()

    deinit {
        buffers.deallocate()
        learnedInput.deallocate()
    }
}

/// The canceller's health figures (see the fields of the same names in `HealthFigures`).
///
/// - Realtime: a plain value, written on the process thread.
struct EchoHealth {
    var estimatedDelay = -1
    var delayConfidence: Float = 0
    var appliedDelay = 0
    var cancellerResets = 0
    var clockDriftPPM: Float = .nan
    var driftCompensation = DriftCompensation.off
}

/// One frame's figures, from `processFrame` until `finishFrame`.
///
/// - Realtime: a plain value.
struct FrameInProgress {
    var micPower: Float = 0
    var cancelledPower: Float = 0
    var referencePower: Float = 0
    var voiced = false
    var farActive = false
    var farRecent = false
    var farNow = false
    var echoExplained = false
    /// The canceller's error times its echo estimate (mic − error), and the estimate's power;
    /// means over the frame in full-scale units (see EchoPathChange).
    var estimateCross: Float = 0
    var estimatePower: Float = 0

    /// Nothing yet.
    init() {}

    /// A frame's figures from `processFrame`. - Realtime: safe.
    @inline(__always) @_noLocks
    init(micPower: Float, cancelledPower: Float, referencePower: Float, voiced: Bool, farActive: Bool, farRecent: Bool)
    {
        self.micPower = micPower
        self.cancelledPower = cancelledPower
        self.referencePower = referencePower
        self.voiced = voiced
        self.farActive = farActive
        self.farRecent = farRecent
    }
}
