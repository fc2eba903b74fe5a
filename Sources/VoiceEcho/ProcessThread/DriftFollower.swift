import VoiceSpeex

/// Decides the reference resampler's ratio: the control loop of clock-drift compensation.
///
/// The delay estimator's slope (`DriftEstimator`: it measures the clocks, whatever the resampler
/// does) engages following and sets the bulk of the ratio with every figure. On top, the echo
/// canceller's filter is looked at every ~0.3 s: while following, it only slides by the drift
/// left over, and each look moves a trim by `gain` of it (an integrator, so the ratio settles
/// where the filter stands still). In large reverberant rooms speexdsp's filter follows only part
/// of a drift, so the slope, not the filter, leads. A drift beyond what the resampler takes
/// (±`DriftResampler.limitPPM`) is held at the limit and reported as not followed.
///
/// Units: shifts in samples, rates in ppm of the sample rate; positive drift means the echo's
/// delay grows (as `DriftEstimator` reports it). The resampler's ratio is its opposite.
///
/// - Realtime: every method is safe.
struct DriftFollower {
    /// Frames between looks at the filter (about 0.3 s).
    let interval: Int
    /// Share of the remaining drift corrected per look.
    let gain = 0.6
    /// Frames since the last look, and how many of them had far-end signal.
    private var frames = 0
    private var activeFrames = 0
    /// Samples since the last look that gave a shift (or since forgetting).
    private var elapsed = 0
    /// The drift being followed, ppm (echo delay growth); 0 before engaging.
    private(set) var driftPPM = 0.0
    private(set) var engaged = false
    /// The delay estimator's last drift figure, and what the filter's shifts added on top.
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
    }

    /// Takes the delay estimator's drift figure (`DriftEstimator`, the slope of the echo's bulk
    /// delay: it measures the clocks themselves, whatever the resampler does). The first figure
    /// engages following; every figure then sets the drift followed, keeping the trim the
    /// filter's shifts added on top (`trimPPM`). Returns the resampler's ratio (ppm).
    @_noLocks
    mutating func takeSlope(driftPPM slope: Double) -> Double {
        if !engaged { trimPPM = 0 }
        slopePPM = slope
        engaged = true
        return setDrift(slopePPM + trimPPM)
    }

    @_noLocks
    private mutating func setDrift(_ drift: Double) -> Double {
        let limit = DriftResampler.limitPPM
        beyondRange = abs(drift) > limit
        driftPPM = min(max(drift, -limit), limit)
        return -driftPPM
    }

    /// Drops an engagement the reference could not take; the next slope figure tries again.
    @_noLocks
    mutating func disengage() {
        engaged = false
        driftPPM = 0
        trimPPM = 0
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
            return setDrift(slopePPM + trimPPM)
        }
        // Not following yet: the delay slope engages (`takeSlope`). Engaging on the filter's
        // shifts alone was tried: a moved speaker's reconverging filter gave three agreeing
        // shifts and engaged at −1 ppm, which cost echo removal after the change.
        return nil
    }
}
