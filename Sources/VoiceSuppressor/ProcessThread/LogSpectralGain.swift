import Foundation
import VoiceUnits

/// Ephraim and Malah's log-spectral-amplitude (LSA) gain, with its exponential integral tabulated.
///
/// For a bin with a-priori SNR ξ and a-posteriori SNR γ, the gain that minimises the mean-square
/// error of the log amplitude is G = ξ/(1+ξ) · exp(½ E₁(v)), v = ξγ/(1+ξ), where E₁ is the
/// exponential integral (Ephraim & Malah, "Speech enhancement using a minimum mean-square error
/// log-spectral amplitude estimator", IEEE Trans. ASSP 33(2), 1985). E₁ has no closed form, so
/// ½E₁ (in log₂ units) is tabulated against log₂ v at 32 points per octave, from v = 2⁻¹⁴ to 2⁴; below the
/// table E₁(v) ≈ −γ_Euler − ln v (the series' next term is v ≤ 6e-5), above it E₁(16) ≈ 7e-9 is 0.
/// Linear interpolation of the smooth ½E₁(log₂ v) keeps the gain within 0.01 dB of the exact value
/// (checked in `LogSpectralGainTests`).
///
/// - Realtime: `gain` is safe; `init` allocates, deinit frees.
struct LogSpectralGain: ~Copyable {
    let lowestLog2: Float = -14
    let highestLog2: Float = 4
    let pointsPerOctave: Float = 32
    let euler: Float = 0.577_215_66

    /// log₂ e^(½E₁(v)) = ½E₁(v) / ln 2 at v = 2^(lowestLog2 + i / pointsPerOctave).
    private let boost: UnsafeMutablePointer<Float>
    private let count: Int

    init() {
        count = Int((highestLog2 - lowestLog2) * pointsPerOctave) + 1
        boost = .allocate(capacity: count)
        for i in 0..<count {
            let v = exp2(Double(lowestLog2) + Double(i) / Double(pointsPerOctave))
            boost[i] = Float(0.5 * Self.exponentialIntegral(v) / log(2.0))
        }
    }

    deinit { boost.deallocate() }

    /// The LSA gain for a-priori SNR `prior` (ξ > 0) and a-posteriori SNR `posterior` (γ), at most 1.
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func gain(prior: Float, posterior: Float) -> Float {
        let wiener = prior / (1 + prior)
        let log2V = FastDecibels.log2(wiener * posterior)
        return min(1, wiener * FastDecibels.exp2(log2Boost(log2V: log2V)))
    }

    /// log₂ of the LSA gain's factor over the Wiener gain, e^(½E₁(v)), for `log2V` = log₂ v: the
    /// suppressor takes it in the log domain, where it blends gains.
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func log2Boost(log2V: Float) -> Float {
        let position = (log2V - lowestLog2) * pointsPerOctave
        if position <= 0 {
            // ½(−γ − ln v) / ln 2 = −½γ/ln 2 − ½ log₂ v
            return -0.5 * (euler * 1.442_695_04 + log2V)
        }
        if position >= Float(count - 1) { return 0 }
        let i = Int(position)
        let t = position - Float(i)
        return boost[i] + t * (boost[i + 1] - boost[i])
    }

    /// E₁(x) for x > 0: the power series below 1, the continued fraction above (modified Lentz).
    static func exponentialIntegral(_ x: Double) -> Double {
        if x <= 1 {
            // E₁(x) = −γ − ln x − Σ_{k≥1} (−x)^k / (k · k!)
            var sum = 0.0
            var term = 1.0
            for k in 1...40 {
                term *= -x / Double(k)
                sum += term / Double(k)
            }
            return -0.577_215_664_901_532_9 - log(x) - sum
        }
        // E₁(x) = e^(−x) / (x + 1 − 1² / (x + 3 − 2² / (x + 5 − …)))
        var b = x + 1
        var c = 1e300
        var d = 1 / b
        var h = d
        for i in 1...200 {
            let a = -Double(i * i)
            b += 2
            d = 1 / (a * d + b)
            c = b + a / c
            let step = c * d
            h *= step
            if abs(step - 1) < 1e-15 { break }
        }
        return h * exp(-x)
    }
}
