import VoiceRT

extension EngineState {
    /// One canceller frame of clock-drift compensation: while following, every ~0.3 s of
    /// far-end signal, looks at how far the filter slid and lets `DriftFollower` trim the
    /// reference resampler's ratio (the delay slope engages following and sets its bulk).
    ///
    /// - Realtime: safe; a look costs about one frame of canceller work.
    @_noLocks
    mutating func followDrift(referenceActive: Bool) {
        // Looks cost about a canceller frame each; before following they would be wasted.
        guard follower.engaged,
            follower.frame(frameSize: plan.frameSize, referenceActive: referenceActive)
        else { return }
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

    /// Smallest delay-slope drift that engages following: early figures (6 s of far-end speech)
    /// scatter by ±20 ppm at 16 kHz, and following a wrong drift costs echo removal (20 ppm
    /// engaged on a moved speaker: path-change ERLE −0.9 dB).
    static var slopeEngagePPM: Double {
        @inline(__always) @_noLocks get { 30 }
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
