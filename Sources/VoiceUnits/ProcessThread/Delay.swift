import Foundation

/// A feedback delay (echo): repeats the input after `time_ms`, each repeat `feedback` times the
/// last.
///
/// The line holds up to `maximumTimeMs` (2 s by default, allocated in `prepare`). The wet signal
/// is the line's output; what enters the line is input + feedback·wet, so an impulse comes back
/// at n·time with amplitude feedbackⁿ⁻¹ (times `mix`). Output = (1 − mix)·dry + mix·wet. Gains
/// (feedback, dry, wet) glide over 10 ms; a time change crossfades from the old tap to the new
/// one over 20 ms (no pitch sweep, no click). Bypass glides to dry only over 10 ms; the line keeps
/// running so re-engaging brings back the recent echoes, not stale ones. Time is rounded to whole
/// samples. Latency: 0 samples (the dry path is direct).
///
/// Memory: allocated in `prepare`; call `deallocate()` once when the unit is dropped, off the
/// real-time thread (see `UnitMemory`).
public struct Delay: VoiceUnit {
    public static let parameters = [
        ParameterDescriptor(
            id: "time_ms", name: "Time", range: 1...2_000, defaultValue: 300, unit: .milliseconds,
            smoothing: .crossfade(milliseconds: 20)),
        ParameterDescriptor(
            id: "feedback", name: "Feedback", range: 0...0.95, defaultValue: 0.35, unit: .ratio,
            smoothing: .glide(milliseconds: 10)),
        .mix(defaultValue: 0.3),
        .bypass,
    ]

    /// Longest delay the line is allocated for, in milliseconds (at least the `time_ms` range).
    public let maximumTimeMs: Float

    public var values = ParameterValues(defaults: Delay.parameters)
    private var sampleRate: Double = 48_000

    private var line: UnsafeMutablePointer<Float>?
    private var mask = 0
    private var maximumDelay = 0
    private var writeIndex = 0
    private var delay = 1  // samples, the tap in use
    private var targetDelay = 1
    private var fromDelay = 1  // the tap being faded out
    private var fadeRemaining = 0
    private var fadeLength = 960
    private var inverseFade: Float = 1.0 / 960

    private var feedback = SmoothedGain(initial: 0.35)
    private var mix = DryWetMix()

    public init(
        timeMs: Float = 300, feedback: Float = 0.35, mix: Float = 0.3, bypassed: Bool = false,
        maximumTimeMs: Float = 2_000
    ) {
        self.maximumTimeMs = max(maximumTimeMs, Self.parameters[0].range.upperBound)
        for (i, v) in [timeMs, feedback, mix, bypassed ? 1 : 0].enumerated() { store(i, v) }
        setGainTargets()
        self.feedback.jump(to: self.feedback.target)
        self.mix.jump()
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        deallocate()
        maximumDelay = TimeConstant.samples(milliseconds: maximumTimeMs, sampleRate: sampleRate, minimum: 1)
        let size = UnitMemory.powerOfTwo(atLeast: maximumDelay + 1)
        line = UnitMemory.zeroed(Float.self, size, 0)
        mask = size - 1
        let ramp = max(1, Int(spec.sampleRate * 0.01))
        feedback.rampLength = ramp
        mix.rampLength = ramp
        fadeLength = 2 * ramp  // 20 ms tap crossfade
        inverseFade = 1 / Float(fadeLength)
        targetDelay = delaySamples()
        delay = targetDelay
        reset()
    }

    /// Frees the line. Call once when the unit is dropped, off the real-time thread; the unit
    /// passes audio through unchanged until prepared again.
    public mutating func deallocate() {
        line?.deallocate()
        line = nil
    }

    public mutating func parameterChanged(_ index: Int, from old: Float) {
        if index == 0 { targetDelay = delaySamples() }
        setGainTargets()
    }

    /// Adds the echoes to `frames` samples in place. - Realtime: safe.
    @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        guard let line else { return }
        if fadeRemaining == 0, targetDelay != delay {  // take a new time: fade from the old tap
            fromDelay = delay
            delay = targetDelay
            fadeRemaining = fadeLength
        }
        for i in 0..<frames {
            let x = buffer[i]
            var y = line[(writeIndex &- delay) & mask]
            if fadeRemaining > 0 {
                let old = line[(writeIndex &- fromDelay) & mask]
                fadeRemaining -= 1
                y += (old - y) * (Float(fadeRemaining) * inverseFade)
            }
            var v = x + feedback.next() * y
            if abs(v) < 1e-20 { v = 0 }  // a decaying tail must not turn subnormal
            line[writeIndex & mask] = v
            writeIndex &+= 1
            buffer[i] = mix.next(dry: x, wet: y)
        }
    }

    public mutating func reset() {
        line?.update(repeating: 0, count: mask + 1)
        writeIndex = 0
        fadeRemaining = 0
        delay = targetDelay
    }

    /// `time_ms` in samples, 1...maximumDelay.
    private func delaySamples() -> Int {
        min(max(1, TimeConstant.samples(milliseconds: values[0], sampleRate: sampleRate)), max(1, maximumDelay))
    }

    private mutating func setGainTargets() {
        feedback.setTarget(values[1])
        mix.set(mix: values[2], bypassed: isOn(3))
    }
}
