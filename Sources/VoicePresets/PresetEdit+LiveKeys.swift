import VoiceControl
import VoiceEngine

extension PresetEdit {
    /// Every preset key with its running value in `configuration`, for surfaces (`show`).
    ///
    /// - Realtime: never.
    public static func liveKeys(_ settings: PresetSettings) -> [LiveKey] {
        PresetSchema.keys.map { $0.liveKey(in: settings) }
    }

    /// The declared parameters (each effect unit's, each engine control's) as keys, with their
    /// ranges and default values: what OSC gives an address each and completion offers. A new
    /// unit's or control's declaration adds its keys here.
    ///
    /// - Realtime: never.
    public static func parameterKeys(_ settings: PresetSettings = PresetSettings()) -> [LiveKey] {
        PresetSchema.keys.filter { $0.live != nil }.map { $0.liveKey(in: settings) }
    }

    /// One key (`section.name`) with its running value (`get`); the error names the key and
    /// says where the keys are listed. `pluginHost` reads an LV2 unit's ranges.
    ///
    /// - Realtime: never.
    public static func liveKey(
        _ name: String, in settings: PresetSettings, pluginHost: (any PluginHost)?
    ) throws(PresetError) -> LiveKey {
        guard let key = PresetSchema.keys.first(where: { $0.fullName == name }) else {
            if let control = pluginControl(name, in: settings.engine, pluginHost: pluginHost) { return control }
            throw PresetError(
                file: "", key: name,
                message:
                    "'\(name)' is not a key; keys are section.name as in presets (`show` lists them), e.g. monitor.master_db"
            )
        }
        return key.liveKey(in: settings)
    }

    /// The one live parameter `key` names, with its value in `settings` (where `setting` put
    /// it, checked): an effect unit's parameter, an engine control, an LV2 unit's control; nil for
    /// the other keys (switches, choices, lists, text, the session's), which a running engine
    /// takes as a whole configuration, if at all.
    ///
    /// - Realtime: never.
    public static func liveParameter(_ key: String, in settings: PresetSettings) -> (LiveParameter, Float)? {
        if let schemaKey = PresetSchema.keysByFullName[key] {
            guard let live = schemaKey.live, case .number(let field, _, _) = schemaKey.kind else { return nil }
            return (live, settings[keyPath: field])
        }
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let value = settings.engine.plugins[parts[0]]?.values[parts[1]] else { return nil }
        return (.plugin(unit: parts[0], symbol: parts[1]), value)
    }

    /// An LV2 unit's control (`peak.threshold`) as `listing` shows it; nil when `name` names none.
    private static func pluginControl(
        _ name: String, in configuration: EngineConfiguration, pluginHost: (any PluginHost)?
    ) -> LiveKey? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let plugin = configuration.plugins[parts[0]],
            let control = PluginSection.controls(parts[0], plugin, pluginHost: pluginHost).first(where: {
                $0.key == name
            })
        else { return nil }
        return LiveKey(
            key: name, value: controlText(control.value),
            allowed: control.allowed, kind: .text, help: "a control of the LV2 unit '\(parts[0])'")
    }
}

extension PresetKey {
    /// The key as a surface shows it, with its value in `configuration` (text unquoted).
    func liveKey(in configuration: PresetSettings) -> LiveKey {
        let value: String
        let liveKind: LiveKey.Kind
        switch kind {
        case .number(let field, let range, let zero):
            value = PresetNumber.text(Double(configuration[keyPath: field]))
            liveKind = .number(minimum: range.lowerBound, maximum: range.upperBound, unit: unit, zero: zero)
        case .boolean(let field):
            value = configuration[keyPath: field] ? "true" : "false"
            liveKind = .boolean
        case .choice(let choices, let get, _):
            value = get(configuration)
            liveKind = .choice(choices)
        case .list(let choices, let get, _):
            value = get(configuration).joined(separator: ", ")
            liveKind = .list(choices)
        case .text(_, let get, _, _):
            value = get(configuration)
            liveKind = .text
        }
        return LiveKey(key: fullName, value: value, allowed: allowed, kind: liveKind, help: help)
    }
}
