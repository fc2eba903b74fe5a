import Foundation
import VoiceUnits

/// Helpers the unit tests share: running a unit over a signal in blocks, simple test signals,
/// per-sample gain and step measurements.
enum Harness {
    static let rate = 48_000
    static let spec = ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256)

    /// `x` processed by `unit` in blocks of `block` samples (as a host would call it).
    static func run<U: VoiceUnit>(_ unit: inout U, _ x: [Float], block: Int = 256) -> [Float] {
        var y = x
        y.withUnsafeMutableBufferPointer { p in
            var start = 0
            while start < p.count {
                let n = min(block, p.count - start)
                unit.process(p.baseAddress! + start, frames: n)
                start += n
            }
        }
        return y
    }

    /// A square wave of peak `amplitude` (|x| constant, so peak and RMS level are both
    /// 20·log10(amplitude)), period 480 samples (100 Hz at 48 kHz).
    static func square(count: Int, amplitude: Float) -> [Float] {
        (0..<count).map { ($0 / 240) % 2 == 0 ? amplitude : -amplitude }
    }

    /// Linear amplitude of `db` dBFS.
    static func amplitude(_ db: Double) -> Float { Float(pow(10, db / 20)) }

    /// Gain in dB applied at sample `i` (output over input, same sign assumed).
    static func gainDB(_ y: [Float], _ x: [Float], _ i: Int) -> Double {
        20 * log10(Double(abs(y[i])) / Double(abs(x[i])))
    }

    /// Largest |y[n] − y[n − 1]| over `range`.
    static func largestStep(_ y: [Float], _ range: Range<Int>) -> Float {
        var m: Float = 0
        for i in range where i > 0 { m = max(m, abs(y[i] - y[i - 1])) }
        return m
    }

    /// Energy (sum of squares) of `x[range]`.
    static func energy(_ x: [Float], _ range: Range<Int>) -> Double {
        range.reduce(0) { $0 + Double(x[$1]) * Double(x[$1]) }
    }
}
