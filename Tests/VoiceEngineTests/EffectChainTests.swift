import Testing
import VoiceEngine
import VoiceTestSupport

@Suite("Effect chain")
struct EffectChainTests {
    static func configuration(
        _ order: [EffectKind], _ set: (inout EngineConfiguration) -> Void = { _ in }
    ) -> EngineConfiguration {
        var c = EngineConfiguration()
        c.effectOrder = order
        set(&c)
        return c
    }

    @Test("a limiter in the chain holds its ceiling, and its look-ahead is compensated offline")
    func limiterCeilingAndAlignment() throws {
        let c = Self.configuration([.limiter]) { $0.effectValues[EffectKind.limiter.index][0] = -6 }
        let engine = try VoiceEngine(configuration: c, sampleRate: 48_000, blockSize: 256)
        #expect(engine.latency == 240)  // 5 ms look-ahead at 48 kHz, no speexdsp re-framing
        let loud = Signals.whiteNoise(count: 48_000, rms: 0.5, seed: 9)
        let out = OfflineRenderer(engine: engine).process(mic: loud, reference: [])
        let ceiling = Float(0.501_187_2)  // -6 dBFS
        #expect(out.allSatisfy { abs($0) <= ceiling })
        // A quiet signal passes the limiter untouched, so it must come out sample-aligned.
        let quiet = Signals.whiteNoise(count: 48_000, rms: 0.01, seed: 10)
        let engine2 = try VoiceEngine(configuration: c, sampleRate: 48_000, blockSize: 256)
        let out2 = OfflineRenderer(engine: engine2).process(mic: quiet, reference: [])
        let tail = 1_000..<48_000
        #expect(zip(out2[tail], quiet[tail]).allSatisfy { abs($0 - $1) < 1e-6 })
    }

    @Test("units run in preset order: gain staging before a limiter differs from after")
    func orderMatters() throws {
        let loud = Signals.whiteNoise(count: 24_000, rms: 0.3, seed: 11)
        func peak(_ order: [EffectKind]) throws -> Float {
            let c = Self.configuration(order) {
                $0.effectValues[EffectKind.limiter.index][0] = -12
                $0.effectValues[EffectKind.compressor.index][5] = 12  // make-up +12 dB
                $0.effectValues[EffectKind.compressor.index][1] = 1  // ratio 1: only the make-up
            }
            let engine = try VoiceEngine(configuration: c, sampleRate: 48_000, blockSize: 128)
            return OfflineRenderer(engine: engine).process(mic: loud, reference: []).dropFirst(2_000).map(abs).max()
                ?? 0
        }
        #expect(try peak([.compressor, .limiter]) <= 0.252)  // limited last: at most -12 dBFS
        #expect(try peak([.limiter, .compressor]) > 0.9)  // +12 dB after the limiter
    }
}
