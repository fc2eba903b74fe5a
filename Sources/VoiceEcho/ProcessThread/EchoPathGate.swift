/// Tells frames the echo path explains from frames with something more in the mic, for the ERLE
/// health figure.
///
/// The double-talk detector's "suspected" flag is raised by the canceller's own bad frames too
/// (a residual spike looks like a near-end onset), so an ERLE over the frames it left out counted
/// mostly the frames the canceller did well on: it read far above the measured figure, and in a
/// reverberant room no frame at all. This gate looks at the mic and the reference only, not at
/// the canceller: the echo path's gain (mic / reference power) is tracked as a lower envelope
/// (of powers smoothed over ~200 ms; down at once, up by 3 dB/s), and a frame whose mic stands more than `margin` above what that
/// gain explains holds something the far end did not play (near-end voice, a door slam).
///
/// - Realtime: `explains` is safe.
struct EchoPathGate {
    /// Power ratio above the tracked path gain that counts as "more than echo" (10 dB: echo of
    /// speech through a room swings ±5 dB per frame against its reference).
    let margin: Float = 10
    /// Per-frame rise of the tracked gain (3 dB/s).
    let rise: Float
    /// Weight of a frame in the smoothed powers (~200 ms: longer than the bulk delay and the
    /// room's early decay, so a far-end onset, whose echo has not arrived yet, does not read as
    /// a tiny path gain).
    let weight: Float
    private var gain: Float = -1
    private var mic: Float = 0
    private var reference: Float = 0

    init(frameSize: Int, sampleRate: Int) {
        rise = 1 + 0.69 * Float(frameSize) / Float(sampleRate)
        weight = min(1, Float(frameSize) / (0.2 * Float(sampleRate)))
    }

    /// True when the echo path explains the frame's mic power (`mic`, `reference`: mean squares).
    @inline(__always) @_noLocks
    mutating func explains(mic frameMic: Float, reference frameReference: Float) -> Bool {
        mic += weight * (frameMic - mic)
        reference += weight * (frameReference - reference)
        guard reference > 1e-12 else { return false }
        let ratio = mic / reference
        gain = gain < 0 || ratio < gain ? ratio : gain * rise
        return mic <= margin * gain * reference
    }
}
