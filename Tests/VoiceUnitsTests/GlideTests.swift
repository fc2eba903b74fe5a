import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceUnits

/// Parameter changes mid-signal must glide: the largest sample-to-sample step around the change
/// stays near the signal's own steepest slope instead of jumping.
@Suite("Parameter glides")
struct GlideTests {
    @Test("compressor make-up 0 → +12 dB: no step above 0.004 (an instant change jumps 0.15)")
    func makeup() {
        var c = Compressor(thresholdDBFS: -20)
        c.prepare(Harness.spec)
        // 100 Hz at −26 dBFS: below the knee. After +12 dB its steepest step is 0.2·2π·100/48k ≈ 0.0026.
        let x = Signals.sine(count: 24_000, frequency: 100, sampleRate: 48_000, amplitude: 0.05)
        var y = Harness.run(&c, Array(x[..<12_000]))
        c.setParameter(5, 12)
        y += Harness.run(&c, Array(x[12_000...]))
        #expect(Harness.largestStep(y, 11_000..<14_000) < 0.004)
        #expect(abs(Measure.levelDB(y, 18_000..<24_000) - Measure.levelDB(x, 18_000..<24_000) - 12) < 0.2)
    }

    @Test("compressor bypass under 15 dB of reduction glides")
    func bypass() {
        var c = Compressor(thresholdDBFS: -30, ratio: 20, kneeDB: 0)
        c.prepare(Harness.spec)
        let x = Signals.sine(count: 24_000, frequency: 100, sampleRate: 48_000, amplitude: 0.5)
        var y = Harness.run(&c, Array(x[..<12_000]))
        c.setParameter(7, 1)
        y += Harness.run(&c, Array(x[12_000...]))
        #expect(Harness.largestStep(y, 11_000..<14_000) < 0.008)  // own slope ≤ 0.0066
        #expect(Array(y[13_000...]) == Array(x[13_000...]))
    }

    @Test("EQ gain +12 → −12 dB on a running shelf crossfades (an instant switch would jump)")
    func equalizerGain() {
        // A high shelf's b0 is about its treble gain (×4 → ×¼), so switching it under a running
        // filter steps the output by ≈ 3.7·x even for a 50 Hz tone the shelf hardly touches.
        let x = Signals.sine(count: 48_000, frequency: 50, sampleRate: 48_000, amplitude: 0.2)
        var eq = Equalizer(bands: [.init(type: .highShelf, frequency: 2_000, gainDB: 12, q: 0.707)])
        eq.prepare(Harness.spec)
        var y = Harness.run(&eq, Array(x[..<24_100]))
        eq.setParameter(2, -12)
        y += Harness.run(&eq, Array(x[24_100...]))
        // Own steepest step: 0.2 · 2π·50/48k ≈ 0.0013 (the shelf adds < 0.3 dB at 50 Hz).
        let bound: Float = 0.003
        #expect(Harness.largestStep(y, 23_000..<27_000) < bound)
        let treble = Signals.sine(count: 9_600, frequency: 8_000, sampleRate: 48_000, amplitude: 0.1)
        #expect(abs(Measure.ratioDB(Harness.run(&eq, treble), treble, 4_800..<9_600) - -12) < 0.5)

        // The same switch with a 1-sample fade (no glide) does jump: the bound catches a regression.
        var hard = GlidingBiquad()
        hard.setFadeLength(1)
        let loud = BiquadDesign.highShelf(frequency: 2_000, gainDB: 12, q: 0.707, sampleRate: 48_000)
        let soft = BiquadDesign.highShelf(frequency: 2_000, gainDB: -12, q: 0.707, sampleRate: 48_000)
        hard.jump(to: loud)
        var z = x
        z.withUnsafeMutableBufferPointer { p in
            hard.process(p.baseAddress!, frames: 24_100)
            hard.setTarget(soft)
            hard.process(p.baseAddress! + 24_100, frames: 48_000 - 24_100)
        }
        #expect(Harness.largestStep(z, 23_000..<27_000) > 10 * bound)
    }

    @Test("delay mix 0.2 → 1 and a time change glide")
    func delay() {
        var d = Delay(timeMs: 7, feedback: 0.3, mix: 0.2)
        d.prepare(Harness.spec)
        defer { d.deallocate() }
        let x = Signals.sine(count: 48_000, frequency: 200, sampleRate: 48_000, amplitude: 0.4)
        var y = Harness.run(&d, Array(x[..<12_000]))
        d.setParameter(2, 1)
        y += Harness.run(&d, Array(x[12_000..<24_000]))
        d.setParameter(0, 13)  // the 7 ms and 13 ms taps are out of phase at 200 Hz
        y += Harness.run(&d, Array(x[24_000...]))
        // Output up to ≈0.55 peak, own steepest step ≈ 0.55·2π·200/48k ≈ 0.015.
        #expect(Harness.largestStep(y, 11_000..<30_000) < 0.02)
    }

    @Test("gate range change while closed glides at the release time")
    func gateRange() {
        var g = NoiseGate(thresholdDBFS: -20, releaseMs: 50, rangeDB: -6)
        g.prepare(Harness.spec)
        let x = Signals.sine(count: 24_000, frequency: 100, sampleRate: 48_000, amplitude: 0.05)  // −26 dBFS, closed
        var y = Harness.run(&g, Array(x[..<12_000]))
        g.setParameter(4, -60)
        y += Harness.run(&g, Array(x[12_000...]))
        #expect(Harness.largestStep(y, 11_000..<14_000) < 0.0004)  // own slope at −6 dB ≈ 0.00033
    }
}
