import VoiceUnits

/// The unit of a control port's value (the LV2 units extension), as a short label and, where
/// voicerack's own units know it, as a `ParameterUnit`.
public struct LV2PortUnit: Sendable, Equatable {
    /// What `plugins show` prints: "dB", "Hz", "ms", "s", "%"... (empty when unitless).
    public let label: String

    /// The label for a units: URI (the ones plugins use; others keep their last path part) or for
    /// a custom unit's own units:symbol.
    init(uri: String?, symbol: String?) {
        if let symbol {
            label = symbol
            return
        }
        guard let uri else {
            label = ""
            return
        }
        let name =
            uri.hasPrefix(LV2URI.unitsPrefix) ? String(uri.dropFirst(LV2URI.unitsPrefix.count)) : uri
        label = Self.labels[name] ?? name
    }

    private static let labels: [String: String] = [
        "db": "dB", "hz": "Hz", "khz": "kHz", "mhz": "MHz", "ms": "ms", "s": "s", "min": "min",
        "pc": "%", "coef": "", "bpm": "bpm", "beat": "beats", "frame": "samples", "cent": "cents",
        "semitone12TET": "semitones", "oct": "octaves", "degree": "°", "m": "m", "cm": "cm",
        "mm": "mm", "km": "km", "bar": "bars", "midiNote": "note",
    ]

    /// Whether the value is a linear gain, 1 being 0 dB (LSP declares its gain, threshold and
    /// level ports so, with the custom unit symbol `G`): presets may give these in dB.
    public var isLinearGain: Bool { label == "G" }

    /// The matching voicerack unit; unitless (`.ratio`) for units voicerack has no name for, whose
    /// label stays in `label`.
    public var parameterUnit: ParameterUnit {
        switch label {
        case "dB": return .decibels
        case "Hz": return .hertz
        case "ms": return .milliseconds
        default: return .ratio
        }
    }
}
