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

    /// Headphones: the mic never hears the far end, so the canceller removes nothing and never
    /// "converges"; a near end quieter than the reference is attenuated only for the budget.
    @Test("without any echo (headphones) the start-up ends after its 3 s budget of far-end activity")
    func endsWithoutEcho() {
        let rate = 48_000, frame = 480
        var startup = StartupSuppression(frameSize: frame, sampleRate: rate, enabled: true)
        let frames = 10 * rate / frame
        var attenuated = 0
        var lastAttenuated = -1
        for i in 0..<frames {
            // The near end 6 dB under the far end, nothing cancelled.
            let gain = startup.update(micPower: 0.0025, cancelledPower: 0.0025, referencePower: 0.01)
            if gain < 1 {
                attenuated += 1
                lastAttenuated = i
            }
        }
        let budget = Int(StartupSuppression.budgetSeconds) * rate / frame
        #expect(attenuated == budget, "attenuated \(attenuated) frames; the budget is \(budget)")
        #expect(lastAttenuated == budget - 1)
        #expect(!startup.active)
    }
}
