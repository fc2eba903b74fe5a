import Foundation
import Testing
import VoiceRT
import VoiceTestSupport

@testable import VoiceSuppressor

/// voicerack's preprocessor (`SpectralSuppressor`) alone: its framing, its noise floor, and what
/// it keeps of a signal above the noise.
@Suite("Spectral suppressor")
struct SpectralSuppressorTests {
    /// Runs `input` through a suppressor frame by frame and returns the output (one frame late).
    static func run(
        _ input: [Float], frameSize: Int, sampleRate: Int, denoise: Bool = true, noiseFloorDB: Float = -20
    ) -> [Float] {
        var suppressor = SpectralSuppressor(
            frameSize: frameSize, sampleRate: sampleRate, denoise: denoise, noiseFloorDB: noiseFloorDB,
            babbleFloorDB: -12, echoFloorDB: -45, echoActiveFloorDB: -10)
        var output = input
        output.withUnsafeMutableBufferPointer { o in
            for start in stride(from: 0, through: input.count - frameSize, by: frameSize) {
                suppressor.process(o.baseAddress! + start, residual: nil)
            }
        }
        return output
    }

    static func powerDB(_ x: ArraySlice<Float>) -> Float {
        10 * log10(x.reduce(0) { $0 + $1 * $1 } / Float(x.count) + 1e-30)
    }

    @Test("with nothing to suppress it delays by exactly one frame", arguments: [(128, 16_000), (384, 48_000)])
    func transparentWithoutNoise(frameSize: Int, rate: Int) {
        let input = Signals.speechLike(count: frameSize * 200, sampleRate: rate, rms: 0.1, seed: 3)
        let output = Self.run(input, frameSize: frameSize, sampleRate: rate, denoise: false)
        var worst: Float = 0
        for i in 4 * frameSize..<input.count { worst = max(worst, abs(output[i] - input[i - frameSize])) }
        #expect(worst < 1e-4, "largest difference from the input one frame earlier: \(worst)")
    }

    @Test("steady noise comes down to the noise floor", arguments: [(128, 16_000), (384, 48_000)])
    func steadyNoiseReachesFloor(frameSize: Int, rate: Int) {
        let input = Signals.whiteNoise(count: rate * 6, rms: 0.01, seed: 9)
        let output = Self.run(input, frameSize: frameSize, sampleRate: rate, noiseFloorDB: -20)
        let drop = Self.powerDB(input[(rate * 4)...]) - Self.powerDB(output[(rate * 4)...])
        #expect(abs(drop - 20) < 3, "noise came down \(drop) dB, floor 20 dB")
    }

    @Test("a tone that comes and goes passes whole while the noise around it comes down")
    func toneKept() {
        let rate = 16_000
        let frame = 128
        // 0.3 s bursts every second: a steady tone would be noise to any noise estimate.
        let sine = Signals.sine(count: rate * 6, frequency: 1000, sampleRate: rate, amplitude: 0.1)
        let tone = sine.indices.map { $0 % rate < rate * 3 / 10 ? sine[$0] : 0 }
        let noise = Signals.whiteNoise(count: rate * 6, rms: 0.003, seed: 4)
        let output = Self.run(Signals.mix(tone, noise), frameSize: frame, sampleRate: rate)
        // Over the last 3 s, inside the bursts (their first 50 ms left out): the tone's share of
        // the output, projected on the tone one frame earlier; and what is left besides it.
        let inside = (rate * 3..<rate * 6).filter {
            ($0 - frame) % rate >= rate / 20 && ($0 - frame) % rate < rate * 3 / 10
        }
        var dot: Float = 0
        var toneEnergy: Float = 0
        for i in inside {
            dot += output[i] * tone[i - frame]
            toneEnergy += tone[i - frame] * tone[i - frame]
        }
        let kept = dot / toneEnergy
        let rest = (rate * 3..<rate * 6).map { output[$0] - kept * tone[$0 - frame] }
        let noiseDrop = Self.powerDB(noise[(rate * 3)...]) - Self.powerDB(rest[...])
        #expect(abs(20 * log10(kept)) < 0.5, "tone kept at \(20 * log10(kept)) dB")
        #expect(noiseDrop > 10, "noise beside the tone came down \(noiseDrop) dB")
    }

    @Test("steady noise is told from babble, and each gets its floor")
    func babbleIsRecognised() {
        let rate = 16_000
        let hop: Float = 0.008
        func classify(_ x: [Float]) -> (babble: Float, floorDB: Float) {
            let frame = Int(hop * Float(rate))
            let size = 512
            var tracker = NoiseSpectrumTracker(
                bins: size / 2 + 1, fftSize: size, sampleRate: rate, hopSeconds: hop, steadyFloorDB: -22,
                babbleFloorDB: -12)
            let fft = FFT(size: size)
            var re = [Float](repeating: 0, count: size)
            var im = [Float](repeating: 0, count: size)
            var power = [Float](repeating: 0, count: size / 2 + 1)
            for start in stride(from: 0, through: x.count - size, by: frame) {
                for i in 0..<size {
                    re[i] = x[start + i]
                    im[i] = 0
                }
                fft.forward(&re, &im)
                for k in 0...size / 2 { power[k] = re[k] * re[k] + im[k] * im[k] }
                tracker.update(power)
            }
            return (tracker.babble, 20 * log10(tracker.floor))
        }
        let steady = classify(Signals.whiteNoise(count: rate * 6, rms: 0.01, seed: 2))
        let talkers = (0..<6).map {
            Signals.delayed(
                Signals.speechLike(count: rate * 6, sampleRate: rate, rms: 0.01, seed: UInt64(10 + $0)), by: $0 * 2_700)
        }
        let babble = classify(talkers.dropFirst().reduce(talkers[0]) { Signals.mix($0, $1) })
        #expect(steady.babble < 0.05, "white noise read as \(steady.babble) babble")
        #expect(abs(steady.floorDB + 22) < 0.5, "white noise's floor \(steady.floorDB) dB")
        #expect(babble.babble > 0.95, "six talkers read as \(babble.babble) babble")
        #expect(abs(babble.floorDB + 12) < 0.5, "babble's floor \(babble.floorDB) dB")
    }

