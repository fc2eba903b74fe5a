import VoicePresets

/// The words `presets list` uses for where presets come from.
enum PresetListing {
    /// "  [shipped]" after a preset's description; nothing when the folder is unknown.
    static func originSuffix(_ origin: PresetDirectory.Origin?) -> String {
        origin.map { "  [\($0.rawValue)]" } ?? ""
    }

    /// The message when no folder held a preset: every folder looked in, with its origin, and
    /// how to add one.
    static func nothingFound(in searchPath: [PresetDirectory]) -> String {
        let folders = searchPath.map { "\($0.path) (\($0.origin.rawValue))" }
        return "no presets found; looked in: " + folders.joined(separator: ", ")
            + ". Put .toml presets in one of these folders, or set VOICERACK_PRESETS to a folder holding them"
    }
}
