import Foundation
import Testing
import VoiceEngine
import VoiceTestSupport

/// The monitor's feedback guard: a howling loop is muted fast, ordinary signals never are.
@Suite("Feedback guard")
struct FeedbackGuardTests {
    static let rate = 48_000

    /// A dry monitor at unity, nothing else: the loop gain is the room's.
    static func monitorOn(guardOn: Bool = true) -> EngineConfiguration {
        var c = EngineConfiguration()
        c.monitor = true
        c.monitorFeedbackGuard = guardOn
        return c
    }

    /// Quiet room noise plus a short spoken phrase, to start the howl as in life.
    static func excitation(seconds: Double) -> [Float] {
        let n = Int(seconds * Double(rate))
        let noise = Signals.whiteNoise(count: n, rms: 0.000_5, seed: 5)  // −66 dBFS
        var speech = Signals.speechLike(count: n, sampleRate: rate, rms: 0.05, seed: 6)
        for i in (rate / 2)..<n { speech[i] = 0 }  // half a second of talk, then the room
        return Signals.mix(noise, speech)
    }

    @Test("without the guard the loop howls up to full scale at the resonance")
    func loopHowlsWithoutGuard() throws {
        var loop = try FeedbackLoop(Self.monitorOn(guardOn: false), loopGain: 1.25)
        loop.run(Self.excitation(seconds: 3))
        let peak = FeedbackLoop.peakDB(loop.mic, 2 * Self.rate..<3 * Self.rate)
        print("feedback loop without guard: mic peak \(String(format: "%.1f", peak)) dBFS in the third second")
        #expect(peak > -1)
        #expect(loop.engine.health().monitorMuted == false)
    }

    @Test(
        "the guard mutes a howl within a bounded time, names its frequency, and re-arms",
        arguments: [Float(1.25), 1.06])
    func guardMutesHowl(loopGain: Float) throws {
        var loop = try FeedbackLoop(Self.monitorOn(), loopGain: loopGain)
        let excitation = Self.excitation(seconds: 4)
        loop.run(excitation)
        let h = loop.engine.health()
        #expect(h.monitorMuted)
        #expect(h.feedbackEvents == 1)
        // The resonance is 2.4 kHz; the loop's comb puts the howl on a mode near it (bins of 47 Hz).
        #expect(abs(h.feedbackFrequency - 2_400) < 200, "howl at \(h.feedbackFrequency) Hz")
        // When did it trip? The monitor glided to silence: its last sample above −100 dBFS.
        let rate = Double(Self.rate)
        let mutedMs = Double(loop.monitor.lastIndex { abs($0) > 1e-5 } ?? 0) * 1000 / rate
        // The howl starts where the mic (10 ms windows) runs 6 dB above what the room gives it
        // without the loop; it peaks where the mic stands furthest above that.
        let w = Self.rate / 100
        var onset: Int?
        var reachedDB = -Double.infinity
        for start in stride(from: 0, to: excitation.count - w, by: w) {
            let above = Measure.ratioDB(loop.mic, excitation, start..<(start + w))
            if onset == nil, above > 6 { onset = start }
            reachedDB = max(reachedDB, above)
        }
        let onsetMs = Double(onset ?? 0) * 1000 / rate
        let peak = FeedbackLoop.peakDB(loop.mic, 0..<excitation.count)
        print(
            "feedback guard, loop gain \(loopGain): howl from \(String(format: "%.0f", onsetMs)) ms, monitor silent at "
                + "\(String(format: "%.0f", mutedMs)) ms (\(String(format: "%.0f", mutedMs - onsetMs)) ms later); the howl "
                + "rose \(String(format: "%.1f", reachedDB)) dB above the room's own sound, mic peak \(String(format: "%.1f", peak)) dBFS; "
                + "named \(h.feedbackFrequency) Hz")
        #expect(onset != nil)
        #expect(mutedMs - onsetMs < 600)
        if loopGain < 1.1 {
            // A howl growing ~100 dB/s is caught by its growth, well before it clips. (At 1.25,
            // ~500 dB/s, it clips within ~40 ms and the saturation rule catches it.)
            #expect(peak < -6, "the howl must not reach full scale")
        }
        // Muted means silent afterwards: the loop dies out.
        let tail = (excitation.count - Self.rate / 2)..<excitation.count
        #expect(Measure.ratioDB(loop.mic, excitation, tail) < 1)

        // Re-arm: the monitor comes back (gliding) and the still-howling loop is caught again.
        loop.engine.post(EngineConfiguration.rearmFeedbackGuard)
        loop.run(Self.excitation(seconds: 2))
        let again = loop.engine.health()
        #expect(again.feedbackEvents == 2)
        #expect(again.monitorMuted)
    }

    /// Signals that must never trip the guard, heard through a loop that is audible but stable
    /// (loop gain 0.5 at the resonance).
    static func harmless(_ name: String, seconds: Int) -> [Float] {
        let n = seconds * rate
        switch name {
        case "sine":
            return Signals.sine(count: n, frequency: 1_000, sampleRate: rate, amplitude: 0.25)
        case "sine at the resonance":
            return Signals.sine(count: n, frequency: 2_400, sampleRate: rate, amplitude: 0.1)
        case "sung note":
            // A vowel on A4 (440 Hz) with 5.5 Hz vibrato of ±40 cents, 1/k harmonics, a 50 ms
            // attack and a slow swell of 6 dB over each 4-second note.
            var x = [Float](repeating: 0, count: n)
            var phase = 0.0
            for t in 0..<n {
                let s = Double(t) / Double(rate)
                let f = 440 * pow(2, 0.4 / 12 * sin(2 * Double.pi * 5.5 * s))
                phase += 2 * Double.pi * f / Double(rate)
                var v = 0.0
                for k in 1...8 { v += sin(Double(k) * phase) / Double(k) }
                let inNote = s.truncatingRemainder(dividingBy: 4)
                let envelope = min(1, inNote / 0.05) * pow(10, (inNote / 4 * 6 - 6) / 20)
                x[t] = Float(0.15 * envelope * v)
            }
            return x
        case "speech":
            return Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 7)
        default:
            return Signals.whiteNoise(count: n, rms: 0.1, seed: 8)
        }
    }

    @Test(
        "no trigger on a steady sine, a sung note with vibrato, speech or noise",
        arguments: ["sine", "sine at the resonance", "sung note", "speech", "noise"])
    func noFalseTrigger(signal: String) throws {
        var loop = try FeedbackLoop(Self.monitorOn(), loopGain: 0.5)
        loop.run(Self.harmless(signal, seconds: 20))
        #expect(loop.engine.health().feedbackEvents == 0, "\(signal) tripped the guard")
        #expect(loop.engine.health().monitorMuted == false)
    }
}
