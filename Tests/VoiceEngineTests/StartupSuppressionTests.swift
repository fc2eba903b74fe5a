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

    /// An echo the filter removes a little of (3 dB) but never 12 dB: the start-up acts for its
    /// 3 s budget of far-end activity, then ends, so a near end under it is not held down for good.
    @Test("with an echo that never converges the start-up ends after its 3 s budget")
    func endsAfterBudget() {
        let (count, last, active) = Self.attenuatedFrames(removal: 0.5)
        let budget = Int(StartupSuppression.budgetSeconds) * 48_000 / 480
        #expect(count == budget, "attenuated \(count) frames; the budget is \(budget)")
        #expect(last == budget - 1)
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
}
