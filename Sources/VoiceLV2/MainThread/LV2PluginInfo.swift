import VoiceUnits

/// What voicerack knows about an installed plugin, read from its Turtle data (no instance).
///
/// - Realtime: never (a value with arrays and strings).
public struct LV2PluginInfo: Sendable {
    /// The plugin's URI, its identity in presets and commands.
    public let uri: String
    /// Human-readable name from the plugin's data.
    public let name: String
    /// Every port, in index order.
    public let ports: [LV2Port]
    /// Features the plugin cannot run without.
    public let requiredFeatures: [String]
    /// Whether the plugin declares lv2:hardRTCapable (its run() neither allocates nor blocks).
    public let hardRTCapable: Bool
    /// Whether input and output audio must not share a buffer (lv2:inPlaceBroken).
    public let inPlaceBroken: Bool
    /// Whether it has the worker extension's interface.
    public let hasWorker: Bool
    /// Its class's label (`Dynamics`, `Limiter`, `Reverb`; `Plugin` when it names none).
    public let category: String

    /// Audio inputs and outputs, in port order.
    public var audioInputs: [LV2Port] { ports.filter { $0.kind == .audio && $0.isInput } }
    public var audioOutputs: [LV2Port] { ports.filter { $0.kind == .audio && !$0.isInput } }
    /// Control inputs: the plugin's parameters.
    public var controlInputs: [LV2Port] { ports.filter { $0.kind == .control && $0.isInput } }
    /// The output control port that reports latency in samples, if any.
    public var latencyPort: LV2Port? { ports.first { $0.reportsLatency } }

    /// Features the plugin requires that `supported` lacks, in the plugin's order.
    public func missingFeatures(supported: Set<String>) -> [String] {
        requiredFeatures.filter { !supported.contains($0) }
    }

    /// Why the plugin cannot run on a mono voice path, or nil if it can: 1 or 2 audio inputs,
    /// 1 or 2 audio outputs, and no CV or other port kind that needs a connection.
    public var voicePathProblem: String? {
        let ins = audioInputs.count
        let outs = audioOutputs.count
        if !(1...2).contains(ins) { return "it has \(ins) audio inputs (voicerack takes 1 or 2)" }
        if !(1...2).contains(outs) { return "it has \(outs) audio outputs (voicerack takes 1 or 2)" }
        if let other = ports.first(where: { $0.kind == .other && !$0.connectionOptional }) {
            return "port '\(other.symbol)' is of a kind voicerack does not connect (CV or event)"
        }
        return nil
    }

    /// The input control port with `symbol`, or an error naming the nearest one.
    public func control(_ symbol: String) throws(LV2Error) -> LV2Port {
        if let port = controlInputs.first(where: { $0.symbol == symbol }) { return port }
        throw .unknownControl(
            plugin: uri, symbol: symbol,
            suggestion: NearMatch.closest(to: symbol, in: controlInputs.map(\.symbol)))
    }

    /// Parameter descriptors of the control inputs, in port order (id = port symbol), with the
    /// ranges at `sampleRate` (ports marked lv2:sampleRate scale their bounds by it).
    public func parameters(sampleRate: Double) -> [ParameterDescriptor] {
        controlInputs.map { port in
            let range = port.range(sampleRate: sampleRate)
            return ParameterDescriptor(
                id: port.symbol, name: port.name, range: range,
                defaultValue: port.defaultValue(sampleRate: sampleRate), unit: port.unit.parameterUnit)
        }
    }
}

/// One port of a plugin as its data describes it.
public struct LV2Port: Sendable {
    /// What the host connects to the port.
    public enum Kind: Sendable { case audio, control, atom, other }

    /// Index in the plugin's port list (connect_port's index).
    public let index: Int
    public let symbol: String
    public let name: String
    public let kind: Kind
    public let isInput: Bool
    /// Declared bounds and default (nil when the data gives none).
    public let minimum: Float?
    public let maximum: Float?
    public let declaredDefault: Float?
    /// Bounds are fractions of the sample rate (lv2:sampleRate).
    public let scalesWithSampleRate: Bool
    public let toggled: Bool
    public let integer: Bool
    public let reportsLatency: Bool
    public let connectionOptional: Bool
    /// Unit of the value.
    public let unit: LV2PortUnit
    /// Atom ports: the smallest buffer the plugin accepts (resize-port:minimumSize), in bytes.
    public let minimumSize: Int?
    /// The values the plugin names (lv2:scalePoint), by value: `0 Feed-forward`, `1 Feed-back`.
    public var scalePoints: [LV2ScalePoint] = []

    /// The allowed values at `sampleRate`: the declared bounds (0...1 when absent), scaled when
    /// the port says so, and widened to hold the default.
    public func range(sampleRate: Double) -> ClosedRange<Float> {
        let scale = scalesWithSampleRate ? Float(sampleRate) : 1
        var low = (minimum ?? 0) * scale
        var high = (maximum ?? max(1, minimum ?? 0)) * scale
        if high < low { swap(&low, &high) }
        return low...high
    }

    /// The default at `sampleRate`, clamped into the range (the lower bound when none is given).
    public func defaultValue(sampleRate: Double) -> Float {
        let r = range(sampleRate: sampleRate)
        return min(max(declaredDefault ?? r.lowerBound, r.lowerBound), r.upperBound)
    }
}

/// One named value of a control port (lv2:scalePoint): a mode's or a choice's label.
///
/// - Realtime: never (a value with a string).
public struct LV2ScalePoint: Sendable, Equatable {
    public let value: Float
    public let label: String
}
