import Testing
import VoiceEngine
import VoiceTestSupport

/// Clock drift between playback and mic, estimated from the slope of the echo's delay and
/// reported in the health figures.
@Suite("Clock drift estimate")
struct DriftEstimatorTests {
    /// Far end through a room whose bulk delay grows by `ppm` × 10⁻⁶ samples per sample (the
    /// speaker's clock against the mic's), linearly interpolated.
    static func driftingEcho(_ reference: [Float], rate: Int, ppm: Double) -> [Float] {
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0, tail: 0.05, gain: 0.5, seed: 71)
        let echo = Signals.convolve(reference, room)
        let delay = 0.08 * Double(rate)
        var out = [Float](repeating: 0, count: echo.count)
        for n in 0..<echo.count {
            let position = Double(n) - delay - ppm * 1e-6 * Double(n)
            let i = Int(position.rounded(.down))
            guard i >= 0 && i + 1 < echo.count else { continue }
            let f = Float(position - Double(i))
            out[n] = echo[i] * (1 - f) + echo[i + 1] * f
        }
        return Signals.mix(out, Signals.whiteNoise(count: out.count, rms: 0.0003, seed: 72))
    }

    @Test("synthetic drift is estimated within 10 ppm", arguments: [-300.0, -100.0, 0.0, 100.0, 300.0])
    func estimatesDrift(ppm: Double) throws {
        let rate = 16_000
        let reference = Signals.speechLike(count: rate * 60, sampleRate: rate, rms: 0.1, seed: 70)
        let mic = Self.driftingEcho(reference, rate: rate, ppm: ppm)
        let engine = try VoiceEngine(configuration: .echoCancel, sampleRate: rate, blockSize: 256)
        _ = OfflineRenderer(engine: engine).process(mic: mic, reference: [reference])
        let estimate = Double(engine.health().clockDriftPPM)
        print("drift \(ppm) ppm: estimated \(estimate) ppm")
        #expect(estimate.isFinite)
        #expect(abs(estimate - ppm) <= 10)
    }
}
