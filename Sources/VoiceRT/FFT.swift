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
    @usableFromInline let cosTable: UnsafeMutablePointer<Float>
    @usableFromInline let sinTable: UnsafeMutablePointer<Float>
    @usableFromInline let bitReverse: UnsafeMutablePointer<Int32>

    /// An FFT of `size` points; `size` must be a power of two ≥ 2.
    public init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        cosTable = .allocate(capacity: size / 2)
        sinTable = .allocate(capacity: size / 2)
        for k in 0..<(size / 2) {
            let angle = -2 * Double.pi * Double(k) / Double(size)
            cosTable[k] = Float(cos(angle))
            sinTable[k] = Float(sin(angle))
        }
        bitReverse = .allocate(capacity: size)
        var bits = 0
        while 1 << bits < size { bits += 1 }
        for i in 0..<size {
            var r = 0
            for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
            bitReverse[i] = Int32(r)
        }
    }

    deinit {
        cosTable.deallocate()
        sinTable.deallocate()
        bitReverse.deallocate()
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
        permute(re, im)
        for stage in 0..<stages { butterflies(re, im, half: 1 << stage, sign: sign) }
    }

    /// The bit-reversal permutation that starts every transform.
    @inline(__always) @_noLocks
    private func permute(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>) {
        for i in 0..<size {
            let j = Int(bitReverse[i])
            if j > i {
                swapAt(re, i, j)
                swapAt(im, i, j)
            }
        }
    }

    /// One radix-2 stage joining transforms of `half` points into transforms of `2 * half`.
    @inline(__always) @_noLocks
    private func butterflies(
        _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, half: Int, sign: Float
    ) {
        let stride = size / (half * 2)
        var start = 0
        while start < size {
            for k in 0..<half {
                let wr = cosTable[k * stride]
                let wi = sign * sinTable[k * stride]
                let a = start + k
                let b = a + half
                let tr = re[b] * wr - im[b] * wi
                let ti = re[b] * wi + im[b] * wr
                re[b] = re[a] - tr
                im[b] = im[a] - ti
                re[a] += tr
                im[a] += ti
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
