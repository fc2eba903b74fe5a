/// The unit of measure a parameter is expressed in (for help text, presets and status lines).
public enum ParameterUnit: String, Sendable {
    case decibels = "dB"
    case decibelsFullScale = "dBFS"
    case hertz = "Hz"
    case milliseconds = "ms"
    case decibelsPerSecond = "dB/s"
    case ratio = ""
}

/// How a change of a parameter reaches the signal on the process thread, so surfaces can say
/// whether moving it clicks, glides or needs a restart.
public enum ParameterSmoothing: Sendable, Equatable {
    /// The linear gain it sets glides to the new value over `milliseconds` (`SmoothedGain`).
    case glide(milliseconds: Float)
    /// The filter or tap it sets crossfades from the old to the new over `milliseconds`
    /// (`GlidingBiquad`, the delay's taps).
    case crossfade(milliseconds: Float)
    /// The next sample uses it, and the signal follows through the unit's own smoothing: a
    /// threshold or time constant steering an envelope that moves at its attack and release.
    case followed
    /// The next sample uses it as it is (a high-pass's coefficients, a detector switch).
    case immediate
}

/// A parameter a unit declares, once: identifier, human name, range, default, unit of measure,
/// how a change reaches the signal, and whether it needs a restart. Presets, the control table,
/// the panel, OSC and completion read it.
///
/// - Realtime: a plain value; units read their static table on the process thread only after it
///   was initialised off it (see `VoiceUnit.setParameter`).
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
    /// How a live change reaches the signal.
    public let smoothing: ParameterSmoothing
    /// True when a running unit cannot take a change (it shapes what `prepare` allocates).
    public let needsRestart: Bool
    /// Names of the values 0, 1, 2… of an enumerated parameter (a detector, a band's type); empty
    /// for a continuous one.
    public let labels: [String]

    public init(
        id: String, name: String, range: ClosedRange<Float>, defaultValue: Float, unit: ParameterUnit,
        smoothing: ParameterSmoothing = .immediate, needsRestart: Bool = false, labels: [String] = []
    ) {
        self.id = id
        self.name = name
        self.range = range
        self.defaultValue = defaultValue
        self.unit = unit
        self.smoothing = smoothing
        self.needsRestart = needsRestart
        self.labels = labels
    }

    /// The `bypass` switch every effect unit ends with: the unit's gain glides to unity (or dry)
    /// over 10 ms.
    public static let bypass = ParameterDescriptor(
        id: "bypass", name: "Bypass", range: 0...1, defaultValue: 0, unit: .ratio,
        smoothing: .glide(milliseconds: 10), labels: ["off", "on"])

    /// The `mix` of an effect that adds to the voice (delay, reverb: `DryWetMix`), 0 dry only … 1
    /// wet only; its gains glide over 10 ms, as the bypass's do.
    public static func mix(defaultValue: Float) -> ParameterDescriptor {
        ParameterDescriptor(
            id: "mix", name: "Mix", range: 0...1, defaultValue: defaultValue, unit: .ratio,
            smoothing: .glide(milliseconds: 10))
    }
}

/// A unit's parameter values by index into its `parameters`, in fixed storage (no heap), so a
/// unit stays a plain struct the engine holds by value.
///
/// - Realtime: safe to read and write (inline storage; no allocation, no lock).
public struct ParameterValues: Sendable {
    /// Most parameters one unit declares (the equaliser's four bands of four and its bypass).
    public static let capacity = 17

    private var storage = InlineArray<17, Float>(repeating: 0)

    /// The defaults of `parameters` (at most `capacity` of them). - Realtime: never.
    public init(defaults parameters: [ParameterDescriptor]) {
        precondition(parameters.count <= Self.capacity, "a unit declares at most \(Self.capacity) parameters")
        for (i, p) in parameters.enumerated() { storage[i] = p.defaultValue }
    }

    /// The value of parameter `index`. - Realtime: safe (the engine reads a bypass to meter it).
    @inline(__always)
    public subscript(index: Int) -> Float {
        @_noLocks get { storage[index] }
        set { storage[index] = newValue }
    }
}
