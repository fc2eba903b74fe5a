import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceEcho
@testable import VoiceEngine

/// The post-filter's coherence gain (`EchoCoherence`): its statistics alone, and what it adds to
/// the tail model in the engine, with only the far end and in double talk.
@Suite("Echo coherence gain")
struct EchoCoherenceTests {
    /// Feeds `frames` frames of bins 1..<bins with the echo estimate `y` and mic `d` per bin.
    static func suppression(
        drive: Float, frames: Int, echo: (Int, Int) -> (Float, Float), mic: (Int, Int, (Float, Float)) -> (Float, Float)
    ) -> Float {
        let bins = 64
        let coherence = EchoCoherence(drive: drive, bins: bins, frameSize: 384, sampleRate: 48_000)
        defer { coherence.deallocate() }
        for frame in 0..<frames {
            for k in 1..<bins {
                let y = echo(frame, k)
                let d = mic(frame, k, y)
                coherence.accumulate(k, yr: y.0, yi: y.1, dr: d.0, di: d.1)
            }
        }
        return coherence.suppression(1..<bins)
    }

    @Test("a mic the echo estimate explains closes the gain to its floor; an unrelated talker leaves it open")
    func gainFollowsTheExplainedShare() {
        var random = SeededRandom(seed: 11)
        func phasor() -> (Float, Float) {
            let a = Float.random(in: 0..<(2 * .pi), using: &random)
            return (cos(a), sin(a))
        }
        let frames = 400  // 3.2 s of 8 ms frames: four time constants
        // Far end alone: the mic is the echo estimate, scaled (a linear filter's residual).
        let echoOnly = Self.suppression(
            drive: 0.5, frames: frames, echo: { _, _ in phasor() }, mic: { _, _, y in (0.9 * y.0, 0.9 * y.1) })
        // The near end alone, 30 dB over an echo estimate of the same frames' far end.
        let nearOnly = Self.suppression(
            drive: 0.5, frames: frames, echo: { _, _ in phasor() },
            mic: { _, _, y in
                let n = phasor()
                return (0.03 * y.0 + n.0, 0.03 * y.1 + n.1)
            })
        // Both at the same level: half the mic is explained.
        let doubleTalk = Self.suppression(
            drive: 0.5, frames: frames, echo: { _, _ in phasor() },
            mic: { _, _, y in
                let n = phasor()
                return (y.0 + n.0, y.1 + n.1)
            })
        print(
            String(format: "coherence gain: echo only %.4f, near only %.3f, equal %.3f", echoOnly, nearOnly, doubleTalk)
        )
        // (1 − C) is held at 0.01: power gain 0.01^(2 · 0.5).
        #expect(abs(echoOnly - 0.01) < 0.001)
        // Independent phasors over ~100 frames leave a coherence bias of about 1/100.
        #expect(nearOnly > 0.97)
        #expect(abs(doubleTalk - 0.5) < 0.05)
        let off = EchoCoherence(drive: 0, bins: 8, frameSize: 384, sampleRate: 48_000)
        defer { off.deallocate() }
        #expect(!off.isOn)
    }

    @Test("a talker 10 dB over the echo before them opens the gain within 0.1 s; a far-end onset keeps it closed")
    func talkerOnsetOpensTheGain() {
        var random = SeededRandom(seed: 12)
        func phasor(_ amplitude: Float) -> (Float, Float) {
            let a = Float.random(in: 0..<(2 * .pi), using: &random)
            return (amplitude * cos(a), amplitude * sin(a))
        }
        let before = 200  // 1.6 s of far end alone, 8 ms frames
        let after = 12  // 0.1 s
        // The far end stops and a talker starts, 10 dB over the echo the mic held before.
        let talker = Self.suppression(
            drive: 0.5, frames: before + after,
            echo: { frame, _ in frame < before ? phasor(1) : phasor(0.001) },
            mic: { frame, _, y in frame < before ? (0.9 * y.0, 0.9 * y.1) : phasor(2.85) })
        // The far end gets 10 dB louder: the echo estimate follows the mic.
        let farOnset = Self.suppression(
            drive: 0.5, frames: before + after,
            echo: { frame, _ in phasor(frame < before ? 0.3 : 0.95) },
            mic: { _, _, y in (0.9 * y.0, 0.9 * y.1) })
        print(
            String(
                format: "coherence gain 0.1 s after a talker's onset %.3f, after a far-end onset %.4f", talker, farOnset
            ))
        // With the mic's power rising over 0.8 s like the rest, the talker's gain read 0.60 (-2.2 dB).
        #expect(talker > 0.85, "the talker is still cut: \(talker)")
        #expect(farOnset < 0.02, "the far end's onset opened the gain: \(farOnset)")
    }

    @Test(
        "with only the far end, the coherence gain removes echo the tail model leaves, also from a nonlinear speaker",
        arguments: [false, true])
    func removesWhatTheTailModelLeaves(nonlinear: Bool) throws {
        let erle = try ResidualEchoSuppressorTests.farEndOnlyERLE(
            nonlinear: nonlinear, settings: [(0.3, 0), (0.3, 0.1), (0.3, 0.5)])
        print(
            String(
                format: "nonlinear %@: ERLE tail model %.1f dB, + coherence 0.1 %.1f dB, 0.5 %.1f dB", "\(nonlinear)",
                erle[0], erle[1], erle[2]))
        #expect(erle[1] >= erle[0] + 1)
        #expect(erle[2] >= erle[0] + 5)
    }

    @Test(
        "double talk keeps the talker's waveform; the gain costs level: under 1 dB at echo-cancel's 0.1, under 4.5 dB at 0.5"
    )
    func keepsNearEndInDoubleTalk() throws {
        let rate = 16_000
        let s = ResidualEchoSuppressorTests.reverberantScenario(rate: rate, nearEnd: true)
        let talk = (s.mic.count - 5 * rate + rate / 2)..<s.mic.count
        var sdr = [Double]()
        var level = [Double]()
        for coherence: Float in [0, 0.1, 0.5] {
            let out = try ResidualEchoSuppressorTests.run(
                s.mic, s.reference, rate: rate, strength: 0.3, coherence: coherence)
            sdr.append(ResidualEchoSuppressorTests.scaleInvariantSDR(s.near, out, talk))
            level.append(Measure.levelDB(out, talk))
        }
        print(
            String(
                format:
                    "double talk: SI-SDR %.2f / %.2f / %.2f dB, level %.2f / %.2f / %.2f dBFS (coherence 0, 0.1, 0.5)",
                sdr[0], sdr[1], sdr[2], level[0], level[1], level[2]))
        // The waveform of the talker is kept (measured 8.81 / 8.82 / 8.77 dB); what the gain
        // costs is level, as 1 − C follows the mic's echo under the talker (measured −0.7 and
        // −3.5 dB; the leveller downstream makes up some of it).
        #expect(sdr[1] >= sdr[0] - 0.3)
        #expect(sdr[2] >= sdr[0] - 0.3)
        #expect(abs(level[1] - level[0]) <= 1)
        #expect(abs(level[2] - level[0]) <= 4.5)
    }
}
