import Foundation
import Testing

@testable import VoiceRT

/// The real FFT's vector loops against the same steps one bin pair at a time: the post-filter's
/// and the suppressor's spectra go through them, so they must give the same numbers.
@Suite("Real FFT steps")
struct RealFFTIdentityTests {
    /// A half-size spectrum of `m` + 1 bins whose values all differ.
    static func spectrum(_ m: Int) -> ([Float], [Float]) {
        let re = (0...m).map { Float(sin(Double($0) * 0.7) + 0.3 * cos(Double($0) * 2.1)) }
        let im = (0...m).map { Float(Double($0) / Double(m) - 0.5 + 0.2 * sin(Double($0) * 1.3)) }
        return (re, im)
    }

    @Test(
        "forward's and inverse's loops over the bin pairs give the one-pair-at-a-time numbers bit for bit",
        arguments: [32, 64, 1024, 2048])
    func sameNumbers(size: Int) {
        let real = RealFFT(size: size)
        let m = size / 2
        let (re, im) = Self.spectrum(m)
        for split in [true, false] {
            var vectorRe = re
            var vectorIm = im
            var scalarRe = re
            var scalarIm = im
            if split {
                real.splitPairs(&vectorRe, &vectorIm, m)
                real.splitPairsOneByOne(&scalarRe, &scalarIm, m)
            } else {
                real.joinPairs(&vectorRe, &vectorIm, m)
                real.joinPairsOneByOne(&scalarRe, &scalarIm, m)
            }
            #expect(vectorRe == scalarRe && vectorIm == scalarIm, "split: \(split)")
            // Each loop changes every bin but m/2 (its own mirror, left near where it was): a
            // loop that did nothing would pass the above too.
            #expect(zip(vectorRe[1..<m / 2], re[1..<m / 2]).allSatisfy { $0 != $1 })
            #expect(zip(vectorRe[m / 2 + 1..<m], re[m / 2 + 1..<m]).allSatisfy { $0 != $1 })
        }
    }
}
