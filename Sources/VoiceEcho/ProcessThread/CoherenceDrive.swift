extension SpeexEchoCanceller {
    /// Drives the post-filter's coherence gain harder while the speaker curve models a
    /// loudspeaker that clips: the curve makes most of its echo linear again, but what it does
    /// not fit (the real curve is not exactly tanh, and the filter still converges) no linear
    /// model removes. On the yardstick's nonlinear speaker the harder drive removes more echo at a
    /// small cost in double talk (figures in docs/measurements.md). Rooms without clipping keep
    /// the drive as set.
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func followSpeakerCurve() {
        guard speakerCurve.isApplied != clippingDriveEngaged else { return }
        clippingDriveEngaged = speakerCurve.isApplied
        applyCoherenceDrive()
    }

    /// Sets the post-filter's coherence exponent from the drive as set and, while a clipping
    /// loudspeaker is modelled, the clipping drive (the larger of the two).
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func applyCoherenceDrive() {
        postFilter.setCoherenceDrive(
            clippingDriveEngaged ? max(coherenceDrive, clippingCoherenceDrive) : coherenceDrive)
    }
}
