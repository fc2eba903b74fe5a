import VoiceEngine

/// Prints a resolved preset as TOML: every key, each with a comment giving its meaning and range.
///
/// The output is what `voicerack presets show NAME` prints: a complete, self-contained preset with
/// the base already folded in (so no `base` key), which parses back to the same configuration and
/// makes a good starting point for a user preset.
///
/// - Realtime: never.
public enum PresetRenderer {
    /// `preset` as TOML; its LV2 units' controls with the ranges `pluginHost` reads (nil: only
    /// the values set).
    public static func toml(_ preset: Preset, pluginHost: (any PluginHost)?) -> String {
        // Names and paths in comments are quoted like values: a newline in them would start a
        // line of the sender's choosing.
        var lines = ["# Preset \(quoted(preset.name)), fully resolved from \(quoted(preset.source))."]
        if let base = preset.base {
            lines.append("# It extends \(quoted(base)); the base's values are already folded in below.")
        }
        lines.append("description = \(quoted(preset.description))")
        // Comments start in one column across the file so the values read as a table.
        let assignments = PresetSchema.keys.map { "\($0.name) = \($0.tomlValue(in: preset.settings))" }
        let width = assignments.map(\.count).max() ?? 0
        for section in PresetSchema.sections where shows(section: section.name, preset.settings) {
            lines += ["", "# \(section.help)", "[\(section.name)]"]
            for (key, assignment) in zip(PresetSchema.keys, assignments) where key.section == section.name {
                let padding = String(repeating: " ", count: width - assignment.count)
                lines.append("\(assignment)\(padding)  # \(key.allowed). \(key.help)")
            }
        }
        for name in preset.configuration.plugins.keys.sorted() {
            let plugin = preset.configuration.plugins[name]!
            lines += ["", "# LV2 unit '\(name)' (runs when listed in chain.order).", "[\(name)]"]
            lines.append("\(PluginSection.pluginKey) = \(quoted(plugin.uri))")
            // Controls the preset sets, then the others as comments, each with its range.
            let controls = PluginSection.controls(name, plugin, pluginHost: pluginHost)
            for control in controls.sorted(by: { ($0.value == nil ? 1 : 0) < ($1.value == nil ? 1 : 0) }) {
                let symbol = control.key.dropFirst(name.count + 1)
                let comment = control.allowed.isEmpty ? "" : "  # \(control.allowed)"
                lines.append(
                    control.value.map { "\(symbol) = \(PresetNumber.text(Double($0)))\(comment)" }
                        ?? "# \(symbol)\(comment)")
            }
            if !plugin.state.isEmpty { lines.append("\(PluginSection.stateKey) = \(quoted(plugin.state))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Effect sections and `[stream]` are shown only for units in the chain or set away from their defaults:
    /// the others would add dozens of default lines. Left out, they read back as defaults.
    static func shows(section: String, _ settings: PresetSettings) -> Bool {
        let configuration = settings.engine
        if section == "stream" {
            // Shown when a stream is set up; otherwise dozens of presets would carry an empty one.
            return PresetSchema.keys(in: "stream").contains {
                $0.tomlValue(in: settings) != $0.tomlValue(in: PresetSettings())
            }
        }
        guard let kind = EffectKind(rawValue: section) else { return true }
        return configuration.effectOrder.contains(kind)
            || configuration.effectValues[kind.index] != EffectKind.defaultValues[kind.index]
    }

    /// A TOML basic string; control characters are escaped so the value stays on one line, and
    /// `$` and the backtick too, so that a preset read by a shell (saved where a start-up file
    /// was, or pasted into one) expands nothing.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "$" || scalar == "`":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
