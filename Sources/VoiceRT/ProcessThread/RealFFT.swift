import Foundation

/// An FFT of a real signal of `size` points (a power of two ≥ 4), done as a complex FFT of half
/// the size: about half the work of transforming it as a complex signal.
///
/// The even samples go in as real parts and the odd ones as imaginary parts; the half-size
/// spectrum Z then splits into the even samples' spectrum E_k = ½(Z_k + Z*_{m−k}) and the odd
/// ones' O_k = −½i(Z_k − Z*_{m−k}), and X_k = E_k + e^(−2πik/n) O_k (m = n/2). The inverse runs
/// the same steps backwards.
///
/// Spectra hold bins 0...size/2 (size/2 + 1 values each of real and imaginary part); bin 0 and
/// bin size/2 are real. `inverse(forward(x)) == x`, as with `FFT`.
///
/// - Realtime: `forward` and `inverse` are safe; `init` allocates, deinit frees.
public struct RealFFT: ~Copyable {
    /// Real points.
    public let size: Int
    /// Bins of a spectrum: size / 2 + 1.
    public var bins: Int { size / 2 + 1 }
    @usableFromInline let half: FFT
    /// e^(−2πik/size) for k < size/2.
    @usableFromInline let twiddleCos: UnsafeMutablePointer<Float>
    @usableFromInline let twiddleSin: UnsafeMutablePointer<Float>

    /// A real FFT of `size` points; `size` must be a power of two ≥ 4.
    public init(size: Int) {
        precondition(size >= 4 && size & (size - 1) == 0, "real FFT size must be a power of two ≥ 4")
        self.size = size
        half = FFT(size: size / 2)
        twiddleCos = .allocate(capacity: size / 2)
        twiddleSin = .allocate(capacity: size / 2)
        for k in 0..<size / 2 {
            let angle = -2 * Double.pi * Double(k) / Double(size)
            twiddleCos[k] = Float(cos(angle))
            twiddleSin[k] = Float(sin(angle))
        }
    }

    deinit {
        twiddleCos.deallocate()
        twiddleSin.deallocate()
    }

    /// The spectrum of `signal` (`size` samples) into `re` and `im` (`bins` values each).
    ///
    /// - Realtime: safe.
    @_noLocks
    public func forward(
        _ signal: UnsafePointer<Float>, re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>
    ) {
        let m = size / 2
        if m >= 16 {
            Self.deinterleave(signal, re, im, m)
        } else {
            for j in 0..<m {
                re[j] = signal[2 * j]
                im[j] = signal[2 * j + 1]
            }
        }
        half.forward(re, im)
        let z0r = re[0]
        let z0i = im[0]
        re[0] = z0r + z0i
        im[0] = 0
        re[m] = z0r - z0i
        im[m] = 0
        if m >= 16 {
            splitPairs(re, im, m)
        } else {
            splitPairsOneByOne(re, im, m)
        }
    }

    /// `forward`'s closing loop over the bin pairs (k, m − k) of the half-size spectrum, one pair
    /// at a time.
    @inline(__always) @_noLocks
    func splitPairsOneByOne(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, _ m: Int) {
        for k in 1...(m / 2) {
            let (a, b, c, d, er, ei) = Self.mirroredPair(re, im, k, m)
            // E_k and O_k, then X_k = E + W·O and X_{m−k} = conj(E − W·O).
            let or = 0.5 * (b + d)
            let oi = 0.5 * (c - a)
            let wr = twiddleCos[k]
            let wi = twiddleSin[k]
            let tr = wr * or - wi * oi
            let ti = wr * oi + wi * or
            re[k] = er + tr
            im[k] = ei + ti
            re[m - k] = er - tr
            im[m - k] = -(ei - ti)
        }
    }

    /// The signal (`size` samples) of the spectrum in `re` and `im` (`bins` values each, used as
    /// scratch: they do not keep their values).
    ///
    /// - Realtime: safe.
    @_noLocks
    public func inverse(
        re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>, into signal: UnsafeMutablePointer<Float>
    ) {
        let m = size / 2
        let x0 = re[0]
        let xm = re[m]
        re[0] = 0.5 * (x0 + xm)
        im[0] = 0.5 * (x0 - xm)
        if m >= 16 {
            joinPairs(re, im, m)
        } else {
            joinPairsOneByOne(re, im, m)
        }
        half.inverse(re, im)
        if m >= 16 {
            Self.interleave(re, im, signal, m)
            return
        }
        for j in 0..<m {
            signal[2 * j] = re[j]
            signal[2 * j + 1] = im[j]
        }
    }

    /// `inverse`'s opening loop over the bin pairs (k, m − k), one pair at a time.
    @inline(__always) @_noLocks
    func joinPairsOneByOne(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, _ m: Int) {
        for k in 1...(m / 2) {
            let (a, b, c, d, er, ei) = Self.mirroredPair(re, im, k, m)
            // E_k = ½(X_k + X*_{m−k}), O_k = ½(X_k − X*_{m−k})·conj(W^k); Z_k = E + iO and
            // Z_{m−k} = conj(E) + i·conj(O).
            let dr = 0.5 * (a - c)
            let di = 0.5 * (b + d)
            let wr = twiddleCos[k]
            let wi = -twiddleSin[k]
            let or = dr * wr - di * wi
            let oi = dr * wi + di * wr
            re[k] = er - oi
            im[k] = ei + or
            re[m - k] = er + oi
            im[m - k] = -ei + or
        }
    }

