import Foundation
import Testing
import VoiceRT
import VoiceTestSupport

@testable import VoiceEcho
@testable import VoiceEngine

/// Clock-drift compensation: the reference is resampled so the canceller sees a steady echo path.
@Suite("Clock drift compensation")
struct DriftCompensationTests {
    /// The far end through a room whose bulk delay (80 ms) grows by `ppm` × 10⁻⁶ samples per
    /// sample, read between samples with a Hann-windowed sinc (32 taps) as the yardstick does:
    /// linear interpolation would itself change the echo path as the fraction moves.
    static func driftingEcho(_ reference: [Float], rate: Int, ppm: Double) -> [Float] {
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0, tail: 0.05, gain: 0.5, seed: 81)
        let echo = Signals.convolve(reference, room)
        let half = 16
        var out = [Float](repeating: 0, count: echo.count)
        for n in 0..<echo.count {
            let position = Double(n) - 0.08 * Double(rate) - ppm * 1e-6 * Double(n)
            let i = Int(position)
            guard i - half >= 0 && i + half < echo.count else { continue }
            let f = position - Double(i)
            var sum = 0.0
            for k in (1 - half)...half {
                let x = Double(k) - f
                let sinc = abs(x) < 1e-9 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let window = 0.5 + 0.5 * cos(Double.pi * x / Double(half))
                sum += Double(echo[i + k]) * sinc * window
            }
            out[n] = Float(sum)
        }
        return Signals.mix(out, Signals.whiteNoise(count: out.count, rms: 0.0003, seed: 82))
    }

    /// ERLE (dB) over the last 10 s of a 30 s drifting room, and the engine's health after it.
    static func run(ppm: Double, compensated: Bool) throws -> (erle: Double, health: HealthFigures) {
        let rate = 16_000
        let reference = Signals.speechLike(count: rate * 30, sampleRate: rate, rms: 0.1, seed: 80)
        let mic = driftingEcho(reference, rate: rate, ppm: ppm)
        var c = EngineConfiguration.echoCancel
        c.driftCompensation = compensated
        c.startupSuppression = false  // it would carry echo-only frames while the filter cannot converge
        let engine = try VoiceEngine(configuration: c, sampleRate: rate, blockSize: 256)
        let output = OfflineRenderer(engine: engine).process(mic: mic, reference: [reference])
        return (Measure.ratioDB(mic, output, (20 * rate)..<mic.count), engine.health())
    }

    @Test("±100 and ±300 ppm are followed: ERLE on against off", arguments: [-300.0, -100.0, 100.0, 300.0])
    func followsDrift(ppm: Double) throws {
        let on = try Self.run(ppm: ppm, compensated: true)
        let off = try Self.run(ppm: ppm, compensated: false)
        print(
            "drift \(ppm) ppm: ERLE \(on.erle) dB compensated, \(off.erle) dB not; followed at "
                + "\(on.health.clockDriftPPM) ppm")
        #expect(on.health.driftCompensation == .following)
        #expect(abs(Double(on.health.clockDriftPPM) - ppm) <= 10)
        // Measured: 24.6 to 28.4 dB on, 5.7 to 16.6 dB off (switching steps every 1024 samples).
        #expect(on.erle >= 22)
        #expect(on.erle - off.erle >= 7)
    }

    @Test("no drift: the resampler stays off")
    func staysOffWithoutDrift() throws {
        let run = try Self.run(ppm: 0, compensated: true)
        #expect(run.health.driftCompensation == .off)
    }

    /// Engaging the resampler mid-stream continues the delayed signal without a jump.
    @Test("engaging keeps the reference continuous")
    func engagingIsSeamless() {
        let rate = 16_000
        // Band-limited (below the resampler's cutoff), so the resampler passes it untouched.
        var input = [Float](repeating: 0, count: rate)
        for n in 0..<rate {
            let t = Double(n)
            let low = 0.3 * sin(0.11 * t) + 0.2 * sin(0.73 * t + 1)
            input[n] = Float(low + 0.1 * sin(1.9 * t))
        }
        var line = DriftingDelay(channels: 1, sampleRate: rate, maximumDelay: 2000, maximumBlock: 256)
        line.setDelay(500)
        var output = [Float](repeating: 0, count: input.count)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 256)
        defer { scratch.deallocate() }
        for start in stride(from: 0, to: input.count - 255, by: 256) {
            if start == 4096 {
                let engaged = line.engage(ppm: 0.1)
                #expect(engaged)
            }
            for i in 0..<256 { scratch[i] = input[start + i] }
            line.process(scratch, scratch, scratch, scratch, 256)
            for i in 0..<256 { output[start + i] = scratch[i] }
        }
        var worst: Float = 0
        for n in 1000..<(input.count / 256 * 256) { worst = max(worst, abs(output[n] - input[n - 500])) }
        print("largest difference from a 500-sample delay: \(worst)")
        let engaged = line.engaged, shortfall = line.shortfall
        #expect(engaged)
        #expect(shortfall == 0)
        #expect(worst < 0.01)
    }
}
