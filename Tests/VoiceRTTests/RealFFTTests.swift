import Foundation
import Testing
import VoiceRT

/// The real FFT (a complex FFT of half the size, split) against the complex FFT of the same
/// signal, and its inverse against the signal.
@Suite("Real FFT")
struct RealFFTTests {
    @Test("its spectrum is the complex FFT's, and its inverse gives the signal back", arguments: [4, 8, 256, 2048])
    func matchesComplexFFT(size: Int) {
        let signal: [Float] = (0..<size).map { i in
            let t = Double(i)
            let tones: Double = sin(t * 0.7) + 0.3 * cos(t * 2.1)
            return Float(tones + 0.01 * Double(i % 5))
        }
        var re = signal
        var im = [Float](repeating: 0, count: size)
        FFT(size: size).forward(&re, &im)
        let real = RealFFT(size: size)
        var spectrumRe = [Float](repeating: 0, count: real.bins)
        var spectrumIm = [Float](repeating: 0, count: real.bins)
        real.forward(signal, re: &spectrumRe, im: &spectrumIm)
        var worst: Float = 0
        for k in 0..<real.bins {
            worst = max(worst, abs(spectrumRe[k] - re[k]), abs(spectrumIm[k] - im[k]))
        }
        #expect(worst < 1e-3 * Float(size).squareRoot(), "largest difference from the complex FFT: \(worst)")
        var back = [Float](repeating: 0, count: size)
        real.inverse(re: &spectrumRe, im: &spectrumIm, into: &back)
        let error = zip(back, signal).map { abs($0 - $1) }.max()!
        #expect(error < 1e-5, "largest difference after the round trip: \(error)")
    }
}

extension RealFFTTests {
    @Test("filtering through it matches filtering through the complex FFT", arguments: [8, 2048])
    func filteringMatchesComplexFFT(size: Int) {
        let signal: [Float] = (0..<size).map { Float(sin(Double($0) * 0.37)) + Float($0 % 3) * 0.1 }
        let gains: [Float] = (0...size / 2).map { Float(1 + $0 % 4) / 4 }
        var re = signal
        var im = [Float](repeating: 0, count: size)
        let complex = FFT(size: size)
        complex.forward(&re, &im)
        for k in 0..<size {
            let g = gains[k <= size / 2 ? k : size - k]
            re[k] *= g
            im[k] *= g
        }
        complex.inverse(&re, &im)
        let real = RealFFT(size: size)
        var spectrumRe = [Float](repeating: 0, count: real.bins)
        var spectrumIm = [Float](repeating: 0, count: real.bins)
        real.forward(signal, re: &spectrumRe, im: &spectrumIm)
        for k in 0..<real.bins {
            spectrumRe[k] *= gains[k]
            spectrumIm[k] *= gains[k]
        }
        var filtered = [Float](repeating: 0, count: size)
        real.inverse(re: &spectrumRe, im: &spectrumIm, into: &filtered)
        let error = zip(filtered, re).map { abs($0 - $1) }.max()!
        #expect(error < 1e-4, "largest difference from the complex FFT's filtering: \(error)")
    }
}
