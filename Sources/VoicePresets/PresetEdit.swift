import VoiceControl
import VoiceEngine
import VoiceUnits

/// Changes to a running configuration in preset terms: `set KEY VALUE` commands and the list of
/// keys two configurations differ in (for reloads).
///
/// - Realtime: never.
public enum PresetEdit {
    /// `settings` with `key` (`section.name`, as in presets) set to `value`, checked exactly
    /// like a preset line (the key's own checks, the same messages); the error names the key and
    /// what it allows. Words that are not numbers or booleans may be given without quotes
    /// (`set monitor.source processed`). `pluginHost` reads an LV2 unit's ranges.
    ///
    /// The key is looked up once and the value checked by its type: no preset text is written
    /// and read back.
    public static func setting(
        _ key: String, _ value: LiveValue, in settings: PresetSettings, pluginHost: (any PluginHost)?
    ) throws(PresetError) -> PresetSettings {
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        let isBareKey = { (part: String) in
            !part.isEmpty && part.count <= TOMLDocument.maximumNameLength
                && part.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
                }
        }
        guard parts.count == 2, isBareKey(parts[0]), isBareKey(parts[1]) else {
            throw PresetError(
                file: "", key: key,
                message: "'\(key)' is not a key; keys are section.name as in presets, e.g. compressor.threshold_dbfs")
        }
        if let plugin = settings.engine.plugins[parts[0]] {
            return try settingPlugin(parts[0], parts[1], value, plugin, in: settings, pluginHost: pluginHost)
        }
        let typed: TOMLValue
        do {
            typed = try scalar(value, section: parts[0], name: parts[1])
        } catch {
            throw PresetError(file: "", key: error.key, message: error.message)
        }
        guard PresetSchema.sections.contains(where: { $0.name == parts[0] }) else {
            throw PresetDefinition.unknownSection(parts[0], line: nil, file: "")
        }
        guard let schemaKey = PresetSchema.key(section: parts[0], name: parts[1]) else {
            throw PresetDefinition.unknownKey(parts[1], section: parts[0], line: nil, file: "")
        }
        var changed = settings
        schemaKey.apply(try schemaKey.validate(typed, file: ""), to: &changed)
        try PresetLibrary.checkChain(changed.engine, file: "", line: nil)
        return changed
    }

    /// `value` as the typed scalar the same text on a preset line would be: a typed number or
    /// switch as it is, a word read by the preset grammar (quotes added to a word that is
    /// neither a number nor a switch, so `processed` needs none).
    private static func scalar(
        _ value: LiveValue, section: String, name: String
    ) throws(TOMLSyntaxError) -> TOMLValue {
        switch value {
        case .number(let v):
            let kind: TOMLValue.Kind = v == v.rounded() && abs(v) < 1e15 ? .integer(Int(v)) : .float(v)
            return TOMLValue(kind: kind, text: value.description, line: 0)
        case .boolean(let b):
            return TOMLValue(kind: .boolean(b), text: value.description, line: 0)
        case .word(let w):
            let bare = Double(w) != nil || w == "true" || w == "false" || w.hasPrefix("\"")
            return try TOMLValue(parsing: bare ? w : "\"\(w)\"", section: section, name: name)
        }
    }

    /// `set NAME.SYMBOL VALUE` for plugin unit `name`: the value checked against the plugin's own
    /// range, like a preset line.
    private static func settingPlugin(
        _ name: String, _ symbol: String, _ value: LiveValue, _ plugin: PluginUnitSettings,
        in settings: PresetSettings, pluginHost: (any PluginHost)?
    ) throws(PresetError) -> PresetSettings {
        let key = "\(name).\(symbol)"
        guard symbol != PluginSection.pluginKey, symbol != PluginSection.stateKey else {
            throw PresetError(
                file: "", key: key, message: "\(key) changes which plugin runs: edit the preset and reload (SIGHUP)")
        }
        let parameters: [ParameterDescriptor]
        do {
            parameters = try PluginSection.required(pluginHost, for: name).parameters(
                of: plugin.uri, sampleRate: PluginSection.nominalSampleRate)
        } catch {
            throw PresetError(file: "", key: key, message: error.message)
        }
        let parsed: TOMLValue.Kind
        switch value {
        case .number(let v): parsed = .float(v)
        case .boolean(let b): parsed = .boolean(b)
        case .word(let w):
            parsed = Double(w).map { .float($0) } ?? (w == "true" || w == "false" ? .boolean(w == "true") : .string(w))
        }
        let entry = TOMLEntry(
            key: symbol, line: 0, value: TOMLValue(kind: parsed, text: value.description, line: 0))
        var changed = settings
        changed.engine.plugins[name]?.values[symbol] = try PluginSection.value(
            entry, parameters: parameters, gainPorts: pluginHost?.linearGainPorts(of: plugin.uri) ?? [],
            plugin: plugin.uri, unit: name,
            failure: { PresetError(file: "", key: key, message: $0) })
        return changed
    }

    /// Full names (`section.name`) of the keys whose values differ between `a` and `b`.
    public static func changedKeys(from a: PresetSettings, to b: PresetSettings) -> [String] {
        PresetSchema.keys.filter { $0.tomlValue(in: a) != $0.tomlValue(in: b) }.map(\.fullName)
            + Set(a.engine.plugins.keys).union(b.engine.plugins.keys).sorted().flatMap { name in
                let (x, y) = (a.engine.plugins[name], b.engine.plugins[name])
                var keys: [String] = []
                if x?.uri != y?.uri { keys.append("\(name).\(PluginSection.pluginKey)") }
                if x?.state != y?.state { keys.append("\(name).\(PluginSection.stateKey)") }
                let symbols = Set(x?.values.keys ?? [:].keys).union(y?.values.keys ?? [:].keys)
                return keys + symbols.sorted().filter { x?.values[$0] != y?.values[$0] }.map { "\(name).\($0)" }
            }
    }

    /// An LV2 control's value as `listing` and `get` show it; unset, the plugin's own default.
    static func controlText(_ value: Float?) -> String {
        value.map { PresetNumber.text(Double($0)) } ?? "(the plugin's)"
    }

    /// One line per key: `section.name = value   (allowed)`, for `show`; plugin units' controls
    /// as set by the preset or live (others keep the plugin's own values), their ranges read
    /// through `pluginHost`.
    public static func listing(_ settings: PresetSettings, pluginHost: (any PluginHost)?) -> [String] {
        PresetSchema.keys.map { "\($0.fullName) = \($0.tomlValue(in: settings))   (\($0.allowed))" }
            + settings.engine.plugins.keys.sorted().flatMap { name in
                let plugin = settings.engine.plugins[name]!
                return ["\(name).lv2 = \(PresetRenderer.quoted(plugin.uri))   (LV2 unit)"]
                    + PluginSection.controls(name, plugin, pluginHost: pluginHost).map { control in
                        "\(control.key) = \(controlText(control.value))   (\(control.allowed))"
                    }
            }
    }
}
