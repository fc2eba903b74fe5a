import VoiceEcho

/// Everything a preset decides about what the voice engine renders, resolved to plain values.
///
/// Presets (`VoicePresets`) build this from TOML; defaults here are the `raw`-neutral values
/// except where noted. Units are in the property names. What the session around the engine does
/// (JACK connections, recording, backing track, stream) is `VoiceSession.SessionSettings`.
///
/// - Realtime: never; any thread (a plain value, read when an engine is built).
@dynamicMemberLookup
public struct EngineConfiguration: Sendable, Equatable {
    /// How the echo canceller hears a stereo far end.
    public enum ReferenceMode: String, Sendable, CaseIterable {
        /// (L+R)/2: one echo path modelled; exact when both speakers play the same signal.
        case mono
        /// Both channels, two echo paths modelled (`speex_echo_state_init_mc`); twice the cost.
        case stereo
    }

    /// Which preprocessor suppresses noise and residual echo (see `EchoSettings.Suppressor`).
    public typealias Suppressor = EchoSettings.Suppressor
    /// How the reference is delayed before the echo canceller (see `EchoSettings.DelayMode`).
    public typealias DelayMode = EchoSettings.DelayMode

    // Input
    public var inputGainDB: Float = 0
    public var highPassHz: Float = 0

    // Echo canceller and preprocessor: speexdsp's settings here, the rest in `echo` (read and
    // written as if they were this struct's own: `configuration.echoCancellation`).
    public var tailMilliseconds: Float = 150
    /// Frame of the canceller and preprocessor; 0 picks one from the block size (see `FramePlan`).
    public var frameMilliseconds: Float = 0
    public var reference: ReferenceMode = .mono
    /// speexdsp's dereverberation (its preprocessor only).
    public var dereverb = false
    /// The echo canceller's and the suppressor's settings (VoiceEcho).
    public var echo = EchoSettings()
    /// The learned suppressor (`suppressor = "deepfilter"`) runs its model in place on the
    /// rendering thread instead of on its worker: offline runs set it (no deadline there, and
    /// their output must not depend on thread timing). Not a preset key.
    public var learnedRunsInPlace = false

    // Leveller (AGC)
    public var leveller = false
    public var levellerTargetDBFS: Float = -20
    public var levellerMaxGainDB: Float = 12
    public var levellerSpeedDBPerSecond: Float = 6

    // Effect chain (after the leveller)
    /// Units in processing order, built-in and plugin units alike; empty = no chain.
    public var chain: [ChainUnit] = []
    /// The plugin units presets define, by section name; those named in `chain` run.
    public var plugins: [String: PluginUnitSettings] = [:]
    /// The built-in units of the chain, in order. Setting it replaces the whole chain with them.
    public var effectOrder: [EffectKind] {
        get {
            chain.compactMap {
                if case .builtIn(let kind) = $0 { return kind }
                return nil
            }
        }
        set { chain = newValue.map(ChainUnit.builtIn) }
    }
    /// Parameter values of every effect kind, indexed by `EffectKind.index`, then parameter index.
    public var effectValues: [[Float]] = EffectKind.defaultValues

    // Monitor (ear return) and ducking
    /// Where the monitor's voice comes from.
    public enum MonitorSource: String, Sendable, CaseIterable {
        /// After input gain and high-pass only: no added latency.
        case dry
        /// The finished voice, late by the engine's latency.
        case processed
    }
    public var monitor = false
    public var monitorSource: MonitorSource = .dry
    public var monitorVoiceDB: Float = 0
    /// −1 (left) … +1 (right).
    public var monitorVoicePan: Float = 0
    public var monitorFarDB: Float = -6
    public var monitorMasterDB: Float = 0
    /// Mute the monitor when it makes the speakers howl (see `FeedbackGuard`).
    public var monitorFeedbackGuard = true
    /// Lower the far end on speaker_out while the near end talks.
    public var ducking = false
    public var duckingDepthDB: Float = -12
    public var duckingAttackMilliseconds: Float = 50
    public var duckingReleaseMilliseconds: Float = 500

    // Output
    public var outputGainDB: Float = 0

    public init() {}

    /// True when the engine needs a far-end reference (the echo canceller is on).
    public var needsReference: Bool { echo.echoCancellation }
}

extension EngineConfiguration {
    /// The echo settings (`echo`) read and written as this configuration's own fields.
    public subscript<T>(dynamicMember path: WritableKeyPath<EchoSettings, T>) -> T {
        get { echo[keyPath: path] }
        set { echo[keyPath: path] = newValue }
    }
}
