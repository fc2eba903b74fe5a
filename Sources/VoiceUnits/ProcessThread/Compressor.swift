import Foundation

/// A feed-forward compressor with a soft knee, working in the dB domain.
///
/// Level is detected per sample, either the peak (|x|) or the RMS (mean square over a 10 ms
/// one-pole window), and converted to dBFS with `FastDecibels` (error < 2e-5 dB, see there). The
/// static curve (Giannoulis et al. 2012) passes levels below `threshold − knee/2` unchanged, reduces
/// levels above `threshold + knee/2` by `ratio`, and joins the two with a quadratic in between.
/// The reduction is smoothed by `GainSmoother` (63 % after `attack_ms` / `release_ms`), then the
/// make-up gain (10 ms glide) is applied. Bypass glides the total gain to 0 dB over 10 ms.
/// Latency: 0 samples.
public struct Compressor: VoiceUnit, Sendable {
    /// How the level is measured.
    public enum Detector: Int, Sendable {
        case peak = 0, rms = 1
    }

    public static let parameters = [
        ParameterDescriptor(
            id: "threshold_dbfs", name: "Threshold", range: -60...0, defaultValue: -20, unit: .decibelsFullScale,
            smoothing: .followed),
        ParameterDescriptor(
            id: "ratio", name: "Ratio", range: 1...20, defaultValue: 4, unit: .ratio, smoothing: .followed),
        ParameterDescriptor(
            id: "knee_db", name: "Knee", range: 0...24, defaultValue: 6, unit: .decibels, smoothing: .followed),
        ParameterDescriptor(
            id: "attack_ms", name: "Attack", range: 0.1...200, defaultValue: 5, unit: .milliseconds,
            smoothing: .followed),
        ParameterDescriptor(
            id: "release_ms", name: "Release", range: 5...2_000, defaultValue: 100, unit: .milliseconds,
            smoothing: .followed),
        ParameterDescriptor(
            id: "makeup_db", name: "Make-up gain", range: 0...24, defaultValue: 0, unit: .decibels,
            smoothing: .glide(milliseconds: 10)),
        ParameterDescriptor(
            id: "detector", name: "Detector", range: 0...1, defaultValue: 0, unit: .ratio, labels: ["peak", "rms"]),
        .bypass,
    ]

    /// Window (one-pole time constant) of the RMS detector, in milliseconds.
    static let rmsWindowMilliseconds: Float = 10

    public var values = ParameterValues(defaults: Compressor.parameters)
    private var sampleRate: Double = 48_000

    // Per-sample terms, derived from `values`.
    private var thresholdDBFS: Float = -20
    private var kneeDB: Float = 6
    private var slope: Float = 0.75  // 1 − 1/ratio: dB of reduction per dB over the threshold
    private var rmsCoefficient: Float = 1
    private var useRMS = false

    // Signal state.
    private var meanSquare: Float = 0
    private var smoother = GainSmoother()
    private var makeup = SmoothedGain()
    private var bypass = BypassGlide()

    public init(
        thresholdDBFS: Float = -20, ratio: Float = 4, kneeDB: Float = 6, attackMs: Float = 5,
        releaseMs: Float = 100, makeupDB: Float = 0, detector: Detector = .peak, bypassed: Bool = false
    ) {
        for (i, v) in [thresholdDBFS, ratio, kneeDB, attackMs, releaseMs, makeupDB].enumerated() { store(i, v) }
        store(6, Float(detector.rawValue))
        store(7, bypassed ? 1 : 0)
        derive()
        makeup.jump(to: powf(10, values[5] / 20))
        bypass.jump(bypassed: bypassed)
    }

    /// Gain reduction now, in dB (≥ 0, before make-up). - Realtime: safe.
    @_noLocks
    public func currentReductionDB() -> Float { smoother.reductionDB }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        bypass.prepare(sampleRate: spec.sampleRate)
        makeup.rampLength = bypass.rampLength
        derive()
        reset()
    }

    public mutating func parameterChanged(_ index: Int, from old: Float) { derive() }

    /// Compresses `frames` samples in place. - Realtime: safe.
    @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames {
            let x = buffer[i]
            let levelDB: Float
            if useRMS {
                meanSquare += (x * x - meanSquare) * rmsCoefficient
                levelDB = FastDecibels.fromPower(meanSquare)
            } else {
                levelDB = FastDecibels.fromAmplitude(abs(x))
            }
            let reduction = smoother.next(wantedReduction(levelDB))
            let g = FastDecibels.amplitude(-reduction) * makeup.next()
            buffer[i] = x * bypass.gain(g)
        }
        if meanSquare < 1e-30 { meanSquare = 0 }
    }

    /// The static curve: dB of reduction wanted for a level of `levelDB` dBFS. - Realtime: safe.
    @inline(__always) @_noLocks
    func wantedReduction(_ levelDB: Float) -> Float {
        let over = levelDB - thresholdDBFS
        if 2 * over <= -kneeDB { return 0 }
        if 2 * over < kneeDB {  // inside the knee (only reachable when kneeDB > 0)
            let d = over + kneeDB / 2
            return slope * d * d / (2 * kneeDB)
        }
        return slope * over
    }

    public mutating func reset() {
        meanSquare = 0
        smoother.reset()
        makeup.jump(to: makeup.target)
        bypass.jump(bypassed: isOn(7))
    }

    /// Turns the parameter values into the per-sample terms `process` uses.
    private mutating func derive() {
        thresholdDBFS = values[0]
        kneeDB = values[2]
        slope = 1 - 1 / values[1]
        useRMS = isOn(6)
        rmsCoefficient = TimeConstant.coefficient(milliseconds: Self.rmsWindowMilliseconds, sampleRate: sampleRate)
        smoother.setTimes(attackMilliseconds: values[3], releaseMilliseconds: values[4], sampleRate: sampleRate)
        makeup.setTarget(powf(10, values[5] / 20))
        bypass.glide(bypassed: isOn(7))
    }
}
