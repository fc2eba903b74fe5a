import VoiceSpeex

/// Decides the reference resampler's ratio from the echo canceller's filter shifts: the control
/// loop of clock-drift compensation.
///
/// Before it follows, each look's shift over the time since the previous look is the whole
/// drift (the filter slides with the echo). Three looks in a row that agree (same sign, at least
/// `engageThresholdPPM`, within half of their mean) engage the resampler at that drift. From
/// then on the filter only slides by what is left, and each look moves the ratio by `gain` of
/// it: an integrator, so the ratio settles where the filter stands still. A drift beyond what
/// the resampler takes (±`DriftResampler.limitPPM`) is held at the limit and reported as not
/// followed.
///
/// Units: shifts in samples, rates in ppm of the sample rate; positive drift means the echo's
/// delay grows (as `DriftEstimator` reports it). The resampler's ratio is its opposite.
///
/// - Realtime: every method is safe.
struct DriftFollower {
    /// Frames between looks at the filter (about 0.3 s).
    let interval: Int
    /// Smallest drift that engages the resampler, ppm.
    let engageThresholdPPM = 8.0
    /// Share of the remaining drift corrected per look.
    let gain = 0.6
    /// Frames since the last look, and how many of them had far-end signal.
    private var frames = 0
    private var activeFrames = 0
    /// Samples since the last look that gave a shift (or since forgetting).
    private var elapsed = 0
    /// The last three drift readings before engaging, ppm.
    private var readings = (0.0, 0.0, 0.0)
    private var readingCount = 0
    /// The drift being followed, ppm (echo delay growth); 0 before engaging.
    private(set) var driftPPM = 0.0
    private(set) var engaged = false
    /// The delay estimator's last drift figure, and what the filter's shifts added since.
    private var hasSlope = false
    private var slopePPM = 0.0
    private var trimPPM = 0.0
    /// The drift is larger than the resampler takes.
    private(set) var beyondRange = false

    init(frameSize: Int, sampleRate: Int) {
        interval = max(1, Int((0.3 * Double(sampleRate) / Double(frameSize)).rounded()))
    }

    /// Counts one canceller frame; returns true when a look at the filter is due (the far end
    /// played through most of the interval, so the filter is tracking).
    @_noLocks
    mutating func frame(frameSize: Int, referenceActive: Bool) -> Bool {
        frames += 1
        elapsed += frameSize
        if referenceActive { activeFrames += 1 }
        guard frames >= interval else { return false }
        let due = activeFrames * 5 >= frames * 4
        frames = 0
        activeFrames = 0
        return due
    }

    /// Forgets the time base after a canceller reset or delay jump (the next look starts anew).
    @_noLocks
    mutating func forget() {
        elapsed = 0
        readingCount = 0
    }

    /// Takes the delay estimator's drift figure (`DriftEstimator`, the slope of the echo's bulk
    /// delay: it measures the clocks themselves, whatever the resampler does). The first figure
    /// engages following if the filter's shifts have not; every figure then sets the drift
    /// followed, keeping what the filter's shifts added on top since (`trimPPM`). Returns the
    /// resampler's ratio (ppm).
    @_noLocks
    mutating func takeSlope(driftPPM slope: Double) -> Double {
        if !engaged || !hasSlope { trimPPM = engaged ? driftPPM - slope : 0 }
        slopePPM = slope
        engaged = true
        hasSlope = true
        readingCount = 0
        return setDrift(slopePPM + trimPPM)
    }

    @_noLocks
    private mutating func setDrift(_ drift: Double) -> Double {
        let limit = DriftResampler.limitPPM
        beyondRange = abs(drift) > limit
        driftPPM = min(max(drift, -limit), limit)
        return -driftPPM
    }

    /// Drops an engagement the reference could not take; readings start again.
    @_noLocks
    mutating func disengage() {
        engaged = false
        hasSlope = false
        driftPPM = 0
        trimPPM = 0
        readingCount = 0
    }

    /// Takes a look's shift (samples, nil when the look had none). Returns the ratio the
    /// resampler should run at (ppm, input per output minus one) once engaged, else nil.
    @_noLocks
    mutating func observe(shift: Double?, sampleRate: Int) -> Double? {
        defer { elapsed = 0 }
        guard let shift, elapsed > 0 else { return nil }
        let rate = shift / Double(elapsed) * 1e6
        if engaged {
            trimPPM += gain * rate
            return setDrift((hasSlope ? slopePPM : 0) + trimPPM)
        }
        readings = (readings.1, readings.2, rate)
        readingCount += 1
        guard readingCount >= 3 else { return nil }
        let mean = (readings.0 + readings.1 + readings.2) / 3
        func agrees(_ r: Double) -> Bool {
            r * mean > 0 && abs(r) >= engageThresholdPPM && abs(r - mean) <= 0.5 * abs(mean)
        }
        guard agrees(readings.0), agrees(readings.1), agrees(readings.2) else { return nil }
        engaged = true
        trimPPM = mean
        return setDrift(mean)
    }
}
