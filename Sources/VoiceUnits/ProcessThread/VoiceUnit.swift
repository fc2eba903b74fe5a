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

/// A mono, in-place processing unit in the JUCE style: `prepare`, `process`, `reset`.
///
/// Conforming types are plain structs with no heap storage, so the engine can hold them by value in
/// its process state and call them without existentials. A unit declares its parameters once, in
/// `parameters`, and keeps their values in `values`; `setParameter` (shared by every unit) clamps
/// and stores a value, and the unit's `parameterChanged` turns it into what `process` reads.
/// `prepare` runs off the process thread (it may use libm); `process` runs on it and
/// implementations mark it `@_noLocks`.
public protocol VoiceUnit {
    /// The parameters, in index order, for `setParameter`.
    static var parameters: [ParameterDescriptor] { get }

    /// The parameters' values by index, each within its range. Change them with `setParameter`,
    /// which clamps and lets the unit follow.
    var values: ParameterValues { get set }

    /// Follows a change of parameter `index` from `old` (already stored in `values`): recomputes
    /// the terms `process` uses and sets glide targets.
    ///
    /// - Realtime: as `setParameter`.
    mutating func parameterChanged(_ index: Int, from old: Float)

    /// Gets ready for a stream. - Realtime: never; may compute coefficients with libm.
    mutating func prepare(_ spec: ProcessSpec)

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

    /// Sets parameter `index` (an index into `parameters`), clamped to its range; an index out of
    /// range is ignored.
    ///
    /// - Realtime: safe under a contract the compiler cannot check, so it is not `@_noLocks`:
    ///   units recompute coefficients with libm's pure functions only (`powf`, `expf`, `tanf`,
    ///   `cosf`: no allocation, no lock) and read their static descriptor table, which is
    ///   initialised before a unit reaches the process thread. The engine calls it there, between
    ///   blocks, through `_unsafePerformance` (ParameterApplication.swift), and the
    ///   RealtimeSanitizer tests set every parameter of every unit inside a real-time region.
    public mutating func setParameter(_ index: Int, _ value: Float) {
        guard index >= 0, index < Self.parameters.count else { return }
        // Read, change and write back whole: `values[index] = …` here would go through the
        // protocol's `modify` coroutine, whose frame an unoptimised build allocates with malloc.
        var stored = values
        let old = stored[index]
        stored[index] = Self.clamp(index, value)
        values = stored
        parameterChanged(index, from: old)
    }

    /// Stores `value` for parameter `index`, clamped, without following it: for initialisers,
    /// which derive everything once afterwards. - Realtime: never.
    public mutating func store(_ index: Int, _ value: Float) {
        values[index] = Self.clamp(index, value)
    }

    /// A switch parameter (a bypass) as a Bool: on from 0.5.
    @inline(__always)
    public func isOn(_ index: Int) -> Bool { values[index] >= 0.5 }
}
