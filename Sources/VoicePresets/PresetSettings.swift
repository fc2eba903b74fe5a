import VoiceEngine
import VoiceSession

/// Everything a preset sets, as one value: what the engine renders and what the session around
/// it does. The preset schema's keys read and write it (`\.engine.inputGainDB`,
/// `\.session.streamURL`), so one key table serves both halves.
///
/// - Realtime: never; any thread (a plain value).
public struct PresetSettings: Sendable, Equatable {
    /// What the engine renders.
    public var engine: EngineConfiguration
    /// JACK connections, recording, backing track and stream.
    public var session: SessionSettings

    public init(engine: EngineConfiguration = EngineConfiguration(), session: SessionSettings = SessionSettings()) {
        self.engine = engine
        self.session = session
    }
}
