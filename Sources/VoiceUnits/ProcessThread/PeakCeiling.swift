import Foundation

/// The most a block of voice may be lifted so that its recent peaks stay under a ceiling.
///
/// A talker whose peaks stand far above their mean (recorded speech, a close plosive) lifted to
/// a target level would otherwise hit full scale and be clipped. The input's peak is remembered
/// falling slowly, so it holds between words and syllables and a lift granted in a pause does
/// not clip the next word.
///
/// - Realtime: `track`, `liftLimit` and `reset` are safe; `prepare` computes with libm.
struct PeakCeiling: Sendable {
    /// Where a lifted voice's peaks stop, dBFS.
    static let ceilingDBFS: Float = -1
    /// How fast the remembered peak falls, dB per second.
    static let fallDBPerSecond: Float = 0.2

    private var ceiling: Float = 0.89
    private var fallPerSample: Float = 0
    /// The input's recent peak, linear.
    private var peak: Float = 0

    /// Derives the linear ceiling and the per-sample fall for `sampleRate` Hz.
    mutating func prepare(sampleRate: Float) {
        ceiling = powf(10, Self.ceilingDBFS / 20)
        fallPerSample = logf(10) / 20 * Self.fallDBPerSecond / sampleRate
    }

    /// Remembers the block's peak, the older one falling by the block's share of
    /// `fallDBPerSecond` (a first-order step of the exponential, as the leveller's slew).
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func track(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        var blockPeak: Float = 0
        for i in 0..<frames { blockPeak = max(blockPeak, abs(buffer[i])) }
        peak = max(blockPeak, peak / (1 + fallPerSample * Float(frames)))
    }

    /// The largest gain (linear, at least 1: the ceiling never cuts) that keeps the remembered
    /// peak under the ceiling. - Realtime: safe.
    var liftLimit: Float {
        @inline(__always) @_noLocks get { max(ceiling / max(peak, 1e-10), 1) }
    }

    /// Forgets the remembered peak.
    mutating func reset() { peak = 0 }
}
