import Testing
import VoiceTestSupport

@testable import VoiceEcho
@testable import VoiceEngine

/// The drift figure from the turning of the cross-spectrum (`PhaseDrift`), fed by the delay
/// estimator alone: how soon and how close it reads a drifting room, and that a loudspeaker
/// moved once does not read as drift.
@Suite("Clock drift from the cross-spectrum's phase")
struct PhaseDriftTests {
    /// Runs the delay estimator over `seconds` of the far end through `mic`, block by block;
    /// returns the first time (s) a figure came, the figure at `seconds`, and the largest
    /// figure (in magnitude) seen on the way.
    static func run(mic: [Float], reference: [Float], rate: Int) -> (first: Double?, last: Double?, largest: Double) {
        var estimator = DelayEstimator(sampleRate: rate, maximumDelaySeconds: 0.5)
        let block = 256
        var first: Double?
        var largest = 0.0
        mic.withUnsafeBufferPointer { m in
            reference.withUnsafeBufferPointer { r in
                var start = 0
                while start + block <= m.count {
                    _ = estimator.process(mic: m.baseAddress! + start, reference: r.baseAddress! + start, frames: block)
                    if let figure = estimator.phaseDrift.figure() {
                        if first == nil { first = Double(start) / Double(rate) }
                        largest = max(largest, abs(figure))
                    }
                    start += block
                }
            }
        }
        return (first, estimator.phaseDrift.figure(), largest)
    }

    /// In this synthetic room (80 ms of bulk delay, a 50 ms tail, noise-like speech) the figure
    /// reads about a third of the drift, where on the yardstick's rooms it reads 78–106 ppm of
    /// 100: cause not found (the frames are not aligned to the delay; aligning them did not help
    /// here). The engine needs of it the sign and that it stands clear of a room without drift,
    /// so that the delay slope's figure is followed (`EngineState.followDriftFigure`); the
    /// engine-level tests check the followed figure within 10 ppm.
    @Test(
        "100 ppm either way reads with its sign and clear of a room without drift, within 7 s",
        arguments: [(16_000, -100.0), (16_000, 100.0), (48_000, -100.0), (48_000, 100.0)])
    func readsDrift(rate: Int, ppm: Double) throws {
        let reference = Signals.speechLike(count: rate * 12, sampleRate: rate, rms: 0.1, seed: 70)
        let mic = DriftEstimatorTests.driftingEcho(reference, rate: rate, ppm: ppm)
        let result = Self.run(mic: mic, reference: reference, rate: rate)
        print(
            "rate \(rate), drift \(ppm) ppm: first figure at \(result.first ?? -1) s, \(result.last ?? .nan) ppm at 12 s"
        )
        let first = try #require(result.first)
        let last = try #require(result.last)
        #expect(first <= 7)
        #expect(last * ppm > 0)
        #expect(abs(last) >= SpeexEchoCanceller.phaseAgreePPM && abs(last) <= 110)
    }

    @Test("300 ppm reads beyond the trusted range, with its sign (the delay slope takes over there)")
    func largeDriftDefersToTheSlope() throws {
        let rate = 16_000
        let reference = Signals.speechLike(count: rate * 12, sampleRate: rate, rms: 0.1, seed: 70)
        for ppm in [-300.0, 300.0] {
            let mic = DriftEstimatorTests.driftingEcho(reference, rate: rate, ppm: ppm)
            let last = try #require(Self.run(mic: mic, reference: reference, rate: rate).last)
            print("drift \(ppm) ppm: \(last) ppm")
            #expect(last * ppm > 0)
            #expect(abs(last) >= PhaseDrift.trustedPPM)
        }
    }

    @Test(
        "a loudspeaker moved once (the echo 3 ms later from 6 s on), no drift: every figure stays under the agreeing bound"
    )
    func movedLoudspeakerIsNotDrift() {
        let rate = 16_000
        let reference = Signals.speechLike(count: rate * 14, sampleRate: rate, rms: 0.1, seed: 74)
        let before = DriftEstimatorTests.driftingEcho(reference, rate: rate, ppm: 0)
        let shift = 3 * rate / 1000
        var mic = before
        for n in (6 * rate)..<mic.count { mic[n] = before[n - shift] }
        let result = Self.run(mic: mic, reference: reference, rate: rate)
        print("moved loudspeaker: largest figure \(result.largest) ppm, last \(result.last ?? .nan) ppm")
        #expect(result.first != nil)
        #expect(result.largest < SpeexEchoCanceller.phaseAgreePPM)
    }
}
