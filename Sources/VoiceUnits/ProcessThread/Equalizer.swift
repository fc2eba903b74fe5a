import Foundation

/// A four-band parametric equaliser of cookbook biquads (shelves, bells, low- and high-pass).
///
/// Parameters, per band b = 1...4 at index 4·(b − 1) + k: `bandB_type` (k = 0, a
/// `Equalizer.BandType` raw value), `bandB_freq_hz` (1), `bandB_gain_db` (2, shelves and
/// bells only), `bandB_q` (3); then `bypass` (16, 0 or 1). A design is recomputed only when one of
/// its band's parameters changes, and each band crossfades from its old to its new design over
/// 10 ms (`GlidingBiquad`), so moving a knob or bypassing never clicks. Bands that are off, and
/// shelves and bells at 0 dB, cost nothing. Latency: 0 samples.
public struct Equalizer: VoiceUnit, Sendable {
    /// What a band does. Raw values are the `bandN_type` parameter values.
    public enum BandType: Int, Sendable, CaseIterable {
        case off = 0, lowShelf, peaking, highShelf, lowPass, highPass
    }

    /// One band's settings: frequency in Hz, gain in dB (shelves and bells), Q (cookbook Q).
    public struct Band: Sendable, Equatable {
        public var type: BandType
        public var frequency: Float
        public var gainDB: Float
        public var q: Float

        public init(type: BandType, frequency: Float, gainDB: Float = 0, q: Float = 0.707) {
            self.type = type
            self.frequency = frequency
            self.gainDB = gainDB
            self.q = q
        }
    }

    /// Number of bands.
    public static let bandCount = 4
    /// Index of the `bypass` parameter.
    public static let bypassIndex = 16

    /// Flat defaults: low shelf 120 Hz, bells at 400 Hz and 2.5 kHz, high shelf 8 kHz, all 0 dB.
    public static let defaultBands = [
        Band(type: .lowShelf, frequency: 120), Band(type: .peaking, frequency: 400, q: 1),
        Band(type: .peaking, frequency: 2_500, q: 1), Band(type: .highShelf, frequency: 8_000),
    ]

    /// Every band parameter crossfades its band's design over 10 ms (`GlidingBiquad`).
    private static let fade = ParameterSmoothing.crossfade(milliseconds: 10)

    public static let parameters: [ParameterDescriptor] =
        (0..<bandCount).flatMap { b in
            let n = b + 1
            let d = defaultBands[b]
            return [
                ParameterDescriptor(
                    id: "band\(n)_type", name: "Band \(n) type", range: 0...5,
                    defaultValue: Float(d.type.rawValue), unit: .ratio, smoothing: fade,
                    labels: ["off", "low shelf", "peaking", "high shelf", "low-pass", "high-pass"]),
                ParameterDescriptor(
                    id: "band\(n)_freq_hz", name: "Band \(n) frequency", range: 20...20_000,
                    defaultValue: d.frequency, unit: .hertz, smoothing: fade),
                ParameterDescriptor(
                    id: "band\(n)_gain_db", name: "Band \(n) gain", range: -24...24, defaultValue: d.gainDB,
                    unit: .decibels, smoothing: fade),
                ParameterDescriptor(
                    id: "band\(n)_q", name: "Band \(n) Q", range: 0.1...10, defaultValue: d.q, unit: .ratio,
                    smoothing: fade),
            ]
        } + [
            ParameterDescriptor(
                id: "bypass", name: "Bypass", range: 0...1, defaultValue: 0, unit: .ratio, smoothing: fade,
                labels: ["off", "on"])
        ]

    public var values = ParameterValues(defaults: Equalizer.parameters)
    // Four named filters rather than an array: the process path must not touch heap storage.
    private var filter1 = GlidingBiquad(), filter2 = GlidingBiquad()
    private var filter3 = GlidingBiquad(), filter4 = GlidingBiquad()
    private var sampleRate: Double = 48_000

    /// An equaliser with `bands` (missing bands take the defaults; extra ones are ignored).
    public init(bands: [Band] = Equalizer.defaultBands, bypassed: Bool = false) {
        for b in 0..<Self.bandCount where b < bands.count {  // clamped through the descriptors
            let band = bands[b]
            for (k, v) in [Float(band.type.rawValue), band.frequency, band.gainDB, band.q].enumerated() {
                store(4 * b + k, v)
            }
        }
        store(Self.bypassIndex, bypassed ? 1 : 0)
    }

    /// The settings of band `index` (0-based).
    public func band(_ index: Int) -> Band { Self.band(index, of: values) }

    /// The settings of band `b` in `values`.
    private static func band(_ b: Int, of values: ParameterValues) -> Band {
        Band(
            type: BandType(rawValue: Int(values[4 * b].rounded())) ?? .off, frequency: values[4 * b + 1],
            gainDB: values[4 * b + 2], q: values[4 * b + 3])
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        let fade = max(1, Int(spec.sampleRate * 0.01))  // 10 ms crossfade on design changes
        filter1.setFadeLength(fade)
        filter2.setFadeLength(fade)
        filter3.setFadeLength(fade)
        filter4.setFadeLength(fade)
        for b in 0..<Self.bandCount { redesign(b, glide: false) }
    }

    public mutating func parameterChanged(_ index: Int, from old: Float) {
        if index == Self.bypassIndex {
            for b in 0..<Self.bandCount { redesign(b, glide: true) }
            return
        }
        var before = values
        before[index] = old
        guard Self.band(index / 4, of: before) != band(index / 4) else { return }  // keep the running design
        redesign(index / 4, glide: true)
    }

    /// Equalises `frames` samples in place. - Realtime: safe.
    @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        filter1.process(buffer, frames: frames)
        filter2.process(buffer, frames: frames)
        filter3.process(buffer, frames: frames)
        filter4.process(buffer, frames: frames)
    }

    public mutating func reset() {
        filter1.reset()
        filter2.reset()
        filter3.reset()
        filter4.reset()
    }

    /// Designs band `index` (identity when bypassed) and glides to it, or jumps when `glide` is false.
    private mutating func redesign(_ index: Int, glide: Bool) {
        let c = isOn(Self.bypassIndex) ? .identity : Self.design(band(index), sampleRate: sampleRate)
        switch (index, glide) {
        case (0, true): filter1.setTarget(c)
        case (0, false): filter1.jump(to: c)
        case (1, true): filter2.setTarget(c)
        case (1, false): filter2.jump(to: c)
        case (2, true): filter3.setTarget(c)
        case (2, false): filter3.jump(to: c)
        case (_, true): filter4.setTarget(c)
        case (_, false): filter4.jump(to: c)
        }
    }

    /// The cookbook design of `band` at `sampleRate`.
    static func design(_ band: Band, sampleRate: Double) -> BiquadCoefficients {
        let f = Double(band.frequency), g = Double(band.gainDB), q = Double(band.q)
        switch band.type {
        case .off: return .identity
        case .lowShelf: return BiquadDesign.lowShelf(frequency: f, gainDB: g, q: q, sampleRate: sampleRate)
        case .peaking: return BiquadDesign.peaking(frequency: f, gainDB: g, q: q, sampleRate: sampleRate)
        case .highShelf: return BiquadDesign.highShelf(frequency: f, gainDB: g, q: q, sampleRate: sampleRate)
        case .lowPass: return BiquadDesign.lowPass(frequency: f, q: q, sampleRate: sampleRate)
        case .highPass: return BiquadDesign.highPass(frequency: f, q: q, sampleRate: sampleRate)
        }
    }
}
