/// `agc.target_lufs`: the slow outer loop that brings the voice's short-term loudness to a target
/// by moving the leveller's own target (`agc.target_dbfs`), within the leveller's speed limit.
///
/// No R128 filter of its own: it reads the live meter's figures (libebur128's) every
/// `interval` seconds of audio and nudges the dBFS target by a share of the loudness error; the
/// leveller on the process thread does the levelling as it always does. It only moves while the
/// voice speaks (momentary loudness within `speechWindow` of the target), so pauses and silence
/// lift nothing.
///
/// - Realtime: never; the thread that reads the meter (live: main; offline: the driver's).
public struct LoudnessSteering: Sendable {
    /// Short-term loudness to reach, LUFS.
    public let targetLUFS: Double
    /// The most the dBFS target moves per second of audio: the leveller's `speed_db_per_s`.
    public let speedDBPerSecond: Double
    /// The leveller's target range, dBFS (`agc.target_dbfs`'s).
    public static let targetRange = -40.0 ... -6.0
    /// Seconds of audio between steps.
    public static let interval = 0.5
    /// Share of the loudness error corrected per second. The short-term figure trails by about
    /// half its 3 s window; kept slow against that lag so the loop does not overshoot.
    public static let loopGain = 0.4
    /// The voice counts as speaking while its momentary loudness is at most this far under the
    /// target, LU.
    public static let speechWindow = 20.0
    /// Audio seconds measured at the last step.
    private var lastSeconds: Double?

    public init(targetLUFS: Double, speedDBPerSecond: Double) {
        self.targetLUFS = targetLUFS
        self.speedDBPerSecond = speedDBPerSecond
    }

    /// The leveller's next dBFS target given the meter's `figures` and the target now, or nil
    /// when it stays (too soon, silence, or already there).
    public mutating func step(_ figures: LoudnessFigures, currentDBFS: Double) -> Double? {
        guard let last = lastSeconds else {
            lastSeconds = figures.seconds
            return nil
        }
        guard figures.seconds - last >= Self.interval else { return nil }
        lastSeconds = figures.seconds
        // After a gap in the figures (the meter's thread held up), one second's step at most.
        let elapsed = min(figures.seconds - last, 1)
        guard let shortTerm = figures.shortTerm, let momentary = figures.momentary,
            momentary > targetLUFS - Self.speechWindow
        else { return nil }
        let limit = speedDBPerSecond * elapsed
        let change = min(max(Self.loopGain * elapsed * (targetLUFS - shortTerm), -limit), limit)
        let next = min(max(currentDBFS + change, Self.targetRange.lowerBound), Self.targetRange.upperBound)
        return abs(next - currentDBFS) >= 0.01 ? next : nil
    }
}
