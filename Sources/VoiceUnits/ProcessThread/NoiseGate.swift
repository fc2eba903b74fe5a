import Foundation

/// A noise gate: attenuates by `range_db` while the signal stays below the threshold.
///
/// The key is a peak follower (instant rise, 10 ms fall so it does not drop between the peaks of
/// a low voice). The gate opens when the key exceeds `threshold_dbfs`, stays open at least
/// `hold_ms` after the key was last above it, and closes once the key is 4 dB under the threshold
/// (hysteresis, so a level near the threshold does not chatter). The applied gain moves in the dB
/// domain with one-pole time constants: 63 % of the way to open after `attack_ms`, 63 % of the
/// way to `range_db` after `release_ms` (a fade that is linear in dB sounds even). Bypass glides
/// the gain to 0 dB over 10 ms. Latency: 0 samples.
public struct NoiseGate: VoiceUnit, Sendable {
    public static let parameters = [
        ParameterDescriptor(
            id: "threshold_dbfs", name: "Threshold", range: -90...0, defaultValue: -50, unit: .decibelsFullScale,
            smoothing: .followed),
        ParameterDescriptor(
            id: "attack_ms", name: "Attack", range: 0.1...50, defaultValue: 1, unit: .milliseconds,
            smoothing: .followed),
        ParameterDescriptor(
            id: "hold_ms", name: "Hold", range: 0...500, defaultValue: 50, unit: .milliseconds, smoothing: .followed),
        ParameterDescriptor(
            id: "release_ms", name: "Release", range: 5...2_000, defaultValue: 150, unit: .milliseconds,
            smoothing: .followed),
        // Gain while closed: −40 dB leaves some room tone, −90 dB is a hard mute.
        ParameterDescriptor(
            id: "range_db", name: "Range", range: -90...0, defaultValue: -40, unit: .decibels, smoothing: .followed),
        .bypass,
    ]

    /// dB under the threshold at which an open gate may close.
    static let hysteresisDB: Float = 4
    /// Fall time of the key's peak follower, in milliseconds.
    static let keyReleaseMilliseconds: Float = 10

    public var values = ParameterValues(defaults: NoiseGate.parameters)
    private var sampleRate: Double = 48_000

    // Per-sample terms, derived from `values` off the process thread.
    private var openLevel: Float = 0
    private var closeLevel: Float = 0
    private var keyDecay: Float = 0
    private var attackCoefficient: Float = 1
    private var releaseCoefficient: Float = 1
    private var holdSamples = 0
    private var rangeDB: Float = -40

    // Signal state.
    private var key: Float = 0
    private var open = false
    private var holdRemaining = 0
    private var gainDB: Float = -40
    private var bypass = BypassGlide()

    public init(
        thresholdDBFS: Float = -50, attackMs: Float = 1, holdMs: Float = 50, releaseMs: Float = 150,
        rangeDB: Float = -40, bypassed: Bool = false
    ) {
        for (i, v) in [thresholdDBFS, attackMs, holdMs, releaseMs, rangeDB].enumerated() { store(i, v) }
        store(5, bypassed ? 1 : 0)
        derive()
        bypass.jump(bypassed: bypassed)
        gainDB = self.rangeDB
    }

    /// Gain applied now, in dB (≈ 0 open, ≈ `range_db` closed). - Realtime: safe.
    @_noLocks
    public func currentGainDB() -> Float { gainDB }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        bypass.prepare(sampleRate: spec.sampleRate)
        derive()
        reset()
    }

    public mutating func parameterChanged(_ index: Int, from old: Float) { derive() }

    /// Gates `frames` samples in place. - Realtime: safe.
    @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        let target = rangeDB
        for i in 0..<frames {
            let x = buffer[i]
            key = max(abs(x), key * keyDecay)
            if key > openLevel {
                open = true
                holdRemaining = holdSamples
            } else if open {
                if holdRemaining > 0 {
                    holdRemaining -= 1
                } else if key < closeLevel {
                    open = false
                }
            }
            gainDB += open ? (0 - gainDB) * attackCoefficient : (target - gainDB) * releaseCoefficient
            let g = FastDecibels.amplitude(gainDB)
            buffer[i] = x * bypass.gain(g)
        }
        if key < 1e-20 { key = 0 }
    }

    public mutating func reset() {
        key = 0
        open = false
        holdRemaining = 0
        gainDB = rangeDB
        bypass.jump(bypassed: isOn(5))
    }

    /// Turns the parameter values into the per-sample terms `process` uses.
    private mutating func derive() {
        let thresholdDBFS = values[0]
        openLevel = powf(10, thresholdDBFS / 20)
        closeLevel = powf(10, (thresholdDBFS - Self.hysteresisDB) / 20)
        attackCoefficient = TimeConstant.coefficient(milliseconds: values[1], sampleRate: sampleRate)
        holdSamples = TimeConstant.samples(milliseconds: values[2], sampleRate: sampleRate)
        releaseCoefficient = TimeConstant.coefficient(milliseconds: values[3], sampleRate: sampleRate)
        rangeDB = values[4]
        keyDecay = 1 - TimeConstant.coefficient(milliseconds: Self.keyReleaseMilliseconds, sampleRate: sampleRate)
        bypass.glide(bypassed: isOn(5))
    }
}
