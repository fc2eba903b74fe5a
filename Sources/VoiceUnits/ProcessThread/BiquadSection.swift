/// One biquad in transposed direct form II, stepped a sample at a time (for units that mix a
/// filter's output with its input per sample, which `BiquadState.run` cannot do in place).
///
/// - Realtime: safe.
struct BiquadSection: Sendable {
    private var z1: Float = 0
    private var z2: Float = 0

    /// Filters one sample with `c`.
    @inline(__always) @_noLocks
    mutating func tick(_ c: BiquadCoefficients, _ x: Float) -> Float {
        let y = c.b0 * x + z1
        z1 = c.b1 * x - c.a1 * y + z2
        z2 = c.b2 * x - c.a2 * y
        return y
    }

    /// Zeroes memories that decayed into the subnormal range (slow arithmetic on silence).
    @inline(__always) @_noLocks
    mutating func flushDenormals() {
        if abs(z1) < 1e-20 { z1 = 0 }
        if abs(z2) < 1e-20 { z2 = 0 }
    }
}

/// Field-wise equality of coefficients, callable on the process thread.
/// - Realtime: safe.
@inline(__always) @_noLocks
func sameCoefficients(_ a: BiquadCoefficients, _ b: BiquadCoefficients) -> Bool {
    a.b0 == b.b0 && a.b1 == b.b1 && a.b2 == b.b2 && a.a1 == b.a1 && a.a2 == b.a2
}

/// True for the pass-through design (b0 = 1, the rest 0), without reading the `identity` static.
/// - Realtime: safe.
@inline(__always) @_noLocks
func isIdentityCoefficients(_ c: BiquadCoefficients) -> Bool {
    c.b0 == 1 && c.b1 == 0 && c.b2 == 0 && c.a1 == 0 && c.a2 == 0
}
