import Synchronization
import VoiceRT
import VoiceSpeex
import VoiceUnits

/// Everything the process thread touches, allocated once by `VoiceEngine` and owned by the
/// process thread while the engine runs.
///
/// A plain `~Copyable` struct behind a stable pointer (never a class: reference counting on the
/// process thread can lock). The render cycle is in `RenderCycle.swift`, one frame of echo
/// cancellation in `FrameProcessing.swift`.
public struct EngineState: ~Copyable {
    /// Block / frame sizes and the re-framing latency.
    public let plan: FramePlan
    /// Samples per second.
    public let sampleRate: Int
    /// Loudspeaker channels modelled by the canceller: 1 (mono downmix) or 2.
    let speakers: Int

    // Units, in signal order.
    var inputGain: Gain
    var highPass: HighPassFilter
    let processor: SpeexVoiceProcessor
    /// False when the canceller and the preprocessor are both off: frames then bypass the
    /// 16-bit conversion.
    let usesSpeex: Bool
    /// voicerack's preprocessor (`SpectralSuppressor`) in place of speexdsp's, and whether it
    /// runs; `cancellerResidual` feeds it the canceller's residual echo when the canceller runs.
    var suppressor: SpectralSuppressor
    let suppresses: Bool
    var cancellerResidual: CancellerResidual
    let estimatesResidual: Bool
    var leveller: VoiceLeveller
    let levellerEnabled: Bool
    var outputGain: Gain
    /// Effect units after the leveller, in preset order.
    let effects: EffectChain
    /// Ducking of speaker_out while the near end talks (see SpeakerAndMonitor.swift).
    var ducking: DuckingState
    /// The ear-return mix.
    let monitor: MonitorMix
    /// The monitor's gliding gains (live level changes, the feedback guard's mute).
    var monitorGains: MonitorGains
    /// Mutes the monitor when it makes the speakers howl (see FeedbackGuard.swift).
    var feedbackGuard: FeedbackGuard
    var feedbackGuardOn: Bool
    /// Live parameter changes from the main thread (see ParameterApplication.swift); the ring
    /// belongs to `VoiceEngine`.
    let controls: ControlRing
    /// Where each parameter identifier lands in this engine (built from the chain's order).
    let controlTable: ControlTable

    // Reference alignment.
    var estimator: DelayEstimator
    /// Clock drift from the slope of the estimator's peak lags; `driftPeaks` is the estimator's
    /// peak count last fed to it.
    var drift: DriftEstimator
    var driftPeaks = 0
    /// Phase drift samples taken so far, when the engine last looked (see PhaseDrift).
    var phaseDriftSamples = 0
    /// Which drift figure engaged following and so leads it (see followDriftFigure): 0 none,
    /// 1 the phase figure, 2 the delay slope's (a plain number: the process thread compares it).
    var driftLead: UInt8 = 0
    let tracksDelay: Bool
    let delayMargin: Int
    let delayTolerance: Int
    /// The reference's delay, drifting with the echo once drift is followed.
    var referenceDelay: DriftingDelay
    /// Clock-drift compensation: the filter's shifts between looks, and the control loop.
    let followsDrift: Bool
    var pathShift: EchoPathShift
    var follower: DriftFollower
    /// A bulk-delay seed in samples (e.g. from JACK's port latencies) posted by another thread;
    /// -1 when none is pending. Applied only until the estimator has an estimate of its own.
    let delaySeed = Atomic<Int>(-1)

    // Re-framing between host blocks and canceller frames.
    var micFIFO: SampleFIFO
    var referenceLeftFIFO: SampleFIFO
    var referenceRightFIFO: SampleFIFO
    var outputFIFO: SampleFIFO
    let buffers: EngineBuffers

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
    /// `ControlNames.residualEchoGate`; the gate glides to it over 10 ms).
    var residualGateGain: Float

