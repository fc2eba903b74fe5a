import Foundation
import Testing
import VoiceLV2
import VoiceTestSupport

/// Real plugins from Debian packages, each measured on the mono voice path at 48 kHz.
@Suite("LV2 plugins measured")
struct LV2EffectTests {
    let rate = 48_000

    @Test("swh singlePara (swh-lv2, needs no feature): +6 dB at 1 kHz, 0 dB two octaves away")
    func equalizerBoost() throws {
        let info = try world.plugin(Plugins.singlePara)
        #expect(info.requiredFeatures.isEmpty)
        let eq = try makeUnit(Plugins.singlePara, controls: ["gain": 6, "fc": 1_000, "bw": 1])
        let steady = rate / 2..<rate
        for (frequency, expected) in [(1_000.0, 6.0), (125.0, 0.0), (8_000.0, 0.0)] {
            let x = Signals.sine(count: rate, frequency: frequency, sampleRate: rate, amplitude: 0.1)
            let y = eq.run(x, block: 256)
            let gain = Tone.decibels(
                Tone.amplitude(y, frequency: frequency, sampleRate: rate, steady)
                    / Tone.amplitude(x, frequency: frequency, sampleRate: rate, steady))
            #expect(abs(gain - expected) < 0.5, "\(frequency) Hz: \(gain) dB, expected \(expected)")
        }
    }

    // x42's dpl overshoots its threshold by about 0.002 dB on this signal (a sample-peak
    // limiter with float rounding), so the ceiling test uses LSP's limiter, which holds it.
    @Test("LSP limiter (lsp-plugins-lv2): peaks 12 dB over the ceiling never pass it")
    func limiterCeiling() throws {
        let ceilingDB: Float = -6
        // th is the ceiling as a linear gain; boost off keeps the output at the ceiling, not 0 dBFS.
        let limiter = try makeUnit(
            Plugins.lspLimiter, controls: ["th": powf(10, ceilingDB / 20), "boost": 0])
        // Speech-like signal at -20 dBFS RMS with bursts of a 2 kHz tone reaching +6 dBFS.
        var x = Signals.speechLike(count: 2 * rate, sampleRate: rate, rms: 0.1, seed: 7)
        let burst = Signals.sine(count: rate / 10, frequency: 2_000, sampleRate: rate, amplitude: 2)
        for start in stride(from: rate / 4, to: 2 * rate - burst.count, by: rate / 3) {
            for i in burst.indices { x[start + i] += burst[i] }
        }
        let y = limiter.run(x, block: 256)
        let ceiling = powf(10, ceilingDB / 20)
        let peak = y.map(abs).max() ?? 0
        #expect(x.map(abs).max()! > 2 * ceiling)
        #expect(peak <= ceiling, "peak \(20 * log10(peak)) dBFS over the \(ceilingDB) dBFS ceiling")
        #expect(peak > ceiling * 0.9, "the limiter still lets the signal reach its ceiling")
    }

    @Test("LSP gate (lsp-plugins-lv2, needs URID map): passes a tone, closes on a -70 dBFS floor")
    func gateClosesOnSilence() throws {
        let info = try world.plugin(Plugins.lspGate)
        #expect(info.requiredFeatures.contains("http://lv2plug.in/ns/ext/urid#map"))
        // Threshold -40 dBFS (a linear gain in LSP's ports), reduction -60 dB, release 50 ms.
        let gate = try makeUnit(
            Plugins.lspGate, controls: ["gt": 0.01, "gz": 1, "gr": 0.001, "rt": 50])
        let tone = Signals.sine(count: rate, frequency: 440, sampleRate: rate, amplitude: 0.25)
        let floor = Signals.whiteNoise(count: rate, rms: 0.000_316, seed: 3)
        let x = tone + floor
        let y = gate.run(x, block: 256)
        let open = Measure.ratioDB(y, x, rate / 2..<rate)
        let closed = Measure.ratioDB(y, x, rate + rate / 2..<2 * rate)
        #expect(abs(open) < 1, "open gate changes the tone by \(open) dB")
        #expect(closed < -40, "closed gate attenuates the floor by only \(-closed) dB")
    }

    @Test("swh GVerb (swh-lv2, mono in, stereo out averaged): the tail after a burst decays")
    func reverbTailDecays() throws {
        let verb = try makeUnit(
            Plugins.gverb, controls: ["roomsize": 30, "revtime": 1, "drylevel": -70, "taillevel": -6])
        var x = [Float](repeating: 0, count: 3 * rate)
        let burst = Signals.whiteNoise(count: rate / 50, rms: 0.3, seed: 5)
        for i in burst.indices { x[i] = burst[i] }
        let y = verb.run(x, block: 256)
        let early = Measure.levelDB(y, rate / 10..<rate / 10 + rate / 5)
        let late = Measure.levelDB(y, rate + rate / 10..<rate + rate / 10 + rate / 5)
        #expect(early > -50, "a tail at \(early) dBFS after the burst")
        // Reverb time 1 s means -60 dB per second; allow for the early build-up and the floor.
        #expect(early - late > 30, "the tail decayed only \(early - late) dB in one second")
    }
}
