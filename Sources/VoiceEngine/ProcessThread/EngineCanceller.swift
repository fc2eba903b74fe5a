import VoiceEcho
import VoiceRT

/// The engine's echo canceller: speexdsp's (`SpeexEchoCanceller`) or its null twin
/// (`NullEchoCanceller`), chosen once when the engine is built (see EngineCanceller+Prepare.swift).
///
/// A closed choice of two, not an existential: each call is one switch and a direct call on the
/// canceller in place (each lives behind a pointer allocated once, so nothing is copied or
/// reference counted on the process thread).
///
/// - Realtime: made and freed on the main thread; the `EchoCanceller` requirements run on the
///   process thread.
public struct EngineCanceller: ~Copyable, EchoCanceller {
    /// Which canceller runs.
    enum Kind {
        case speex(UnsafeMutablePointer<SpeexEchoCanceller>)
        case null(UnsafeMutablePointer<NullEchoCanceller>)
    }

    let kind: Kind
    /// The running canceller's, read once when it is chosen.
    public let frameSize: Int
    public let frameInputs: EchoFrameInputs
    /// The learned suppressor's input frame (speexdsp's canceller with `suppressor =
    /// "deepfilter"`), or nil: the stage then takes the frame's output.
    public let learnedInput: UnsafeMutablePointer<Float>?

    /// True when the null twin runs (echo cancellation off, or speexdsp could not be set up).
    public var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    deinit {
        switch kind {
        case .speex(let p):
            p.deinitialize(count: 1)
            p.deallocate()
        case .null(let p):
            p.deinitialize(count: 1)
            p.deallocate()
        }
    }

    /// - Realtime: safe.
    @_noLocks
    public mutating func finishPendingWork() {
        switch kind {
        case .speex(let p): p.pointee.finishPendingWork()
        case .null(let p): p.pointee.finishPendingWork()
        }
    }

    /// - Realtime: safe.
    @_noLocks
    public mutating func alignReference(
        mic: UnsafePointer<Float>, referenceMono: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>,
        right: UnsafeMutablePointer<Float>, frames: Int, framesDue: Int
    ) {
        switch kind {
        case .speex(let p):
            p.pointee.alignReference(
                mic: mic, referenceMono: referenceMono, left: left, right: right, frames: frames, framesDue: framesDue)
        case .null(let p):
            p.pointee.alignReference(
                mic: mic, referenceMono: referenceMono, left: left, right: right, frames: frames, framesDue: framesDue)
        }
    }

    /// - Realtime: safe.
    @_noLocks
    public mutating func processFrame(output: UnsafeMutablePointer<Float>) -> EchoDecision {
        switch kind {
        case .speex(let p): p.pointee.processFrame(output: output)
        case .null(let p): p.pointee.processFrame(output: output)
        }
    }

    /// - Realtime: safe.
    @_noLocks
    public mutating func gateResidualEcho(_ output: UnsafeMutablePointer<Float>) {
        switch kind {
        case .speex(let p): p.pointee.gateResidualEcho(output)
        case .null(let p): p.pointee.gateResidualEcho(output)
        }
    }

    /// - Realtime: safe.
    @_noLocks
    public mutating func finishFrame(outputPower: Float) {
        switch kind {
        case .speex(let p): p.pointee.finishFrame(outputPower: outputPower)
        case .null(let p): p.pointee.finishFrame(outputPower: outputPower)
        }
    }

    /// - Realtime: safe.
    @_noLocks
    public mutating func endCycle(framesThisCycle: Int) {
        switch kind {
        case .speex(let p): p.pointee.endCycle(framesThisCycle: framesThisCycle)
        case .null(let p): p.pointee.endCycle(framesThisCycle: framesThisCycle)
        }
    }

    /// - Realtime: safe.
    @_noLocks
    public mutating func set(_ parameter: EchoParameter, _ value: Float) {
        switch kind {
        case .speex(let p): p.pointee.set(parameter, value)
        case .null(let p): p.pointee.set(parameter, value)
        }
    }

    /// - Realtime: safe.
    @_noLocks
    public mutating func reset() {
        switch kind {
        case .speex(let p): p.pointee.reset()
        case .null(let p): p.pointee.reset()
        }
    }

    /// - Realtime: safe.
    @_noLocks
    public func report(into figures: inout HealthFigures) {
        switch kind {
        case .speex(let p): p.pointee.report(into: &figures)
        case .null(let p): p.pointee.report(into: &figures)
        }
    }
}
