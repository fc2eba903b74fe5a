import VoiceTestSupport

/// Coarse alignment of two recordings of the same port started at unrelated times (jack_capture
/// and the test peer), by correlating their 10 ms energy envelopes; `Alignment` then refines it.
///
/// - Realtime: never; test thread.
enum Envelope {
    /// Samples per envelope block (10 ms at 48 kHz).
    static let block = 480

    /// The lag in samples (a multiple of `block`, 0...maxLag) at which `later[n + lag]` best
    /// matches `earlier[n]`, i.e. how much sooner `later`'s recording started.
    static func lag(of later: [Float], behind earlier: [Float], maxLag: Int) -> Int {
        let a = levels(earlier), b = levels(later)
        var bestLag = 0
        var bestValue = -Double.infinity
        for lag in 0...(maxLag / block) {
            var sum = 0.0
            for n in a.indices where n + lag < b.count { sum += a[n] * b[n + lag] }
            if sum > bestValue {
                bestValue = sum
                bestLag = lag
            }
        }
        return bestLag * block
    }

    /// Mean-removed RMS of each block, so silence correlates negatively with sound.
    private static func levels(_ x: [Float]) -> [Double] {
        let raw = stride(from: 0, to: x.count - block + 1, by: block).map {
            Double(Measure.rms(x, $0..<($0 + block)))
        }
        let mean = raw.reduce(0, +) / Double(max(1, raw.count))
        return raw.map { $0 - mean }
    }
}
