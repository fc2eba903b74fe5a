import Foundation
import Testing
import VoiceTestSupport
import VoiceUnits

@Suite("Limiter")
struct LimiterTests {
    @Test("the output never exceeds the ceiling on a hot signal with transients (every sample)")
    func neverExceeds() {
        for ceilingDB: Float in [-1, -6, 0] {
            var l = Limiter(ceilingDBFS: ceilingDB, releaseMs: 20)
            l.prepare(Harness.spec)
            defer { l.deallocate() }
            var x = Signals.speechLike(count: 96_000, sampleRate: 48_000, rms: 0.8, seed: 11)
            var rng = SeededRandom(seed: 5)
            // Clicks up to +26 dBFS.
            for _ in 0..<200 { x[Int.random(in: 0..<x.count, using: &rng)] = rng.bipolar() * 20 }
            x += Signals.sine(count: 48_000, frequency: 997, sampleRate: 48_000, amplitude: 4)
            let y = Harness.run(&l, x, block: 100)
            let ceiling = powf(10, ceilingDB / 20)
            #expect(y.allSatisfy { abs($0) <= ceiling }, "peak \(y.map(abs).max()!) over \(ceiling)")
        }
    }

    @Test("latency equals the 5 ms look-ahead: an impulse comes out 240 samples later at 48 kHz")
    func latency() {
        var l = Limiter()
        l.prepare(Harness.spec)
        defer { l.deallocate() }
        #expect(l.latencySamples() == 240)
        var x = [Float](repeating: 0, count: 2_000)
        x[100] = 0.5
        let y = Harness.run(&l, x)
        #expect(y.indices.max(by: { abs(y[$0]) < abs(y[$1]) }) == 340)
        #expect(abs(y[340] - 0.5) < 1e-5)
    }

    @Test("static curve: levels under the ceiling pass, peaks above it come out at the ceiling")
    func staticCurve() {
        var l = Limiter(ceilingDBFS: -1, releaseMs: 50)
        l.prepare(Harness.spec)
        defer { l.deallocate() }
        for (input, expected) in [(-12.0, -12.0), (-3, -3), (0, -1), (6, -1), (12, -1)] {
            l.reset()
            let x = Signals.sine(
                count: 24_000, frequency: 1_000, sampleRate: 48_000, amplitude: Harness.amplitude(input))
            let y = Harness.run(&l, x)
            let peak = 20 * log10(Double(y[12_000...].map(abs).max()!))
            #expect(abs(peak - expected) < 0.5, "in \(input) dBFS peak → \(peak)")
        }
    }

    @Test("release: the gain recovers 63 % about release_ms after the peak leaves the look-ahead")
    func release() {
        var l = Limiter(ceilingDBFS: -6, releaseMs: 50)
        l.prepare(Harness.spec)
        defer { l.deallocate() }
        let hot = Harness.square(count: 24_000, amplitude: 1)  // needs −6 dB
        let quiet = Harness.square(count: 24_000, amplitude: 0.1)
        let x = hot + quiet
        let y = Harness.run(&l, x)
        let latency = l.latencySamples()
        let r = Double(powf(10, -6.0 / 20))
        // The first quiet sample leaves at 24_000 + latency; find where 63 % is recovered.
        let first = 24_000 + latency
        let crossing = (first..<48_000).first {
            (Double(abs(y[$0])) / 0.1 - r) / (1 - r) >= 1 - exp(-1)
        }
        // Hold (L) + half the smoothing window (L/2) + 50 ms.
        let expected = latency + latency / 2 + 2_400
        #expect(crossing != nil)
        if let crossing { #expect(abs((crossing - first) - expected) < 240, "\(crossing - first) vs \(expected)") }
    }
}
