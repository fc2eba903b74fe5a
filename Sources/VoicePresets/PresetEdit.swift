import VoiceEngine

/// Changes to a running configuration in preset terms: `set KEY VALUE` commands and the list of
/// keys two configurations differ in (for reloads).
///
/// - Realtime: never.
public enum PresetEdit {
    /// `configuration` with `key` (`section.name`, as in presets) set to `value`, checked exactly
    /// like a preset line; the error names the key and what it allows. Words that are not
    /// numbers or booleans may be given without quotes (`set monitor.source processed`).
    public static func setting(
        _ key: String, _ value: String, in configuration: EngineConfiguration
    ) throws(PresetError) -> EngineConfiguration {
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
        let bare = Double(value) != nil || value == "true" || value == "false" || value.hasPrefix("\"")
        let text = "[\(parts[0])]\n\(parts[1]) = \(bare ? value : "\"\(value)\"")\n"
        let definition: PresetDefinition
        do {
            definition = try PresetDefinition(path: "set", text: text)
        } catch {
            // The message names the key and what it allows; the made-up file and line mean nothing.
            throw PresetError(file: "", key: error.key, message: error.message)
        }
        var changed = configuration
        for s in definition.settings { s.key.apply(s.value, to: &changed) }
        return changed
    }

    /// Full names (`section.name`) of the keys whose values differ between `a` and `b`.
    public static func changedKeys(from a: EngineConfiguration, to b: EngineConfiguration) -> [String] {
        PresetSchema.keys.filter { $0.tomlValue(in: a) != $0.tomlValue(in: b) }.map(\.fullName)
    }

    /// One line per key: `section.name = value   (allowed)`, for `show`.
    public static func listing(_ configuration: EngineConfiguration) -> [String] {
        PresetSchema.keys.map { "\($0.fullName) = \($0.tomlValue(in: configuration))   (\($0.allowed))" }
    }
}
