import VoiceRT

/// A level meter for the status line: RMS smoothed over about 300 ms, peak with a slow release.
///
/// Values are linear (1.0 = full scale); the main thread converts them to dBFS.
///
/// - Realtime: `measure` is safe.
struct LevelMeter {
    private(set) var rms: Float = 0
    private(set) var peak: Float = 0
    /// Both figures, as the health figures take them. - Realtime: safe.
    var reading: (rms: Float, peak: Float) {
        @inline(__always) @_noLocks get { (rms, peak) }
    }
    private var meanSquare: Float = 0
    private let ratePerSample: Float
    private let peakReleasePerSample: Float

    init(sampleRate: Int) {
        ratePerSample = 1 / (0.3 * Float(sampleRate))
        // About 20 dB per second of release.
        peakReleasePerSample = 2.3 / Float(sampleRate)
    }

    /// Measures `frames` samples in one pass (mean square and peak).
    @inline(__always) @_noLocks
    mutating func measure(_ samples: UnsafePointer<Float>, _ frames: Int) {
        var sum: Float = 0
        var blockPeak: Float = 0
        for i in 0..<frames {
            let x = samples[i]
            sum += x * x
            blockPeak = max(blockPeak, abs(x))
        }
        measure(power: frames > 0 ? sum / Float(frames) : 0, peak: blockPeak, frames: frames)
    }

    @inline(__always) @_noLocks
    mutating func measure(power: Float, peak blockPeak: Float, frames: Int) {
        meanSquare += min(1, ratePerSample * Float(frames)) * (power - meanSquare)
        rms = RealtimeMath.squareRoot(meanSquare)
        peak = max(blockPeak, peak * max(0, 1 - peakReleasePerSample * Float(frames)))
    }
}
