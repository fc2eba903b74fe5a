import CRealtimeCheck
import Foundation
import Testing
import VoiceEcho
import VoiceRT
import VoiceSpeex

/// Both echo cancellers driven through the `EchoCanceller` interface inside RealtimeSanitizer's
/// real-time region: every requirement a host calls on the process thread, through a generic
/// host (as the engine's concrete stored type is called: statically, no existential).
@Suite("Real-time safety: VoiceEcho", .serialized)
struct EchoCancellerRealtimeTests {
    static let rate = 48_000
    static let frame = 480
    /// The echo's bulk delay, samples (20 ms).
    static let delay = 960

    @Test("speexdsp's canceller aligns, cancels, suppresses, gates and reports without anything real-time unsafe")
    func speexCancellerIsRealtimeSafe() {
        var settings = EchoSettings()
        settings.echoCancellation = true
        settings.preprocess = true
        settings.suppressor = .voicerack
        settings.residualSuppression = 1
        settings.coherenceSuppression = 0.2
        settings.leftoverEchoSuppression = 2.2
        settings.residualEchoGateDB = -6
        var speex = SpeexSettings()
        speex.frameSize = Self.frame
        speex.filterLength = Self.rate / 10
        speex.preprocess = false
        var canceller = SpeexEchoCanceller(
            settings: settings, speex: speex,
            spec: EchoSpec(
                sampleRate: Self.rate, blockSize: Self.frame, frameSize: Self.frame, leavesFrameFreeCycles: false))
        let run = EchoRun(seconds: 12)
        defer { run.deallocate() }
        // The first second outside the region: the runtime instantiates metadata on first use.
        let (micPower, outputPower) = run.drive(&canceller, from: 0, to: Self.rate, checked: false)
        _ = (micPower, outputPower)
        let (mic, out) = run.drive(&canceller, from: Self.rate, to: run.samples, checked: true)
        var figures = HealthFigures()
        canceller.report(into: &figures)
        // White noise through a pure 20 ms delay: the estimator finds the delay (minus the
        // 10 ms margin it keeps the reference ahead by) and the last 2 s lose most of the echo.
        #expect(abs(figures.estimatedDelay - Self.delay) <= 48, "estimated \(figures.estimatedDelay) samples")
        let db = 10 * log10(mic / max(out, 1e-20))
        #expect(db > 20, "echo reduced by \(db) dB")
    }

    @Test("the null twin copies the mic through, sample for sample, without anything real-time unsafe")
    func nullCancellerIsRealtimeSafe() {
        var canceller = NullEchoCanceller(frameSize: Self.frame)
        let run = EchoRun(seconds: 2)
        defer { run.deallocate() }
        _ = run.drive(&canceller, from: 0, to: Self.frame, checked: false)
        let (mic, out) = run.drive(&canceller, from: Self.frame, to: run.samples, checked: true)
        #expect(mic == out)
        #expect(run.outputMatchesMic(from: Self.frame))
        var figures = HealthFigures()
        canceller.report(into: &figures)
        #expect(figures.estimatedDelay == -1)
        #expect(canceller.latency == 0)
    }
}

/// A far end of white noise and a mic holding only its echo (delayed, at half amplitude), in
/// memory, and a host loop that drives a canceller over it a frame per cycle.
struct EchoRun {
    let samples: Int
    let far: UnsafeMutablePointer<Float>
    let mic: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>

    init(seconds: Int) {
        samples = seconds * EchoCancellerRealtimeTests.rate
        far = .allocate(capacity: samples)
        mic = .allocate(capacity: samples)
        output = .allocate(capacity: samples)
        output.initialize(repeating: 0, count: samples)
        var seed: UInt32 = 12_345
        for i in 0..<samples {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            far[i] = 0.2 * (Float(seed >> 8) / Float(1 << 24) - 0.5)
        }
        let d = EchoCancellerRealtimeTests.delay
        for i in 0..<samples { mic[i] = i >= d ? 0.5 * far[i - d] : 0 }
    }

    func deallocate() {
        far.deallocate()
        mic.deallocate()
        output.deallocate()
    }

    /// Runs cycles of one frame over samples `start..<end` (whole frames); returns the summed
    /// squares of the mic and of the output over the last two seconds of the range (or all of
    /// it when shorter). `checked`: inside RealtimeSanitizer's region.
    func drive<C: EchoCanceller & ~Copyable>(
        _ canceller: inout C, from start: Int, to end: Int, checked: Bool
    ) -> (mic: Float, output: Float) {
        let f = canceller.frameSize
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: f)
        defer { scratch.deallocate() }
        let tail = max(start, end - 2 * EchoCancellerRealtimeTests.rate)
        var micSum: Float = 0, outSum: Float = 0
        if checked { rtcheck_enter() }
        var at = start
        while at + f <= end {
            canceller.finishPendingWork()
            // The reference block is delayed in place: work on a copy, as a host's block buffer.
            for i in 0..<f { scratch[i] = far[at + i] }
            canceller.alignReference(
                mic: mic + at, referenceMono: far + at, left: scratch, right: scratch, frames: f, framesDue: 1)
            canceller.finishPendingWork()
            let inputs = canceller.frameInputs
            for i in 0..<f {
                inputs.mic[i] = mic[at + i]
                inputs.left[i] = scratch[i]
            }
            let decision = canceller.processFrame(output: output + at)
            canceller.gateResidualEcho(output + at)
            var power: Float = 0
            for i in 0..<f { power += output[at + i] * output[at + i] }
            canceller.finishFrame(outputPower: power / Float(f))
            canceller.endCycle(framesThisCycle: 1)
            if at == start { canceller.set(.coherenceSuppression, decision.voiced ? 0.2 : 0.25) }
            if at >= tail {
                for i in 0..<f {
                    micSum += mic[at + i] * mic[at + i]
                    outSum += output[at + i] * output[at + i]
                }
            }
            at += f
        }
        var figures = HealthFigures()
        canceller.report(into: &figures)
        if checked { rtcheck_exit() }
        return (micSum, outSum)
    }

    /// True when every output sample from `start` on is the mic's.
    func outputMatchesMic(from start: Int) -> Bool {
        (start..<samples).allSatisfy { output[$0] == mic[$0] }
    }
}
