/// A linear gain that glides to a new target over a fixed ramp, so gain changes never click.
///
/// - Realtime: `setTarget`, `apply` and `next` are safe.
public struct SmoothedGain: Sendable {
    /// Gain being applied now, linear.
    public private(set) var current: Float
    /// Gain the ramp is heading for, linear.
    public private(set) var target: Float
    private var step: Float = 0
    private var remaining = 0
    /// Ramp length in samples.
    public var rampLength: Int

    /// A gain starting at `initial`, gliding over `rampLength` samples on each change.
    public init(initial: Float = 1, rampLength: Int = 480) {
        current = initial
        target = initial
        self.rampLength = max(1, rampLength)
    }

    /// Starts a glide to `newTarget` (linear).
    @_noLocks
    public mutating func setTarget(_ newTarget: Float) {
        guard newTarget != target else { return }
        target = newTarget
        remaining = rampLength
        step = (target - current) / Float(rampLength)
    }

    /// Jumps to `value` with no glide (for `reset` and `prepare`).
    public mutating func jump(to value: Float) {
        current = value
        target = value
        remaining = 0
    }

    /// Multiplies `frames` samples in place by the gliding gain.
    @_noLocks
    public mutating func apply(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        if remaining == 0 {
            if current != 1 { for i in 0..<frames { buffer[i] *= current } }
            return
        }
        for i in 0..<frames { buffer[i] *= next() }
    }

    /// Advances the glide by one sample and returns the gain for that sample.
    @inline(__always) @_noLocks
    public mutating func next() -> Float {
        if remaining > 0 {
            remaining -= 1
            current = remaining == 0 ? target : current + step
        }
        return current
    }
}
