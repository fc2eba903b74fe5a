import VoiceRT

/// The echo canceller's null twin: copies the mic through, untouched, and adds no latency (as
/// PipeWire's `aec-null` beside `aec-webrtc`). A test double for hosts of an `EchoCanceller`,
/// and a fallback where no canceller can run.
///
/// Every frame counts as near-end voice with no far end (as with voice detection off), so a
/// host's leveller and ducking behave as they would without a canceller.
///
/// - Realtime: `init` allocates (main thread); the `EchoCanceller` requirements are safe.
public struct NullEchoCanceller: ~Copyable, EchoCanceller {
    public let frameSize: Int
    public var latency: Int { 0 }
    public let frameInputs: EchoFrameInputs

    /// A null canceller for frames of `frameSize` samples. - Realtime: never (allocates).
    public init(frameSize: Int) {
        self.frameSize = frameSize
        frameInputs = EchoFrameInputs(mic: .zeroed(frameSize), left: .zeroed(frameSize), right: .zeroed(frameSize))
    }

    deinit {
        frameInputs.mic.deallocate()
        frameInputs.left.deallocate()
        frameInputs.right.deallocate()
    }

    /// Nothing waits. - Realtime: safe.
    @_noLocks
    public mutating func finishPendingWork() {}

    /// Leaves the reference as it is. - Realtime: safe.
    @_noLocks
    public mutating func alignReference(
        mic: UnsafePointer<Float>, referenceMono: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>,
        right: UnsafeMutablePointer<Float>, frames: Int, framesDue: Int
    ) {}

    /// Copies the frame's mic to `output`. - Realtime: safe.
    @_noLocks
    public mutating func processFrame(output: UnsafeMutablePointer<Float>) -> EchoDecision {
        let mic = frameInputs.mic
        for i in 0..<frameSize { output[i] = mic[i] }
        return EchoDecision(voiced: true, farActive: false, farRecent: false)
    }

    /// No gate. - Realtime: safe.
    @_noLocks
    public mutating func gateResidualEcho(_ output: UnsafeMutablePointer<Float>) {}

    /// Nothing to measure. - Realtime: safe.
    @_noLocks
    public mutating func finishFrame(outputPower: Float) {}

    /// Nothing to look at. - Realtime: safe.
    @_noLocks
    public mutating func endCycle(framesThisCycle: Int) {}

    /// No parameters. - Realtime: safe.
    @_noLocks
    public mutating func set(_ parameter: EchoParameter, _ value: Float) {}

    /// Nothing learned. - Realtime: safe.
    @_noLocks
    public mutating func reset() {}

    /// No delay found, no echo removed. - Realtime: safe.
    @_noLocks
    public func report(into figures: inout HealthFigures) {
        figures.estimatedDelay = -1
        figures.appliedDelay = 0
        figures.echoReturnLossEnhancement = 0
    }
}
