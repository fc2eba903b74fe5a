import Testing
import VoiceEngine
import VoiceTestSupport

@Suite("Sample rates and stereo reference")
struct SampleRateAndStereoTests {
    @Test("the canceller works at every supported rate family", arguments: [8_000, 22_050, 44_100, 96_000])
    func cancelsAtRate(rate: Int) throws {
        let scenario = EchoScenario(sampleRate: rate, seconds: 8, bulkDelay: 0.07)
        let (output, engine) = try scenario.run(.cancellerOnly, blockSize: 256)
        let erle = Measure.ratioDB(scenario.mic, output, scenario.tail())
        #expect(erle > 20, "rate \(rate): frame \(engine.plan.frameSize), ERLE \(erle) dB")
        #expect(abs(Double(engine.health().estimatedDelay) / Double(rate) - 0.07) < 0.001)
    }

    /// Two loudspeakers playing different signals through different paths: one echo path
    /// (downmix) cannot model that; two (speex_echo_state_init_mc) can.
    @Test("a stereo far end with different channels is cancelled better in stereo mode")
    func stereoReference() throws {
        let rate = 16_000
        let n = rate * 12
        let left = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 41)
        let right = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 42)
        let echoL = Signals.convolve(
            left, Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.03, tail: 0.05, gain: 0.4, seed: 43))
        let echoR = Signals.convolve(
            right, Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.03, tail: 0.05, gain: 0.4, seed: 44))
        let mic = Signals.mix(echoL, echoR)
        func erle(_ mode: EngineConfiguration.ReferenceMode) throws -> Double {
            var c = EngineConfiguration.cancellerOnly
            c.reference = mode
            let engine = try VoiceEngine(configuration: c, sampleRate: rate, blockSize: 256, referenceChannels: 2)
            let out = OfflineRenderer(engine: engine).process(mic: mic, reference: [left, right])
            return Measure.ratioDB(mic, out, (n * 6 / 10)..<n)
        }
        let mono = try erle(.mono)
        let stereo = try erle(.stereo)
        #expect(stereo > 20)
        #expect(stereo > mono + 10, "stereo \(stereo) dB, mono downmix \(mono) dB")
    }

    @Test("a fixed delay from the preset is applied as given and never moved")
    func fixedDelay() throws {
        let scenario = EchoScenario(seconds: 8, bulkDelay: 0.3)
        var c = EngineConfiguration.cancellerOnly
        c.delayMode = .fixed
        c.delayMilliseconds = 290
        let (output, engine) = try scenario.run(c)
        let h = engine.health()
        #expect(h.appliedDelay == 290 * 16 && h.estimatedDelay == -1 && h.cancellerResets == 0)
        #expect(Measure.ratioDB(scenario.mic, output, scenario.tail()) > 20)
    }
}

@Suite("Delay seed")
struct DelaySeedTests {
    @Test("in auto mode a seeded delay (JACK's port latencies) is applied at once, minus the margin, then refined")
    func seededAuto() throws {
        var c = EngineConfiguration.cancellerOnly
        c.delayMilliseconds = 310
        let scenario = EchoScenario(seconds: 8, bulkDelay: 0.31)
        let engine = try VoiceEngine(configuration: c, sampleRate: 16_000, blockSize: 256)
        #expect(engine.health().appliedDelay == (310 - 10) * 16)
        let out = OfflineRenderer(engine: engine).process(mic: scenario.mic, reference: [scenario.reference])
        // Seeded right, the estimate confirms it: no reset, and the canceller adapts from the start.
        let h = engine.health()
        #expect(abs(h.estimatedDelay - 310 * 16) <= 16)
        #expect(h.cancellerResets == 0)
        #expect(Measure.ratioDB(scenario.mic, out, 32_000..<48_000) > 20)
    }
}
