/// What a preset decides about the echo canceller and its suppressor, as plain values. Units
/// are in the property names; defaults are the `raw`-neutral values except where noted. The
/// engine's `EngineConfiguration` holds one (`echo`) and reads its fields as its own.
///
/// - Realtime: a plain value, read once in `SpeexEchoCanceller.init`.
public struct EchoSettings: Sendable, Equatable {
    /// Which preprocessor suppresses noise and residual echo (both add one frame of latency).
    public enum Suppressor: String, Sendable, CaseIterable {
        /// voicerack's own (`SpectralSuppressor`): noise estimate that tells steady noise from
        /// babble, OM-LSA gain, the canceller's residual echo as a second noise.
        case voicerack
        /// speexdsp's preprocessor; the only one with dereverberation.
        case speexdsp
        /// DeepFilterNet 3, a learned noise suppressor (VoiceDeepFilter), on a worker thread:
        /// voicerack's suppressor takes the residual echo out of the model's input, and its full
        /// output (noise too) stands in for any hop the worker misses. 48 kHz only.
        case deepfilter
    }

    /// How the reference is delayed before the echo canceller.
    public enum DelayMode: String, Sendable, CaseIterable {
        /// Estimated from the signals (GCC-PHAT), starting from `delayMilliseconds`.
        case auto
        /// Exactly `delayMilliseconds`, never changed.
        case fixed
    }

    // Echo canceller
    public var echoCancellation = false
    public var delayMode: DelayMode = .auto
    public var delayMilliseconds: Float = 0
    public var maximumDelayMilliseconds: Float = 500
    public var delayMarginMilliseconds: Float = 10
    /// Follow clock drift between playback and mic by resampling the reference
    /// (`DriftingDelay`, `DriftFollower`); only with `delayMode == .auto`.
    public var driftCompensation = true
    /// Attenuate echo-alone frames until the canceller first converges (`StartupSuppression`).
    public var startupSuppression = true
    /// Learn the loudspeaker's soft clipping and give the canceller a reference clipped the
    /// same way (`SpeakerCurve`); mono reference only.
    public var speakerCurve = true

    // Preprocessor
    public var preprocess = false
    public var suppressor: Suppressor = .speexdsp
    public var noiseSuppression = true
    public var noiseSuppressDB: Float = -15
    /// Most attenuation of babble (speech-like noise) with voicerack's suppressor; the floor
    /// moves between `noiseSuppressDB` (steady noise) and this one with how the noise behaves.
    public var babbleSuppressDB: Float = -12
    public var echoSuppressDB: Float = -40
    public var echoSuppressActiveDB: Float = -15
    /// Most attenuation the learned suppressor (`Suppressor.deepfilter`) may apply, dB (≤ 0);
    /// -100 is libDF's own default, no limit.
    public var learnedSuppressDB: Float = -100
    public var voiceActivityDetection = true
    /// Extra attenuation (dB, ≤ 0) of frames with far-end signal and no near-end voice, after
    /// the preprocessor's residual echo suppression; 0 = off.
    public var residualEchoGateDB: Float = 0
    /// Strength of the residual echo post-filter (`ResidualEchoSuppressor`): how far the modelled
    /// residual is overestimated; 0 = off, 1 = as measured.
    public var residualSuppression: Float = 0
    /// Exponent of the post-filter's coherence gain (`EchoCoherence`): 0 = off; higher removes
    /// more echo where only the far end plays and costs more double talk.
    public var coherenceSuppression: Float = 0
    /// The coherence gain's exponent while `SpeakerCurve` models a loudspeaker that clips (the
    /// larger of it and `coherenceSuppression` is used); 0 = no change.
    public var clippingCoherenceSuppression: Float = 0
    /// Exponent of the post-filter's leftover-echo gain (`LeftoverEcho`): how hard it takes the
    /// canceller's output where the reference still explains it (an echo path that just changed);
    /// 0 = off.
    public var leftoverEchoSuppression: Float = 0

    public init() {}
}

/// The host's framing, as the canceller sees it.
public struct EchoSpec: Sendable {
    /// Samples per second.
    public var sampleRate: Int
    /// Largest host block, in samples.
    public var blockSize: Int
    /// Samples per canceller frame.
    public var frameSize: Int
    /// True when a cycle without a frame always comes between two frames (blocks of at most
    /// half a frame): work can then wait for such a cycle.
    public var leavesFrameFreeCycles: Bool

    public init(sampleRate: Int, blockSize: Int, frameSize: Int, leavesFrameFreeCycles: Bool) {
        self.sampleRate = sampleRate
        self.blockSize = blockSize
        self.frameSize = frameSize
        self.leavesFrameFreeCycles = leavesFrameFreeCycles
    }
}
