import Foundation
import Testing
import VoiceLoudness
import VoiceTestSupport

/// The live meter's consumer side and the loudness loop's steps, without JACK: blocks written
/// into the meter's input as the process thread writes them, drained as its thread drains them.
@Suite("Live loudness meter and the target_lufs loop")
struct LiveLoudnessTests {
    /// Writes `samples` into the meter's input in 256-frame cycles and drains after each.
    func feed(_ meter: LiveLoudness, _ samples: [Float]) {
        samples.withUnsafeBufferPointer { s in
            var start = 0
            while start < s.count {
                var channel = s.baseAddress! + start
                let n = min(256, s.count - start)
                withUnsafePointer(to: &channel) { meter.input.write($0, frames: n) }
                meter.drain()
                start += n
            }
        }
    }

    @Test("a 1 kHz sine of amplitude 0.1 reads -23.0 LUFS momentary, short-term and integrated")
    func sineReadsItsLoudness() throws {
        let meter = try #require(LiveLoudness(sampleRate: 48_000, thread: false))
        feed(meter, Signals.sine(count: 48_000 * 5, frequency: 1000, sampleRate: 48_000, amplitude: 0.1))
        let f = meter.figures
        // Mono, mean square 0.005 = -23.0 dB; K-weighting adds +0.69 dB at 1 kHz, R128's -0.691 takes it off.
        for (name, value) in [("M", f.momentary), ("S", f.shortTerm), ("I", f.take.integrated)] {
            let v = try #require(value, "\(name) missing: \(f)")
            #expect(abs(v + 23.0) < 0.1, "\(name) = \(v)")
        }
        // True peak of a 0.1 sine: -20 dBTP.
        #expect(abs((f.take.truePeak ?? 0) + 20) < 0.1, "\(f)")
        #expect(abs(f.seconds - 5) < 0.03, "\(f.seconds) s measured")
        #expect(f.framesLost == 0)
        #expect(f.statusText == "-23.0 LUFS")
    }

    @Test(
        "a -100 dBFS hum under R128's -70 LUFS gate reads no loudness (the panel showed -110.9 LUFS), a -60 dBFS one reads its level"
    )
    func quietUnderTheGateReadsNone() throws {
        let meter = try #require(LiveLoudness(sampleRate: 48_000, thread: false))
        feed(meter, Signals.sine(count: 48_000 * 4, frequency: 1000, sampleRate: 48_000, amplitude: 0.000_01))
        #expect(meter.figures.momentary == nil && meter.figures.shortTerm == nil, "\(meter.figures)")
        #expect(meter.figures.statusText == "-- LUFS")
        feed(meter, Signals.sine(count: 48_000 * 4, frequency: 1000, sampleRate: 48_000, amplitude: 0.001))
        // Amplitude 0.001: -63.0 dB mean square, as the -23.0 of amplitude 0.1 less 40 dB.
        let shortTerm = try #require(meter.figures.shortTerm, "\(meter.figures)")
        #expect(abs(shortTerm + 63.0) < 0.1, "\(shortTerm)")
    }

    @Test("startTake starts the integrated loudness again; momentary and short-term run on")
    func takeStartsAgain() throws {
        let meter = try #require(LiveLoudness(sampleRate: 48_000, thread: false))
        feed(meter, Signals.sine(count: 48_000 * 4, frequency: 1000, sampleRate: 48_000, amplitude: 0.05))
        let quiet = try #require(meter.figures.take.integrated)
        #expect(abs(quiet + 29.0) < 0.1, "\(quiet)")
        meter.startTake()
        feed(meter, Signals.sine(count: 48_000 * 4, frequency: 1000, sampleRate: 48_000, amplitude: 0.2))
        let f = meter.figures
        // The new take holds only the louder sine (6 dB over -23); without the restart the two
        // halves would read about -20.
        #expect(abs((f.take.integrated ?? 0) + 17.0) < 0.1, "\(f)")
        #expect(abs(f.seconds - 8) < 0.03, "the session's clock runs on: \(f.seconds)")
    }

    @Test("with its own thread, the meter measures what the producer wrote, and stop waits for it")
    func threadedMeterDrains() throws {
        let meter = try #require(LiveLoudness(sampleRate: 48_000, thread: true))
        let sine = Signals.sine(count: 48_000 * 3, frequency: 1000, sampleRate: 48_000, amplitude: 0.1)
        sine.withUnsafeBufferPointer { s in
            for start in stride(from: 0, to: s.count, by: 960) {
                var channel = s.baseAddress! + start
                withUnsafePointer(to: &channel) { meter.input.write($0, frames: 960) }
                if start % (48 * 960) == 0 { usleep(20_000) }
            }
        }
        meter.input.finish()
        meter.stop()
        let f = meter.figures
        #expect(abs(f.seconds - 3) < 0.001, "\(f)")
        #expect(abs((f.take.integrated ?? 0) + 23.0) < 0.1, "\(f)")
    }

    func figures(seconds: Double, momentary: Double?, shortTerm: Double?) -> LoudnessFigures {
        var f = LoudnessFigures()
        f.seconds = seconds
        f.momentary = momentary
        f.shortTerm = shortTerm
        return f
    }

    @Test(
        "the loop moves the dBFS target by a share of the error, at most the leveller's speed, only while the voice speaks"
    )
    func steeringSteps() throws {
        var loop = LoudnessSteering(targetLUFS: -16, speedDBPerSecond: 6)
        func next(_ seconds: Double, _ momentary: Double?, _ shortTerm: Double?, from current: Double) -> Double? {
            loop.step(figures(seconds: seconds, momentary: momentary, shortTerm: shortTerm), currentDBFS: current)
        }
        // The first figures only set the clock; then too soon: under half a second of audio since.
        let first = next(1, -20, -20, from: -20)
        let soon = next(1.3, -20, -20, from: -20)
        #expect(first == nil && soon == nil)
        // 4 LU short: 0.4/s × 0.5 s × 4 = +0.8 dB.
        let up = try #require(next(1.5, -20, -20, from: -20))
        #expect(abs(up - -19.2) < 1e-9, "\(up)")
        // 30 LU short over 0.5 s: capped at 6 dB/s × 0.5 s = 3 dB.
        let capped = try #require(next(2, -30, -46, from: -20))
        #expect(abs(capped - -17) < 1e-9, "\(capped)")
        // Too loud: down.
        let down = try #require(next(2.5, -10, -12, from: -20))
        #expect(abs(down - -20.8) < 1e-9, "\(down)")
        // A pause (momentary more than 20 LU under the target) or silence: nothing moves.
        let pause = next(3, -40, -25, from: -20)
        let silence = next(3.5, nil, nil, from: -20)
        #expect(pause == nil && silence == nil)
        // Never past the leveller's range.
        let top = next(4, -20, -30, from: -6.5)
        let stays = next(4.5, -20, -16, from: -6)
        #expect(top == -6 && stays == nil)
    }
}
