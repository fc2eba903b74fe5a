import VoiceDeepFilter
import VoiceRT
import VoiceSpeex
import VoiceUnits

/// Errors in building an engine; each names the setting at fault and what is allowed.
public enum EngineError: Error, Equatable, CustomStringConvertible {
    case unsupportedSampleRate(Int)
    case unsupportedBlockSize(Int)
    case unsupportedReferenceChannels(Int)
    /// A plugin unit of the chain could not be made (bad input data: exit 65).
    case plugin(PluginError)
    /// The learned suppressor cannot run: not installed (exit 69) or not at this rate (exit 78).
    case learnedStage(DeepFilterError)

    public var description: String {
        switch self {
        case .unsupportedSampleRate(let r):
            return
                "sample rate \(r) Hz is not supported; voicerack runs at \(VoiceEngine.sampleRates.lowerBound)–\(VoiceEngine.sampleRates.upperBound) Hz"
        case .unsupportedBlockSize(let b):
            return
                "block size \(b) is not supported; use \(VoiceEngine.blockSizes.lowerBound)–\(VoiceEngine.blockSizes.upperBound) samples"
        case .unsupportedReferenceChannels(let c):
            return "a far-end reference with \(c) channels is not supported; use 1 (mono) or 2 (stereo)"
        case .plugin(let error):
            return error.message
        case .learnedStage(let error):
            return error.message
        }
    }
}

extension EngineError {
    /// For the learned suppressor's errors: true when it is not installed (EX_UNAVAILABLE),
    /// false when the session cannot host it (EX_CONFIG); nil for the other errors.
    public var learnedStageMissing: Bool? {
        guard case .learnedStage(let error) = self else { return nil }
        return error.kind == .unavailable
    }
}

/// The voice engine: owns the process state and the health board, and says what latency it adds.
///
/// ```
/// mic ─► gain ─► high-pass ─► [echo canceller ◄─ delay-aligned far end] ─► preprocessor
///        (NS, residual echo suppression, VAD, dereverb) ─► leveller ─► output gain ─► voice
/// ```
///
/// Create and destroy it on the main thread. The process thread calls `state.pointee.render`
/// (or `render` here, which does the same) and nothing else.
public final class VoiceEngine {
    /// Sample rates the engine accepts (Hz).
    public static let sampleRates = 8_000...96_000
    /// Host block sizes the engine accepts (samples).
    public static let blockSizes = 1...8_192

    /// The configuration the engine was built from.
    public let configuration: EngineConfiguration
    /// Samples per second.
    public let sampleRate: Int
    /// Block and frame sizes.
    public let plan: FramePlan
    /// The state the process thread works on. - Realtime: owned by the process thread while
    /// rendering.
    public let state: UnsafeMutablePointer<EngineState>
    private let healthBoard: UnsafeMutablePointer<HealthBoard>
    /// Each chain unit's output peak and gain reduction (`unitMeters()`).
    private let unitMeterBoard: UnsafeMutablePointer<UnitMeterBoard>
    /// Live parameter changes to the process thread (see `post`).
    private let controls = ControlRing(capacity: 512)
    /// Messages `post` could not queue because the ring was full. Main thread.
    public private(set) var droppedMessages = 0
    /// The speexdsp settings derived from the configuration (frame, filter length, speakers...).
    public let speexSettings: SpeexSettings
    /// Samples the canceller's preprocessor delays the voice (0 without a preprocessor).
    public let processingLatency: Int
    /// Warnings for the user at load: the echo canceller could not be set up (the null twin
    /// runs), the chain's plugin units are not hard-real-time capable.
    public let notes: [String]
    /// True when the engine's voice decision (`HealthFigures.voiceActive`) comes from a
    /// detector (speexdsp's path); false with the null canceller, which counts every frame as
    /// voice, so its decision says nothing (the `raw` preset). Read once when built. Main thread.
    public let detectsVoice: Bool
    /// Each plugin unit's state saver, by unit name (`PreparedPlugin.savedState`).
    private let pluginStateSavers: [String: @Sendable () -> String]
    /// What makes the chain's plugin units (nil: none; a preset with one is refused).
    public let pluginHost: (any PluginHost)?
    /// The learned suppressor's model and worker (`suppressor = "deepfilter"`), or nil; the
    /// model is freed with the engine when `ownsLearnedModel` (made here from DeepFilterRuntime).
    private let learnedModel: LearnedModel?
    private let learnedWorker: LearnedWorker?
    private let ownsLearnedModel: Bool
    /// Samples the learned suppressor delays the voice (0 without it; part of `processingLatency`).
    public let learnedLatency: Int

