import VoiceEngine
import VoiceSession

/// A preset resolved to the engine configuration and the session settings it stands for.
///
/// Built by `PresetLibrary`: `PresetSettings()` defaults, then the base chain (outermost base
/// first), then the preset's own keys.
///
/// - Realtime: never (built while loading; only `configuration` reaches the engine).
public struct Preset: Sendable {
    /// The file name without `.toml` (`echo-cancel`).
    public let name: String
    /// The preset's own `description`; empty when it has none (a base's description is not inherited,
    /// since it would describe the base rather than this preset).
    public let description: String
    /// Path of the file the preset was read from.
    public let source: String
    /// The `base` key as written (the name of the preset this one extends), if any.
    public let base: String?
    /// Every key, fully resolved: the engine's half and the session's.
    public let settings: PresetSettings
    /// What the engine renders.
    public var configuration: EngineConfiguration { settings.engine }
    /// JACK connections, recording, backing track and stream.
    public var session: SessionSettings { settings.session }

    public init(name: String, description: String, source: String, base: String?, settings: PresetSettings) {
        self.name = name
        self.description = description
        self.source = source
        self.base = base
        self.settings = settings
    }
}
