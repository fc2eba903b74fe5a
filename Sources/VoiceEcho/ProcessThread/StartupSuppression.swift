import VoiceRT

/// Carries echo suppression while the linear canceller converges for the first time.
///
/// speexdsp's filter needs ~1.5 s of far-end speech before it removes 10 dB, and the post-filter
/// works from the filter's echo estimate, so the first seconds of a call keep most of the echo.
/// Until the canceller has removed `doneRatio` (12 dB) over ~0.2 s of far-end frames, frames
/// where the far end plays (or its echo still rings: the reference's level is held with a
/// 20 dB / 0.3 s decay) and the mic is at most 6 dB above that level are attenuated by `gain`
/// (−20 dB). A loudspeaker's echo reaches the mic below the level it was sent at, so a mic well
/// above the reference is the near end talking: those frames pass untouched. No path model helps
/// here: at the start there is none yet. Once the filter has converged this never acts again:
/// after that a drop in removal is more often double talk than a moved speaker.
///
/// It also ends after `budgetSeconds` (3 s) of far-end activity without converging: with
/// headphones, or speakers the mic does not hear, there is no echo to remove, the filter never
/// "converges", and a near end quieter than the reference would otherwise be attenuated for the
/// whole call (a 60 s freewheel render through echo-cancel lost 20 dB of its talker that way).
///
/// - Realtime: `update` is safe.
struct StartupSuppression {
    /// Attenuation of echo-alone frames while converging (−20 dB).
    let gain: Float = 0.1
    /// Canceller removal (mic / cancelled power) that ends the start-up (12 dB).
    let doneRatio: Float = 16
    /// Weight of a frame in the ~0.2 s averages.
    let weight: Float
    /// Mic power over the held reference power above which the near end is taken to talk (6 dB).
    let nearEndRatio: Float = 4
    /// Far-end level below which nothing plays (mean square, as `NearEndDetector.farSilence`).
    let farSilence: Float = 1e-6
    /// Frames with the far end active after which the start-up ends even unconverged.
    let budgetFrames: Int
    /// Seconds of far-end activity in that budget.
    static let budgetSeconds: Float = 3
    private var farFrames = 0
    /// The reference's level, held while its echo rings.
    private var heldReference: HeldReferenceLevel
    private var mic: Float = 0
    private var cancelled: Float = 0
    /// Still converging for the first time.
    private(set) var active: Bool

    init(frameSize: Int, sampleRate: Int, enabled: Bool) {
        weight = min(1, Float(frameSize) / (0.2 * Float(sampleRate)))
        heldReference = HeldReferenceLevel(frameSize: frameSize, sampleRate: sampleRate)
        budgetFrames = Int(Self.budgetSeconds * Float(sampleRate) / Float(frameSize))
        active = enabled
    }

    /// Takes one frame's mean squares; returns the gain for its output (1 unless converging
    /// while the far end plays and the mic holds no more than echo).
    @_noLocks
    mutating func update(micPower: Float, cancelledPower: Float, referencePower: Float) -> Float {
        guard active else { return 1 }
        let held = heldReference.update(referencePower)
        guard held >= farSilence else { return 1 }
        farFrames += 1
        if farFrames > budgetFrames {
            active = false
            return 1
        }
        mic += weight * (micPower - mic)
        cancelled += weight * (cancelledPower - cancelled)
        if mic >= doneRatio * cancelled && mic > 0 {
            active = false
            return 1
        }
        return micPower <= nearEndRatio * held ? gain : 1
    }
}
