/// Decides, frame by frame, whether the far end is playing and whether the near-end talker is
/// speaking over it (double-talk detection).
///
/// speexdsp's VAD alone cannot tell voice from residual echo, and the leveller and the residual
/// echo gate must not treat echo as voice. Rules:
/// - the far end counts as active while the reference had signal within the last `farHangover`
///   frames (the echo tail keeps ringing after the far end stops);
/// - the far end counts as *recent* (no lifting allowed) for `liftHangover` frames: the echo tail
///   plus `pauseSeconds`, longer than a talker's pauses between sentences, so the leveller does
///   not lift echo residue and noise in those pauses, nor toggle its gain during double talk;
/// - with the far end silent, voice = speexdsp's VAD;
/// - with the far end active, voice = VAD and, for `persistence` frames in a row, the linear
///   canceller's output is `doubleTalkRatio` above what the echo path explains: the mic power
///   over the canceller's own echo return loss enhancement, plus the output's noise floor (a
///   near-end voice mixed in is something the echo path cannot explain). The linear ERLE is
///   learned on far-end-only frames; before it is learned, nothing counts as double talk.
///   Frames that are not candidates but whose output stands `unexplainedRatio` above the
///   expected residual are learned `slowLearning` times slower: they are mostly a talker the VAD
///   or the ratio missed (a soft onset, a syllable under loud echo), and learned at full speed
///   they raised the expected residual until the talker no longer stood out. A changed echo
///   path raises the output too and is still learned: the expected residual includes the
///   output's noise floor, which rises 3 dB/s towards the new output, and once the output is
///   within `unexplainedRatio` of it the learning is at full speed again (a path with 10 dB less
///   ERLE is learned within 10 s; see NearEndDetectorTests).
///
/// - Realtime: `decide` is safe.
struct NearEndDetector {
    /// Mean square below which the reference counts as silent (−60 dBFS).
    let farSilence: Float = 1e-6
    /// How far (power ratio, 8 dB) the canceller output must rise above the expected residual.
    let doubleTalkRatio: Float = 10
    /// Consecutive double-talk frames needed before the near end counts as talking (~40 ms):
    /// echo makes short false alarms, voice lasts.
    let persistence: Int
    /// Frames the far end stays "active" after the reference goes silent.
    let farHangover: Int
    /// Seconds of far-end silence, beyond the echo tail, before lifting is allowed again. Pauses
    /// between one talker's sentences last up to about 1 s (0.1–0.95 s on the yardstick's
    /// speech); 1.2 s waits them out, so the lift starts only once the far end has yielded.
    static let pauseSeconds: Float = 1.2
    /// Frames the far end stays "recent" after the reference goes silent (see `pauseSeconds`).
    let liftHangover: Int
    /// Weight of one frame in the linear ERLE's smoothed powers (about 1 s of memory).
    let weight: Float
    /// How far (power ratio, 3 dB) the canceller output must stand above the expected residual
    /// for a frame that is no double-talk candidate to be learned slowly (see the type's notes).
    /// On the yardstick it kept double talk at least as well in every case for a fraction of a dB
    /// of path-change ERLE; larger ratios cost double-talk STOI (runs: docs/measurement-history.md).
    let unexplainedRatio: Float = 2
    /// Factor on `weight` for such frames.
    let slowLearning: Float = 1 / 16

    private var farHold = 0
    private var liftHold = 0
    /// Noise floor of the canceller output: echo-free noise is not explained by the echo path
    /// either, so it is added to the expected residual.
    private var cancelledFloor: NoiseFloorTracker
    private var doubleTalkRun = 0
    /// Frames left in which near-end voice may be present (see `nearEndSuspected`).
    private var suspectHold = 0
    /// Frames a double-talk candidate keeps `nearEndSuspected` up (~300 ms, a syllable or two:
    /// voice around a detected onset is weaker than the onset and often not detected itself).
    let suspectHangover: Int
    private var micPower: Float = 0
    private var residualPower: Float = 0

    /// A detector for `frameSize`-sample frames at `sampleRate` Hz with an echo tail of `tail`
    /// samples.
    init(frameSize: Int, sampleRate: Int, tail: Int) {
        farHangover = max(1, (tail + frameSize - 1) / frameSize)
        liftHangover = farHangover + Int(Self.pauseSeconds * Float(sampleRate) / Float(frameSize))
        cancelledFloor = NoiseFloorTracker(frameSize: frameSize, sampleRate: sampleRate)
        persistence = max(1, Int(0.04 * Float(sampleRate) / Float(frameSize) + 0.5))
        suspectHangover = max(1, Int(0.3 * Float(sampleRate) / Float(frameSize) + 0.5))
        weight = min(1, Float(frameSize) / Float(sampleRate))
    }

    /// True while near-end voice may be in the frame: a double-talk candidate within the last
    /// `suspectHangover` frames, confirmed or not. Measurements of echo alone (the ERLE health
    /// figure) skip these frames; the gain decisions use the stricter `voiced`.
    var nearEndSuspected: Bool {
        @inline(__always) @_noLocks get { suspectHold > 0 }
    }

    /// The canceller's echo return loss enhancement learned so far (power ratio, ≥ 1).
    var linearERLE: Float { residualPower > 0 ? max(1, micPower / residualPower) : 1 }

    /// Classifies one frame. `micPower`, `cancelledPower` and `referencePower` are mean squares
    /// of the mic, the linear canceller's output and the (aligned) reference. `farRecent` is true
    /// while the far end played within `liftHangover` frames (it implies nothing about voice).
    @inline(__always) @_noLocks
    mutating func decide(
        vad: Bool, micPower: Float, cancelledPower: Float, referencePower: Float
    ) -> (voiced: Bool, farActive: Bool, farRecent: Bool) {
        _ = cancelledFloor.update(cancelledPower, margin: 1)
        if referencePower >= farSilence {
            farHold = farHangover
            liftHold = liftHangover
        } else {
            if farHold > 0 { farHold -= 1 }
            if liftHold > 0 { liftHold -= 1 }
        }
        let farActive = farHold > 0
        let farRecent = liftHold > 0
        guard farActive else {
            // Near-end voice before the far end starts may carry on into it.
            suspectHold = vad ? suspectHangover : max(0, suspectHold - 1)
            return (vad, false, farRecent)
        }
        let learned = residualPower > 0
        let expected = micPower * residualPower / max(self.micPower, 1e-20) + cancelledFloor.floor
        let candidate = vad && learned && cancelledPower > doubleTalkRatio * expected
        doubleTalkRun = candidate ? doubleTalkRun + 1 : 0
        suspectHold = candidate ? suspectHangover : max(0, suspectHold - 1)
        let voiced = doubleTalkRun >= persistence
        if !candidate {
            let w = learned && cancelledPower > unexplainedRatio * expected ? weight * slowLearning : weight
            self.micPower += w * (micPower - self.micPower)
            residualPower += w * (max(cancelledPower, 1e-14) - residualPower)
        }
        return (voiced, true, true)
    }
}
