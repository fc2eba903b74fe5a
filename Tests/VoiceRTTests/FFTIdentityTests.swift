import Foundation
import Testing
import VoiceRT

/// The FFT's vector stages against the textbook radix-2 transform: every engine figure that goes
/// through an FFT (post-filter, delay estimator, feedback guard) must stay the same number.
@Suite("FFT stages")
struct FFTIdentityTests {
    /// A test signal: two sines and a ramp, so every bin and butterfly sees distinct values.
    static func signal(_ n: Int) -> ([Float], [Float]) {
        let re = (0..<n).map { Float(sin(Double($0) * 0.7) + 0.3 * cos(Double($0) * 2.1)) }
        let im = (0..<n).map { Float(Double($0) / Double(n) - 0.5) }
        return (re, im)
    }

    /// The textbook in-place radix-2 transform, one butterfly at a time, with the twiddles and
    /// the operations (and their order) that `FFT` documents.
    static func reference(_ re: inout [Float], _ im: inout [Float]) {
        let n = re.count
        var bits = 0
        while 1 << bits < n { bits += 1 }
        for i in 0..<n {
            var j = 0
            for b in 0..<bits where i & (1 << b) != 0 { j |= 1 << (bits - 1 - b) }
            if j > i {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        var half = 1
        while half < n {
            let stride = n / (half * 2)
            for start in Swift.stride(from: 0, to: n, by: half * 2) {
                for k in 0..<half {
                    let angle = -2 * Double.pi * Double(k * stride) / Double(n)
                    let wr = Float(cos(angle))
                    let wi = Float(sin(angle))
                    let a = start + k
                    let b = a + half
                    let tr = re[b] * wr - im[b] * wi
                    let ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
            }
            half *= 2
        }
    }

    @Test(
        "the transform gives the textbook transform's numbers bit for bit, whole or step by step",
        arguments: [2, 4, 8, 16, 64, 256, 512, 1024, 2048, 4096, 8192])
    func sameNumbers(size: Int) {
        let (x, y) = Self.signal(size)
        var expectedRe = x
        var expectedIm = y
        Self.reference(&expectedRe, &expectedIm)
        let fft = FFT(size: size)
        var re = x
        var im = y
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in fft.forward(r.baseAddress!, i.baseAddress!) }
        }
        #expect(re == expectedRe && im == expectedIm)
        var stepRe = x
        var stepIm = y
        stepRe.withUnsafeMutableBufferPointer { r in
            stepIm.withUnsafeMutableBufferPointer { i in
                for step in 0..<fft.stepCount { fft.forwardStep(r.baseAddress!, i.baseAddress!, step: step) }
            }
        }
        #expect(stepRe == expectedRe && stepIm == expectedIm)
        // The inverse transform runs the same stages with the conjugate twiddles.
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in fft.inverse(r.baseAddress!, i.baseAddress!) }
        }
        #expect(zip(re, x).allSatisfy { abs($0 - $1) < 1e-4 } && zip(im, y).allSatisfy { abs($0 - $1) < 1e-4 })
    }
}

extension FFTIdentityTests {
    @Test(
        "the inverse is the forward transform of the conjugate, conjugated and scaled, bit for bit",
        arguments: [2, 4, 8, 16, 64, 512, 1024, 2048])
    func inverseIsConjugateForward(size: Int) {
        let (x, y) = Self.signal(size)
        let fft = FFT(size: size)
        var re = x
        var im = y
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in fft.inverse(r.baseAddress!, i.baseAddress!) }
        }
        // Negating the imaginary parts, in and out, turns each butterfly's twiddle into its
        // conjugate with the same roundings; 1/size is a power of two, so scaling is exact.
        var conjugateRe = x
        var conjugateIm = y.map { -$0 }
        conjugateRe.withUnsafeMutableBufferPointer { r in
            conjugateIm.withUnsafeMutableBufferPointer { i in fft.forward(r.baseAddress!, i.baseAddress!) }
        }
        let scale = 1 / Float(size)
        #expect(re == conjugateRe.map { $0 * scale } && im == conjugateIm.map { -$0 * scale })
    }
}
