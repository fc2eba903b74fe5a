/// Decibel conversions in pure Swift arithmetic, cheap and exact enough for the process thread.
///
/// libm's `log10f`/`powf` are opaque C that the `@_noLocks` checker rejects, so the dynamics
/// units convert level and gain per sample with these instead.
///
/// Error (checked in `FastDecibelsTests` over the whole useful range):
/// - `log2`: the mantissa is reduced to m ∈ [√½, √2) and ln m = 2·atanh(s), s = (m − 1)/(m + 1),
///   |s| ≤ 0.1716, summed to s⁵. The omitted tail is below 2|s|⁷/7/(1 − s²) ≈ 1.3e-6 (natural
///   log), i.e. < 2e-5 dB.
/// - `exp2`: 2^x = 2^n · e^(f·ln 2), n = round(x) (to even), |f| ≤ ½, Taylor series to u⁵ with
///   |u| = |f·ln 2| ≤ 0.347: relative error ≤ u⁶/720 · e^u ≈ 3.4e-6, < 3e-5 dB.
/// Float rounding adds about 1e-6 dB; the total stays far below the 0.1 dB budget.
///
/// - Realtime: every function is safe.
public enum FastDecibels {
    /// log₂ x for x > 0; inputs below 1e-30 (and zero) are treated as 1e-30 (≈ −600 dB).
    @inlinable @inline(__always) @_noLocks
    public static func log2(_ x: Float) -> Float {
        let v = max(x, 1e-30)  // keeps the argument a normal float, so the bit split below holds
        let bits = v.bitPattern
        let biased = Int32(bitPattern: (bits >> 23) & 0xff)
        let mantissa = Float(bitPattern: (bits & 0x007f_ffff) | 0x3f80_0000)  // in [1, 2)
        // Selects, not branches, and wrapping integer arithmetic: no overflow trap, so loops of
        // these vectorise.
        let high = mantissa > 1.414_213_56
        let m = high ? mantissa * 0.5 : mantissa
        let exponent = biased &- (high ? 126 : 127)
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        let lnM = 2 * s * (1 + s2 * (0.333_333_34 + s2 * 0.2))
        return Float(exponent) + lnM * 1.442_695_04  // 1/ln 2
    }

    /// 2^x, with x clamped to the normal float exponents −126...127.
    @inlinable @inline(__always) @_noLocks
    public static func exp2(_ x: Float) -> Float {
        let c = min(max(x, -126), 127)
        // n = round(c) without a float-to-integer conversion (which traps out of range and so
        // keeps loops from vectorising): adding 1.5·2²³ leaves n in the sum's low mantissa bits.
        let shifted = c + 12_582_912
        let n = shifted - 12_582_912
        let u = (c - n) * 0.693_147_18  // |u| ≤ ln2/2
        let p = 1 + u * (1 + u * (0.5 + u * (0.166_666_67 + u * (0.041_666_668 + u * 0.008_333_334))))
        // shifted's bits are 0x4B40_0000 + n: 2^n's exponent field is n + 127.
        return p * Float(bitPattern: (shifted.bitPattern &- 0x4B40_0000 &+ 127) &<< 23)
    }

    /// Decibels (20·log10) of a linear amplitude; about −600 dB for zero.
    @inlinable @inline(__always) @_noLocks
    public static func fromAmplitude(_ a: Float) -> Float { 6.020_600 * log2(a) }  // 20·log10(2) per octave

    /// Decibels (10·log10) of a power (mean square); about −600 dB for zero.
    @inlinable @inline(__always) @_noLocks
    public static func fromPower(_ p: Float) -> Float { 3.010_300 * log2(p) }

    /// Linear amplitude of `db` decibels (20·log10 convention).
    @inlinable @inline(__always) @_noLocks
    public static func amplitude(_ db: Float) -> Float { exp2(db * 0.166_096_4) }  // log2(10)/20
}
