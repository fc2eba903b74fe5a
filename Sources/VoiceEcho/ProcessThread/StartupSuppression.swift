import VoiceRT

/// Carries echo suppression while the linear canceller converges for the first time.
///
/// speexdsp's filter needs ~1.5 s of far-end speech before it removes 10 dB, and the post-filter
/// works from the filter's echo estimate, so the first seconds of a call keep most of the echo.
/// Until the canceller has removed `doneRatio` (18 dB) over ~0.2 s of far-end frames, frames
/// where the far end plays (or its echo still rings: the reference's level is held with a
/// 20 dB / 0.3 s decay) and the mic is at most 6 dB above that level are attenuated by `gain`
/// (−20 dB). A loudspeaker's echo reaches the mic below the level it was sent at, so a mic well
/// above the reference is the near end talking: those frames pass untouched. No path model helps
/// here: at the start there is none yet. Once the filter has converged this never acts again:
/// after that a drop in removal is more often double talk than a moved speaker.
///
/// It also ends after `budgetSeconds` (6 s) of far-end activity without converging: a filter
/// that never "converges" (with headphones there is no echo to remove) would otherwise attenuate
/// a near end quieter than the reference for the whole call (a 60 s freewheel render through
/// echo-cancel lost 20 dB of its talker that way).
///
/// It ends sooner when the canceller shows no echo: from `probeSeconds` (0.4 s) of far-end
/// activity to twice that, it removes less than `evidenceRatio` (0.5 dB) of the mic's energy
/// since the probe began. Not over the ~0.2 s average: after a pause in the far end that average
/// holds only the quiet frames' tiny powers, and the first frame of the next burst, whose echo the
/// filter's estimate has not caught yet, outweighs them all and read as "no echo" while the
/// filter removed 4–8 dB around it (docs/measurements.md, branch conv36).
/// With a real echo the filter has taken a dB or more by then, though it is far from converged;
/// with none its output is the mic (figures in docs/measurements.md). Not earlier: at a quiet near
/// end's onset the output reads a few dB under the mic for a while with no echo at all. Not later
/// either: near-end speech over a real echo also lowers the removal, and double talk after the
/// probe's window should not end the fast start. So a near end talking over a far end that the mic does not hear is taken down
/// for the probe, not for the whole budget. An echo delayed beyond the filter also shows no
/// removal until the delay estimator finds it; the canceller's reset onto that delay (`restart`)
/// starts a new probe, within what is left of the budget.
///
/// It acts again, for at most `rearmSeconds` (2 s) of far-end activity, when the echo path
/// changes under a converged canceller (`EchoPathChange`): the filter then models the old room,
/// takes seconds to learn the new one, and the post-filter, which works from its estimate, lets
/// most of the echo through meanwhile. That suppression ends when the canceller removes
/// `doneRatio` again, and at the first frame whose mic stands `nearEndRatio` above what the old
/// path's gain explains: a near end that joined, or a change that was none.
///
/// - Realtime: `update` is safe.
struct StartupSuppression {
    /// Attenuation of echo-alone frames while converging (−20 dB).
    let gain: Float = 0.1
    /// Canceller removal (mic / cancelled power) that ends the start-up (18 dB). At 12 dB, and a
    /// budget of 3 s, it ended while speexdsp's filter was still converging on recorded voices
    /// (it removed 11–15 dB per frame 4–6 s into the yardstick's far end alone), and what the
    /// post-filter left there is what AECMOS weighs most (docs/measurements.md, branch fe36b).
    let doneRatio: Float = 63
    /// Weight of a frame in the ~0.2 s averages.
    let weight: Float
    /// Mic power over the held reference power above which the near end is taken to talk (6 dB).
    let nearEndRatio: Float = 4
    /// Far-end level below which nothing plays (mean square, as `NearEndDetector.farSilence`).
    let farSilence: Float = 1e-6
    /// Frames with the far end active after which the start-up ends even unconverged.
    let budgetFrames: Int
    /// Seconds of far-end activity in that budget.
    static let budgetSeconds: Float = 6
    /// Canceller removal (mic / cancelled power) below which, after the probe, there is taken to
    /// be no echo (0.5 dB).
    let evidenceRatio: Float = 1.122
    /// Frames with the far end active after which the removal is checked (for as many again).
    let probeFrames: Int
    /// Seconds of far-end activity in that probe.
    static let probeSeconds: Float = 0.4
    private var farFrames = 0
    /// `farFrames` when the probe began: at the start, or when the filter last restarted.
    private var probeStart = 0
    /// Mic and cancelled energy (sums of mean squares) over far-end frames since the probe began.
    private var probeMic: Float = 0
    private var probeCancelled: Float = 0
    /// Ended for lack of evidence of an echo: a filter restarted onto a new delay may find one.
    private var endedWithoutEcho = false
    /// Frames with the far end active that a suppression re-armed by a path change lasts.
    let rearmFrames: Int
    /// Seconds of far-end activity in that.
    static let rearmSeconds: Float = 2
    /// Watches for a change of the echo path once converged.
    private var pathChange: EchoPathChange
    /// Far-end frames left of a suppression re-armed by a path change; 0 when none runs.
    private var rearmedLeft = 0
    /// The path's gain (mic over held reference power) before that change.
    private var rearmedPathGain: Float = 0
    /// The reference's level, held while its echo rings.
    private var heldReference: HeldReferenceLevel
    private var mic: Float = 0
    private var cancelled: Float = 0
    /// Still converging for the first time, or re-armed after a path change.
    private(set) var active: Bool
    /// False when the start-up suppression is switched off (nothing re-arms it either).
    let enabled: Bool

