import Foundation

/// Numeric measurements tests assert on: RMS, dB ratios, lag by cross-correlation.
public enum Measure {
    /// Root mean square of `x[range]` (all of `x` by default).
    public static func rms(_ x: [Float], _ range: Range<Int>? = nil) -> Float {
        let r = range ?? 0..<x.count
        guard !r.isEmpty else { return 0 }
        var sum: Double = 0
        for i in r { sum += Double(x[i]) * Double(x[i]) }
        return Float((sum / Double(r.count)).squareRoot())
    }

    /// 10·log10 of the power ratio of `a` to `b` over `range`: e.g. ERLE = ratio(mic, out).
    public static func ratioDB(_ a: [Float], _ b: [Float], _ range: Range<Int>) -> Double {
        let pa = Double(rms(a, range)), pb = Double(rms(b, range))
        return 20 * log10(max(pa, 1e-12) / max(pb, 1e-12))
    }

    /// Level of `x[range]` in dBFS RMS.
    public static func levelDB(_ x: [Float], _ range: Range<Int>? = nil) -> Double {
        20 * log10(max(Double(rms(x, range)), 1e-12))
    }

    /// The lag (samples, −maxLag...maxLag) at which `y` best matches `x`: y[n] ≈ g·x[n − lag].
    public static func lag(of y: [Float], relativeTo x: [Float], maxLag: Int) -> Int {
        var best = 0
        var bestValue = -Double.infinity
        let n = min(x.count, y.count)
        for lag in -maxLag...maxLag {
            var sum: Double = 0
            var i = max(0, lag)
            while i < min(n, n + lag) {
                sum += Double(y[i]) * Double(x[i - lag])
                i += 1
            }
            if abs(sum) > bestValue {
                bestValue = abs(sum)
                best = lag
            }
        }
        return best
    }
}
