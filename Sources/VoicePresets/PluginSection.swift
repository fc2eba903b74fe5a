import Foundation
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
/// A port whose value is a linear gain (LSP's `G`: 0.1 is -20 dB) may be given in dB as a
/// string, `al = "-20 dB"`, converted to the linear value the port takes; a port in dB takes the
/// same form as its own number. Values are checked against the plugin's own ranges (at 48 kHz
/// for ports whose range scales with the rate) through the `PluginHost` the library was given,
/// so errors name the file, line and key.
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
        let gainPorts = pluginHost?.linearGainPorts(of: uri) ?? []
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
                entry, parameters: parameters, gainPorts: gainPorts, plugin: uri, unit: section.name,
                failure: { failure(entry, $0) })
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

    /// A control value checked against the port's descriptor: numbers (true/false for toggles),
    /// or a gain in dB (`"-20 dB"`) for a port in `gainPorts` (converted to its linear value) or a
    /// port whose unit is dB.
    static func value(
        _ entry: TOMLEntry, parameters: [ParameterDescriptor], gainPorts: Set<String>, plugin: String,
        unit: String, failure: (String) -> PresetError
    ) throws(PresetError) -> Float {
        guard let port = parameters.first(where: { $0.id == entry.key }) else {
            let symbols = parameters.map(\.id)
            let hint =
                Suggestion.closest(to: entry.key, in: symbols).map { " (did you mean '\($0)'?)" }
                ?? "; its controls: " + symbols.joined(separator: ", ")
            throw failure("LV2 plugin '\(plugin)' has no input control port '\(entry.key)'\(hint)")
        }
        let key = "\(unit).\(entry.key)"
        let isGain = gainPorts.contains(port.id)
        let number: Float
        switch entry.value.kind {
        case .integer(let i): number = Float(i)
        case .float(let d): number = Float(d)
        case .boolean(let b): number = b ? 1 : 0
        case .string(let text):
            guard isGain || port.unit == .decibels else {
                let hint = DecibelText.parse(text) == nil ? "" : " (dB is for gain and dB ports only)"
                throw failure("\(key) must be a number, not \(entry.value.text)\(hint)")
            }
            guard let decibels = DecibelText.parse(text) else {
                throw failure("\(key) must be a number or a gain in dB such as \"-20 dB\", not \(entry.value.text)")
            }
            if isGain {
                return try linearGain(decibels, for: port, key: key, written: entry.value.text, failure: failure)
            }
            number = Float(decibels)
        }
        guard number.isFinite, port.range.contains(number) else {
            throw failure(
                "\(key) = \(entry.value.text) is out of range; the plugin allows "
                    + "\(PresetNumber.text(Double(port.range.lowerBound)))...\(PresetNumber.text(Double(port.range.upperBound)))"
                    + (port.unit.rawValue.isEmpty ? "" : " \(port.unit.rawValue)")
                    + (isGain ? " (\(DecibelText.span(port.range)))" : ""))
        }
        return number
    }

    /// `decibels` as the linear gain `port` takes (`-inf` is 0), within its range: a value
    /// that passes a bound by under 0.01 dB (the rounding of the plugin's bounds, 0.001 being
    /// -60 dB) is clamped to it; farther out is an error naming the key and the range in dB.
    static func linearGain(
        _ decibels: Double, for port: ParameterDescriptor, key: String, written: String,
        failure: (String) -> PresetError
    ) throws(PresetError) -> Float {
        let range = port.range
        let gain = Float(DecibelText.gain(decibels))
        if range.contains(gain) { return gain }
        let tolerance = 0.01
        let low = DecibelText.decibels(range.lowerBound)
        let high = DecibelText.decibels(range.upperBound)
        if decibels < low, low - decibels < tolerance { return range.lowerBound }
        if decibels > high, decibels - high < tolerance { return range.upperBound }
        throw failure(
            "\(key) = \(written) is out of range; the plugin allows \(DecibelText.span(range)) "
                + "(\(PresetNumber.text(Double(range.lowerBound)))...\(PresetNumber.text(Double(range.upperBound))) "
                + "as a linear gain)")
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
        let gainPorts = pluginHost?.linearGainPorts(of: settings.uri) ?? []
        return parameters.map { p in
            let span =
                "\(PresetNumber.text(Double(p.range.lowerBound)))...\(PresetNumber.text(Double(p.range.upperBound)))"
                + (p.unit.rawValue.isEmpty ? "" : " \(p.unit.rawValue)")
                + (gainPorts.contains(p.id) ? " (\(DecibelText.span(p.range)))" : "")
            return (
                "\(name).\(p.id)", settings.values[p.id],
                "\(span); default \(PresetNumber.text(Double(p.defaultValue))). \(p.name)"
            )
        }
    }
}

/// Gains written in dB for linear gain ports: `"-20 dB"`, `"+3dB"`, `"-inf dB"`.
///
/// - Realtime: never.
enum DecibelText {
    /// The number of dB in `text` (a number, then `dB` in any case, spaces around allowed), or
    /// nil when it is not one; `-inf` is allowed (a gain of 0), NaN and `+inf` are not.
    static func parse(_ text: String) -> Double? {
        var body = text.trimmingCharacters(in: .whitespaces)
        guard body.lowercased().hasSuffix("db") else { return nil }
        body = body.dropLast(2).trimmingCharacters(in: .whitespaces)
        guard let value = Double(body), !value.isNaN, value != .infinity else { return nil }
        return value
    }

    /// The linear gain of `decibels`: 10^(dB/20); 0 for -inf.
    static func gain(_ decibels: Double) -> Double {
        decibels == -.infinity ? 0 : pow(10, decibels / 20)
    }

    /// `gain` in dB: -inf for 0 and below.
    static func decibels(_ gain: Float) -> Double {
        gain > 0 ? 20 * log10(Double(gain)) : -.infinity
    }

    /// A range of linear gains in dB, to 0.01 dB: `-60...0 dB`, `-inf...60 dB`.
    static func span(_ range: ClosedRange<Float>) -> String {
        func text(_ gain: Float) -> String {
            let db = decibels(gain)
            return db.isFinite ? PresetNumber.text((db * 100).rounded() / 100) : "-inf"
        }
        return "\(text(range.lowerBound))...\(text(range.upperBound)) dB"
    }
}
