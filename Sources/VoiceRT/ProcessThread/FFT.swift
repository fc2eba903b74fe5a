import Foundation

/// An in-place radix-2 complex FFT of a fixed power-of-two size, with tables built once.
///
/// Used by the delay estimator (GCC-PHAT) on the process thread, so it keeps its twiddle and
/// bit-reversal tables in storage allocated at init and does no allocation when it runs.
///
/// - Realtime: `forward` and `inverse` are safe; `init` allocates.
public struct FFT: ~Copyable {
    /// Number of complex points.
    public let size: Int
    @usableFromInline let bitReverse: UnsafeMutablePointer<Int32>
    /// The twiddles e^{-2πi j/size} of each stage laid out in order: the stage joining
    /// `half`-point transforms uses `stageCos[half + k]`, `stageSin[half + k]` for k < `half`
    /// (j = k · size / (2 · half)), so four neighbouring butterflies load their twiddles at once.
    @usableFromInline let stageCos: UnsafeMutablePointer<Float>
    @usableFromInline let stageSin: UnsafeMutablePointer<Float>
    /// −`stageSin`: the inverse transform's twiddles, so the vector stages load them instead of
    /// multiplying each by the sign (negation is exact: the same numbers).
    @usableFromInline let inverseSin: UnsafeMutablePointer<Float>
    /// The bit-reversal permutation as its swaps: pairs (i, j), i < j, one after the other, so
    /// the permutation runs without testing every index.
    @usableFromInline let swaps: UnsafeMutablePointer<Int32>
    /// Pairs in `swaps`.
    @usableFromInline let swapCount: Int

