import VoiceEngine

/// A preset key as a control surface draws it: type, range, unit, choices, its value in a
/// configuration, and whether a running engine takes it live. Generated from the schema, so a
/// surface never lists keys by hand.
///
/// - Realtime: never.
public struct PresetKeyDescriptor: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A number within `minimum...maximum`; `zero` names what 0 means when 0 lies outside.
        case number(minimum: Double, maximum: Double, zero: String?)
        case boolean
        case choice([String])
        /// Free text or a list (the chain's order): shown, changed in a preset file.
        case text
    }

    /// `section.name`.
    public let key: String
    public let kind: Kind
    /// "dB", "ms", or empty.
    public let unit: String
    public let help: String
    /// The value as `set KEY VALUE` takes it (`-6`, `true`, `processed`).
    public let value: String
    /// True when a running engine takes a change of this key as a live message; false when it
    /// needs a restart.
    public let live: Bool
}

extension PresetEdit {
    /// Every key with its value in `configuration` and whether it changes live.
    ///
    /// Liveness is asked of the engine's own rule (`EngineConfiguration.liveUpdate`): the key is
    /// moved to another allowed value and the update is checked for a restart, so a key becomes
    /// live here the day the engine takes it live.
    public static func descriptors(_ configuration: EngineConfiguration) -> [PresetKeyDescriptor] {
        PresetSchema.keys.map { key in
            let value = key.tomlValue(in: configuration)
            let plain = value.hasPrefix("\"") ? String(value.dropFirst().dropLast()) : value
            let kind: PresetKeyDescriptor.Kind
            var moved = configuration
            switch key.kind {
            case .number(let field, let range, let zero):
                kind = .number(minimum: range.lowerBound, maximum: range.upperBound, zero: zero)
                let now = configuration[keyPath: field]
                moved[keyPath: field] = now == Float(range.upperBound) ? Float(range.lowerBound) : Float(range.upperBound)
            case .boolean(let field):
                kind = .boolean
                moved[keyPath: field].toggle()
            case .choice(let choices, let get, let set):
                kind = .choice(choices)
                if let other = choices.first(where: { $0 != get(configuration) }) { set(&moved, other) }
            case .text, .list:
                kind = .text
            }
            let live = moved != configuration && !configuration.liveUpdate(to: moved).needsRestart
            return PresetKeyDescriptor(
                key: key.fullName, kind: kind, unit: key.unit, help: key.help, value: plain, live: live)
        }
    }

    /// `configuration` as a preset file's text, with `description` (every key, each with its
    /// range and help, as `presets show` prints).
    public static func presetText(_ configuration: EngineConfiguration, name: String, description: String) -> String {
        PresetRenderer.toml(
            Preset(name: name, description: description, source: "the web panel", base: nil, configuration: configuration))
    }
}
