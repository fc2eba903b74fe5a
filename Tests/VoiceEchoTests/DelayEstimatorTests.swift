import Testing
import VoiceTestSupport

@testable import VoiceEcho

@Suite("Delay estimator")
struct DelayEstimatorTests {
    /// Feeds `mic` and `reference` in 256-sample blocks; returns the estimate in ms (-1 if none).
    func estimate(mic: [Float], reference: [Float], rate: Int, maxDelay: Double = 0.5) -> Double {
        var estimator = DelayEstimator(sampleRate: rate, maximumDelaySeconds: maxDelay)
        var start = 0
        mic.withUnsafeBufferPointer { m in
            reference.withUnsafeBufferPointer { r in
                while start + 256 <= mic.count {
                    _ = estimator.process(mic: m.baseAddress! + start, reference: r.baseAddress! + start, frames: 256)
                    start += 256
                }
            }
        }
        return estimator.estimate < 0 ? -1 : Double(estimator.estimate) * 1000 / Double(rate)
    }

    @Test(
        "finds a known echo delay within 1 ms, with near-end talk and noise on top",
        arguments: [(48_000, 0.0), (48_000, 0.037), (48_000, 0.120), (48_000, 0.450), (16_000, 0.250), (8_000, 0.080)])
    func findsKnownDelay(rate: Int, delay: Double) {
        let n = rate * 8
        let far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 11)
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: delay, tail: 0.08, gain: 0.4, seed: 12)
        let near = Signals.speechLike(count: n, sampleRate: rate, rms: 0.03, seed: 13)
        let mic = Signals.mix(Signals.convolve(far, room), near, Signals.whiteNoise(count: n, rms: 0.003, seed: 14))
        let found = estimate(mic: mic, reference: far, rate: rate)
        #expect(abs(found - delay * 1000) <= 1, "rate \(rate): expected \(delay * 1000) ms, found \(found) ms")
    }

    @Test("says nothing when the far end is silent or unrelated to the mic")
    func noFalseEstimate() {
        let rate = 16_000
        let mic = Signals.speechLike(count: rate * 6, sampleRate: rate, rms: 0.05, seed: 21)
        #expect(estimate(mic: mic, reference: [Float](repeating: 0, count: mic.count), rate: rate) == -1)
        let unrelated = Signals.speechLike(count: rate * 6, sampleRate: rate, rms: 0.05, seed: 22)
        #expect(estimate(mic: mic, reference: unrelated, rate: rate) == -1)
    }
}