    /// An FFT of `size` points; `size` must be a power of two ≥ 2.
    public init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        stageCos = .allocate(capacity: size)
        stageSin = .allocate(capacity: size)
        stageCos[0] = 0
        stageSin[0] = 0
        var half = 1
        while half < size {
            for k in 0..<half {
                let angle = -2 * Double.pi * Double(k * (size / (2 * half))) / Double(size)
                stageCos[half + k] = Float(cos(angle))
                stageSin[half + k] = Float(sin(angle))
            }
            half <<= 1
        }
        inverseSin = .allocate(capacity: size)
        for i in 0..<size { inverseSin[i] = -stageSin[i] }
        bitReverse = .allocate(capacity: size)
        var bits = 0
        while 1 << bits < size { bits += 1 }
        for i in 0..<size {
            var r = 0
            for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
            bitReverse[i] = Int32(r)
        }
        var pairs = 0
        for i in 0..<size where Int(bitReverse[i]) > i { pairs += 1 }
        swapCount = pairs
        swaps = .allocate(capacity: max(1, 2 * pairs))
        pairs = 0
        for i in 0..<size where Int(bitReverse[i]) > i {
            swaps[2 * pairs] = Int32(i)
            swaps[2 * pairs + 1] = bitReverse[i]
            pairs += 1
        }
    }

    deinit {
        stageCos.deallocate()
        stageSin.deallocate()
        inverseSin.deallocate()
        bitReverse.deallocate()
        swaps.deallocate()
    }

    /// Forward transform (e^{-iωt}) of `size` points held as separate real and imaginary arrays.
    @_noLocks
    public func forward(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>) {
        transform(re, im, sign: 1)
    }

    /// Inverse transform, scaled by 1/size so `inverse(forward(x)) == x`.
    @_noLocks
    public func inverse(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>) {
        transform(re, im, sign: -1)
        let scale = 1 / Float(size)
        for i in 0..<size {
            re[i] *= scale
            im[i] *= scale
        }
    }

    /// Steps of one forward transform done piecewise: the bit-reversal permutation, then one
    /// step per butterfly stage (log2 `size` of them).
    public var stepCount: Int { 1 + stages }

    /// Butterfly stages: log2 `size`.
    @usableFromInline var stages: Int { size.trailingZeroBitCount }

    /// Runs step `step` (0 ..< `stepCount`) of the forward transform, in place. Running every
    /// step in order equals `forward`; a caller on the process thread can spread the steps over
    /// cycles so no cycle carries a whole transform.
    @_noLocks
    public func forwardStep(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, step: Int) {
        if step == 0 {
            permute(re, im)
        } else {
            butterflies(re, im, half: 1 << (step - 1), sign: 1)
        }
    }

    @_noLocks
    private func transform(
        _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, sign: Float
    ) {
        if size >= 16 {
            firstTwoStagesBeforePermuting(re, im, sign: sign)
            permute(re, im)
        } else {
            permute(re, im)
            guard size >= 4 else {
                butterflies(re, im, half: 1, sign: sign)
                return
            }
            firstTwoStages(re, im, sign: sign)
        }
        var stage = 2
        while stage + 1 < stages {
            twoStages(re, im, half: 1 << stage, sign: sign)
            stage += 2
        }
        if stage < stages { butterflies(re, im, half: 1 << stage, sign: sign) }
    }

    /// One radix-2 butterfly on values: a + w·b and a − w·b, computed as `butterflies` does.
    @inline(__always)
    private static func butterfly(
        _ ar: Float, _ ai: Float, _ br: Float, _ bi: Float, _ wr: Float, _ wi: Float
    ) -> (Float, Float, Float, Float) {
        let tr = br * wr - bi * wi
        let ti = br * wi + bi * wr
        return (ar + tr, ai + ti, ar - tr, ai - ti)
    }

    /// Two radix-2 stages (`half` and 2·`half`) in one pass: each group of four points they join
    /// is done in registers, with the same operations in the same order as two `butterflies`
    /// calls (the same numbers, bit for bit), but each point loaded and stored once. From
    /// `half` 4 on, four neighbouring groups share each vector operation (lane j does group
    /// k + j's scalar operations, so the numbers stay the same).
    @inline(__always) @_noLocks
    private func twoStages(
        _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, half: Int, sign: Float
    ) {
        guard half >= 4 else {
            butterflies(re, im, half: half, sign: sign)
            butterflies(re, im, half: 2 * half, sign: sign)
            return
        }
        let first = half
        let second = 2 * half
        let sines = sign > 0 ? stageSin : inverseSin
        var start = 0
        while start < size {
            var k = 0
            while k < half {
                // Wrapping adds: indices under `size` cannot overflow, and the checks would
                // cost a tenth of the loop.
                let p0 = start &+ k
                let p1 = p0 &+ half
                let p2 = p1 &+ half
                let p3 = p2 &+ half
                // First stage: (p0, p1) and (p2, p3), both with twiddle k.
                let wr = Self.load(stageCos + first + k)
                let wi = Self.load(sines + first + k)
                let (r0, i0, r1, i1) = Self.butterfly(
                    Self.load(re + p0), Self.load(im + p0), Self.load(re + p1), Self.load(im + p1), wr, wi)
                let (r2, i2, r3, i3) = Self.butterfly(
                    Self.load(re + p2), Self.load(im + p2), Self.load(re + p3), Self.load(im + p3), wr, wi)
                // Second stage: (p0, p2) with twiddle k, (p1, p3) with twiddle k + half.
                let ur = Self.load(stageCos + second + k)
                let ui = Self.load(sines + second + k)
                let (a0, b0, a2, b2) = Self.butterfly(r0, i0, r2, i2, ur, ui)
                let vr = Self.load(stageCos + second + k + half)
                let vi = Self.load(sines + second + k + half)
                let (a1, b1, a3, b3) = Self.butterfly(r1, i1, r3, i3, vr, vi)
                Self.store(a0, b0, re, im, p0)
                Self.store(a1, b1, re, im, p1)
                Self.store(a2, b2, re, im, p2)
                Self.store(a3, b3, re, im, p3)
                k &+= 4
            }
            start &+= half &* 4
        }
    }

    /// Four neighbouring butterflies at once: lane by lane the operations of `butterfly`.
    @inline(__always)
    private static func butterfly(
        _ ar: SIMD4<Float>, _ ai: SIMD4<Float>, _ br: SIMD4<Float>, _ bi: SIMD4<Float>, _ wr: SIMD4<Float>,
        _ wi: SIMD4<Float>
    ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let tr = br * wr - bi * wi
        let ti = br * wi + bi * wr
        return (ar + tr, ai + ti, ar - tr, ai - ti)
    }

    @inline(__always)
    private static func load(_ p: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
    }

    /// Stores four complex values, real parts at `re + i`, imaginary parts at `im + i`.
    @inline(__always)
    private static func store(
        _ real: SIMD4<Float>, _ imaginary: SIMD4<Float>, _ re: UnsafeMutablePointer<Float>,
        _ im: UnsafeMutablePointer<Float>, _ i: Int
    ) {
        UnsafeMutableRawPointer(re + i).storeBytes(of: real, as: SIMD4<Float>.self)
        UnsafeMutableRawPointer(im + i).storeBytes(of: imaginary, as: SIMD4<Float>.self)
    }

    /// The first two radix-2 stages in one pass over blocks of four: their twiddles are 1 and
    /// the table's quarter turn, so this gives the same numbers as two `butterflies` calls
    /// without their short inner loops (a third of a 512-point transform's instructions).
    @inline(__always) @_noLocks
    private func firstTwoStages(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, sign: Float) {
        // The quarter turn: the half-2 stage's twiddle k = 1.
        let wr = stageCos[3]
        let wi = sign * stageSin[3]
        var s = 0
        while s < size {
            // Stage 1: pairs (s, s+1) and (s+2, s+3), twiddle 1.
            let r0 = re[s] + re[s + 1]
            let i0 = im[s] + im[s + 1]
            let r1 = re[s] - re[s + 1]
            let i1 = im[s] - im[s + 1]
            let r2 = re[s + 2] + re[s + 3]
            let i2 = im[s + 2] + im[s + 3]
            let r3 = re[s + 2] - re[s + 3]
            let i3 = im[s + 2] - im[s + 3]
            // Stage 2: (0, 2) with twiddle 1, (1, 3) with the quarter turn.
            re[s] = r0 + r2
            im[s] = i0 + i2
            re[s + 2] = r0 - r2
            im[s + 2] = i0 - i2
            let tr = r3 * wr - i3 * wi
            let ti = r3 * wi + i3 * wr
            re[s + 1] = r1 + tr
            im[s + 1] = i1 + ti
            re[s + 3] = r1 - tr
            im[s + 3] = i1 - ti
            s += 4
        }
    }

    /// `firstTwoStages` done before the permutation rather than after, four blocks per vector
    /// operation: the block of four points at s (a multiple of 4) takes, once permuted, the points
    /// r, r + size/2, r + size/4 and r + 3·size/4 of the input (r = the bit reversal of s, under
    /// size/4), so the same operations on those points, written back where they came from, leave
    /// after the permutation the same numbers, bit for bit; and for neighbouring r the points lie
    /// side by side. For `size` ≥ 16.
    @inline(__always) @_noLocks
    private func firstTwoStagesBeforePermuting(
        _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, sign: Float
    ) {
        let wr = SIMD4<Float>(repeating: stageCos[3])
        let wi = SIMD4<Float>(repeating: sign * stageSin[3])
        let q = size / 4
        var r = 0
        while r < q {
            // The block's points 0, 1, 2 and 3 as `firstTwoStages` sees them.
            let p0 = r
            let p1 = r &+ 2 &* q
            let p2 = r &+ q
            let p3 = r &+ 3 &* q
            let a0r = Self.load(re + p0)
            let a0i = Self.load(im + p0)
            let a1r = Self.load(re + p1)
            let a1i = Self.load(im + p1)
            let a2r = Self.load(re + p2)
            let a2i = Self.load(im + p2)
            let a3r = Self.load(re + p3)
            let a3i = Self.load(im + p3)
            let r0 = a0r + a1r
            let i0 = a0i + a1i
            let r1 = a0r - a1r
            let i1 = a0i - a1i
            let r2 = a2r + a3r
            let i2 = a2i + a3i
            let r3 = a2r - a3r
            let i3 = a2i - a3i
            Self.store(r0 + r2, i0 + i2, re, im, p0)
            Self.store(r0 - r2, i0 - i2, re, im, p2)
            let tr = r3 * wr - i3 * wi
            let ti = r3 * wi + i3 * wr
            Self.store(r1 + tr, i1 + ti, re, im, p1)
            Self.store(r1 - tr, i1 - ti, re, im, p3)
            r &+= 4
        }
    }

    /// The bit-reversal permutation that starts every transform.
    @inline(__always) @_noLocks
    private func permute(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>) {
        for p in 0..<swapCount {
            let i = Int(swaps[2 &* p])
            let j = Int(swaps[2 &* p &+ 1])
            swapAt(re, i, j)
            swapAt(im, i, j)
        }
    }

    /// One radix-2 stage joining transforms of `half` points into transforms of `2 * half`; from
    /// `half` 4 on, four neighbouring butterflies per vector operation (the same numbers).
    @inline(__always) @_noLocks
    private func butterflies(
        _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, half: Int, sign: Float
    ) {
        guard half >= 4 else {
            butterfliesScalar(re, im, half: half, sign: sign)
            return
        }
        let sines = sign > 0 ? stageSin : inverseSin
        var start = 0
        while start < size {
            var k = 0
            while k < half {
                let wr = Self.load(stageCos + half + k)
                let wi = Self.load(sines + half + k)
                let a = start &+ k
                let b = a &+ half
                let (ar, ai, br, bi) = Self.butterfly(
                    Self.load(re + a), Self.load(im + a), Self.load(re + b), Self.load(im + b), wr, wi)
                Self.store(ar, ai, re, im, a)
                Self.store(br, bi, re, im, b)
                k &+= 4
            }
            start &+= half &* 2
        }
    }

    /// `butterflies` one at a time, for `half` under 4.
    @inline(__always) @_noLocks
    private func butterfliesScalar(
        _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, half: Int, sign: Float
    ) {
        var start = 0
        while start < size {
            for k in 0..<half {
                let wr = stageCos[half + k]
                let wi = sign * stageSin[half + k]
                let a = start + k
                let b = a + half
                (re[a], im[a], re[b], im[b]) = Self.butterfly(re[a], im[a], re[b], im[b], wr, wi)
            }
            start += half * 2
        }
    }

    @inline(__always)
    private func swapAt(_ p: UnsafeMutablePointer<Float>, _ i: Int, _ j: Int) {
        let t = p[i]
        p[i] = p[j]
        p[j] = t
    }
}
