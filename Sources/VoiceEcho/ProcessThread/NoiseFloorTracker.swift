/// Follows the noise floor of a signal's frame powers: drops at once to a quieter frame, rises
/// slowly (about 3 dB per second), the classic minimum-statistics shortcut.
///
/// The engine uses it to confirm speexdsp's voice decisions: a frame only counts as voice when
/// the cleaned output stands `margin` above the floor, so residual echo and noise left at the
/// floor by the suppressors never make the leveller lift.
///
/// - Realtime: `update` is safe.
struct NoiseFloorTracker {
    /// Per-frame growth factor of the floor.
    let rise: Float
    /// Starts high (0 dBFS) and drops to the first real frame.
    private(set) var floor: Float = 1

    /// A tracker for frames of `frameSize` samples at `sampleRate` Hz.
    init(frameSize: Int, sampleRate: Int) {
        // 3 dB/s ≈ ×2 per second in power; per frame 1 + ln2 · frame/rate.
        rise = 1 + 0.693 * Float(frameSize) / Float(sampleRate)
    }

    /// Feeds one frame's mean square; returns true when it stands `margin` (power ratio) above
    /// the floor.
    @inline(__always) @_noLocks
    mutating func update(_ power: Float, margin: Float) -> Bool {
        // Digital silence (below -100 dBFS: the stream's first blocks, a muted source) is not a
        // noise floor: taking it would pin the floor so low that every later frame counted as
        // voice until the 3 dB/s rise caught up, tens of seconds later.
        guard power > 1e-10 else { return false }
        floor = power < floor ? power : floor * rise
        return power > margin * floor
    }
}
