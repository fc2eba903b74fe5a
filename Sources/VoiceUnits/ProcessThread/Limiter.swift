import Foundation

/// A look-ahead peak limiter whose output never exceeds the ceiling.
///
/// The audio is delayed by the look-ahead L (5 ms, fixed so the latency never moves). For each
/// incoming sample the gain it needs is r = min(1, ceiling/|x|). The applied gain is built in
/// three steps, each of which keeps it at or below r of the sample leaving the delay:
/// 1. the minimum of r over the last L + 1 samples (`SlidingMinimum`): every window that
///    covers the leaving sample is at or below its r;
/// 2. release: the gain rises back towards that minimum with a one-pole time constant
///    (`release_ms`, 63 %), but falls at once, so it is never above it;
/// 3. a moving average over the last L + 1 values of step 2: all of them cover the leaving
///    sample, so their mean is at or below its r, and the fall is a smooth L-sample ramp.
/// As a guard against float rounding the result is also min'ed with the leaving sample's r and
/// the output clamped to the ceiling (a no-op in exact arithmetic). A ceiling change applies to
/// samples entering after it. Bypass glides the gain to 1 over 10 ms but keeps the latency.
///
/// Latency: `latencySamples()` = round(5 ms · fs) samples (240 at 48 kHz).
/// Memory: allocated in `prepare`; call `deallocate()` once when the unit is dropped, off the
/// real-time thread (see `UnitMemory`).
public struct Limiter: VoiceUnit {
    public static let parameters = [
        ParameterDescriptor(
            id: "ceiling_dbfs", name: "Ceiling", range: -24...0, defaultValue: -1, unit: .decibelsFullScale,
            smoothing: .followed),
        ParameterDescriptor(
            id: "release_ms", name: "Release", range: 1...1_000, defaultValue: 50, unit: .milliseconds,
            smoothing: .followed),
        .bypass,
    ]

    /// Look-ahead in milliseconds; also the latency.
    public static let lookaheadMilliseconds: Float = 5

    public var values = ParameterValues(defaults: Limiter.parameters)
    private var sampleRate: Double = 48_000

    // Per-sample terms.
    private var ceiling: Float = 0.891
    private var releaseCoefficient: Float = 1

    // Memory (rings indexed with `mask`; capacity ≥ L + 2).
    private var audio: UnsafeMutablePointer<Float>?  // delayed input
    private var required: UnsafeMutablePointer<Float>?  // r of each delayed sample
    private var averaged: UnsafeMutablePointer<Float>?  // the moving average's window
    private var minimum = SlidingMinimum()
    private var mask = 0
    private var lookahead = 0
    private var inverseWindow: Float = 1

    // Signal state.
    private var writeIndex = 0
    private var released: Float = 1
    private var sum: Double = 0  // Double: the running sum must not drift over hours
    private var bypass = BypassGlide()

    public init(ceilingDBFS: Float = -1, releaseMs: Float = 50, bypassed: Bool = false) {
        for (i, v) in [ceilingDBFS, releaseMs, bypassed ? 1 : 0].enumerated() { store(i, v) }
        derive()
        bypass.jump(bypassed: bypassed)
    }

    /// Delay the limiter adds, in samples (the look-ahead). - Realtime: safe.
    @_noLocks
    public func latencySamples() -> Int { lookahead }

    /// Gain reduction now, in dB (≥ 0): the smoothed gain the next sample leaving the look-ahead
    /// gets, before bypass and the rounding guard. - Realtime: safe.
    @_noLocks
    public func currentReductionDB() -> Float {
        let g = Float(sum) * inverseWindow
        return g < 1 ? -FastDecibels.fromAmplitude(max(g, 1e-6)) : 0
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        bypass.prepare(sampleRate: spec.sampleRate)
        deallocate()
        lookahead = TimeConstant.samples(milliseconds: Self.lookaheadMilliseconds, sampleRate: sampleRate, minimum: 1)
        let size = UnitMemory.powerOfTwo(atLeast: lookahead + 2)
        audio = UnitMemory.zeroed(Float.self, size, 0)
        required = UnitMemory.zeroed(Float.self, size, 1)
        averaged = UnitMemory.zeroed(Float.self, size, 1)
        minimum.allocate(window: lookahead + 1)
        mask = size - 1
        inverseWindow = 1 / Float(lookahead + 1)
        derive()
        reset()
    }

    /// Frees the memory `prepare` allocated. Call once when the unit is dropped, off the
    /// real-time thread; the unit passes audio through unchanged until prepared again.
    public mutating func deallocate() {
        audio?.deallocate()
        required?.deallocate()
        averaged?.deallocate()
        (audio, required, averaged) = (nil, nil, nil)
        minimum.deallocate()
        lookahead = 0
    }

    public mutating func parameterChanged(_ index: Int, from old: Float) { derive() }

    /// Limits `frames` samples in place (output delayed by the look-ahead). - Realtime: safe.
    @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        guard let audio, let required, let averaged else { return }
        let window = lookahead + 1
        for i in 0..<frames {
            let x = buffer[i]
            let a = abs(x)
            // 5e-7 below the exact ratio (−4e-6 dB) so that rounding in ceiling/a and in x·g can
            // never carry |x|·g a float step above the ceiling.
            let r = a > ceiling ? ceiling / a * 0.999_999_5 : 1
            let w = writeIndex & mask
            let out = (writeIndex &- lookahead) & mask
            let leaving = audio[out]
            let leavingRequired = required[out]
            audio[w] = x
            required[w] = r

            let held = minimum.push(r)
            released = held < released ? held : released + (held - released) * releaseCoefficient
            let oldest = (writeIndex &- window) & mask  // falls out of the average now
            sum += Double(released) - Double(averaged[oldest])
            averaged[w] = released
            writeIndex &+= 1

            let g = bypass.gain(min(Float(sum) * inverseWindow, leavingRequired))
            var y = leaving * g
            if bypass.isFullyEngaged() {  // rounding guard: |y| ≤ min(|x|, ceiling at entry)
                let bound = abs(leaving) * leavingRequired
                y = min(max(y, -bound), bound)
            }
            buffer[i] = y
            if (writeIndex & mask) == 0 { resum(window) }
        }
    }

    /// Recomputes the running sum exactly (once per ring turn, O(1) amortised).
    @inline(__always) @_noLocks
    private mutating func resum(_ window: Int) {
        guard let averaged else { return }
        var s: Double = 0
        for k in 1...window { s += Double(averaged[(writeIndex &- k) & mask]) }
        sum = s
    }

    public mutating func reset() {
        if let audio, let required, let averaged {
            audio.update(repeating: 0, count: mask + 1)
            required.update(repeating: 1, count: mask + 1)
            averaged.update(repeating: 1, count: mask + 1)
        }
        minimum.reset()
        writeIndex = 0
        released = 1
        sum = Double(lookahead + 1)
        bypass.jump(bypassed: isOn(2))
    }

    /// Turns the parameter values into the per-sample terms `process` uses.
    private mutating func derive() {
        ceiling = powf(10, values[0] / 20)
        releaseCoefficient = TimeConstant.coefficient(milliseconds: values[1], sampleRate: sampleRate)
        bypass.glide(bypassed: isOn(2))
    }
}
