import Foundation

/// A gain stage in decibels with a 10 ms glide on changes.
public struct Gain: VoiceUnit, Sendable {
    public static let parameters = [
        ParameterDescriptor(
            id: "gain_db", name: "Gain", range: -60...40, defaultValue: 0, unit: .decibels,
            smoothing: .glide(milliseconds: 10))
    ]

    public var values = ParameterValues(defaults: Gain.parameters)
    private var gain = SmoothedGain()

    public init(gainDB: Float = 0) {
        store(0, gainDB)
        gain.jump(to: powf(10, values[0] / 20))
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        gain.rampLength = max(1, Int(spec.sampleRate * 0.01))
        gain.jump(to: powf(10, values[0] / 20))
    }

    public mutating func parameterChanged(_ index: Int, from old: Float) {
        gain.setTarget(powf(10, values[0] / 20))
    }

    @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        gain.apply(buffer, frames: frames)
    }

    public mutating func reset() {}
}
