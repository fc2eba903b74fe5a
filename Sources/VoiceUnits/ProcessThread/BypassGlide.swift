/// How much of its own gain a dynamics unit applies: all of it while engaged, none while
/// bypassed, gliding between the two over 10 ms so that bypassing never clicks.
///
/// The unit works out the gain g it wants for a sample and applies `gain(g)` = 1 + e·(g − 1),
/// where e glides from 1 (engaged: g) to 0 (bypassed: unity). The compressor, noise gate,
/// de-esser and limiter each hold one.
///
/// - Realtime: `glide`, `gain` and `isFullyEngaged` are safe; `prepare` and `jump` are for the
///   unit's `init`, `prepare` and `reset`.
struct BypassGlide: Sendable {
    private var engaged = SmoothedGain()

    /// The glide's length in samples (set by `prepare`).
    var rampLength: Int { engaged.rampLength }

    /// Sets the glide to 10 ms at `sampleRate` Hz.
    mutating func prepare(sampleRate: Double) { engaged.rampLength = max(1, Int(sampleRate * 0.01)) }

    /// Starts a glide to bypassed or engaged. - Realtime: safe.
    @_noLocks
    mutating func glide(bypassed: Bool) { engaged.setTarget(bypassed ? 0 : 1) }

    /// Bypassed or engaged at once, with no glide.
    mutating func jump(bypassed: Bool) { engaged.jump(to: bypassed ? 0 : 1) }

    /// True when the last `gain` left the unit wholly engaged (e = 1). - Realtime: safe.
    @inline(__always) @_noLocks
    func isFullyEngaged() -> Bool { engaged.current == 1 }

    /// Advances the glide by one sample and returns the gain to apply for a wanted gain `g`:
    /// 1 + e·(g − 1). - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func gain(_ g: Float) -> Float { 1 + engaged.next() * (g - 1) }
}
