import Foundation

/// Deterministic test signals: noise, speech-like bursts, tones and synthetic room echoes.
public enum Signals {
    /// White noise with RMS `rms`.
    public static func whiteNoise(count: Int, rms: Float, seed: UInt64) -> [Float] {
        var rng = SeededRandom(seed: seed)
        // Uniform in ±a has RMS a/√3.
        let a = rms * 3.0.squareRoot().floatValue
        return (0..<count).map { _ in rng.bipolar() * a }
    }

    /// Noise shaped like speech: low-passed, with a 3–5 Hz syllable envelope and pauses, RMS
    /// about `rms` while "talking". Good enough to drive an echo canceller and a delay estimator.
    public static func speechLike(count: Int, sampleRate: Int, rms: Float, seed: UInt64) -> [Float] {
        var rng = SeededRandom(seed: seed)
        var out = [Float](repeating: 0, count: count)
        var low: Float = 0
        var band: Float = 0
        let rate = Float(sampleRate)
        let a = 1 - expf(-2 * Float.pi * 1500 / rate)
        let b = 1 - expf(-2 * Float.pi * 200 / rate)
        var envelopePhase: Float = 0
        var syllableRate: Float = 4
        for i in 0..<count {
            let x = rng.bipolar()
            low += a * (x - low)
            band += b * (low - band)
            let voiced = low - band
            envelopePhase += syllableRate / rate
            if envelopePhase >= 1 {
                envelopePhase -= 1
                syllableRate = Float.random(in: 3...5, using: &rng)
            }
            // Every fourth second is a pause, as between sentences.
            let pause = (i / sampleRate) % 4 == 3
            let envelope = pause ? 0 : powf(sinf(Float.pi * envelopePhase), 2)
            out[i] = voiced * envelope
        }
        return normalised(out, rms: rms)
    }

    /// A sine of `frequency` Hz and peak `amplitude`.
    public static func sine(count: Int, frequency: Double, sampleRate: Int, amplitude: Float) -> [Float] {
        (0..<count).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / Double(sampleRate))) }
    }

    /// A sparse room impulse response: silence for `bulkDelay` seconds, a direct path of gain
    /// `gain`, then 40 reflections decaying over `tail` seconds.
    public static func roomImpulse(
        sampleRate: Int, bulkDelay: Double, tail: Double, gain: Float, seed: UInt64
    ) -> [(offset: Int, gain: Float)] {
        var rng = SeededRandom(seed: seed)
        let start = Int(bulkDelay * Double(sampleRate))
        var taps = [(offset: start, gain: gain)]
        let tailSamples = Int(tail * Double(sampleRate))
        for _ in 0..<40 {
            let t = Int.random(in: 1...max(1, tailSamples), using: &rng)
            let decay = expf(-6.9 * Float(t) / Float(max(1, tailSamples)))  // -60 dB at the end
            taps.append((start + t, gain * 0.5 * decay * rng.bipolar()))
        }
        return taps
    }

    /// `x` convolved with a sparse impulse response, cut to `x`'s length.
    public static func convolve(_ x: [Float], _ taps: [(offset: Int, gain: Float)]) -> [Float] {
        var y = [Float](repeating: 0, count: x.count)
        for tap in taps where tap.offset < x.count {
            for i in tap.offset..<x.count { y[i] += tap.gain * x[i - tap.offset] }
        }
        return y
    }

    /// Element-wise sum of equally long signals.
    public static func mix(_ signals: [Float]...) -> [Float] {
        var out = [Float](repeating: 0, count: signals.map(\.count).max() ?? 0)
        for s in signals { for i in 0..<s.count { out[i] += s[i] } }
        return out
    }

    /// `x` delayed by `samples` (zeros in front), same length.
    public static func delayed(_ x: [Float], by samples: Int) -> [Float] {
        guard samples > 0 else { return x }
        return [Float](repeating: 0, count: min(samples, x.count)) + x.prefix(max(0, x.count - samples))
    }

    /// `x` through a loudspeaker that soft-clips as tanh(`drive`·x)/`drive` (unit gain for small
    /// signals); a drive of 0 is linear.
    public static func softClipped(_ x: [Float], drive: Double) -> [Float] {
        drive > 0 ? x.map { Float(tanh(Double($0) * drive) / drive) } : x
    }

    /// `x` scaled to RMS `rms`.
    public static func normalised(_ x: [Float], rms: Float) -> [Float] {
        let r = Measure.rms(x)
        return r > 0 ? x.map { $0 * rms / r } : x
    }
}

extension Double {
    var floatValue: Float { Float(self) }
}
