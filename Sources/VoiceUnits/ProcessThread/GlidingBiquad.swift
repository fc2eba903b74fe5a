/// A biquad whose coefficient changes crossfade instead of jumping.
///
/// Switching coefficients under a running filter makes a step (a click) in its output. Here a new
/// design is taken at the start of a block: the old filter keeps running on the same input and its
/// output fades into the new one's over `fadeLength` samples. Designs set while a fade runs wait
/// until it ends, so any number of parameter changes between blocks cost one fade and no fade is
/// ever cut short. The identity design is skipped entirely (no arithmetic when off).
///
/// - Realtime: `beginBlock`, `tick`, `process` are safe.
struct GlidingBiquad: Sendable {
    /// Coefficients running now (the fade's destination while one runs).
    private(set) var active = BiquadCoefficients.identity
    /// Latest design; becomes `active` at the next block start.
    private var target = BiquadCoefficients.identity
    private var state = BiquadSection()
    private var from = BiquadCoefficients.identity
    private var fromState = BiquadSection()
    private var remaining = 0
    private var inverseFade: Float = 1.0 / 480
    /// Crossfade length in samples.
    private(set) var fadeLength = 480

    /// Sets the crossfade length (samples, at least 1). - Realtime: never.
    mutating func setFadeLength(_ samples: Int) {
        fadeLength = max(1, samples)
        inverseFade = 1 / Float(fadeLength)
    }

    /// Makes `c` the design, glided into at the next block. - Realtime: never (by convention).
    mutating func setTarget(_ c: BiquadCoefficients) { target = c }

    /// Makes `c` the design at once, with clean memories (for `prepare`).
    mutating func jump(to c: BiquadCoefficients) {
        target = c
        active = c
        remaining = 0
        reset()
    }

    /// Forgets the filter memories.
    mutating func reset() {
        state = BiquadSection()
        fromState = BiquadSection()
    }

    /// True when neither a fade nor a non-identity design is running (output = input).
    @inline(__always) @_noLocks
    func isTransparent() -> Bool {
        remaining == 0 && isIdentityCoefficients(active) && isIdentityCoefficients(target)
    }

    /// Starts the fade to a pending design, if any. Call once before each block's samples.
    @inline(__always) @_noLocks
    mutating func beginBlock() {
        guard remaining == 0, !sameCoefficients(target, active) else { return }
        from = active
        fromState = state  // the new filter continues from the old memories; the fade hides the mismatch
        active = target
        remaining = fadeLength
    }

    /// Filters one sample (call `beginBlock` first in each block).
    @inline(__always) @_noLocks
    mutating func tick(_ x: Float) -> Float {
        let y = state.tick(active, x)
        guard remaining > 0 else { return y }
        let old = fromState.tick(from, x)
        remaining -= 1
        return y + (old - y) * (Float(remaining) * inverseFade)  // old's weight falls to 0
    }

    /// Filters `frames` samples in place.
    @_noLocks
    mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        beginBlock()
        if remaining == 0 {
            if isIdentityCoefficients(active) { return }
            let c = active
            for i in 0..<frames { buffer[i] = state.tick(c, buffer[i]) }
        } else {
            for i in 0..<frames { buffer[i] = tick(buffer[i]) }
        }
        state.flushDenormals()
    }
}
