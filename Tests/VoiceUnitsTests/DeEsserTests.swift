import Foundation
import Testing
import VoiceTestSupport
import VoiceUnits

@Suite("De-esser")
struct DeEsserTests {
    /// Output level minus input level (dB) for a 1 s sine, over the second half.
    func change(_ d: inout DeEsser, frequency: Double, peakDB: Double) -> Double {
        d.reset()
        let x = Signals.sine(
            count: 48_000, frequency: frequency, sampleRate: 48_000, amplitude: Harness.amplitude(peakDB))
        return Measure.ratioDB(Harness.run(&d, x), x, 24_000..<48_000)
    }

    @Test("the sibilant band is held at the threshold, at most range_db down; other bands untouched")
    func curve() {
        var d = DeEsser(frequencyHz: 6_000, thresholdDBFS: -30, rangeDB: 12)
        d.prepare(Harness.spec)
        #expect(abs(change(&d, frequency: 6_000, peakDB: -40)) < 0.1)  // below threshold
        #expect(abs(change(&d, frequency: 6_000, peakDB: -24) - -6) < 0.5)  // 6 dB over
        #expect(abs(change(&d, frequency: 6_000, peakDB: -20) - -10) < 0.5)  // 10 dB over
        #expect(abs(change(&d, frequency: 6_000, peakDB: -6) - -12) < 0.5)  // capped by range
        // A loud 300 Hz tone: its band-pass part is −30 dB, under the threshold.
        #expect(abs(change(&d, frequency: 300, peakDB: -3)) < 0.1)
        d.setParameter(3, 1)  // bypass
        #expect(abs(change(&d, frequency: 6_000, peakDB: -6)) < 0.01)
    }

    @Test("only the band is reduced: a loud low tone passes while a sibilant burst on top is cut")
    func splitBand() {
        var d = DeEsser(frequencyHz: 6_000, thresholdDBFS: -30, rangeDB: 12)
        d.prepare(Harness.spec)
        let low = Signals.sine(count: 48_000, frequency: 200, sampleRate: 48_000, amplitude: 0.5)
        let ess = Signals.sine(count: 48_000, frequency: 6_000, sampleRate: 48_000, amplitude: 0.3)
        let y = Harness.run(&d, Signals.mix(low, ess))
        // Split the output: 200 Hz and 6 kHz are far apart, so project onto each tone.
        func amplitude(_ f: Double) -> Double {
            var s = 0.0, c = 0.0
            for i in 24_000..<48_000 {
                let p = 2 * Double.pi * f * Double(i) / 48_000
                s += Double(y[i]) * sin(p)
                c += Double(y[i]) * cos(p)
            }
            return 2 * (s * s + c * c).squareRoot() / 24_000
        }
        #expect(abs(20 * log10(amplitude(200) / 0.5)) < 0.2)
        #expect(amplitude(6_000) < 0.3 * 0.3)  // ≥ 10 dB down
    }
}
