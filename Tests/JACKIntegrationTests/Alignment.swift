import VoiceTestSupport

/// Finds how many samples a recording lags a signal, for recordings far longer than a brute-force
/// correlation can handle in a debug build: a coarse search on 8-sample averages, then a fine one
/// at full rate around the coarse peak.
///
/// - Realtime: never; test thread.
enum Alignment {
    /// The lag (0...maxLag samples) at which `recording[n + lag]` best matches `signal[n]` over
    /// `span` (indices into `signal`).
    static func lag(of recording: [Float], behind signal: [Float], over span: Range<Int>, maxLag: Int) -> Int {
        let factor = 8
        let coarseRecording = decimate(recording, factor)
        let coarseSignal = decimate(signal, factor)
        let coarseSpan = (span.lowerBound / factor)..<(span.upperBound / factor)
        let coarse = best(coarseRecording, coarseSignal, coarseSpan, 0...(maxLag / factor))
        let low = max(0, coarse * factor - 2 * factor)
        return best(recording, signal, span, low...(coarse * factor + 2 * factor))
    }

    /// The lag in `lags` with the largest |correlation| of `recording[n + lag]` with `signal[n]`.
    private static func best(
        _ recording: [Float], _ signal: [Float], _ span: Range<Int>, _ lags: ClosedRange<Int>
    ) -> Int {
        var bestLag = lags.lowerBound
        var bestValue = -1.0
        for lag in lags {
            var sum = 0.0
            for n in span where n + lag < recording.count { sum += Double(recording[n + lag]) * Double(signal[n]) }
            if abs(sum) > bestValue {
                bestValue = abs(sum)
                bestLag = lag
            }
        }
        return bestLag
    }

    /// Means of consecutive groups of `factor` samples (a crude low-pass and decimation).
    private static func decimate(_ x: [Float], _ factor: Int) -> [Float] {
        stride(from: 0, to: x.count - factor + 1, by: factor).map { start in
            var sum: Float = 0
            for i in start..<(start + factor) { sum += x[i] }
            return sum / Float(factor)
        }
    }

    /// `recording` shifted earlier by `lag` samples and cut or zero-padded to `length`.
    static func shifted(_ recording: [Float], by lag: Int, length: Int) -> [Float] {
        (0..<length).map { $0 + lag < recording.count ? recording[$0 + lag] : 0 }
    }
}
