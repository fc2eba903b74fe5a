import VoiceEngine
import VoiceUnits

/// A preset section that runs an LV2 plugin as a chain unit:
///
/// ```toml
/// [chain]
/// order = "gate, eq, limiter"
///
/// [eq]                                   # any name that is not a built-in section
/// lv2 = "http://plugin.org.uk/swh-plugins/singlePara"
/// freq = 1000                            # control ports by symbol, in the port's own unit
/// gain = 6
/// state = "..."                          # optional: the plugin's saved state (Turtle)
/// ```
///
/// Values are checked against the plugin's own ranges (at 48 kHz for ports whose range scales
/// with the rate) through the `PluginHost` the library was given, so errors name the file, line
/// and key.
///
/// - Realtime: never.
struct PluginSection: Sendable {
    /// The section name: the unit's name in `chain.order` and in `set NAME.SYMBOL VALUE`.
    let name: String
    /// Line of the section header.
    let line: Int
    let settings: PluginUnitSettings

    /// The key that makes a section a plugin unit.
    static let pluginKey = "lv2"
    /// The key of the saved state.
    static let stateKey = "state"
    /// Rate the ranges are checked at when a preset is read (the stream's rate is not known yet;
    /// the unit checks again when the engine is built).
    static let nominalSampleRate = 48_000.0

    /// True when `section` declares a plugin (`lv2 = ...`).
    static func declaresPlugin(_ section: TOMLSection) -> Bool {
        section.entries.contains { $0.key == pluginKey }
    }

    /// Reads and validates `section` through `pluginHost`. - Throws: `PresetError` at the line of
    /// the key at fault.
    init(_ section: TOMLSection, file: String, pluginHost: (any PluginHost)?) throws(PresetError) {
        name = section.name
        line = section.line
        func failure(_ entry: TOMLEntry, _ message: String) -> PresetError {
            PresetError(file: file, line: entry.line, key: "\(section.name).\(entry.key)", message: message)
        }
        let uriEntry = section.entries.first { $0.key == Self.pluginKey }!
        guard case .string(let uri) = uriEntry.value.kind, !uri.isEmpty else {
            throw failure(uriEntry, "\(section.name).lv2 must be a plugin URI in quotes, not \(uriEntry.value.text)")
        }
        let parameters: [ParameterDescriptor]
        do {
            parameters = try Self.required(pluginHost, for: section.name).parameters(
                of: uri, sampleRate: Self.nominalSampleRate)
        } catch {
            throw failure(uriEntry, error.message)
        }
        var settings = PluginUnitSettings(uri: uri)
        for entry in section.entries where entry.key != Self.pluginKey {
            if entry.key == Self.stateKey {
                guard case .string(let text) = entry.value.kind else {
                    throw failure(entry, "\(section.name).state must be a string (the plugin's saved state)")
                }
                do { try Self.required(pluginHost, for: section.name).checkState(text) } catch {
                    throw failure(entry, "\(section.name).state is not a state LV2 can restore: \(error.message)")
                }
                settings.state = text
                continue
            }
            settings.values[entry.key] = try Self.value(
                entry, parameters: parameters, plugin: uri, unit: section.name, failure: { failure(entry, $0) })
        }
        self.settings = settings
    }

    /// `host`, or the error a program without LV2 hosting gives.
    static func required(_ host: (any PluginHost)?, for unit: String) throws(PluginError) -> any PluginHost {
        guard let host else {
            throw PluginError("plugin unit '\(unit)': LV2 hosting is not available in this program")
        }
        return host
    }

    /// A control value checked against the port's descriptor: numbers (true/false for toggles).
    static func value(
        _ entry: TOMLEntry, parameters: [ParameterDescriptor], plugin: String, unit: String,
        failure: (String) -> PresetError
    ) throws(PresetError) -> Float {
        guard let port = parameters.first(where: { $0.id == entry.key }) else {
            let symbols = parameters.map(\.id)
            let hint =
                Suggestion.closest(to: entry.key, in: symbols).map { " (did you mean '\($0)'?)" }
                ?? "; its controls: " + symbols.joined(separator: ", ")
            throw failure("LV2 plugin '\(plugin)' has no input control port '\(entry.key)'\(hint)")
        }
        let number: Float
        switch entry.value.kind {
        case .integer(let i): number = Float(i)
        case .float(let d): number = Float(d)
        case .boolean(let b): number = b ? 1 : 0
        case .string: throw failure("\(unit).\(entry.key) must be a number, not \(entry.value.text)")
        }
        guard number.isFinite, port.range.contains(number) else {
            throw failure(
                "\(unit).\(entry.key) = \(entry.value.text) is out of range; the plugin allows "
                    + "\(PresetNumber.text(Double(port.range.lowerBound)))...\(PresetNumber.text(Double(port.range.upperBound)))"
                    + (port.unit.rawValue.isEmpty ? "" : " \(port.unit.rawValue)"))
        }
        return number
    }

    /// One line per control of plugin unit `name`, for `show` and `presets show`: the key, its
    /// value when the preset or a live `set` gave one (nil: the saved state's or the plugin's
    /// default), and what the port allows, as `pluginHost` reads the plugin. Without a host (or
    /// an unknown plugin) only the values given are listed.
    static func controls(
        _ name: String, _ settings: PluginUnitSettings, pluginHost: (any PluginHost)?
    ) -> [(key: String, value: Float?, allowed: String)] {
        guard let parameters = try? pluginHost?.parameters(of: settings.uri, sampleRate: nominalSampleRate) else {
            return settings.values.sorted { $0.key < $1.key }.map { ("\(name).\($0.key)", $0.value, "") }
        }
        return parameters.map { p in
            let span =
                "\(PresetNumber.text(Double(p.range.lowerBound)))...\(PresetNumber.text(Double(p.range.upperBound)))"
                + (p.unit.rawValue.isEmpty ? "" : " \(p.unit.rawValue)")
            return (
                "\(name).\(p.id)", settings.values[p.id],
                "\(span); default \(PresetNumber.text(Double(p.defaultValue))). \(p.name)"
            )
        }
    }
}
