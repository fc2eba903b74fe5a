import Foundation
import VoiceRT

/// Automatic gain control that levels the near-end voice and never lifts echo or noise.
///
/// speexdsp's own AGC sits after the echo canceller and raises whatever comes out, residual echo
/// included (the yardstick shows ERLE collapsing to ~1 dB with it on). This leveller only learns
/// while near-end voice is detected and applies gain above 0 dB only then (plus a short hangover
/// so word endings are not cut) and only when the caller allows lifting; otherwise the applied
/// gain falls back to at most 0 dB. Attenuation of a too-loud voice applies at all times. A lift
/// stops where the voice's recent peaks would pass −1 dBFS (`PeakCeiling`), unless a limiter
/// follows (`guardsPeaks`).
///
/// Level is tracked as a mean square over voiced frames (time constant `levelTimeConstant`), the
/// gain slews at most `speed_db_per_s`, and the applied gain glides over 10 ms.
public struct VoiceLeveller: VoiceUnit, Sendable {
    public static let parameters = [
        ParameterDescriptor(
            id: "target_dbfs", name: "Target level", range: -40 ... -6, defaultValue: -20,
            unit: .decibelsFullScale, smoothing: .followed),
        ParameterDescriptor(
            id: "max_gain_db", name: "Maximum gain", range: 0...30, defaultValue: 12, unit: .decibels,
            smoothing: .followed),
        ParameterDescriptor(
            id: "speed_db_per_s", name: "Gain speed", range: 0.5...30, defaultValue: 6,
            unit: .decibelsPerSecond, smoothing: .followed),
    ]

    /// Seconds over which the voiced level is averaged.
    static let levelTimeConstant: Double = 0.4
    /// Seconds the gain stays up after the last voiced frame.
    static let hangover: Double = 0.3
    /// Largest cut applied to a voice that is too loud, in dB.
    static let maximumCutDB: Float = 12

    public var values = ParameterValues(defaults: VoiceLeveller.parameters)
    /// Whether lifting stops where the voice's peaks meet `PeakCeiling.ceilingDBFS`. The engine
    /// turns it off when a limiter follows in the chain: that catches the peaks with its
    /// look-ahead, so the leveller may lift to its target. Set before `prepare`.
    public var guardsPeaks = true

    // Derived in `prepare` (linear / per-sample terms, so `process` needs no libm).
    private var targetPower: Float = 0.01
    private var maxGain: Float = 4
    private var minGain: Float = 0.25
    private var slewPerSample: Float = 0
    private var levelRatePerSample: Float = 0
    private var hangoverSamples = 0
    private var sampleRate: Double = 48_000

    private var level: Float = 0.01
    private var gain: Float = 1
    private var holdRemaining = 0
    private var peaks = PeakCeiling()
    private var applied = SmoothedGain()

    public init(targetDBFS: Float = -20, maxGainDB: Float = 12, speedDBPerSecond: Float = 6) {
        for (i, v) in [targetDBFS, maxGainDB, speedDBPerSecond].enumerated() { store(i, v) }
    }

    /// Gain being applied now, linear. - Realtime: safe.
    @_noLocks
    public func currentGain() -> Float { applied.current }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        deriveCoefficients()
        applied.rampLength = max(1, Int(spec.sampleRate * 0.01))
        reset()
    }

    public mutating func parameterChanged(_ index: Int, from old: Float) { deriveCoefficients() }

    /// Turns the parameters into the linear, per-sample terms `process` uses.
    private mutating func deriveCoefficients() {
        let rate = Float(sampleRate)
        targetPower = powf(10, values[0] / 10)
        maxGain = powf(10, values[1] / 20)
        minGain = powf(10, -Self.maximumCutDB / 20)
        slewPerSample = logf(10) / 20 * values[2] / rate
        levelRatePerSample = 1 / (Float(Self.levelTimeConstant) * rate)
        hangoverSamples = Int(Self.hangover * sampleRate)
        peaks.prepare(sampleRate: rate)
    }

    /// Levels `frames` samples assumed to be voiced. - Realtime: safe.
    @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        process(buffer, frames: frames, voiceActive: true)
    }

    /// Levels `frames` samples; `voiceActive` says whether near-end voice is in them, and
    /// `liftAllowed` whether gain above 0 dB may be applied at all (the engine forbids it while
    /// the far end plays, so echo can never be lifted). - Realtime: safe.
    @_noLocks
    public mutating func process(
        _ buffer: UnsafeMutablePointer<Float>, frames: Int, voiceActive: Bool, liftAllowed: Bool = true
    ) {
        if voiceActive {
            learn(buffer, frames: frames)
            holdRemaining = hangoverSamples
        } else {
            holdRemaining = max(0, holdRemaining - frames)
        }
        peaks.track(buffer, frames: frames)
        let lift = guardsPeaks ? min(gain, peaks.liftLimit) : gain
        applied.setTarget(holdRemaining > 0 && liftAllowed ? lift : min(gain, 1))
        applied.apply(buffer, frames: frames)
    }

    /// Updates the voiced level and moves the gain towards the target at the slew limit.
    @inline(__always) @_noLocks
    private mutating func learn(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        var power: Float = 0
        for i in 0..<frames { power += buffer[i] * buffer[i] }
        power /= Float(max(frames, 1))
        // The level is measured before gain, so the loop does not chase its own output.
        level += min(1, levelRatePerSample * Float(frames)) * (power - level)
        let wanted = min(max(RealtimeMath.squareRoot(targetPower / max(level, 1e-10)), minGain), maxGain)
        let step = 1 + slewPerSample * Float(frames)
        gain = wanted > gain ? min(wanted, gain * step) : max(wanted, gain / step)
    }

    public mutating func reset() {
        level = targetPower
        gain = 1
        holdRemaining = 0
        peaks.reset()
        applied.jump(to: 1)
    }
}
