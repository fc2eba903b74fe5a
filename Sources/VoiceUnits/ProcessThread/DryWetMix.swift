/// The dry/wet balance of an effect that adds to the voice (delay, reverb): output =
/// (1 − mix)·dry + mix·wet, both gains gliding on each change; bypassed, dry only.
///
/// - Realtime: `set` and `next` are safe; `rampLength` and `jump` are for the unit's `init`,
///   `prepare` and `reset`.
struct DryWetMix: Sendable {
    private var dry = SmoothedGain()
    private var wet = SmoothedGain()

    /// The glide's length in samples.
    var rampLength: Int {
        get { dry.rampLength }
        set {
            dry.rampLength = newValue
            wet.rampLength = newValue
        }
    }

    /// Starts a glide to `mix` (0 dry only … 1 wet only), or to dry only while `bypassed`.
    /// - Realtime: safe.
    @_noLocks
    mutating func set(mix: Float, bypassed: Bool) {
        dry.setTarget(bypassed ? 1 : 1 - mix)
        wet.setTarget(bypassed ? 0 : mix)
    }

    /// Ends any glide: the gains jump to where they were heading.
    mutating func jump() {
        dry.jump(to: dry.target)
        wet.jump(to: wet.target)
    }

    /// One output sample from the dry and the wet one, advancing the glides. - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func next(dry x: Float, wet y: Float) -> Float { dry.next() * x + wet.next() * y }
}
