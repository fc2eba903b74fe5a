import VoiceRT
import VoiceSpeex
import VoiceSuppressor
import VoiceUnits

extension SpeexEchoCanceller {
    /// Prepares a canceller for `spec`'s framing with speexdsp's `speex` settings (frame, filter
    /// length, speakers, its own preprocessor) and voicerack's `settings`. - Realtime: never
    /// (allocates); main thread.
    public init(settings c: EchoSettings, speex: SpeexSettings, spec: EchoSpec) {
        frameSize = spec.frameSize
        blockSize = spec.blockSize
        sampleRate = spec.sampleRate
        speakers = speex.speakers
        leavesFrameFreeCycles = spec.leavesFrameFreeCycles
        let sampleRate = spec.sampleRate, frameSize = spec.frameSize
        // Both preprocessors deliver a frame one frame late.
        latency = c.preprocess ? frameSize : 0

        processor = SpeexVoiceProcessor(settings: speex, sampleRate: sampleRate)
        usesSpeex = c.echoCancellation || c.preprocess
        suppresses = c.preprocess && c.suppressor != .speexdsp
        feedsLearnedStage = suppresses && c.suppressor == .deepfilter
        suppressor = SpectralSuppressor(
            frameSize: frameSize, sampleRate: sampleRate, denoise: c.noiseSuppression,
            noiseFloorDB: c.noiseSuppressDB, babbleFloorDB: max(c.babbleSuppressDB, c.noiseSuppressDB),
            echoFloorDB: c.echoSuppressDB, echoActiveFloorDB: c.echoSuppressActiveDB)
        // The learned stage's input: residual echo out, the noise left for the model.
        echoOnlySuppressor = SpectralSuppressor(
            frameSize: frameSize, sampleRate: sampleRate, denoise: false, noiseFloorDB: c.noiseSuppressDB,
            babbleFloorDB: max(c.babbleSuppressDB, c.noiseSuppressDB), echoFloorDB: c.echoSuppressDB,
            echoActiveFloorDB: c.echoSuppressActiveDB)
        learnedInput = .zeroed(frameSize)
        estimatesResidual = suppresses && c.echoCancellation
        cancellerResidual = CancellerResidual(
            frameSize: frameSize, sampleRate: sampleRate, filterLength: speex.filterLength,
            speakers: speex.speakers, windowEnergy: suppressor.windowEnergy, fftSize: suppressor.residualFFTSize)

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
            maximumBlock: spec.blockSize)
        // Fixed: exactly as given. Auto: the given delay is a seed (e.g. JACK's port latencies),
        // treated like an estimate, so the margin keeps the reference ahead of its echo.
        let initialDelay = c.delayMode == .fixed ? fixedDelay : max(0, fixedDelay - delayMargin)
        referenceDelay.setDelay(initialDelay)
        followsDrift = tracksDelay && c.driftCompensation
        pathShift = EchoPathShift(
            length: processor.impulseResponseLength, maximumShift: max(4, sampleRate / 4000))
        follower = DriftFollower(frameSize: frameSize, sampleRate: sampleRate)
        buffers = EchoBuffers(frameSize: frameSize)

        detector = NearEndDetector(frameSize: frameSize, sampleRate: sampleRate, tail: speex.filterLength)
        detectsVoice = c.voiceActivityDetection
        outputFloor = NoiseFloorTracker(frameSize: frameSize, sampleRate: sampleRate)
        residualGate = SmoothedGain(initial: 1, rampLength: max(1, sampleRate / 100))
        residualGateGain = c.echoCancellation ? Decibels.amplitude(c.residualEchoGateDB) : 1
        postFilter = ResidualEchoSuppressor(
            strength: c.echoCancellation ? c.residualSuppression : 0,
            coherenceDrive: c.echoCancellation ? c.coherenceSuppression : 0,
            leftoverExponent: c.echoCancellation ? c.leftoverEchoSuppression : 0, frameSize: frameSize,
            sampleRate: sampleRate, lagsOneFrame: c.preprocess)
        defersFrameAnalysis = usesSpeex && c.preprocess && spec.leavesFrameFreeCycles

        coherenceDrive = c.echoCancellation ? c.coherenceSuppression : 0
        clippingCoherenceDrive = c.echoCancellation ? c.clippingCoherenceSuppression : 0
        echoPath = EchoPathGate(frameSize: frameSize, sampleRate: sampleRate)
        startup = StartupSuppression(
            frameSize: frameSize, sampleRate: sampleRate, enabled: c.echoCancellation && c.startupSuppression)
        speakerCurve = SpeakerCurve(
            frameSize: frameSize, responseLength: processor.impulseResponseLength, sampleRate: sampleRate,
            enabled: c.echoCancellation && c.speakerCurve && speex.speakers == 1)
        health.appliedDelay = referenceDelay.delay
    }

    /// True when speexdsp made the states this canceller asked for; a host falls back to
    /// `NullEchoCanceller` otherwise. - Realtime: never; main thread.
    public var isReady: Bool { processor.isReady }

    /// Posts a bulk-delay seed (samples from the far end leaving to its echo arriving, e.g. the
    /// playback + capture latency JACK reports). The process thread applies it, minus the
    /// margin, until the estimator finds the delay itself. - Realtime: any thread may call.
    public func seedDelay(samples: Int) {
        delaySeed.store(max(0, samples), ordering: .relaxed)
    }
}