    // Health.
    var micMeter: LevelMeter
    var farMeter: LevelMeter
    var outputMeter: LevelMeter
    /// The monitor mix, measured in `mixMonitor` (after `render`, so published a cycle late).
    var monitorMeter: LevelMeter
    var erle = ERLEMeter()
    /// The same figure where the far end talks alone, double talk left out (see EchoAloneERLE).
    var echoAlone = EchoAloneERLE()
    /// Which frames the ERLE figure counts as the far end alone.
    var echoPath: EchoPathGate
    /// Suppression of echo-alone frames until the canceller first converges.
    var startup: StartupSuppression
    /// The loudspeaker's soft clipping, learned and applied to the canceller's reference.
    var speakerCurve: SpeakerCurve
    var figures = HealthFigures()
    /// Where figures are published for other threads; owned by `VoiceEngine`.
    let health: UnsafeMutablePointer<HealthBoard>
    /// Output samples that were missing because the host's block differed from the planned one.
    public internal(set) var underruns = 0

    init(
        configuration c: EngineConfiguration, plan: FramePlan, sampleRate: Int,
        speex: SpeexSettings, health: UnsafeMutablePointer<HealthBoard>, controls: ControlRing,
        plugins: [String: PreparedPlugin]
    ) {
        self.plan = plan
        self.sampleRate = sampleRate
        speakers = speex.speakers
        let spec = ProcessSpec(sampleRate: Double(sampleRate), maximumBlockSize: plan.blockSize)

        inputGain = Gain(gainDB: c.inputGainDB)
        inputGain.prepare(spec)
        highPass = HighPassFilter(cutoffHz: c.highPassHz)
        highPass.prepare(spec)
        processor = SpeexVoiceProcessor(settings: speex, sampleRate: sampleRate)
        usesSpeex = c.echoCancellation || c.preprocess
        suppresses = c.preprocess && c.suppressor == .voicerack
        suppressor = SpectralSuppressor(
            frameSize: plan.frameSize, sampleRate: sampleRate, denoise: c.noiseSuppression,
            noiseFloorDB: c.noiseSuppressDB, babbleFloorDB: max(c.babbleSuppressDB, c.noiseSuppressDB),
            echoFloorDB: c.echoSuppressDB, echoActiveFloorDB: c.echoSuppressActiveDB)
        estimatesResidual = suppresses && c.echoCancellation
        cancellerResidual = CancellerResidual(
            frameSize: plan.frameSize, sampleRate: sampleRate, filterLength: speex.filterLength,
            speakers: speex.speakers, windowEnergy: suppressor.windowEnergy, fftSize: suppressor.fft.size / 2)
        leveller = VoiceLeveller(
            targetDBFS: c.levellerTargetDBFS, maxGainDB: c.levellerMaxGainDB,
            speedDBPerSecond: c.levellerSpeedDBPerSecond)
        leveller.prepare(spec)
        levellerEnabled = c.leveller
        outputGain = Gain(gainDB: c.outputGainDB)
        outputGain.prepare(spec)
        effects = EffectChain(chain: c.chain, values: c.effectValues, plugins: plugins, spec: spec)
        ducking = DuckingState(c, sampleRate: sampleRate)
        monitor = MonitorMix(c)
        monitorGains = MonitorGains(monitor, sampleRate: sampleRate)
        feedbackGuard = FeedbackGuard(sampleRate: sampleRate, blockSize: plan.blockSize)
        feedbackGuardOn = c.monitorFeedbackGuard
        self.controls = controls
        controlTable = ControlTable(chain: c.chain, plugins: plugins)

        let perMs = Double(sampleRate) / 1000
        let maximumDelay = Int(Double(c.maximumDelayMilliseconds) * perMs)
        estimator = DelayEstimator(
            sampleRate: sampleRate, maximumDelaySeconds: Double(c.maximumDelayMilliseconds) / 1000)
        drift = DriftEstimator(sampleRate: sampleRate)
        tracksDelay = c.echoCancellation && c.delayMode == .auto
        delayMargin = Int(Double(c.delayMarginMilliseconds) * perMs)
        delayTolerance = max(Int(2 * perMs), delayMargin / 2)
        let fixedDelay = Int(Double(c.delayMilliseconds) * perMs)
        referenceDelay = DriftingDelay(
            channels: speex.speakers, sampleRate: sampleRate, maximumDelay: max(maximumDelay, fixedDelay),
            maximumBlock: plan.blockSize)
        // Fixed: exactly as given. Auto: the given delay is a seed (e.g. JACK's port latencies),
        // treated like an estimate, so the margin keeps the reference ahead of its echo.
        let initialDelay = c.delayMode == .fixed ? fixedDelay : max(0, fixedDelay - delayMargin)
        referenceDelay.setDelay(initialDelay)
        followsDrift = tracksDelay && c.driftCompensation
        pathShift = EchoPathShift(
            length: processor.impulseResponseLength, maximumShift: max(4, sampleRate / 4000))
        follower = DriftFollower(frameSize: plan.frameSize, sampleRate: sampleRate)

        let fifo = 2 * (plan.blockSize + plan.frameSize) + plan.framingLatency
        micFIFO = SampleFIFO(minimumCapacity: fifo)
        referenceLeftFIFO = SampleFIFO(minimumCapacity: fifo)
        referenceRightFIFO = SampleFIFO(minimumCapacity: fifo)
        outputFIFO = SampleFIFO(minimumCapacity: fifo)
        outputFIFO.pushSilence(plan.framingLatency)
        buffers = EngineBuffers(blockSize: plan.blockSize, frameSize: plan.frameSize)

        detector = NearEndDetector(
            frameSize: plan.frameSize, sampleRate: sampleRate, tail: speex.filterLength)
        detectsVoice = c.voiceActivityDetection
        outputFloor = NoiseFloorTracker(frameSize: plan.frameSize, sampleRate: sampleRate)
        residualGate = SmoothedGain(initial: 1, rampLength: max(1, sampleRate / 100))
        residualGateGain = c.echoCancellation ? Decibels.amplitude(c.residualEchoGateDB) : 1
        postFilter = ResidualEchoSuppressor(
            strength: c.echoCancellation ? c.residualSuppression : 0,
            coherenceDrive: c.echoCancellation ? c.coherenceSuppression : 0,
            leftoverExponent: c.echoCancellation ? c.leftoverEchoSuppression : 0, frameSize: plan.frameSize,
            sampleRate: sampleRate, lagsOneFrame: c.preprocess)
        defersFrameAnalysis = usesSpeex && c.preprocess && plan.leavesFrameFreeCycles

        coherenceDrive = c.echoCancellation ? c.coherenceSuppression : 0
        clippingCoherenceDrive = c.echoCancellation ? c.clippingCoherenceSuppression : 0
        echoPath = EchoPathGate(frameSize: plan.frameSize, sampleRate: sampleRate)
        startup = StartupSuppression(
            frameSize: plan.frameSize, sampleRate: sampleRate,
            enabled: c.echoCancellation && c.startupSuppression)
        speakerCurve = SpeakerCurve(
            frameSize: plan.frameSize, responseLength: processor.impulseResponseLength, sampleRate: sampleRate,
            enabled: c.echoCancellation && c.speakerCurve && speex.speakers == 1)
        micMeter = LevelMeter(sampleRate: sampleRate)
        farMeter = LevelMeter(sampleRate: sampleRate)
        outputMeter = LevelMeter(sampleRate: sampleRate)
        monitorMeter = LevelMeter(sampleRate: sampleRate)
        self.health = health
        figures.appliedDelay = referenceDelay.delay
    }

    deinit {
        buffers.deallocate()
        effects.deallocate()
        feedbackGuard.deallocate()
        controlTable.deallocate()
    }
}
