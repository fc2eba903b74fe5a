/// Tells when the echo path changes under a converged canceller (a laptop moved, a speaker
/// turned): the canceller's removal collapses at once while the mic's level against the far end
/// stays where the old path put it, and the filter's echo estimate now adds to the error instead
/// of taking from it.
///
/// Each far-end frame gives the mic and cancelled mean squares, the held reference level, and
/// the canceller's echo estimate y (mic − error) as its mean square and its product with the
/// error e. Over the last `frames` frames it fires when
/// - the removal before (mic over cancelled power, averaged over ~0.25 s) was at least
///   `convergedRatio` (12 dB): there was a converged filter to lose;
/// - the far end talks in each frame, within `talkingRatio` (10 dB) of its held level: its
///   stopping is no path change (the echo's tail and a near end after it read like one);
/// - the removal now is under `collapsedRatio` (3 dB);
/// - the mic stands at most `riseRatio` (2.5 dB) above what the path's gain (mic over held
///   reference, averaged as the removal) explains: no near end has joined;
/// - e and y correlate below `correlation` (−0.1): the estimate is subtracted from an echo it no
///   longer matches (with near-end speech over a right estimate they do not correlate);
/// and all of this on `looks` frames running. Near-end onsets too quiet to raise the mic by
/// 2.5 dB may still pass it; what acts on it (`StartupSuppression.rearm`) ends at the
/// first frame the mic rises clearly above the old path's gain.
///
/// - Realtime: `update` is safe.
struct EchoPathChange {
    /// Removal before a change that counts as converged (12 dB).
    let convergedRatio: Float = 15.85
    /// Removal under which it counts as collapsed (3 dB).
    let collapsedRatio: Float = 2
    /// Mic over the path gain's prediction above which a near end is taken to join (2.5 dB).
    let riseRatio: Float = 1.778
    /// Correlation of the error with the echo estimate under which the estimate is wrong.
    let correlation: Float = -0.3
    /// The reference's power over its held level below which the far end is not taken to talk
    /// (−10 dB).
    let talkingRatio: Float = 0.1
    /// Far-end level below which nothing plays (mean square); the averages skip such frames.
    let farSilence: Float = 1e-6
    /// Frames summed per look, and looks running that fire (a near end that joined quietly
    /// while the filter slipped passed two looks on the yardstick's synthetic drift scenario).
    let frames = 2
    let looks = 3
    /// Weight of a frame in the averages from before.
    let weight: Float
    private var mic: Float = 0
    private var cancelled: Float = 0
    private var last = (mic: Float(0), cancelled: Float(0), cross: Float(0), estimate: Float(0), talking: false)
    private var running = 0

    /// The path gain before the change (mic over held reference power), for the caller's
    /// near-end test.
    private(set) var pathGain: Float = 0

    init(frameSize: Int, sampleRate: Int) {
        weight = min(1, 0.03 * Float(frameSize) / (0.008 * Float(sampleRate)))
    }

    /// Takes one frame while the far end plays or its echo rings (`heldReference` above
    /// silence); true on the frame a change is seen.
    @_noLocks
    mutating func update(
        micPower: Float, cancelledPower: Float, referencePower: Float, heldReference: Float, estimateCross: Float,
        estimatePower: Float
    ) -> Bool {
        let talking = referencePower >= talkingRatio * heldReference
        let m = micPower + last.mic
        let c = cancelledPower + last.cancelled
        let cross = estimateCross + last.cross
        let y = estimatePower + last.estimate
        let bothTalking = talking && last.talking
        last = (micPower, cancelledPower, estimateCross, estimatePower, talking)
        let collapsed =
            bothTalking && mic > 0 && mic >= convergedRatio * cancelled && m < collapsedRatio * c
            && m <= Float(frames) * riseRatio * pathGain * heldReference && cross < 0
            && cross * cross > correlation * correlation * y * c
        if collapsed {
            running += 1
            return running == looks
        }
        running = 0
        guard referencePower >= farSilence else { return false }
        mic += weight * (micPower - mic)
        cancelled += weight * (cancelledPower - cancelled)
        pathGain += weight * (micPower / heldReference - pathGain)
        return false
    }
}