    init(frameSize: Int, sampleRate: Int, enabled: Bool) {
        weight = min(1, Float(frameSize) / (0.2 * Float(sampleRate)))
        heldReference = HeldReferenceLevel(frameSize: frameSize, sampleRate: sampleRate)
        budgetFrames = Int(Self.budgetSeconds * Float(sampleRate) / Float(frameSize))
        probeFrames = Int(Self.probeSeconds * Float(sampleRate) / Float(frameSize))
        rearmFrames = Int(Self.rearmSeconds * Float(sampleRate) / Float(frameSize))
        pathChange = EchoPathChange(frameSize: frameSize, sampleRate: sampleRate)
        self.enabled = enabled
        active = enabled
    }

    /// Takes one frame's mean squares (`estimateCross`: the mean of the canceller's error times
    /// its echo estimate; `estimatePower`: the estimate's mean square); returns the gain for its
    /// output (1 unless converging or re-armed while the far end plays and the mic holds no more
    /// than echo).
    @_noLocks
    mutating func update(
        micPower: Float, cancelledPower: Float, referencePower: Float, estimateCross: Float = 0,
        estimatePower: Float = 0
    ) -> Float {
        guard enabled else { return 1 }
        let held = heldReference.update(referencePower)
        guard held >= farSilence else { return 1 }
        if !active {
            let changed = pathChange.update(
                micPower: micPower, cancelledPower: cancelledPower, referencePower: referencePower, heldReference: held,
                estimateCross: estimateCross, estimatePower: estimatePower)
            guard changed else { return 1 }
            active = true
            rearmedLeft = rearmFrames
            rearmedPathGain = pathChange.pathGain
            mic = 0
            cancelled = 0
        }
        if rearmedLeft > 0 {
            return rearmed(micPower: micPower, cancelledPower: cancelledPower, held: held)
        }
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
        probeMic += micPower
        probeCancelled += cancelledPower
        let sinceProbe = farFrames - probeStart
        if sinceProbe > probeFrames && sinceProbe <= 2 * probeFrames && probeMic < evidenceRatio * probeCancelled {
            active = false
            endedWithoutEcho = true
            return 1
        }
        return micPower <= nearEndRatio * held ? gain : 1
    }

    /// One frame of a suppression re-armed by a path change.
    @inline(__always) @_noLocks
    private mutating func rearmed(micPower: Float, cancelledPower: Float, held: Float) -> Float {
        mic += weight * (micPower - mic)
        cancelled += weight * (cancelledPower - cancelled)
        let converged = mic >= doneRatio * cancelled && mic > 0
        if converged || micPower > nearEndRatio * rearmedPathGain * held {
            rearmedLeft = 0
            active = false
            return 1
        }
        rearmedLeft -= 1
        if rearmedLeft == 0 { active = false }
        return micPower <= nearEndRatio * held ? gain : 1
    }

    /// The canceller's filter starts over (a new delay): a new probe and fresh averages, unless
    /// the start-up has ended by converging or by its budget.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func restart() {
        guard active || endedWithoutEcho, farFrames < budgetFrames else { return }
        active = true
        endedWithoutEcho = false
        probeStart = farFrames
        probeMic = 0
        probeCancelled = 0
        mic = 0
        cancelled = 0
    }
}
