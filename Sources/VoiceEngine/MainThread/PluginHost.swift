import Synchronization
import VoiceUnits

/// A plugin unit of a preset: which plugin, its control values and its saved state.
///
/// - Realtime: never (strings and a dictionary).
public struct PluginUnitSettings: Sendable, Equatable {
    /// The plugin's URI (`http://lsp-plug.in/plugins/lv2/limiter_mono`).
    public var uri: String
    /// Control input values by port symbol, in the port's own unit; ports not listed keep the
    /// saved state's value, else the plugin's default.
    public var values: [String: Float]
    /// The plugin's saved state as text (LV2 state in Turtle); empty = none.
    public var state: String

    public init(uri: String, values: [String: Float] = [:], state: String = "") {
        self.uri = uri
        self.values = values
        self.state = state
    }
}

/// Why a plugin unit cannot be used: an unknown URI, a required feature voicerack lacks, audio
/// ports that do not fit the voice path, a bad control symbol or value. Bad input data (exit 65).
public struct PluginError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the plugin, port or feature.
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What the engine and the presets need from a plugin host (VoiceLV2's `LV2PluginHost`): the
/// engine imports no plugin library, so the program makes a host and passes it in (to the
/// engine, `CycleHost` and `PresetLibrary`); without one, a plugin unit is refused by name.
///
/// - Realtime: never. Called on the main thread, or a driver's notification thread when an
///   engine is rebuilt for a new block size.
public protocol PluginHost: Sendable {
    /// The control inputs of plugin `uri` (ids = port symbols) with their ranges at `sampleRate`,
    /// after checking that the plugin is installed, fits the mono voice path and requires no
    /// feature the host lacks.
    func parameters(of uri: String, sampleRate: Double) throws(PluginError) -> [ParameterDescriptor]

    /// An instantiated, activated unit for `settings` (state restored, then values set), ready for
    /// blocks of at most `spec.maximumBlockSize` frames, and having run one block of silence so its
    /// latency is known.
    func makeUnit(_ settings: PluginUnitSettings, spec: ProcessSpec) throws(PluginError) -> PreparedPlugin

    /// Throws when `state` (a saved state, as a preset keeps it) is one the host could not
    /// restore, saying why without quoting it.
    func checkState(_ state: String) throws(PluginError)

    /// The symbols of plugin `uri`'s control inputs whose value is a linear gain (1 is 0 dB; LSP's
    /// `G` unit), which a preset may give in dB; empty for a plugin the host does not know.
    func linearGainPorts(of uri: String) -> Set<String>
}

extension PluginHost {
    /// Hosts without saved states (test doubles) take any.
    public func checkState(_ state: String) throws(PluginError) {}

    /// Hosts that know no port units (test doubles) have no gain ports.
    public func linearGainPorts(of uri: String) -> Set<String> { [] }
}
