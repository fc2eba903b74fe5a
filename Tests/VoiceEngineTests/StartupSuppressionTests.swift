import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceEcho
@testable import VoiceEngine

/// Fast start: echo is removed from the first far-end speech, before the canceller converges.
@Suite("Start-up suppression")
struct StartupSuppressionTests {
    /// Seconds from the far end's first speech until the echo removal over a 0.5 s window first
    /// reaches 10 dB (as the yardstick's t10), for a room with a 60 ms bulk delay.
    static func timeTo10dB(startup: Bool, rate: Int) throws -> Double {
        let n = rate * 6
        let far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 90)
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.06, tail: 0.1, gain: 0.5, seed: 91)
        let mic = Signals.mix(
            Array(Signals.convolve(far, room).prefix(n)), Signals.whiteNoise(count: n, rms: 0.0003, seed: 92))
        var c = EngineConfiguration.echoCancel
        c.startupSuppression = startup
        let engine = try VoiceEngine(configuration: c, sampleRate: rate, blockSize: 256)
        let output = OfflineRenderer(engine: engine).process(mic: mic, reference: [far])
        let window = rate / 2
        var start = 0
        while start + window <= n {
            if Measure.ratioDB(mic, output, start..<(start + window)) >= 10 {
                return Double(start + window) / Double(rate)
            }
            start += rate / 10
        }
        return .infinity
    }

    @Test("10 dB within 0.6 s of the first far-end speech, later without", arguments: [16_000, 48_000])
    func reachesTenDecibelsFast(rate: Int) throws {
        let on = try Self.timeTo10dB(startup: true, rate: rate)
        let off = try Self.timeTo10dB(startup: false, rate: rate)
        print("rate \(rate): 10 dB after \(on) s with start-up suppression, \(off) s without")
        #expect(on <= 0.6)
        #expect(off > on)
    }

    /// Removal (mic over output, dB) in `seconds` with the far end playing from the first sample,
    /// `echo` or not in the mic; the near end talks 6 dB under the far end from the start, over
    /// −70 dBFS of noise.
    static func removal(
        echo: Bool, nearEnd: Bool, startup: Bool, rate: Int, seconds: Range<Double>
    ) throws
        -> Double
    {
        let n = rate * 3
        let far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 93)
        var mic = Signals.whiteNoise(count: n, rms: 0.0003, seed: 94)
        if nearEnd { mic = Signals.mix(mic, Signals.speechLike(count: n, sampleRate: rate, rms: 0.05, seed: 95)) }
        if echo {
            let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.06, tail: 0.1, gain: 0.5, seed: 96)
            mic = Signals.mix(mic, Array(Signals.convolve(far, room).prefix(n)))
        }
        var c = EngineConfiguration.echoCancel
        c.startupSuppression = startup
        let engine = try VoiceEngine(configuration: c, sampleRate: rate, blockSize: 256)
        let output = OfflineRenderer(engine: engine).process(mic: mic, reference: [far])
        let range = Int(seconds.lowerBound * Double(rate))..<Int(seconds.upperBound * Double(rate))
        return Measure.ratioDB(mic, output, range)
    }

    /// A far end the mic does not hear (headphones, a speaker in another room): the canceller
    /// shows no removal after the probe, so the near end keeps its level from the first second on.
    @Test("no echo: a near end under the far end keeps its level in the first second", arguments: [16_000, 48_000])
    func keepsNearEndWithoutEcho(rate: Int) throws {
        let on = try Self.removal(echo: false, nearEnd: true, startup: true, rate: rate, seconds: 0..<1)
        let off = try Self.removal(echo: false, nearEnd: true, startup: false, rate: rate, seconds: 0..<1)
        let late = try Self.removal(echo: false, nearEnd: true, startup: true, rate: rate, seconds: 0.5..<1)
        let lateOff = try Self.removal(echo: false, nearEnd: true, startup: false, rate: rate, seconds: 0.5..<1)
        print(
            "rate \(rate): no echo, near end down \(on) dB (\(off) off) in 0 … 1 s, \(late) (\(lateOff)) in 0.5 … 1 s")
        #expect(on <= off + 6)
        #expect(late <= lateOff + 1)
    }

    /// With an echo the probe sees the filter's first dB and the start-up goes on acting after it.
    @Test("with an echo the start-up still acts after its probe", arguments: [16_000, 48_000])
    func actsAfterProbeWithEcho(rate: Int) throws {
        let on = try Self.removal(echo: true, nearEnd: false, startup: true, rate: rate, seconds: 0.5..<1.5)
        let off = try Self.removal(echo: true, nearEnd: false, startup: false, rate: rate, seconds: 0.5..<1.5)
        print("rate \(rate): echo removed 0.5 … 1.5 s: \(on) dB with start-up suppression, \(off) dB without")
        #expect(on >= off + 10)
    }

    /// Frames the start-up attenuates over 10 s of far end 6 dB over the mic, with the canceller
    /// removing `removal` of the mic's power, and the last of them.
    static func attenuatedFrames(removal: Float) -> (count: Int, last: Int, active: Bool) {
        let rate = 48_000, frame = 480
        var startup = StartupSuppression(frameSize: frame, sampleRate: rate, enabled: true)
        var attenuated = 0
        var last = -1
        for i in 0..<(10 * rate / frame) {
            let gain = startup.update(micPower: 0.0025, cancelledPower: 0.0025 * (1 - removal), referencePower: 0.01)
            if gain < 1 {
                attenuated += 1
                last = i
            }
        }
        return (attenuated, last, startup.active)
    }

    /// Headphones: the mic never hears the far end, so the canceller removes nothing; the
    /// start-up ends once its probe of far-end activity has shown that.
    @Test("without any echo the start-up ends after its 0.4 s probe of far-end activity")
    func endsWithoutEcho() {
        let (count, last, active) = Self.attenuatedFrames(removal: 0)
        let probe = Int(StartupSuppression.probeSeconds * 48_000) / 480
        #expect(count == probe, "attenuated \(count) frames; the probe is \(probe)")
        #expect(last == probe - 1)
        #expect(!active)
    }

    /// An echo the filter removes a little of (3 dB) but never 18 dB: the start-up acts for its
    /// 6 s budget of far-end activity, then ends, so a near end under it is not held down for good.
    @Test("with an echo that never converges the start-up ends after its 6 s budget")
    func endsAfterBudget() {
        let (count, last, active) = Self.attenuatedFrames(removal: 0.5)
        let budget = Int(StartupSuppression.budgetSeconds) * 48_000 / 480
        #expect(count == budget, "attenuated \(count) frames; the budget is \(budget)")
        #expect(last == budget - 1)
        #expect(!active)
    }

    /// A filter still converging on a recorded voice removes 11–15 dB for seconds; the post-filter
    /// then leaves echo that listeners' models weigh heavily, so 14 dB does not end the start-up
    /// (it acts for its whole budget), while 20 dB ends it within the 0.2 s average.
    @Test("a filter removing 14 dB is still converging; 20 dB ends the start-up")
    func holdsUntilEighteenDecibels() {
        let budget = Int(StartupSuppression.budgetSeconds) * 48_000 / 480
        let (converging, _, _) = Self.attenuatedFrames(removal: 1 - powf(10, -1.4))
        #expect(converging == budget, "attenuated \(converging) frames at 14 dB; the budget is \(budget)")
        let (count, last, active) = Self.attenuatedFrames(removal: 0.99)
        #expect(last < 60 && count < 60, "at 20 dB the last attenuated frame is \(last)")
        #expect(!active)
    }

    /// An echo delayed beyond the filter shows no removal until the delay estimator finds it: the
    /// canceller's reset onto that delay gives the start-up a new probe.
    @Test("a filter restarted onto a new delay gives the start-up a new probe")
    func restartsProbe() {
        let rate = 48_000, frame = 480
        let probe = Int(StartupSuppression.probeSeconds * Float(rate)) / frame
        var startup = StartupSuppression(frameSize: frame, sampleRate: rate, enabled: true)
        for _ in 0..<(probe + 5) {
            _ = startup.update(micPower: 0.0025, cancelledPower: 0.0025, referencePower: 0.01)
        }
        #expect(!startup.active)
        startup.restart()
        var attenuated = 0
        for _ in 0..<(2 * probe) {
            // The realigned filter removes 3 dB: evidence of an echo.
            if startup.update(micPower: 0.0025, cancelledPower: 0.00125, referencePower: 0.01) < 1 { attenuated += 1 }
        }
        #expect(attenuated == 2 * probe)
        #expect(startup.active)
    }

    /// A far-end pause inside the probe, then a loud burst whose first frame the filter has not
    /// caught yet (mic and output equal): the 0.2 s average, holding only the pause's tiny powers,
    /// read that one frame as "no echo" and ended the start-up, though the filter removed 3 dB
    /// before the pause and after the onset. The probe weighs all its energy, so it goes on.
    @Test("a burst's first frame after a far-end pause does not end the probe")
    func burstAfterPauseKeepsProbe() {
        var startup = StartupSuppression(frameSize: 480, sampleRate: 48_000, enabled: true)
        var attenuatedAfterOnset = 0
        for i in 0..<120 {
            let (mic, cancelled, reference): (Float, Float, Float) =
                switch i {
                case 0..<10: (0.0025, 0.00125, 0.01)  // 3 dB removed
                case 10..<60: (1e-7, 1e-7, 1e-4)  // the far end pauses
                case 60: (0.04, 0.04, 0.04)  // the burst's onset, not caught yet
                default: (0.0025, 0.00125, 0.01)
                }
            let gain = startup.update(micPower: mic, cancelledPower: cancelled, referencePower: reference)
            if i > 60 && gain < 1 { attenuatedAfterOnset += 1 }
        }
        #expect(attenuatedAfterOnset == 59, "attenuated \(attenuatedAfterOnset) of 59 frames after the onset")
        #expect(startup.active)
    }

    /// Gains over `frames` frames of 10 ms at 48 kHz after 3 s of a converged canceller (20 dB
    /// removed, the far end 6 dB over the mic), for frames `frame(i)` gives: mic, cancelled and
    /// reference power, error × estimate.
    static func gainsAfterConverging(
        frames: Int, _ frame: (Int) -> (mic: Float, cancelled: Float, reference: Float, cross: Float)
    ) -> (gains: [Float], active: Bool) {
        var startup = StartupSuppression(frameSize: 480, sampleRate: 48_000, enabled: true)
        for _ in 0..<300 {
            _ = startup.update(
                micPower: 0.0025, cancelledPower: 0.000025, referencePower: 0.01, estimateCross: 0.000002,
                estimatePower: 0.0025)
        }
        #expect(!startup.active)
        let gains = (0..<frames).map { i in
            let f = frame(i)
            return startup.update(
                micPower: f.mic, cancelledPower: f.cancelled, referencePower: f.reference, estimateCross: f.cross,
                estimatePower: 0.0025)
        }
        return (gains, startup.active)
    }

    /// The echo path changes under a converged canceller: its removal collapses to 0 dB at the
    /// mic's old level and its estimate correlates −0.5 with its error. The start-up's gain acts
    /// again from the change's third frame, for its 2 s budget while the filter does not
    /// converge, and ends at once when the filter converges again.
    @Test("a path change under a converged canceller re-arms the suppression, until it converges again")
    func pathChangeRearms() {
        let budget = Int(StartupSuppression.rearmSeconds * 48_000) / 480
        let (gains, active) = Self.gainsAfterConverging(frames: budget + 50) { _ in
            (0.0025, 0.0025, 0.01, -0.00125)
        }
        #expect(gains[0...1].allSatisfy { $0 == 1 })
        #expect(gains[2] == 0.1)
        #expect(gains.filter { $0 < 1 }.count == budget, "attenuated \(gains.filter { $0 < 1 }.count)")
        #expect(!active)
        // The filter converges again (20 dB) after 0.5 s: the suppression ends when its 0.2 s
        // average shows 18 dB removed, about 1 s later (100 frames), within 1.2 s.
        let (again, _) = Self.gainsAfterConverging(frames: 250) { i in
            i < 50 ? (0.0025, 0.0025, 0.01, -0.00125) : (0.0025, 0.000025, 0.01, 0)
        }
        let last = again.lastIndex { $0 < 1 } ?? -1
        #expect(last >= 49 && last < 170, "last attenuated frame \(last)")
    }

    /// What must not re-arm it: a near end joining (the mic 6 dB up, its voice in the error, which
    /// does not correlate with the estimate), the far end stopping (its echo's tail), and a change
    /// whose error does not correlate with the estimate. A near end joining a re-armed
    /// suppression ends it.
    @Test("a near end joining or the far end stopping does not re-arm it; a near end ends it")
    func nearEndDoesNotRearm() {
        let nearEnd = Self.gainsAfterConverging(frames: 200) { _ in (0.01, 0.0075, 0.01, 0) }
        #expect(nearEnd.gains.allSatisfy { $0 == 1 })
        let quiet = Self.gainsAfterConverging(frames: 200) { _ in (0.0025, 0.0025, 0.01, -0.0001) }
        #expect(quiet.gains.allSatisfy { $0 == 1 })
        let stopped = Self.gainsAfterConverging(frames: 200) { i in
            (0.0025 * Float(pow(0.9, Double(i))), 0.0025 * Float(pow(0.9, Double(i))), 0, -0.00125)
        }
        #expect(stopped.gains.allSatisfy { $0 == 1 })
        let joined = Self.gainsAfterConverging(frames: 200) { i in
            i < 20 ? (0.0025, 0.0025, 0.01, -0.00125) : (0.02, 0.015, 0.01, 0)
        }
        #expect(joined.gains[2..<20].allSatisfy { $0 == 0.1 })
        #expect(joined.gains[20...].allSatisfy { $0 == 1 })
        #expect(!joined.active)
    }

    /// The engine on `LeftoverEchoTests`' path change (far end alone, another room from 8 s on):
    /// echo removed in the first second after the change, with the start-up suppression (which
    /// acts again there) and without.
    @Test(
        "the first second after a path change keeps 5 dB more echo out with the re-armed suppression",
        arguments: [16_000, 48_000])
    func pathChangeFirstSecond(rate: Int) throws {
        func firstSecond(_ startup: Bool) throws -> Double {
            var c = EngineConfiguration.echoCancel
            c.startupSuppression = startup
            return try LeftoverEchoTests.firstSecondAfterChange(c, rate: rate)
        }
        let on = try firstSecond(true)
        let off = try firstSecond(false)
        print(
            String(
                format: "%d Hz: first second after the path change: %.1f dB re-armed, %.1f dB without", rate, on, off))
        #expect(on >= off + 5)
    }
}
