/// What a unit needs to know before it runs: the stream's rate and the largest block it will see.
public struct ProcessSpec: Sendable, Equatable {
    /// Samples per second.
    public var sampleRate: Double
    /// Largest number of samples one `process` call may pass.
    public var maximumBlockSize: Int

    public init(sampleRate: Double, maximumBlockSize: Int) {
        self.sampleRate = sampleRate
        self.maximumBlockSize = maximumBlockSize
    }
}

/// The unit of measure a parameter is expressed in (for help text, presets and status lines).
public enum ParameterUnit: String, Sendable {
    case decibels = "dB"
    case decibelsFullScale = "dBFS"
    case hertz = "Hz"
    case milliseconds = "ms"
    case decibelsPerSecond = "dB/s"
    case ratio = ""
}

/// A parameter a unit exposes: identifier, human name, range, default and unit.
public struct ParameterDescriptor: Sendable {
    /// Stable identifier used in presets and commands.
    public let id: String
    /// Short human-readable name.
    public let name: String
    /// Allowed values, inclusive.
    public let range: ClosedRange<Float>
    /// Value used when nothing sets it.
    public let defaultValue: Float
    /// Unit of measure of the value.
    public let unit: ParameterUnit

    public init(
        id: String, name: String, range: ClosedRange<Float>, defaultValue: Float, unit: ParameterUnit
    ) {
        self.id = id
        self.name = name
        self.range = range
        self.defaultValue = defaultValue
        self.unit = unit
    }
}

/// A mono, in-place processing unit in the JUCE style: `prepare`, `process`, `reset`.
///
/// Conforming types are plain structs with no heap storage, so the engine can hold them by value in
/// its process state and call them without existentials. `prepare` and `setParameter` run off the
/// process thread (they may use libm); `process` runs on it and implementations mark it `@_noLocks`.
public protocol VoiceUnit {
    /// The parameters, in index order, for `setParameter`.
    static var parameters: [ParameterDescriptor] { get }

    /// Gets ready for a stream. - Realtime: never; may compute coefficients with libm.
    mutating func prepare(_ spec: ProcessSpec)

    /// Sets parameter `index` (an index into `parameters`), clamped to its range.
    ///
    /// - Realtime: safe under a contract the compiler cannot check, so it is not `@_noLocks`:
    ///   implementations recompute coefficients with libm's pure functions only (`powf`, `expf`,
    ///   `tanf`, `cosf`: no allocation, no lock) and read their static descriptor table, which is
    ///   initialised before a unit reaches the process thread. The engine calls it there, between
    ///   blocks, through `_unsafePerformance` (ParameterApplication.swift), and the
    ///   RealtimeSanitizer tests set every parameter of every unit inside a real-time region.
    mutating func setParameter(_ index: Int, _ value: Float)

    /// Processes `frames` samples in place. - Realtime: safe.
    mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int)

    /// Forgets the signal history (filter memories, envelopes) but keeps parameters.
    mutating func reset()
}

extension VoiceUnit {
    /// The default value of every parameter, in index order.
    public static var defaultValues: [Float] { parameters.map(\.defaultValue) }

    /// Clamps `value` into the range of parameter `index`.
    public static func clamp(_ index: Int, _ value: Float) -> Float {
        min(max(value, parameters[index].range.lowerBound), parameters[index].range.upperBound)
    }
}
