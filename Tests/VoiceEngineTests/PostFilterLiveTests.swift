import Foundation
import Testing
import VoiceRT
import VoiceTestSupport

@testable import VoiceEcho
@testable import VoiceEngine

/// The residual echo post-filter's two strengths and the residual echo gate changed by message
/// while the engine runs: the change reaches what an engine built with the new values removes,
/// and switching the post-filter off lets its gain rise back to 1 instead of stepping there.
@Suite("Residual echo strengths, live")
struct PostFilterLiveTests {
    static let rate = 16_000, block = 256

    /// The test engine's configuration with the post-filter at `strengths` and the residual echo
    /// gate at `gateDB`.
    static func configuration(
        _ strengths: (strength: Float, coherence: Float), gateDB: Float = 0
    )
        -> EngineConfiguration
    {
        var c = EngineConfiguration.echoCancel
        c.residualSuppression = strengths.strength
        c.coherenceSuppression = strengths.coherence
        c.residualEchoGateDB = gateDB
        return c
    }

    static func render(
        from: (strength: Float, coherence: Float), to: (strength: Float, coherence: Float)?,
        at: Int?
    ) throws -> (voice: [Float], gains: [Float], running: [Bool], mic: [Float]) {
        try render(configuration(from), to: to.map { configuration($0) }, at: at)
    }

