/// The reference's catch-up as clock-drift following engages: one step of its delay that puts
/// the echo back where the canceller's filter learned it.
///
/// Until following engages (a drift figure needs seconds of far-end speech, and comes well after
/// the canceller's reset at the first delay estimate), the echo drifts against the reference.
/// The filter, learning all the while and far from converged, stands near the echo's mean
/// position since that reset: about half the drift since then behind the echo. Following holds
/// the echo where it is when it engages, so the filter would have to slide that half on its
/// own, which speexdsp's filter does over seconds, and meanwhile the follower's trim reads the
/// slide as drift and overshoots (figures in docs/measurements.md). Instead the reference's delay
/// steps by that half, in whole samples, just before the resampler engages. The step comes
/// before the follower's first look at the filter, so the trim never sees it.
///
/// A smooth glide before the first look, to a fraction of a sample, was tried instead and cost one
/// synthetic room most of its echo removal (docs/measurements.md).
///
/// Units: canceller frames, samples, ppm of the sample rate; positive drift: the echo's delay
/// grows (as `DriftEstimator` reports it).
///
/// - Realtime: every method is safe.
struct DriftCatchUp {
    /// Canceller frames since the canceller's last reset (or the start).
    private(set) var framesSinceReset = 0

    /// Share of the drift since the reset that the filter stands behind the echo when following
    /// engages: the centre of what it learned over that time, the echo's mean position.
    static var share: Double {
        @inline(__always) @_noLocks get { 0.5 }
    }

    /// Forgets the time base (the canceller was reset).
    @_noLocks
    mutating func reset() { framesSinceReset = 0 }

    /// Counts one canceller frame.
    @_noLocks
    mutating func frame() { framesSinceReset += 1 }

    /// Samples to add to the reference's delay as following engages at `driftPPM`, with frames
    /// of `frameSize` samples: `share` of what the echo's delay moved since the reset, rounded.
    @_noLocks
    func step(driftPPM: Double, frameSize: Int) -> Int {
        let moved = Self.share * driftPPM * 1e-6 * Double(framesSinceReset * frameSize)
        return Int(moved + (moved >= 0 ? 0.5 : -0.5))
    }
}
