import Foundation

/// Measurements of steady tones: frequency and the amplitude of one frequency component.
public enum Tone {
    /// Frequency of a steady tone from its rising zero crossings (interpolated) over `range`.
    public static func frequency(_ x: [Float], sampleRate: Int, _ range: Range<Int>) -> Double {
        var crossings: [Double] = []
        for i in (range.lowerBound + 1)..<range.upperBound where x[i - 1] < 0 && x[i] >= 0 {
            crossings.append(Double(i - 1) + Double(-x[i - 1] / (x[i] - x[i - 1])))
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * Double(sampleRate) / (last - first)
    }

    /// Amplitude of the `frequency` component of `x[range]` (a single-bin DFT; exact for whole
    /// cycles, and well separated from other tones over long ranges).
    public static func amplitude(_ x: [Float], frequency: Double, sampleRate: Int, _ range: Range<Int>) -> Double {
        var re = 0.0, im = 0.0
        let w = 2 * Double.pi * frequency / Double(sampleRate)
        for i in range {
            re += Double(x[i]) * cos(w * Double(i))
            im += Double(x[i]) * sin(w * Double(i))
        }
        return 2 * (re * re + im * im).squareRoot() / Double(range.count)
    }

    public static func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }
}
