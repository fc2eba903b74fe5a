import VoiceRT

/// Estimates the clock drift between the far end's playback and the microphone from the slope of
/// the echo's bulk delay over time, in parts per million.
///
/// Two sound cards bridged into one JACK graph (alsa_in, zita-a2j) run on their own clocks: the
/// echo then arrives a little later (or earlier) every second, at ppm × 10⁻⁶ seconds per second.
/// The delay estimator's refined peak lags (`DelayEstimator.preciseLag`, about every 0.5 s) are
/// fitted with a least-squares line whose sums forget old points (`memory` points of
/// half-weight); the slope is the drift. A lag that lands more than `jumpSamples` off the line
/// (the echo path moved: someone moved the speaker, the delay changed) starts the fit again.
/// Positive: the echo's delay grows (the speaker's clock runs slow against the mic's).
///
/// A figure is reported once the points span `minimumSpanSeconds`, or sooner (`earlySpanSeconds`)
/// when the slope already stands `earlySignificance` standard errors clear of zero: a drift that
/// strong is no scatter, and every second it goes uncompensated the canceller chases a moving
/// echo (on the yardstick's 100 ppm drift, reporting at ~2.5 s instead of ~5 s removed much more
/// echo, and changed nothing without drift: figures in docs/measurements.md).
///
/// The figure engages drift compensation (`DriftFollower`), which then refines it.
///
/// - Realtime: `add` is safe.
struct DriftEstimator {
    /// Points before a figure is reported.
    static let minimumPoints = 10
    /// Seconds the points must span before a figure is reported.
    static let minimumSpanSeconds = 5.0
    /// Points, span (seconds) and significance (slope over its standard error) of an early figure.
    static let earlyPoints = 5
    static let earlySpanSeconds = 2.0
    static let earlySignificance = 6.0
    /// Forgetting per point: older points weigh less (half-weight after ~70 points, ~35 s).
    let forgetting = 0.99
    let sampleRate: Int
    /// A lag this far (samples) off the fitted line restarts the fit (4 ms).
    let jumpSamples: Double

    private var w = 0.0, st = 0.0, sl = 0.0, stt = 0.0, stl = 0.0, sll = 0.0
    private var count = 0
    private var firstTime = 0.0, lastTime = 0.0
    private var origin = -1.0

    /// Drift in ppm once enough points are in; nil before. After a restart the last figure
    /// stays until the new fit has its own.
    private(set) var ppm: Double?
    /// How far the slope behind `ppm` stands clear of the points' scatter: the slope over its
    /// standard error (0 before a figure).
    private(set) var significance = 0.0

    init(sampleRate: Int) {
        self.sampleRate = sampleRate
        jumpSamples = 0.004 * Double(sampleRate)
    }

    /// Adds a lag (samples) measured at `time` (samples since the start).
    /// - Realtime: safe.
    @_noLocks
    mutating func add(lag: Double, time: Int) {
        if origin < 0 { origin = Double(time) }
        let t = (Double(time) - origin) / Double(sampleRate)  // seconds, for well-scaled sums
        if count >= 3, let predicted = line(at: t), abs(lag - predicted) > jumpSamples {
            restart()
            origin = Double(time)
            add(lag: lag, time: time)
            return
        }
        if count == 0 { firstTime = t }
        lastTime = t
        w = forgetting * w + 1
        st = forgetting * st + t
        sl = forgetting * sl + lag
        stt = forgetting * stt + t * t
        stl = forgetting * stl + t * lag
        sll = forgetting * sll + lag * lag
        count += 1
        guard let slope = slope() else { return }
        let span = lastTime - firstTime
        let settled = count >= Self.minimumPoints && span >= Self.minimumSpanSeconds
        let early =
            count >= Self.earlyPoints && span >= Self.earlySpanSeconds
            && slope * slope >= Self.earlySignificance * Self.earlySignificance * slopeVariance(slope)
        guard settled || early else { return }
        // slope: samples of delay per second; per sample of time it is slope / rate.
        ppm = slope / Double(sampleRate) * 1e6
        let variance = slopeVariance(slope)
        significance = variance > 0 ? Double(RealtimeMath.squareRoot(Float(slope * slope / variance))) : .infinity
    }

    private func slope() -> Double? {
        let d = w * stt - st * st
        guard d > 1e-9 else { return nil }
        return (w * stl - st * sl) / d
    }

    /// The slope's variance ((samples per second)²) from the scatter of the points about the line.
    private func slopeVariance(_ slope: Double) -> Double {
        let sxx = stt - st * st / w
        let sxy = stl - st * sl / w
        let syy = sll - sl * sl / w
        let scatter = max(syy - slope * sxy, 0) / Double(max(count - 2, 1))
        return sxx > 1e-12 ? scatter / sxx : .infinity
    }

    private func line(at t: Double) -> Double? {
        guard let s = slope(), w > 0 else { return nil }
        return (sl - s * st) / w + s * t
    }

    private mutating func restart() {
        w = 0
        st = 0
        sl = 0
        stt = 0
        stl = 0
        sll = 0
        count = 0
        // The last figure stays until the new fit has enough points.
    }
}
