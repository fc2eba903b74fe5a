import VoiceRT

/// An echo canceller as the engine drives it: the mic and the far end's reference in, the mic
/// with the far end's echo (and, where the canceller has one, noise) taken out.
///
/// ```
/// host block:  alignReference (delay estimate, delay line, drift)  ─► the host's frame FIFOs
/// each frame:  frameInputs ◄─ mic + reference frame
///              processFrame ─► output (cancelled, suppressed, post-filtered) + EchoDecision
///              [the host's leveller]  ─► gateResidualEcho ─► [output gain, clamp] ─► finishFrame
/// cycle end:   endCycle, report(into:)
/// ```
///
/// The frame is split where the host's own units sit between the canceller's steps: the voice
/// leveller runs after the post-filter and before the residual echo gate, and the echo return
/// loss is measured on the frame's final output (the order the yardstick's figures were
/// measured in). Two implementations: `SpeexEchoCanceller` (speexdsp with voicerack's delay,
/// drift, speaker-curve, post-filter and suppressor pieces) and `NullEchoCanceller` (the mic
/// copied through: a test double and a fallback, as PipeWire's `aec-null`).
///
/// Hosts hold a concrete canceller (a stored value, a generic parameter, or a closed choice of
/// the two as the engine's `EngineCanceller`), never an existential: calls are then direct and
/// allocation-free on the process thread.
///
/// - Realtime: `init` (the prepare step) allocates, on the main thread. Every other requirement
///   is called on the process thread (or the offline driver's) and is allocation- and lock-free.
public protocol EchoCanceller: ~Copyable {
    /// Samples in one canceller frame.
    var frameSize: Int { get }
    /// Samples the canceller delays the voice by, beyond the host's re-framing (one frame when
    /// a preprocessor runs: it delivers each frame one frame late; else 0).
    var latency: Int { get }
    /// Where the host puts one frame of mic and reference before `processFrame` (valid for the
    /// canceller's life).
    var frameInputs: EchoFrameInputs { get }

    /// Runs work a frame left for a later cycle. Call it at the start of every cycle and before
    /// filling `frameInputs`.
    mutating func finishPendingWork()
    /// Per host block: estimates the echo's delay from `mic` and the undelayed mono reference,
    /// and delays `left`/`right` (in place, `frames` samples) to match it. `framesDue` is how
    /// many frames this cycle will process.
    mutating func alignReference(
        mic: UnsafePointer<Float>, referenceMono: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>,
        right: UnsafeMutablePointer<Float>, frames: Int, framesDue: Int)
    /// Cancels one frame from `frameInputs` into `output` (`frameSize` samples) and decides
    /// whether the near end talks.
    mutating func processFrame(output: UnsafeMutablePointer<Float>) -> EchoDecision
    /// Attenuates `output` (the frame after the host's leveller) where only echo is left.
    mutating func gateResidualEcho(_ output: UnsafeMutablePointer<Float>)
    /// Ends the frame: `outputPower` is the mean square of its final output (for the echo
    /// return loss figure).
    mutating func finishFrame(outputPower: Float)
    /// Ends the host cycle that processed `framesThisCycle` frames.
    mutating func endCycle(framesThisCycle: Int)
    /// Applies a live parameter change (gliding where the parameter glides).
    mutating func set(_ parameter: EchoParameter, _ value: Float)
    /// Forgets the echo path (after the reference moved): the filter adapts again from zero.
    mutating func reset()
    /// Writes the canceller's health figures (delay, drift, resets, ERLE, speaker drive).
    func report(into figures: inout HealthFigures)
}

/// One frame's inputs, filled by the host: `frameSize` samples each.
///
/// - Realtime: plain pointers.
public struct EchoFrameInputs {
    /// The conditioned mic.
    public let mic: UnsafeMutablePointer<Float>
    /// The delay-aligned reference: the left channel, or the mono mix.
    public let left: UnsafeMutablePointer<Float>
    /// The right channel, filled only when the canceller models two loudspeakers.
    public let right: UnsafeMutablePointer<Float>

    /// - Realtime: safe.
    @inlinable @_noLocks
    public init(mic: UnsafeMutablePointer<Float>, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>)
    {
        self.mic = mic
        self.left = left
        self.right = right
    }
}

/// What a frame told the canceller about who talks.
///
/// - Realtime: a plain value.
public struct EchoDecision {
    /// Near-end voice (double-talk aware: echo alone is not voice).
    public let voiced: Bool
    /// The far end plays, or its echo still rings.
    public let farActive: Bool
    /// The far end played within the last pause's length: no leveller lift then.
    public let farRecent: Bool

    /// - Realtime: safe.
    @inlinable @_noLocks
    public init(voiced: Bool, farActive: Bool, farRecent: Bool) {
        self.voiced = voiced
        self.farActive = farActive
        self.farRecent = farRecent
    }
}

/// The canceller's live parameters (preset keys under `[echo]` and `[postfilter]`).
public enum EchoParameter: Sendable, BitwiseCopyable {
    /// The post-filter's residual strength (0 = off).
    case residualSuppression
    /// The post-filter's coherence exponent.
    case coherenceSuppression
    /// The coherence exponent while a clipping loudspeaker is modelled.
    case clippingCoherenceSuppression
    /// The post-filter's leftover-echo exponent.
    case leftoverEchoSuppression
    /// The residual echo gate's gain on far-end-only frames, linear in 0...1 (NaN: open).
    case residualEchoGate
}
