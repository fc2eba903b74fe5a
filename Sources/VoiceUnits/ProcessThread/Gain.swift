import Foundation

/// A gain stage in decibels with a 10 ms glide on changes.
public struct Gain: VoiceUnit, Sendable {
    public static let parameters = [
        ParameterDescriptor(id: "gain_db", name: "Gain", range: -60...40, defaultValue: 0, unit: .decibels)
    ]

    private var gain = SmoothedGain()
    private var gainDB: Float = 0

    public init(gainDB: Float = 0) {
        self.gainDB = Self.clamp(0, gainDB)
        gain.jump(to: powf(10, self.gainDB / 20))
    }

    public mutating func prepare(_ spec: ProcessSpec) {
        gain.rampLength = max(1, Int(spec.sampleRate * 0.01))
        gain.jump(to: powf(10, gainDB / 20))
    }

    public mutating func setParameter(_ index: Int, _ value: Float) {
        gainDB = Self.clamp(index, value)
        gain.setTarget(powf(10, gainDB / 20))
    }

    @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        gain.apply(buffer, frames: frames)
    }

    public mutating func reset() {}
}