    @Test("the tabulated LSA gain is within 0.01 dB of the exact one")
    func logSpectralGainIsExact() {
        let table = LogSpectralGain()
        // E₁ at known points (Abramowitz and Stegun, table 5.1).
        #expect(abs(LogSpectralGain.exponentialIntegral(0.1) - 1.822_923_958) < 1e-8)
        #expect(abs(LogSpectralGain.exponentialIntegral(1) - 0.219_383_934) < 1e-8)
        #expect(abs(LogSpectralGain.exponentialIntegral(5) - 0.001_148_295_591) < 1e-11)
        var worst: Double = 0
        for priorDB in stride(from: -30.0, through: 30, by: 2.5) {
            for posteriorDB in stride(from: -20.0, through: 30, by: 2.5) {
                let xi = pow(10, priorDB / 10)
                let gamma = pow(10, posteriorDB / 10)
                let v = xi * gamma / (1 + xi)
                let exact = min(1, xi / (1 + xi) * exp(0.5 * LogSpectralGain.exponentialIntegral(v)))
                let tabulated = Double(table.gain(prior: Float(xi), posterior: Float(gamma)))
                worst = max(worst, abs(20 * log10(tabulated / exact)))
            }
        }
        #expect(worst < 0.01, "largest error \(worst) dB")
    }

    @Test("sliding percentiles match a sort of the last values")
    func slidingPercentilesMatchSorting() {
        var window = SlidingPercentiles(capacity: 50)
        var rng = SeededRandom(seed: 8)
        var recent: [Float] = []
        var worst: Float = 0
        for i in 0..<400 {
            // Repeats included: equal values must leave and enter correctly too.
            let value = i % 7 == 0 ? 1 : Float.random(in: -20...20, using: &rng).rounded()
            window.add(value)
            recent.append(value)
            if recent.count > 50 { recent.removeFirst() }
            let sorted = recent.sorted()
            for fraction: Float in [0, 0.02, 0.1, 0.5, 1] {
                let rank = fraction * Float(sorted.count - 1)
                let low = Int(rank)
                let high = min(low + 1, sorted.count - 1)
                let expected = sorted[low] + (rank - Float(low)) * (sorted[high] - sorted[low])
                worst = max(worst, abs(window.percentile(fraction) - expected))
            }
        }
        #expect(worst < 1e-4, "largest difference \(worst)")
    }
}

/// The speech presence in frames the canceller judges the far end alone (`farEndAlone`).
@Suite("Spectral suppressor, far end alone")
struct SpectralSuppressorFarEndAloneTests {
    /// How far (dB) white noise standing for residual echo comes down when the residual handed in
    /// is its own expected power per bin, the frames judged far end alone or not.
    static func echoDrop(farEndAlone: Bool) -> Float {
        let frameSize = 384
        let rate = 48_000
        let rms: Float = 0.01
        let input = Signals.whiteNoise(count: rate * 4, rms: rms, seed: 5)
        var suppressor = SpectralSuppressor(
            frameSize: frameSize, sampleRate: rate, denoise: false, noiseFloorDB: -20,
            babbleFloorDB: -12, echoFloorDB: -45, echoActiveFloorDB: -10)
        suppressor.farEndAlone = farEndAlone
        let residual = [Float](
            repeating: rms * rms * suppressor.windowEnergy, count: suppressor.residualFFTSize / 2 + 1)
        var output = input
        output.withUnsafeMutableBufferPointer { o in
            residual.withUnsafeBufferPointer { r in
                for start in stride(from: 0, through: input.count - frameSize, by: frameSize) {
                    suppressor.process(o.baseAddress! + start, residual: r.baseAddress!)
                }
            }
        }
        return SpectralSuppressorTests.powerDB(input[(rate * 2)...])
            - SpectralSuppressorTests.powerDB(output[(rate * 2)...])
    }

    @Test("echo the residual claims whole comes down to the echo floor only while the far end talks alone")
    func farEndAloneReachesEchoFloor() {
        let judgedAlone = Self.echoDrop(farEndAlone: true)
        let notJudged = Self.echoDrop(farEndAlone: false)
        // Judged alone, the presence falls and the echo floor applies; not judged so, the LSA gain.
        #expect(judgedAlone > notJudged + 10, "far end alone \(judgedAlone) dB, not judged so \(notJudged) dB")
        #expect(judgedAlone > 20, "far end alone: the echo came down \(judgedAlone) dB")
    }
}
