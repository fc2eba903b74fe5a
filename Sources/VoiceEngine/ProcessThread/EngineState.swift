import Synchronization
import VoiceDeepFilter
import VoiceEcho
import VoiceRT
import VoiceSpeex
import VoiceUnits

/// Everything the process thread touches, allocated once by `VoiceEngine` and owned by the
/// process thread while the engine runs.
///
/// A plain `~Copyable` struct behind a stable pointer (never a class: reference counting on the
/// process thread can lock). The render cycle is in `RenderCycle.swift`, one frame of echo
/// cancellation in `FrameProcessing.swift` (the canceller itself is `EngineCanceller`: VoiceEcho's speexdsp canceller or its null twin).
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
    /// The echo canceller with its preprocessor, post-filter and residual echo gate (VoiceEcho's
    /// speexdsp canceller), or its null twin where there is nothing to cancel.
    var canceller: EngineCanceller
    /// The learned noise suppressor's process-thread side (`suppressor = "deepfilter"`), or nil;
    /// its worker and model belong to `VoiceEngine`.
    var learned: LearnedStage?
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

    // Re-framing between host blocks and canceller frames.
    var micFIFO: SampleFIFO
    var referenceLeftFIFO: SampleFIFO
    var referenceRightFIFO: SampleFIFO
    var outputFIFO: SampleFIFO
    let buffers: EngineBuffers

    // Health.
    var micMeter: LevelMeter
    var farMeter: LevelMeter
    var outputMeter: LevelMeter
    /// The monitor mix, measured in `mixMonitor` (after `render`, so published a cycle late).
    var monitorMeter: LevelMeter
    var figures = HealthFigures()
    /// Where figures are published for other threads; owned by `VoiceEngine`.
    let health: UnsafeMutablePointer<HealthBoard>
    /// Output samples that were missing because the host's block differed from the planned one.
    public internal(set) var underruns = 0

    init(
        configuration c: EngineConfiguration, plan: FramePlan, sampleRate: Int,
        speex: SpeexSettings, health: UnsafeMutablePointer<HealthBoard>,
        unitMeters: UnsafeMutablePointer<UnitMeterBoard>, controls: ControlRing,
        plugins: [String: PreparedPlugin], speexSetup: EngineCanceller.SpeexSetup, learned: LearnedStage?,
        note: inout String?
    ) {
        self.learned = learned
        self.plan = plan
        self.sampleRate = sampleRate
        speakers = speex.speakers
        let spec = ProcessSpec(sampleRate: Double(sampleRate), maximumBlockSize: plan.blockSize)

        inputGain = Gain(gainDB: c.inputGainDB)
        inputGain.prepare(spec)
        highPass = HighPassFilter(cutoffHz: c.highPassHz)
        highPass.prepare(spec)
        canceller = EngineCanceller(
            settings: c.echo, speex: speex,
            spec: EchoSpec(
                sampleRate: sampleRate, blockSize: plan.blockSize, frameSize: plan.frameSize,
                leavesFrameFreeCycles: plan.leavesFrameFreeCycles),
            decisionRead: c.leveller || c.ducking, setup: speexSetup, note: &note)
        leveller = VoiceLeveller(
            targetDBFS: c.levellerTargetDBFS, maxGainDB: c.levellerMaxGainDB,
            speedDBPerSecond: c.levellerSpeedDBPerSecond)
        leveller.guardsPeaks = !c.chain.contains(.builtIn(.limiter))
        leveller.prepare(spec)
        levellerEnabled = c.leveller
        outputGain = Gain(gainDB: c.outputGainDB)
        outputGain.prepare(spec)
        effects = EffectChain(chain: c.chain, values: c.effectValues, plugins: plugins, spec: spec, board: unitMeters)
        ducking = DuckingState(c, sampleRate: sampleRate)
        monitor = MonitorMix(c)
        monitorGains = MonitorGains(monitor, sampleRate: sampleRate)
        feedbackGuard = FeedbackGuard(sampleRate: sampleRate, blockSize: plan.blockSize)
        feedbackGuardOn = c.monitorFeedbackGuard
        self.controls = controls
        controlTable = ControlTable(chain: c.chain, plugins: plugins)

        let fifo = 2 * (plan.blockSize + plan.frameSize) + plan.framingLatency
        micFIFO = SampleFIFO(minimumCapacity: fifo)
        referenceLeftFIFO = SampleFIFO(minimumCapacity: fifo)
        referenceRightFIFO = SampleFIFO(minimumCapacity: fifo)
        outputFIFO = SampleFIFO(minimumCapacity: fifo)
        outputFIFO.pushSilence(plan.framingLatency)
        buffers = EngineBuffers(blockSize: plan.blockSize, frameSize: plan.frameSize)

        micMeter = LevelMeter(sampleRate: sampleRate)
        farMeter = LevelMeter(sampleRate: sampleRate)
        outputMeter = LevelMeter(sampleRate: sampleRate)
        monitorMeter = LevelMeter(sampleRate: sampleRate)
        self.health = health
        canceller.report(into: &figures)
    }

    deinit {
        buffers.deallocate()
        effects.deallocate()
        feedbackGuard.deallocate()
        controlTable.deallocate()
    }
}