    /// `joinPairsOneByOne` four pairs per vector operation, as `splitPairs` does
    /// `splitPairsOneByOne` (the same numbers). For m a multiple of 8.
    @inline(__always) @_noLocks
    func joinPairs(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, _ m: Int) {
        let half = SIMD4<Float>(repeating: 0.5)
        vectorPairs(re, im, m) { a, b, c, d, er, ei, wr, sine in
            let dr = half * (a - c)
            let di = half * (b + d)
            let wi = -sine
            let or = dr * wr - di * wi
            let oi = dr * wi + di * wr
            return (er - oi, ei + or, er + oi, -ei + or)
        }
    }

    /// `splitPairsOneByOne` four pairs per vector operation (the same numbers, bit for bit). For
    /// m a multiple of 8.
    @inline(__always) @_noLocks
    func splitPairs(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, _ m: Int) {
        let half = SIMD4<Float>(repeating: 0.5)
        vectorPairs(re, im, m) { a, b, c, d, er, ei, wr, wi in
            let or = half * (b + d)
            let oi = half * (c - a)
            let tr = wr * or - wi * oi
            let ti = wr * oi + wi * or
            return (er + tr, ei + ti, er - tr, -(ei - ti))
        }
    }

    /// The loop of `splitPairs` and `joinPairs`: for each four neighbouring bin pairs (k, m − k),
    /// `pair` gets `mirroredVectors` and the twiddles (cosines, sines) of k…k + 3 and gives bins
    /// k…k + 3 and m − k…m − k − 3 (real, imaginary). Lane j does pair k + j's scalar operations,
    /// the mirrored bins loaded and stored reversed. The pairs are disjoint but for k = m/2 (its
    /// own mirror, in the last lane of the last group, where the mirrored store comes last as in
    /// the scalar loops). Indices stay under `size`: wrapping arithmetic, unchecked.
    @inline(__always) @_noLocks
    private func vectorPairs(
        _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, _ m: Int,
        _ pair: (
            SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>,
            SIMD4<Float>
        ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    ) {
        var k = 1
        while k <= m / 2 {
            let mirror = m &- k &- 3
            let (a, b, c, d, er, ei) = Self.mirroredVectors(re, im, k, mirror)
            let (xr, xi, yr, yi) = pair(a, b, c, d, er, ei, Self.load(twiddleCos + k), Self.load(twiddleSin + k))
            Self.store(xr, re + k)
            Self.store(xi, im + k)
            Self.store(Self.reversed(yr), re + mirror)
            Self.store(Self.reversed(yi), im + mirror)
            k &+= 4
        }
    }

    /// Even samples of `signal` (2·`m`) to `re`, odd ones to `im`, eight at a time. For m a multiple of 4.
    @inline(__always) @_noLocks
    private static func deinterleave(
        _ signal: UnsafePointer<Float>, _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, _ m: Int
    ) {
        var j = 0
        while j < m {
            let v = UnsafeRawPointer(signal + 2 &* j).loadUnaligned(as: SIMD8<Float>.self)
            store(v.evenHalf, re + j)
            store(v.oddHalf, im + j)
            j &+= 4
        }
    }

    /// `re` to the even samples of `signal` (2·`m`), `im` to the odd ones, eight at a time. For m a multiple of 4.
    @inline(__always) @_noLocks
    private static func interleave(
        _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, _ signal: UnsafeMutablePointer<Float>,
        _ m: Int
    ) {
        var j = 0
        while j < m {
            var v = SIMD8<Float>()
            v.evenHalf = load(re + j)
            v.oddHalf = load(im + j)
            UnsafeMutableRawPointer(signal + 2 &* j).storeBytes(of: v, as: SIMD8<Float>.self)
            j &+= 4
        }
    }

    /// `mirroredPair` for four neighbouring pairs: bins k…k + 3 and, reversed, `mirror`…`mirror` + 3.
    @inline(__always)
    private static func mirroredVectors(
        _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, _ k: Int, _ mirror: Int
    ) -> (
        a: SIMD4<Float>, b: SIMD4<Float>, c: SIMD4<Float>, d: SIMD4<Float>, er: SIMD4<Float>, ei: SIMD4<Float>
    ) {
        let half = SIMD4<Float>(repeating: 0.5)
        let a = load(re + k)
        let b = load(im + k)
        let c = reversed(load(re + mirror))
        let d = reversed(load(im + mirror))
        return (a, b, c, d, half * (a + c), half * (b - d))
    }

    @inline(__always)
    private static func load(_ p: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
    }

    @inline(__always)
    private static func store(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Float>.self)
    }

    @inline(__always)
    private static func reversed(_ v: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(v[3], v[2], v[1], v[0])
    }

    /// Bin `k` and bin `m − k` of a half-size spectrum (`a + ib` and `c + id`), and the real
    /// and imaginary parts of ½(Z_k + Z*_{m−k}), the even part: the step `forward` and `inverse`
    /// both open each bin pair with.
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    static func mirroredPair(
        _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, _ k: Int, _ m: Int
    ) -> (a: Float, b: Float, c: Float, d: Float, er: Float, ei: Float) {
        let a = re[k]
        let b = im[k]
        let c = re[m - k]
        let d = im[m - k]
        return (a, b, c, d, 0.5 * (a + c), 0.5 * (b - d))
    }
}
