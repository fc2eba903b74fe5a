/// What a preset decides about the echo canceller and its suppressor, as plain values (the
/// engine makes it from its configuration; see `EngineConfiguration`'s fields of the same
/// names for each one's meaning and range).
///
/// - Realtime: a plain value, read once in `SpeexEchoCanceller.init`.
public struct EchoSettings: Sendable, Equatable {
    /// Run speexdsp's echo canceller.
    public var echoCancellation = false
    /// Run a preprocessor (noise and residual echo suppression).
    public var preprocess = false
    /// voicerack's `SpectralSuppressor` as the preprocessor, not speexdsp's.
    public var voicerackSuppressor = false
    public var noiseSuppression = true
    public var noiseSuppressDB: Float = -15
    public var babbleSuppressDB: Float = -12
    public var echoSuppressDB: Float = -40
    public var echoSuppressActiveDB: Float = -15
    public var voiceActivityDetection = true
    /// Reference delay: estimated (`false`, seeded by `delayMilliseconds`) or exactly
    /// `delayMilliseconds`.
    public var fixedDelay = false
    public var delayMilliseconds: Float = 0
    public var maximumDelayMilliseconds: Float = 500
    public var delayMarginMilliseconds: Float = 10
    public var driftCompensation = true
    public var startupSuppression = true
    public var speakerCurve = true
    public var residualEchoGateDB: Float = 0
    public var residualSuppression: Float = 0
    public var coherenceSuppression: Float = 0
    public var clippingCoherenceSuppression: Float = 0
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
