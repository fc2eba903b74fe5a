import VoiceRT

extension SpeexEchoCanceller {
    /// One canceller frame of clock-drift compensation: while following, every ~0.3 s of
    /// far-end signal, looks at how far the filter slid and lets `DriftFollower` trim the
    /// reference resampler's ratio (the delay slope engages following and sets its bulk).
    ///
    /// - Realtime: safe; a look costs about one frame of canceller work.
    @_noLocks
    mutating func followDrift(referenceActive: Bool) {
        catchUp.frame()
        // Looks cost about a canceller frame each; before following they would be wasted.
        guard follower.engaged,
            follower.frame(frameSize: frameSize, referenceActive: referenceActive)
        else { return }
        let shift = pathShift.measure(processor)
        guard let ratio = follower.observe(shift: shift, sampleRate: sampleRate) else { return }
        applyDriftRatio(ratio)
    }

    /// Takes the delay estimator's drift figure (see `DriftEstimator`): it engages following
    /// (when it stands clear of the lags' scatter) and sets the bulk of the ratio, since in
    /// large, reverberant rooms speexdsp's filter follows only part of the drift and its shifts
    /// understate it.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func engageFromDelaySlope(_ ppm: Double) {
        guard followsDrift,
            follower.engaged
                || (abs(ppm) >= Self.slopeEngagePPM && drift.significance >= Self.slopeEngageSignificance)
        else { return }
        applyDriftRatio(follower.takeSlope(driftPPM: ppm))
    }

    /// Takes the drift figure to follow, from two sources: the cross-spectrum's turning
    /// (`PhaseDrift`, from ~4.5 s of far-end speech, not moved by reflections) and the delay
    /// slope (`DriftEstimator`, from ~6 s, exact at large drifts).
    ///
    /// * A phase figure from `phaseEngagePPM` up to `PhaseDrift.trustedPPM` engages following
    ///   when its samples agree (`PhaseDrift.steadyFigure`), and while it leads, it is followed
    ///   down to `phaseAgreePPM`.
    /// * Otherwise the slope's figure, engaging only when significant
    ///   (`slopeEngageSignificance`), and only while the phase figure (if any) agrees: the same
    ///   sign and at least `phaseAgreePPM` (and, before following, steady: scattered phase
    ///   samples beside a slope mean the lags wander, as a recorded voice's did at 48 kHz), or
    ///   beyond the trusted range (its phases near 950 Hz wrap towards ±350 ppm: at 300 ppm it
    ///   read ~200). A phase figure near 0 overrules a slope that followed reflections (seed
    ///   7's far-end-only scenario: the slope engaged on a room without drift and lost most of
    ///   the echo removal; figures in docs/measurements.md).
    /// * Before following, a slope under `slopeAloneSignificance` waits up to `slopeWaitFigures`
    ///   figures for a phase figure to stand beside it: on a recorded voice at 48 kHz an early
    ///   slope came first, one figure before a steady phase figure, read more than twice that
    ///   figure from lags that stepped in the first seconds, and, having engaged, kept the lead.
    /// * The source that engaged keeps the lead, so the ratio does not jump between the two (in
    ///   a synthetic room the phase read a third of the drift while the slope read it exactly).
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func followDriftFigure() {
        if !follower.engaged { driftLead = 0 }
        let phase = estimator.phaseDrift.figure()
        let slope = drift.ppm
        var trustedPhase: Double? = nil
        if let phase, abs(phase) < PhaseDrift.trustedPPM { trustedPhase = phase }
        if let phase = trustedPhase, driftLead != 2,
            driftLead == 1
                ? abs(phase) >= Self.phaseAgreePPM
                : abs(phase) >= Self.phaseEngagePPM && estimator.phaseDrift.steadyFigure() != nil
        {
            if !follower.engaged { health.clockDriftPPM = Float(phase) }
            guard followsDrift else { return }
            applyDriftRatio(follower.takeSlope(driftPPM: phase))
            if follower.engaged { driftLead = 1 }
            return
        }
        if let phase = trustedPhase,
            slope == nil || abs(phase) < Self.phaseAgreePPM || (phase > 0) != (slope! > 0)
                || (!follower.engaged && estimator.phaseDrift.steadyFigure() == nil)
        {
            if !follower.engaged { health.clockDriftPPM = Float(phase) }
            return
        }
        guard let slope else { return }
        if !follower.engaged { health.clockDriftPPM = Float(slope) }
        if phase == nil && !follower.engaged && drift.significance < Self.slopeAloneSignificance
            && slopeWaits < Self.slopeWaitFigures
        {
            slopeWaits += 1
            return
        }
        engageFromDelaySlope(slope)
        if follower.engaged && driftLead == 0 { driftLead = 2 }
    }

    /// Drift figures (either source's) the delay slope waits, before following, for a phase
    /// figure: the phase figure needs ~4.5 s of far-end speech, the slope ~6 s, so a slope that
    /// comes first is early by a figure or two; one that waits longer has no phase figure to wait
    /// for.
    static var slopeWaitFigures: Int {
        @inline(__always) @_noLocks get { 4 }
    }

    /// Significance from which a delay slope engages following without waiting for a phase
    /// figure: the early figure that read more than twice the drift stood under it, a clean
    /// 100 ppm line far above it (docs/measurements.md).
    static var slopeAloneSignificance: Double {
        @inline(__always) @_noLocks get { 10 }
    }

    /// Least phase figure that lets the slope's figure be followed (same sign): the phase read a
    /// third of a synthetic room's 100 ppm (33–43 ppm), and at most 29 ppm without drift.
    static var phaseAgreePPM: Double {
        @inline(__always) @_noLocks get { 20 }
    }

    /// Smallest phase figure that engages following: on the yardstick's scenarios without drift,
    /// the early figures stayed within 29 ppm (against 78–106 with 100 ppm of drift).
    static var phaseEngagePPM: Double {
        @inline(__always) @_noLocks get { 40 }
    }

    /// Smallest delay-slope drift that engages following: early figures (6 s of far-end speech)
    /// scatter by ±20 ppm at 16 kHz, and following a wrong drift costs echo removal (20 ppm
    /// engaged on a moved speaker removed less of its echo; docs/measurement-history.md).
    static var slopeEngagePPM: Double {
        @inline(__always) @_noLocks get { 30 }
    }

    /// Least significance (the slope over its standard error) of a delay-slope figure that
    /// engages following. The settled figure needs none to be reported, and on recorded voices
    /// without drift one lag a pitch period off the others made a large settled figure that
    /// barely stood above the scatter (docs/measurements.md); a real drift stands far clear.
    static var slopeEngageSignificance: Double {
        @inline(__always) @_noLocks get { 4 }
    }

    /// Sets the reference resampler's ratio (ppm); engaging it, first steps the reference's
    /// delay to the filter (`DriftCatchUp`).
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func applyDriftRatio(_ ratio: Double) {
        if referenceDelay.engaged {
            referenceDelay.setRatio(ppm: ratio)
        } else {
            let delay = referenceDelay.delay
            referenceDelay.setDelay(delay + catchUp.step(driftPPM: -ratio, frameSize: frameSize))
            guard referenceDelay.engage(ppm: ratio) else {
                referenceDelay.setDelay(delay)
                follower.disengage()  // the delay is shorter than the resampler's look-ahead
                return
            }
        }
        health.clockDriftPPM = Float(follower.driftPPM)
        health.driftCompensation = follower.beyondRange ? .beyondRange : .following
    }
}
