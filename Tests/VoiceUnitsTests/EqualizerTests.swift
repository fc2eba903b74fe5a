import Foundation
import Testing
import VoiceTestSupport
import VoiceUnits

@Suite("Equalizer")
struct EqualizerTests {
    /// Gain (dB) of `eq` for a 1 s sine at `frequency`, measured over the second half.
    func response(_ eq: inout Equalizer, _ frequency: Double) -> Double {
        eq.reset()
        let x = Signals.sine(count: 48_000, frequency: frequency, sampleRate: 48_000, amplitude: 0.25)
        let y = Harness.run(&eq, x)
        return Measure.ratioDB(y, x, 24_000..<48_000)
    }

    /// A band and the magnitudes (Hz, dB) of its cookbook design at 48 kHz, computed independently
    /// from the analytic transfer function.
    struct Case: Sendable, CustomTestStringConvertible {
        let band: Equalizer.Band
        let points: [(Double, Double)]
        var testDescription: String { "\(band.type) \(band.frequency) Hz" }
    }

    static let cases: [Case] = [
        Case(
            band: .init(type: .peaking, frequency: 1_000, gainDB: 6, q: 1),
            points: [(1_000, 6.0), (500, 1.879), (2_000, 1.866), (100, 0.065)]),
        Case(
            band: .init(type: .peaking, frequency: 3_000, gainDB: -12, q: 2),
            points: [(3_000, -12.0), (1_500, -1.432), (6_000, -1.318)]),
        Case(
            band: .init(type: .lowShelf, frequency: 200, gainDB: 9, q: 0.707),
            points: [(20, 8.999), (200, 4.5), (2_000, 0.001)]),
        Case(
            band: .init(type: .highShelf, frequency: 5_000, gainDB: 6, q: 0.707),
            points: [(500, 0.001), (5_000, 3.0), (20_000, 6.0)]),
        Case(
            band: .init(type: .lowPass, frequency: 1_000, q: 0.707),
            points: [(100, 0.0), (1_000, -3.012), (4_000, -24.477)]),
        Case(
            band: .init(type: .highPass, frequency: 200, q: 0.707),
            points: [(50, -24.1), (200, -3.012), (2_000, 0.0)]),
    ]

    @Test("each band type matches its cookbook design within 0.5 dB", arguments: cases)
    func bandResponse(_ c: Case) {
        let band = c.band, points = c.points
        var eq = Equalizer(bands: [
            band, .init(type: .off, frequency: 1_000), .init(type: .off, frequency: 1_000),
            .init(type: .off, frequency: 1_000),
        ])
        eq.prepare(Harness.spec)
        for (f, expected) in points {
            let measured = response(&eq, f)
            #expect(abs(measured - expected) < 0.5, "\(band.type) at \(f) Hz: \(measured) dB, design \(expected) dB")
        }
    }

    @Test("bands cascade: two bells add their gains in dB")
    func cascade() {
        var eq = Equalizer(bands: [
            .init(type: .peaking, frequency: 300, gainDB: 6, q: 2),
            .init(type: .peaking, frequency: 3_000, gainDB: -6, q: 2),
            .init(type: .off, frequency: 1_000), .init(type: .off, frequency: 1_000),
        ])
        eq.prepare(Harness.spec)
        #expect(abs(response(&eq, 300) - 6) < 0.5)
        #expect(abs(response(&eq, 3_000) + 6) < 0.5)
    }

    @Test("the flat default and bypass pass the signal through exactly")
    func flatAndBypass() {
        var flat = Equalizer()
        flat.prepare(Harness.spec)
        let x = Signals.whiteNoise(count: 4_096, rms: 0.1, seed: 7)
        #expect(Harness.run(&flat, x) == x)

        var eq = Equalizer(bands: [.init(type: .peaking, frequency: 1_000, gainDB: 12, q: 1)])
        eq.prepare(Harness.spec)
        _ = Harness.run(&eq, x)
        eq.setParameter(Equalizer.bypassIndex, 1)
        let y = Harness.run(&eq, x + x)  // the 10 ms fade ends within the first 480 samples
        #expect(Array(y[512...]) == Array((x + x)[512...]))
    }

    @Test("parameters: 4 bands × (type, freq, gain, Q) + bypass, with stable ids")
    func descriptors() {
        #expect(Equalizer.parameters.count == 17)
        #expect(Equalizer.parameters[6].id == "band2_gain_db")
        #expect(Equalizer.parameters[16].id == "bypass")
        #expect(Equalizer.parameters[1].range == 20...20_000)
    }
}
