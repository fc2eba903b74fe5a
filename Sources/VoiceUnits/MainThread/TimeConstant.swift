import Foundation

/// One-pole smoothing coefficients from times in milliseconds.
enum TimeConstant {
    /// The coefficient c of `y += (target − y)·c` that covers 1 − 1/e ≈ 63 % of a step after
    /// `milliseconds`: c = 1 − e^(−1/(τ·fs)). Zero time gives 1 (follow instantly).
    /// - Realtime: never (libm).
    static func coefficient(milliseconds: Float, sampleRate: Double) -> Float {
        let samples = Double(milliseconds) * 0.001 * sampleRate
        guard samples > 0 else { return 1 }
        return Float(1 - exp(-1 / samples))
    }

    /// `milliseconds` as a whole number of samples at `sampleRate` (rounded, at least `minimum`).
    static func samples(milliseconds: Float, sampleRate: Double, minimum: Int = 0) -> Int {
        max(minimum, Int((Double(milliseconds) * 0.001 * sampleRate).rounded()))
    }
}
