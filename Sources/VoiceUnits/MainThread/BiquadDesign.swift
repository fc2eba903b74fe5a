import Foundation

/// Biquad designs from Robert Bristow-Johnson's "Audio EQ Cookbook".
///
/// Frequencies are in hertz and are clamped to 1 Hz...0.49·fs, so a design never aliases or
/// becomes unstable at low sample rates; gains are in decibels; Q is the cookbook's Q (for the
/// shelves, the same alpha = sin(w0)/(2Q) form, Q = 1/√2 giving the steepest shelf with no bump).
/// - Realtime: never (libm); the units design in `prepare`/`setParameter`.
enum BiquadDesign {
    /// Low shelf: `gainDB` below `frequency`, 0 dB above, gainDB/2 at `frequency`.
    static func lowShelf(frequency: Double, gainDB: Double, q: Double, sampleRate: Double) -> BiquadCoefficients {
        guard gainDB != 0 else { return .identity }
        let (a, c, alpha) = terms(frequency, gainDB, q, sampleRate)
        let sq = 2 * a.squareRoot() * alpha
        return normalised(
            b0: a * ((a + 1) - (a - 1) * c + sq), b1: 2 * a * ((a - 1) - (a + 1) * c),
            b2: a * ((a + 1) - (a - 1) * c - sq),
            a0: (a + 1) + (a - 1) * c + sq, a1: -2 * ((a - 1) + (a + 1) * c), a2: (a + 1) + (a - 1) * c - sq)
    }

    /// High shelf: 0 dB below `frequency`, `gainDB` above, gainDB/2 at `frequency`.
    static func highShelf(frequency: Double, gainDB: Double, q: Double, sampleRate: Double) -> BiquadCoefficients {
        guard gainDB != 0 else { return .identity }
        let (a, c, alpha) = terms(frequency, gainDB, q, sampleRate)
        let sq = 2 * a.squareRoot() * alpha
        return normalised(
            b0: a * ((a + 1) + (a - 1) * c + sq), b1: -2 * a * ((a - 1) + (a + 1) * c),
            b2: a * ((a + 1) + (a - 1) * c - sq),
            a0: (a + 1) - (a - 1) * c + sq, a1: 2 * ((a - 1) - (a + 1) * c), a2: (a + 1) - (a - 1) * c - sq)
    }

    /// Peaking (bell): `gainDB` at `frequency`, 0 dB far from it, width set by `q`.
    static func peaking(frequency: Double, gainDB: Double, q: Double, sampleRate: Double) -> BiquadCoefficients {
        guard gainDB != 0 else { return .identity }
        let (a, c, alpha) = terms(frequency, gainDB, q, sampleRate)
        return normalised(
            b0: 1 + alpha * a, b1: -2 * c, b2: 1 - alpha * a, a0: 1 + alpha / a, a1: -2 * c, a2: 1 - alpha / a)
    }

    /// Low-pass: 0 dB at DC, 20·log10(q) dB at `frequency` (−3 dB for Butterworth q = 1/√2).
    static func lowPass(frequency: Double, q: Double, sampleRate: Double) -> BiquadCoefficients {
        let (_, c, alpha) = terms(frequency, 0, q, sampleRate)
        return normalised(b0: (1 - c) / 2, b1: 1 - c, b2: (1 - c) / 2, a0: 1 + alpha, a1: -2 * c, a2: 1 - alpha)
    }

    /// High-pass: 0 dB at Nyquist, 20·log10(q) dB at `frequency`.
    static func highPass(frequency: Double, q: Double, sampleRate: Double) -> BiquadCoefficients {
        let (_, c, alpha) = terms(frequency, 0, q, sampleRate)
        return normalised(b0: (1 + c) / 2, b1: -(1 + c), b2: (1 + c) / 2, a0: 1 + alpha, a1: -2 * c, a2: 1 - alpha)
    }

    /// Band-pass with 0 dB at `frequency` (cookbook "constant 0 dB peak gain"); x − bandPass(x) is
    /// exactly the cookbook notch, which the de-esser relies on.
    static func bandPass(frequency: Double, q: Double, sampleRate: Double) -> BiquadCoefficients {
        let (_, c, alpha) = terms(frequency, 0, q, sampleRate)
        return normalised(b0: alpha, b1: 0, b2: -alpha, a0: 1 + alpha, a1: -2 * c, a2: 1 - alpha)
    }

    /// A = 10^(dB/40), cos w0 and alpha = sin w0 / (2Q), with the frequency clamped below Nyquist.
    private static func terms(
        _ frequency: Double, _ gainDB: Double, _ q: Double, _ sampleRate: Double
    ) -> (a: Double, cosW0: Double, alpha: Double) {
        let f = min(max(frequency, 1), 0.49 * sampleRate)
        let w0 = 2 * Double.pi * f / sampleRate
        return (pow(10, gainDB / 40), cos(w0), sin(w0) / (2 * max(q, 0.01)))
    }

    private static func normalised(
        b0: Double, b1: Double, b2: Double, a0: Double, a1: Double, a2: Double
    ) -> BiquadCoefficients {
        BiquadCoefficients(
            b0: Float(b0 / a0), b1: Float(b1 / a0), b2: Float(b2 / a0), a1: Float(a1 / a0), a2: Float(a2 / a0))
    }
}
