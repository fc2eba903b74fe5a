import Foundation
import Testing
import VoiceEngine
import VoiceTestSupport
import VoiceUnits

/// The effect chain's per-unit meters, read as the surfaces read them (`VoiceEngine.unitMeters`).
@Suite("Unit meters")
struct UnitMeterTests {
    /// The compressor's static curve at its defaults (threshold -20 dBFS, ratio 4, knee 6 dB),
    /// above the knee: (1 - 1/4) dB of reduction per dB over the threshold.
    static func staticReduction(levelDBFS: Double) -> Double { 0.75 * (levelDBFS + 20) }

    /// The engine's chain (compressor, then equalizer) after `seconds` of a 1 kHz tone of peak
    /// `amplitude` on the mic.
    static func meters(
        amplitude: Float, seconds: Double = 1
    ) throws -> [(unit: String, peakDBFS: Double, reductionDB: Double?)] {
        var c = EngineConfiguration()
        c.effectOrder = [.compressor, .equalizer]
        let engine = try VoiceEngine(configuration: c, sampleRate: 48_000, blockSize: 256)
        let tone = Signals.sine(
            count: Int(48_000 * seconds), frequency: 1_000, sampleRate: 48_000, amplitude: amplitude)
        _ = OfflineRenderer(engine: engine).process(mic: tone, reference: [])
        return engine.unitMeters().map { unit, r in
            (
                unit, r.peak > 0 ? 20 * log10(Double(r.peak)) : -.infinity,
                r.reductionDB.isNaN ? nil : Double(r.reductionDB)
            )
        }
    }

    @Test("a loud tone through the compressor reads the static curve's gain reduction, and its output peak")
    func loudToneReduction() throws {
        let m = try Self.meters(amplitude: 0.5)
        #expect(m.map(\.unit) == ["compressor", "equalizer"])
        // Peak detector on a -6.02 dBFS peak tone: 10.49 dB of reduction wanted at the peaks, held
        // between them by the 100 ms release.
        let wanted = Self.staticReduction(levelDBFS: 20 * log10(0.5))
        let reduction = try #require(m[0].reductionDB)
        #expect(abs(reduction - wanted) < 1, "read \(reduction) dB, curve \(wanted) dB")
        // Its output: the tone's peak less that reduction (-16.5 dBFS); the flat equalizer after
        // it reads the same peak and has no reduction figure.
        #expect(abs(m[0].peakDBFS - (20 * log10(0.5) - wanted)) < 1, "output peak \(m[0].peakDBFS) dBFS")
        #expect(abs(m[1].peakDBFS - m[0].peakDBFS) < 0.5)
        #expect(m[1].reductionDB == nil)
    }

    @Test("a quiet tone, under the knee, reads no gain reduction")
    func quietToneNoReduction() throws {
        let m = try Self.meters(amplitude: 0.01)  // -40 dBFS peak
        let reduction = try #require(m[0].reductionDB)
        #expect(reduction < 0.01)
        #expect(abs(m[0].peakDBFS - -40) < 1)
    }

    @Test("a bypassed compressor reads no gain reduction, even with a loud tone")
    func bypassedReadsNone() throws {
        var c = EngineConfiguration()
        c.effectOrder = [.compressor]
        c.effectValues[EffectKind.compressor.index][7] = 1  // bypass
        let engine = try VoiceEngine(configuration: c, sampleRate: 48_000, blockSize: 256)
        let tone = Signals.sine(count: 24_000, frequency: 1_000, sampleRate: 48_000, amplitude: 0.5)
        _ = OfflineRenderer(engine: engine).process(mic: tone, reference: [])
        let r = try #require(engine.unitMeters().first?.reading)
        #expect(r.reductionDB == 0)
        #expect(abs(20 * log10(r.peak) - 20 * log10(0.5)) < 0.5)
    }