    /// Builds an engine for `blockSize`-sample blocks at `sampleRate` Hz with a far end of
    /// `referenceChannels` channels (1 or 2), its plugin units made by `pluginHost`.
    /// - Realtime: never (allocates).
    public convenience init(
        configuration: EngineConfiguration, sampleRate: Int, blockSize: Int, referenceChannels: Int = 1,
        pluginHost: (any PluginHost)? = nil
    ) throws(EngineError) {
        try self.init(
            configuration: configuration, sampleRate: sampleRate, blockSize: blockSize,
            referenceChannels: referenceChannels, pluginHost: pluginHost, speexSetup: .asBuilt, learnedStandIn: nil)
    }

    /// Builds an engine as above, with speexdsp set up as `speexSetup` says (tests force a
    /// failure to see the null twin take over) and, with `suppressor = "deepfilter"`,
    /// `learnedStandIn` in place of DeepFilterNet's (tests: a stand-in they can slow down).
    /// - Realtime: never (allocates).
    init(
        configuration: EngineConfiguration, sampleRate: Int, blockSize: Int, referenceChannels: Int,
        pluginHost: (any PluginHost)?, speexSetup: EngineCanceller.SpeexSetup, learnedStandIn: LearnedModel?
    ) throws(EngineError) {
        guard Self.sampleRates.contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
        guard Self.blockSizes.contains(blockSize) else { throw .unsupportedBlockSize(blockSize) }
        guard (1...2).contains(referenceChannels) else {
            throw .unsupportedReferenceChannels(referenceChannels)
        }
        self.configuration = configuration
        self.sampleRate = sampleRate
        self.pluginHost = pluginHost
        let usesSpeex = configuration.echoCancellation || configuration.preprocess
        // Without speexdsp there is nothing to re-frame: frame = block, no added latency.
        plan =
            usesSpeex
            ? FramePlan(
                blockSize: blockSize, sampleRate: sampleRate,
                frameMilliseconds: configuration.frameMilliseconds)
            : FramePlan(
                blockSize: blockSize, sampleRate: sampleRate,
                frameMilliseconds: Float(blockSize) * 1000 / Float(sampleRate))
        let speex = Self.speexSettings(
            configuration, plan: plan, sampleRate: sampleRate, referenceChannels: referenceChannels)
        speexSettings = speex
        let plugins = try Self.makePlugins(
            configuration, host: pluginHost,
            spec: ProcessSpec(sampleRate: Double(sampleRate), maximumBlockSize: blockSize))
        if let clash = ControlTable.clash(chain: configuration.chain, plugins: plugins) {
            plugins.values.forEach { $0.unit.release() }
            throw .plugin(PluginError(clash))
        }
        let learned: LearnedStage?
        if !(configuration.preprocess && configuration.suppressor == .deepfilter) {
            (learnedModel, ownsLearnedModel) = (nil, false)
        } else if let learnedStandIn {
            (learnedModel, ownsLearnedModel) = (learnedStandIn, false)
        } else {
            do throws(DeepFilterError) {
                learnedModel = try DeepFilterRuntime.makeModel(
                    sampleRate: sampleRate, attenuationLimitDB: -configuration.learnedSuppressDB)
                ownsLearnedModel = true
            } catch {
                plugins.values.forEach { $0.unit.release() }
                throw .learnedStage(error)
            }
        }
        if let model = self.learnedModel {
            let stage = LearnedStage(
                model: model, mode: configuration.learnedRunsInPlace ? .synchronous : .worker,
                blockSize: plan.blockSize, frameSize: plan.frameSize, fadeSamples: sampleRate / 400)
            learned = stage
            learnedWorker = configuration.learnedRunsInPlace ? nil : LearnedWorker(hops: stage.hops, model: model)
            learnedWorker?.start()
        } else {
            learned = nil
            learnedWorker = nil
        }
        learnedLatency = learned?.latency ?? 0
        let pluginNotes = configuration.chain.flatMap { plugins[$0.name]?.notes ?? [] }
        pluginStateSavers = plugins.mapValues(\.savedState)
        healthBoard = .allocate(capacity: 1)
        healthBoard.initialize(to: HealthBoard())
        unitMeterBoard = .allocate(capacity: 1)
        unitMeterBoard.initialize(to: UnitMeterBoard(count: configuration.chain.count))
        state = .allocate(capacity: 1)
        var cancellerNote: String?
        state.initialize(
            to: EngineState(
                configuration: configuration, plan: plan, sampleRate: sampleRate, speex: speex,
                health: healthBoard, unitMeters: unitMeterBoard, controls: controls, plugins: plugins,
                speexSetup: speexSetup, learned: learned,
                note: &cancellerNote))
        notes = [cancellerNote].compactMap { $0 } + pluginNotes
        processingLatency = state.pointee.canceller.latency + learnedLatency
        detectsVoice = !state.pointee.canceller.isNull
        warmUp()
        state.pointee.learned?.resetCounters()
    }

    deinit {
        learnedWorker?.stop()
        state.pointee.learned?.deallocate()
        if ownsLearnedModel, let learnedModel { DeepFilterRuntime.free(learnedModel) }
        state.deinitialize(count: 1)
        state.deallocate()
        healthBoard.deinitialize(count: 1)
        healthBoard.deallocate()
        unitMeterBoard.deinitialize(count: 1)
        unitMeterBoard.deallocate()
        controls.deallocate()
    }

