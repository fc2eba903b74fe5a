import VoiceRT

extension EngineState {
    /// One canceller frame of clock-drift compensation: every ~0.3 s of far-end signal, looks
    /// at how far the filter slid and lets `DriftFollower` set the reference resampler's ratio
    /// (engaging it the first time the drift is clear).
    ///
    /// - Realtime: safe; a look costs about one frame of canceller work.
    @_noLocks
    mutating func followDrift(referenceActive: Bool) {
        guard follower.frame(frameSize: plan.frameSize, referenceActive: referenceActive) else { return }
        let shift = pathShift.measure(processor)
        guard let ratio = follower.observe(shift: shift, sampleRate: sampleRate) else { return }
        applyDriftRatio(ratio)
    }

    /// Takes the delay estimator's drift figure (see `DriftEstimator`): it engages following
    /// and sets the bulk of the ratio, since in large, reverberant rooms speexdsp's filter
    /// follows only part of the drift and its shifts understate it.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func engageFromDelaySlope(_ ppm: Double) {
        guard followsDrift, follower.engaged || abs(ppm) >= Self.slopeEngagePPM else { return }
        applyDriftRatio(follower.takeSlope(driftPPM: ppm))
    }

    /// Smallest delay-slope drift that engages following (its figures are within ±10 ppm).
    static var slopeEngagePPM: Double {
        @inline(__always) @_noLocks get { 20 }
    }

    @_noLocks
    mutating func applyDriftRatio(_ ratio: Double) {
        if referenceDelay.engaged {
            referenceDelay.setRatio(ppm: ratio)
        } else if !referenceDelay.engage(ppm: ratio) {
            follower.disengage()  // the delay is shorter than the resampler's look-ahead
            return
        }
        figures.clockDriftPPM = Float(follower.driftPPM)
        figures.driftCompensation = follower.beyondRange ? .beyondRange : .following
    }
}