    @Test("gate, de-esser and limiter report their reduction; a delay reports none")
    func dynamicsUnitsReport() throws {
        var c = EngineConfiguration()
        c.effectOrder = [.gate, .deesser, .limiter, .delay]
        c.effectValues[EffectKind.gate.index][0] = -30  // threshold over the quiet tone
        c.effectValues[EffectKind.limiter.index][0] = -12  // ceiling under the loud tone
        // -40 dBFS: the gate closes to its range (-40 dB).
        var engine = try VoiceEngine(configuration: c, sampleRate: 48_000, blockSize: 256)
        let quiet = Signals.sine(count: 24_000, frequency: 1_000, sampleRate: 48_000, amplitude: 0.01)
        _ = OfflineRenderer(engine: engine).process(mic: quiet, reference: [])
        var r = engine.unitMeters().map(\.reading)
        #expect(abs(r[0].reductionDB - 40) < 1, "gate \(r[0].reductionDB) dB")
        #expect(r[3].reductionDB.isNaN)
        // A 7 kHz tone at -6 dBFS: the de-esser's band (6 kHz) is 24 dB over its -30 dBFS
        // threshold (range 12 dB), and the limiter takes the rest down to -12 dBFS (6 dB).
        engine = try VoiceEngine(configuration: c, sampleRate: 48_000, blockSize: 256)
        let sibilant = Signals.sine(count: 24_000, frequency: 7_000, sampleRate: 48_000, amplitude: 0.5)
        _ = OfflineRenderer(engine: engine).process(mic: sibilant, reference: [])
        r = engine.unitMeters().map(\.reading)
        #expect(r[0].reductionDB < 0.5)
        #expect(r[1].reductionDB > 6, "de-esser \(r[1].reductionDB) dB")
        let afterDeEsser = 20 * log10(Double(r[1].peak))
        #expect(
            abs(Double(r[2].reductionDB) - (afterDeEsser + 12)) < 1.5,
            "limiter \(r[2].reductionDB) dB after \(afterDeEsser) dBFS")
    }

    @Test("metering leaves the audio as the units make it: the chain's output is, bit for bit, the units' own")
    func meteringLeavesTheAudioAlone() throws {
        var c = EngineConfiguration()
        c.effectOrder = [.gate, .compressor, .deesser]
        let block = 256
        let engine = try VoiceEngine(configuration: c, sampleRate: 48_000, blockSize: block)
        #expect(engine.latency == 0)
        // Each unit made as the engine makes it: every parameter set to its value, then prepared.
        let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: block)
        func made<U: VoiceUnit>(_ unit: U) -> U {
            var u = unit
            for (i, v) in U.defaultValues.enumerated() { u.setParameter(i, v) }
            u.prepare(spec)
            return u
        }
        var gate = made(NoiseGate()), compressor = made(Compressor()), deesser = made(DeEsser())
        func runUnits(_ samples: inout [Float]) {
            samples.withUnsafeMutableBufferPointer { p in
                gate.process(p.baseAddress!, frames: block)
                compressor.process(p.baseAddress!, frames: block)
                deesser.process(p.baseAddress!, frames: block)
            }
        }
        // The engine warmed its chain on four silent blocks when it was built: so do these.
        for _ in 0..<4 {
            var silence = [Float](repeating: 0, count: block)
            runUnits(&silence)
        }
        // Loud speech-like audio: the gate opens and closes, the compressor and de-esser work.
        // Under full scale: the engine holds its voice to full scale before the chain.
        let input = Signals.speechLike(count: 48_000, sampleRate: 48_000, rms: 0.1, seed: 3)
        try #require(input.map(abs).max()! < 1)
        let far = [Float](repeating: 0, count: block)
        var differing = 0
        var reduced = false
        for start in stride(from: 0, through: input.count - block, by: block) {
            let mic = Array(input[start..<(start + block)])
            var out = [Float](repeating: 0, count: block)
            mic.withUnsafeBufferPointer { m in
                far.withUnsafeBufferPointer { f in
                    out.withUnsafeMutableBufferPointer { o in
                        engine.render(
                            mic: m.baseAddress!, farLeft: f.baseAddress!, farRight: nil, voice: o.baseAddress!,
                            frames: block)
                    }
                }
            }
            var own = mic
            runUnits(&own)
            differing += zip(out, own).filter { $0.bitPattern != $1.bitPattern }.count
            reduced = reduced || engine.unitMeters()[1].reading.reductionDB > 3
        }
        #expect(differing == 0, "\(differing) samples differ")
        #expect(reduced, "the compressor worked, so its meter moved while the audio stayed the same")
    }
}
