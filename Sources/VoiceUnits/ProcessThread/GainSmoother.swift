/// Smooths a gain reduction (in dB, ≥ 0) with separate attack and release: Giannoulis, Massberg
/// and Reiss's "smooth decoupled peak detector" (JAES 2012).
///
/// A release stage (instant rise, one-pole fall with the release coefficient) feeds an attack
/// stage (one-pole both ways with the attack coefficient). A step up in reduction reaches 63 % after
/// the attack time; a step down recovers 63 % after about the release time (plus the attack lag,
/// negligible when attack ≪ release). Working in dB makes the times independent of the depth.
///
/// - Realtime: `next` is safe.
struct GainSmoother: Sendable {
    /// One-pole coefficients (see `TimeConstant.coefficient`).
    var attackCoefficient: Float = 1
    var releaseCoefficient: Float = 1
    private var held: Float = 0
    /// Smoothed gain reduction now, in dB.
    private(set) var reductionDB: Float = 0

    /// Feeds the wanted reduction for one sample (dB) and returns the smoothed one (dB).
    @inline(__always) @_noLocks
    mutating func next(_ wantedDB: Float) -> Float {
        held = max(wantedDB, held + (wantedDB - held) * releaseCoefficient)
        reductionDB += (held - reductionDB) * attackCoefficient
        return reductionDB
    }

    /// Sets both coefficients from the attack and release times (milliseconds) at `sampleRate`
    /// Hz. - Realtime: as `TimeConstant.coefficient` (libm): from the unit's `prepare` or its
    /// recomputed terms, never per sample.
    mutating func setTimes(attackMilliseconds: Float, releaseMilliseconds: Float, sampleRate: Double) {
        attackCoefficient = TimeConstant.coefficient(milliseconds: attackMilliseconds, sampleRate: sampleRate)
        releaseCoefficient = TimeConstant.coefficient(milliseconds: releaseMilliseconds, sampleRate: sampleRate)
    }

    /// Back to no reduction.
    mutating func reset() {
        held = 0
        reductionDB = 0
    }
}
