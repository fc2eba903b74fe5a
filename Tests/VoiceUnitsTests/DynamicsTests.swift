import Foundation
import Testing
import VoiceTestSupport
import VoiceUnits

@Suite("Gate and compressor")
struct DynamicsTests {
    /// Output level (dBFS) for a steady square wave at `inputDB`, after 1 s.
    func staticLevel<U: VoiceUnit>(_ unit: inout U, _ inputDB: Double) -> Double {
        unit.reset()
        let x = Harness.square(count: 48_000, amplitude: Harness.amplitude(inputDB))
        let y = Harness.run(&unit, x)
        return Measure.levelDB(y, 36_000..<48_000)
    }

    @Test(
        "compressor static curve: threshold −20, ratio 4, 6 dB soft knee (peak and RMS detectors)",
        arguments: [Compressor.Detector.peak, .rms])
    func compressorCurve(detector: Compressor.Detector) {
        var c = Compressor(thresholdDBFS: -20, ratio: 4, kneeDB: 6, attackMs: 1, releaseMs: 50, detector: detector)
        c.prepare(Harness.spec)
        // below the knee; knee start; threshold (0.75·3²/12 = 0.5625 dB); above; full scale
        for (input, expected) in [(-40.0, -40.0), (-23, -23), (-20, -20.5625), (-10, -17.5), (0, -15)] {
            let out = staticLevel(&c, input)
            #expect(abs(out - expected) < 0.5, "\(detector) in \(input) dBFS → \(out), want \(expected)")
        }
        c.setParameter(5, 6)  // make-up +6 dB
        #expect(abs(staticLevel(&c, -10) - -11.5) < 0.5)
    }

    @Test("compressor attack and release: 63 % of the reduction after attack_ms, 63 % recovered after release_ms")
    func compressorTimes() {
        var c = Compressor(thresholdDBFS: -40, ratio: 10, kneeDB: 0, attackMs: 10, releaseMs: 200)
        c.prepare(Harness.spec)
        let quiet = Harness.square(count: 24_000, amplitude: Harness.amplitude(-60))
        let loud = Harness.square(count: 48_000, amplitude: Harness.amplitude(-20))
        let x = quiet + loud + quiet
        let y = Harness.run(&c, x)
        let full = 0.9 * 20.0  // 18 dB of reduction at −20 dBFS
        // Attack: 10 ms = 480 samples after the step.
        let atAttack = -Harness.gainDB(y, x, 24_000 + 479)
        #expect(abs(atAttack - full * (1 - exp(-1))) < 0.5)
        #expect(abs(-Harness.gainDB(y, x, 24_000 + 47_999) - full) < 0.1)
        // Release: 200 ms = 9600 samples after the drop, ~37 % of the reduction is left (the 10 ms
        // attack stage lags it slightly: 0.387 in theory).
        let left = -Harness.gainDB(y, x, 72_000 + 9_599) / full
        #expect(left > 0.34 && left < 0.42, "\(left)")
    }

    @Test("gate static curve: open above the threshold, range_db below")
    func gateCurve() {
        var g = NoiseGate(thresholdDBFS: -50, attackMs: 1, holdMs: 50, releaseMs: 150, rangeDB: -40)
        g.prepare(Harness.spec)
        // −52 is inside the 4 dB hysteresis: a closed gate stays closed there.
        for (input, expected) in [(-20.0, -20.0), (-45, -45), (-52, -92), (-60, -100), (-80, -120)] {
            let out = staticLevel(&g, input)
            #expect(abs(out - expected) < 0.5, "in \(input) dBFS → \(out), want \(expected)")
        }
    }

    @Test("gate attack and release: 63 % of the way (in dB) after attack_ms and release_ms")
    func gateTimes() {
        var g = NoiseGate(thresholdDBFS: -50, attackMs: 1, holdMs: 50, releaseMs: 150, rangeDB: -40)
        g.prepare(Harness.spec)
        let quiet = Harness.square(count: 24_000, amplitude: Harness.amplitude(-80))
        let loud = Harness.square(count: 24_000, amplitude: Harness.amplitude(-30))
        let x = quiet + loud + quiet
        let y = Harness.run(&g, x)
        // Attack: 1 ms = 48 samples after the step, −40·e⁻¹ = −14.7 dB.
        #expect(abs(Harness.gainDB(y, x, 24_000 + 47) - -40 * exp(-1)) < 0.5)
        // Release starts after the key falls and the hold ends (~75 ms); then 150 ms to −25.3 dB.
        guard let start = (48_000..<72_000).first(where: { Harness.gainDB(y, x, $0) < -0.01 }) else {
            Issue.record("the gate never closed")
            return
        }
        #expect(start - 48_000 >= 2_400)  // held open at least hold_ms = 50 ms
        #expect(abs(Harness.gainDB(y, x, start + 7_199) - -40 * (1 - exp(-1))) < 0.5)
    }
}
