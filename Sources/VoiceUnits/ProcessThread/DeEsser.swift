import Foundation

/// A split-band de-esser: turns down only the sibilant band, only while it is too loud.
///
/// A band-pass (cookbook, 0 dB at `frequency_hz`, Q 1.5, about 1 octave) extracts the sibilant
/// band b from the input x. Its peak level in dBFS (`FastDecibels`) is compared with
/// `threshold_dbfs`: the band is reduced by the excess (ratio ∞, so sibilance is held at the
/// threshold) but never by more than `range_db`. The reduction is smoothed (`GainSmoother`: 63 %
/// after 1 ms attack, 60 ms release) into a gain g, and the output is x − (1 − g)·b. With g = 1
/// this is x exactly, and x − b is the cookbook notch, so only the band is ever touched.
/// Frequency changes crossfade the band filter over 10 ms; bypass glides g to 1 over 10 ms.
/// Latency: 0 samples.
public struct DeEsser: VoiceUnit, Sendable {
    public static let parameters = [
        ParameterDescriptor(
            id: "frequency_hz", name: "Frequency", range: 2_000...12_000, defaultValue: 6_000, unit: .hertz,
            smoothing: .crossfade(milliseconds: 10)),
        ParameterDescriptor(
            id: "threshold_dbfs", name: "Threshold", range: -60...0, defaultValue: -30, unit: .decibelsFullScale,
            smoothing: .followed),
        ParameterDescriptor(
            id: "range_db", name: "Range", range: 0...24, defaultValue: 12, unit: .decibels, smoothing: .followed),
        .bypass,
    ]

    /// Q of the sidechain band-pass (≈ 1 octave between −3 dB points).
    static let bandQ: Double = 1.5
    /// Attack and release of the band's gain reduction, in milliseconds.
    static let attackMilliseconds: Float = 1
    static let releaseMilliseconds: Float = 60

    public var values = ParameterValues(defaults: DeEsser.parameters)
    private var sampleRate: Double = 48_000
    // What `process` reads of `values`, copied when they change.
    private var thresholdDBFS: Float = -30
    private var rangeDB: Float = 12

    private var band = GlidingBiquad()
    private var smoother = GainSmoother()
    private var bypass = BypassGlide()

    public init(frequencyHz: Float = 6_000, thresholdDBFS: Float = -30, rangeDB: Float = 12, bypassed: Bool = false) {
        for (i, v) in [frequencyHz, thresholdDBFS, rangeDB, bypassed ? 1 : 0].enumerated() { store(i, v) }
        (self.thresholdDBFS, self.rangeDB) = (values[1], values[2])
        bypass.jump(bypassed: bypassed)
    }

    /// Reduction of the sibilant band now, in dB (≥ 0). - Realtime: safe.
    @_noLocks
    public func currentReductionDB() -> Float { smoother.reductionDB }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        bypass.prepare(sampleRate: spec.sampleRate)
        band.setFadeLength(bypass.rampLength)
        smoother.setTimes(
            attackMilliseconds: Self.attackMilliseconds, releaseMilliseconds: Self.releaseMilliseconds,
            sampleRate: sampleRate)
        band.jump(to: design())
        reset()
    }

    public mutating func parameterChanged(_ index: Int, from old: Float) {
        switch index {
        case 0: if values[0] != old { band.setTarget(design()) }
        case 3: bypass.glide(bypassed: isOn(3))
        default: (thresholdDBFS, rangeDB) = (values[1], values[2])
        }
    }

    /// De-esses `frames` samples in place. - Realtime: safe.
    @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        band.beginBlock()
        let threshold = thresholdDBFS, range = rangeDB
        for i in 0..<frames {
            let x = buffer[i]
            let b = band.tick(x)
            let over = FastDecibels.fromAmplitude(abs(b)) - threshold
            let reduction = smoother.next(min(range, max(0, over)))
            let g = bypass.gain(FastDecibels.amplitude(-reduction))
            buffer[i] = x - (1 - g) * b
        }
    }

    public mutating func reset() {
        band.reset()
        smoother.reset()
        bypass.jump(bypassed: isOn(3))
    }

    private func design() -> BiquadCoefficients {
        BiquadDesign.bandPass(frequency: Double(values[0]), q: Self.bandQ, sampleRate: sampleRate)
    }
}
