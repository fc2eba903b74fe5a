import Foundation
import Testing
import VoiceTestSupport
import VoiceUnits

@Suite("Units")
struct UnitTests {
    /// Gain of `unit` (dB) for a sine at `frequency`, measured after the filter settled.
    func response<U: VoiceUnit>(_ unit: inout U, frequency: Double, rate: Int = 48_000) -> Double {
        var x = Signals.sine(count: rate, frequency: frequency, sampleRate: rate, amplitude: 0.5)
        let reference = x
        x.withUnsafeMutableBufferPointer { unit.process($0.baseAddress!, frames: $0.count) }
        return Measure.ratioDB(x, reference, (rate / 2)..<rate)
    }

    @Test(
        "the high-pass is a 2nd-order Butterworth: -3 dB at the cutoff, -12 dB an octave below, flat above",
        arguments: [(80.0, 80.0, -3.01), (80.0, 40.0, -12.3), (80.0, 1_000.0, 0.0), (50.0, 25.0, -12.3)])
    func highPassResponse(cutoff: Double, frequency: Double, expectedDB: Double) {
        var hp = HighPassFilter(cutoffHz: Float(cutoff))
        hp.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 48_000))
        #expect(abs(response(&hp, frequency: frequency) - expectedDB) < 0.5)
    }

    @Test("a high-pass at 0 Hz is bypassed exactly")
    func highPassBypass() {
        var hp = HighPassFilter(cutoffHz: 0)
        hp.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256))
        var x = Signals.whiteNoise(count: 256, rms: 0.1, seed: 1)
        let copy = x
        x.withUnsafeMutableBufferPointer { hp.process($0.baseAddress!, frames: 256) }
        #expect(x == copy)
    }

    @Test("gain changes glide over 10 ms instead of jumping")
    func gainGlides() {
        var gain = Gain(gainDB: 0)
        gain.prepare(ProcessSpec(sampleRate: 48_000, maximumBlockSize: 1_024))
        gain.setParameter(0, -20)
        var x = [Float](repeating: 1, count: 1_024)
        x.withUnsafeMutableBufferPointer { gain.process($0.baseAddress!, frames: 1_024) }
        let steps = zip(x, x.dropFirst()).map { abs($0 - $1) }.max() ?? 1
        #expect(steps < 0.01)  // 0.9 over 480 samples
        #expect(abs(x[100] - (1 - 0.9 * 101 / 480)) < 1e-3)
        #expect(abs(x[1_000] - 0.1) < 1e-4)
        #expect(Gain.parameters[0].range == -60...40)
    }

    @Test("the leveller lifts a quiet voice towards the target, at most max_gain, at the set speed")
    func levellerLifts() {
        var leveller = VoiceLeveller(targetDBFS: -20, maxGainDB: 12, speedDBPerSecond: 6)
        let rate = 16_000
        leveller.prepare(ProcessSpec(sampleRate: Double(rate), maximumBlockSize: 160))
        var x = Signals.whiteNoise(count: rate * 4, rms: 0.01, seed: 2)  // -40 dBFS: wants +20 dB
        x.withUnsafeMutableBufferPointer { p in
            for start in stride(from: 0, to: p.count, by: 160) {
                leveller.process(p.baseAddress! + start, frames: 160, voiceActive: true)
            }
        }
        let gainDB = 20 * log10(Double(leveller.currentGain()))
        #expect(abs(gainDB - 12) < 0.1)  // capped at max_gain_db
        // 6 dB/s: one second in, about +6 dB.
        let firstSecond =
            Measure.levelDB(x, (rate - 1_600)..<rate)
            - Measure.levelDB(Signals.whiteNoise(count: rate, rms: 0.01, seed: 2))
        #expect(abs(firstSecond - 6) < 1.5)
    }

    @Test(
        "the leveller lifts a talker whose peaks stand far above their mean only as far as keeps the peaks under -1 dBFS (recorded speech clipped at full scale)"
    )
    func levellerKeepsPeaksUnderTheCeiling() {
        var leveller = VoiceLeveller(targetDBFS: -20, maxGainDB: 12, speedDBPerSecond: 6)
        let rate = 16_000
        leveller.prepare(ProcessSpec(sampleRate: Double(rate), maximumBlockSize: 160))
        // -46 dBFS of noise (wants the full +12 dB) with a 10 ms burst at 0.4 (-8 dBFS) every
        // 0.5 s: lifted by 12 dB the bursts would reach 1.6, 4 dB over full scale.
        var x = Signals.whiteNoise(count: rate * 6, rms: 0.005, seed: 5)
        let burst = Signals.sine(count: rate / 100, frequency: 1_000, sampleRate: rate, amplitude: 0.4)
        for start in stride(from: rate / 4, to: x.count - burst.count, by: rate / 2) {
            for i in 0..<burst.count { x[start + i] += burst[i] }
        }
        x.withUnsafeMutableBufferPointer { p in
            for start in stride(from: 0, to: p.count, by: 160) {
                leveller.process(p.baseAddress! + start, frames: 160, voiceActive: true)
            }
        }
        let peak = x.map { abs($0) }.max() ?? 0
        #expect(20 * log10(Double(peak)) < -0.9, "peak \(peak)")
        // The lift stops where the bursts meet the ceiling: 0.891 / 0.4 at most, about +7 dB (the
        // noise added under a burst's peak takes a little more).
        let gainDB = 20 * log10(Double(leveller.currentGain()))
        #expect(gainDB > 5.5 && gainDB < 7.0, "gain \(gainDB) dB")
    }

    @Test("the leveller never lifts when lifting is not allowed or nobody talks")
    func levellerHolds() {
        var leveller = VoiceLeveller()
        leveller.prepare(ProcessSpec(sampleRate: 16_000, maximumBlockSize: 160))
        var x = Signals.whiteNoise(count: 32_000, rms: 0.01, seed: 3)
        x.withUnsafeMutableBufferPointer { p in
            for start in stride(from: 0, to: p.count, by: 160) {
                leveller.process(p.baseAddress! + start, frames: 160, voiceActive: true, liftAllowed: false)
            }
        }
        #expect(leveller.currentGain() <= 1)
        var y = Signals.whiteNoise(count: 32_000, rms: 0.01, seed: 4)
        y.withUnsafeMutableBufferPointer { p in
            for start in stride(from: 0, to: p.count, by: 160) {
                leveller.process(p.baseAddress! + start, frames: 160, voiceActive: false)
            }
        }
        #expect(leveller.currentGain() <= 1)
    }
}
