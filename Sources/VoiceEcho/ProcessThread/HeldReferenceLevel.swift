import VoiceRT

/// The far end's level held while its echo still rings: the reference's power per frame, kept
/// at its peak and decaying 20 dB in 0.3 s (a room's echo lasts about that long after the far
/// end stops). Frames whose mic stands well above this level hold something the far end did not
/// play. Used by `StartupSuppression` and `LeftoverEcho`.
///
/// - Realtime: `update` is safe (process thread).
struct HeldReferenceLevel {
    /// Per-frame decay of the held level (a power ratio: 20 dB in 0.3 s).
    let decay: Float
    /// The held mean square.
    private(set) var level: Float = 0

    /// A held level for `frameSize`-sample frames at `sampleRate` Hz.
    init(frameSize: Int, sampleRate: Int) {
        let db = -20 * Float(frameSize) / (0.3 * Float(sampleRate))
        decay = Decibels.amplitude(db) * Decibels.amplitude(db)
    }

    /// Takes one frame's reference mean square; returns the held level.
    @inline(__always) @_noLocks
    mutating func update(_ referencePower: Float) -> Float {
        level = max(referencePower, level * decay)
        return level
    }
}