    /// Makes the chain's plugin units through `host`, here, off the process thread; if one
    /// fails, the ones already made are released.
    private static func makePlugins(
        _ c: EngineConfiguration, host: (any PluginHost)?, spec: ProcessSpec
    ) throws(EngineError) -> [String: PreparedPlugin] {
        var made: [String: PreparedPlugin] = [:]
        do throws(PluginError) {
            for case .plugin(let name) in c.chain {
                guard let settings = c.plugins[name] else {
                    throw PluginError(
                        "chain.order names '\(name)', but no [\(name)] section with lv2 = \"URI\" defines it")
                }
                guard let host else {
                    throw PluginError("plugin unit '\(name)' needs LV2 hosting, which this program does not provide")
                }
                made[name] = try host.makeUnit(settings, spec: spec)
            }
        } catch {
            made.values.forEach { $0.unit.release() }
            throw .plugin(error)
        }
        return made
    }

    /// The running plugin units' states (as `PluginUnitSettings.state` holds them), by unit
    /// name; units with no state are left out. - Realtime: never; main thread.
    public func pluginStates() -> [String: String] {
        pluginStateSavers.mapValues { $0() }.filter { !$0.value.isEmpty }
    }

    /// Samples between a mic sample entering `render` and its processed sample leaving it:
    /// re-framing, the preprocessor's frame and the effect chain (the limiter's look-ahead,
    /// plugins' reported latency, read now: a plugin may change it while it runs).
    public var latency: Int { plan.framingLatency + processingLatency + state.pointee.effects.latency }

    /// Latency in milliseconds.
    public var latencyMilliseconds: Double { Double(latency) * 1000 / Double(sampleRate) }

    /// Posts a bulk-delay seed (samples from the far end leaving to its echo arriving, e.g. the
    /// playback + capture latency JACK reports). The process thread applies it, minus the
    /// margin, until the estimator finds the delay itself. - Realtime: any thread may call.
    public func seedReferenceDelay(samples: Int) {
        state.pointee.canceller.seedDelay(samples: samples)
    }

    /// Queues live parameter changes for the process thread, which applies them (gliding) at
    /// the start of its next cycles. Returns how many were queued; the rest did not fit in the
    /// ring and are counted in `droppedMessages`. - Realtime: never; one thread (the owner's).
    @discardableResult
    public func post(_ messages: [ControlMessage]) -> Int {
        var queued = 0
        for m in messages {
            if controls.push(m) { queued += 1 } else { droppedMessages += 1 }
        }
        return queued
    }

    /// The health figures as last published. - Realtime: any thread may call.
    public func health() -> HealthFigures { healthBoard.pointee.snapshot() }

    /// Each chain unit's name and meters as last published, in chain order
    /// (`configuration.chain`). - Realtime: never (allocates); any thread but the process thread.
    public func unitMeters() -> [(unit: String, reading: UnitMeterReading)] {
        zip(configuration.chain, unitMeterBoard.pointee.readings()).map { ($0.name, $1) }
    }

    /// Runs every render path once on silence, off the process thread, so the Swift runtime has
    /// instantiated what it needs (its metadata cache takes a lock the first time). Silence in,
    /// silence out: the time alignment of later audio is unchanged.
    private func warmUp() {
        let n = plan.blockSize
        let zeros = UnsafeMutablePointer<Float>.zeroed(n)
        let out = UnsafeMutablePointer<Float>.allocate(capacity: n)
        defer {
            zeros.deallocate()
            out.deallocate()
        }
        for _ in 0..<2 {
            render(mic: zeros, farLeft: zeros, farRight: zeros, voice: out, frames: n)
            render(mic: zeros, farLeft: zeros, farRight: nil, voice: out, frames: n)
        }
        state.pointee.figures.framesProcessed = 0
    }

    /// speexdsp settings for a configuration: dB values rounded to whole dB as speexdsp takes them.
    static func speexSettings(
        _ c: EngineConfiguration, plan: FramePlan, sampleRate: Int, referenceChannels: Int
    ) -> SpeexSettings {
        var s = SpeexSettings()
        s.echoCancellation = c.echoCancellation
        s.frameSize = plan.frameSize
        s.filterLength = max(plan.frameSize, Int(Double(c.tailMilliseconds) * Double(sampleRate) / 1000))
        s.speakers = c.reference == .stereo && referenceChannels == 2 ? 2 : 1
        s.preprocess = c.preprocess && c.suppressor == .speexdsp
        s.denoise = c.noiseSuppression
        s.noiseSuppressDB = Int32(c.noiseSuppressDB.rounded())
        s.echoSuppressDB = Int32(c.echoSuppressDB.rounded())
        s.echoSuppressActiveDB = Int32(c.echoSuppressActiveDB.rounded())
        s.dereverb = c.dereverb
        return s
    }
}