    /// Renders the far-end-only reverberant room (`ResidualEchoSuppressorTests`) through an
    /// engine built with `c`, posting the change to `target` before block `at` (nil: never).
    /// Returns the voice, the post-filter's applied gain after each block, and whether the
    /// post-filter still ran then.
    static func render(
        _ c: EngineConfiguration, to target: EngineConfiguration?, at: Int?
    ) throws -> (voice: [Float], gains: [Float], running: [Bool], mic: [Float]) {
        let s = ResidualEchoSuppressorTests.reverberantScenario(rate: rate, nearEnd: false)
        let engine = try VoiceEngine(configuration: c, sampleRate: rate, blockSize: block)
        var messages: [ControlMessage] = []
        if let target {
            let update = c.liveUpdate(to: target)
            #expect(!update.needsRestart, "the residual echo strengths are live")
            messages = update.messages
        }
        var voice: [Float] = [], gains: [Float] = [], running: [Bool] = []
        var out = [Float](repeating: 0, count: block)
        s.mic.withUnsafeBufferPointer { mic in
            s.reference.withUnsafeBufferPointer { far in
                for k in 0..<(s.mic.count / block) {
                    if k == at { #expect(engine.post(messages) == messages.count) }
                    engine.render(
                        mic: mic.baseAddress! + k * block, farLeft: far.baseAddress! + k * block, farRight: nil,
                        voice: &out, frames: block)
                    voice += out
                    gains.append(engine.state.pointee.canceller.speex!.pointee.postFilter.lastGain)
                    running.append(engine.state.pointee.canceller.speex!.pointee.postFilter.isOn)
                }
            }
        }
        return (voice, gains, running, Array(s.mic.prefix(voice.count)))
    }

    @Test("echo-cancel to echo-cancel-strong by message: one message, no restart, the echo removal of a fresh engine")
    func strongerReachesAFreshEngine() throws {
        let at = 4 * Self.rate / Self.block
        let switched = try Self.render(from: (0.3, 0.1), to: (0.3, 0.5), at: at)
        let fresh = try Self.render(from: (0.3, 0.5), to: nil, at: nil)
        let kept = try Self.render(from: (0.3, 0.1), to: nil, at: nil)
        let settled = (6 * Self.rate)..<switched.voice.count
        let erle = [switched, fresh, kept].map { Measure.ratioDB($0.mic, $0.voice, settled) }
        print(
            String(
                format: "ERLE from 6 s: switched to 0.5 at 4 s %.1f dB, built with 0.5 %.1f dB, kept at 0.1 %.1f dB",
                erle[0], erle[1], erle[2]))
        #expect(abs(erle[0] - erle[1]) < 1)
        #expect(erle[0] >= erle[2] + 5)
        var c = EngineConfiguration.echoCancel
        c.coherenceSuppression = 0.1
        var strong = c
        strong.coherenceSuppression = 0.5
        #expect(c.liveUpdate(to: strong).messages == [ControlMessage(EngineControl.coherenceSuppression.name, 0.5)])
    }

    @Test("switched off mid-echo, the post-filter's gain rises back to 1 at its usual rate, then it stops running")
    func switchedOffGlidesOpen() throws {
        // Switch where the post-filter holds the echo down hardest after 6 s.
        let probe = try Self.render(from: (0.3, 0.5), to: nil, at: nil)
        let from = 6 * Self.rate / Self.block
        let at = (from..<probe.gains.count).min { probe.gains[$0] < probe.gains[$1] }! + 1
        let switched = try Self.render(from: (0.3, 0.5), to: (0, 0), at: at)
        let before = switched.gains[at - 1]
        let openBlock = (at..<switched.gains.count).first { switched.gains[$0] >= 1 }
        let stopBlock = (at..<switched.running.count).first { !switched.running[$0] }
        print(
            "switched off at block \(at) with the gain at \(before): open after \(openBlock.map { $0 - at } ?? -1) blocks, stopped after \(stopBlock.map { $0 - at } ?? -1)"
        )
        #expect(before < 0.3, "the switch happens while the post-filter suppresses")
        // A block is two 8 ms frames; the band gains rise at most `risePerFrame` a frame (the
        // frame's gain, a power-weighted mean of them, may move a little further).
        let rise = ResidualEchoSuppressor(strength: 0, frameSize: 128, sampleRate: Self.rate, lagsOneFrame: true)
            .risePerFrame
        for k in at..<(at + 10) where switched.gains[k - 1] > 0 {
            #expect(switched.gains[k] <= switched.gains[k - 1] * rise * rise * 1.5, "block \(k)")
        }
        #expect(switched.gains[at] < 1, "no jump to 1")
        let open = try #require(openBlock)
        let stop = try #require(stopBlock)
        #expect(open - at <= 10 && stop <= open + 1)
        #expect(switched.running[(stop + 1)...].allSatisfy { !$0 })
        // Off and open, it removes what an engine built without the post-filter removes.
        let off = try Self.render(from: (0, 0), to: nil, at: nil)
        let tail = ((stop + 20) * Self.block)..<switched.voice.count
        let erle = (Measure.ratioDB(switched.mic, switched.voice, tail), Measure.ratioDB(off.mic, off.voice, tail))
        print(String(format: "ERLE after the fade: switched off %.1f dB, built off %.1f dB", erle.0, erle.1))
        #expect(abs(erle.0 - erle.1) < 0.5)
    }

    @Test("the residual echo gate −1.5 → −12 dB by message: one message, the echo removal of a fresh engine")
    func gateReachesAFreshEngine() throws {
        let at = 4 * Self.rate / Self.block
        let before = Self.configuration((0.3, 0.2), gateDB: -1.5)
        let after = Self.configuration((0.3, 0.2), gateDB: -12)
        #expect(
            before.liveUpdate(to: after).messages == [
                ControlMessage(EngineControl.residualEchoGate.name, Decibels.amplitude(-12))
            ])
        let switched = try Self.render(before, to: after, at: at)
        let fresh = try Self.render(after, to: nil, at: nil)
        let kept = try Self.render(before, to: nil, at: nil)
        let settled = (6 * Self.rate)..<switched.voice.count
        let erle = [switched, fresh, kept].map { Measure.ratioDB($0.mic, $0.voice, settled) }
        print(
            String(
                format:
                    "ERLE from 6 s: gate switched to -12 dB at 4 s %.1f dB, built with -12 %.1f dB, kept at -1.5 %.1f dB",
                erle[0], erle[1], erle[2]))
        #expect(abs(erle[0] - erle[1]) < 1)
        // The gate acts while the far end plays, not on the reverberation after it, where most
        // of what the canceller leaves sits: measured +2.5 dB.
        #expect(erle[0] >= erle[2] + 1.5)
    }
}
