/// Everything a preset decides about the voice engine, resolved to plain values.
///
/// Presets (`VoicePresets`) build this from TOML; defaults here are the `raw`-neutral values
/// except where noted. Units are in the property names.
public struct EngineConfiguration: Sendable, Equatable {
    /// How the echo canceller hears a stereo far end.
    public enum ReferenceMode: String, Sendable, CaseIterable {
        /// (L+R)/2: one echo path modelled; exact when both speakers play the same signal.
        case mono
        /// Both channels, two echo paths modelled (`speex_echo_state_init_mc`); twice the cost.
        case stereo
    }

    /// Which preprocessor suppresses noise and residual echo (both add one frame of latency).
    public enum Suppressor: String, Sendable, CaseIterable {
        /// voicerack's own (`SpectralSuppressor`): noise estimate that tells steady noise from
        /// babble, OM-LSA gain, the canceller's residual echo as a second noise.
        case voicerack
        /// speexdsp's preprocessor; the only one with dereverberation.
        case speexdsp
    }

    /// How the reference is delayed before the echo canceller.
    public enum DelayMode: String, Sendable, CaseIterable {
        /// Estimated from the signals (GCC-PHAT), starting from `delayMilliseconds`.
        case auto
        /// Exactly `delayMilliseconds`, never changed.
        case fixed
    }

    // Input
    public var inputGainDB: Float = 0
    public var highPassHz: Float = 0

    // Echo canceller
    public var echoCancellation = false
    public var tailMilliseconds: Float = 150
    /// Frame of the canceller and preprocessor; 0 picks one from the block size (see `FramePlan`).
    public var frameMilliseconds: Float = 0
    public var reference: ReferenceMode = .mono
    public var delayMode: DelayMode = .auto
    public var delayMilliseconds: Float = 0
    public var maximumDelayMilliseconds: Float = 500
    public var delayMarginMilliseconds: Float = 10
    /// Follow clock drift between playback and mic by resampling the reference
    /// (`DriftingDelay`, `DriftFollower`); only with `delayMode == .auto`.
    public var driftCompensation = true
    /// Attenuate echo-alone frames until the canceller first converges (`StartupSuppression`).
    public var startupSuppression = true
    /// Learn the loudspeaker's soft clipping and give the canceller a reference clipped the
    /// same way (`SpeakerCurve`); mono reference only.
    public var speakerCurve = true

    // Preprocessor
    public var preprocess = false
    public var suppressor: Suppressor = .speexdsp
    public var noiseSuppression = true
    public var noiseSuppressDB: Float = -15
    /// Most attenuation of babble (speech-like noise) with voicerack's suppressor; the floor
    /// moves between `noiseSuppressDB` (steady noise) and this one with how the noise behaves.
    public var babbleSuppressDB: Float = -12
    public var echoSuppressDB: Float = -40
    public var echoSuppressActiveDB: Float = -15
    public var voiceActivityDetection = true
    public var dereverb = false
    /// Extra attenuation (dB, ≤ 0) of frames with far-end signal and no near-end voice, after
    /// the preprocessor's residual echo suppression; 0 = off.
    public var residualEchoGateDB: Float = 0
    /// Strength of the residual echo post-filter (`ResidualEchoSuppressor`): how far the modelled
    /// residual is overestimated; 0 = off, 1 = as measured.
    public var residualSuppression: Float = 0
    /// Exponent of the post-filter's coherence gain (`EchoCoherence`): 0 = off; higher removes
    /// more echo where only the far end plays and costs more double talk.
    public var coherenceSuppression: Float = 0
    /// The coherence gain's exponent while `SpeakerCurve` models a loudspeaker that clips (the
    /// larger of it and `coherenceSuppression` is used); 0 = no change.
    public var clippingCoherenceSuppression: Float = 0
    /// Exponent of the post-filter's leftover-echo gain (`LeftoverEcho`): how hard it takes the
    /// canceller's output where the reference still explains it (an echo path that just changed);
    /// 0 = off.
    public var leftoverEchoSuppression: Float = 0

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

    // Recording (read by the host, not the engine)
    /// Format of `voicerack run`'s recordings, `CONTAINER[:ENCODING]`; empty = from each file's
    /// extension. `--format` overrides it.
    public var recordingFormat = ""

    /// Level of the voice in the karaoke tap (processed voice + backing, stereo).
    public var karaokeVoiceDB: Float = 0
    /// Level of the backing in the karaoke tap, relative to how it plays on the speakers.
    public var karaokeBackingDB: Float = 0

    // Backing track (read by the host, which plays it into speaker_out and the reference)
    /// The track to play; empty = none unless `--backing` names one. Presets give it relative
    /// to the preset file; resolved to a usable path when the preset is loaded.
    public var backingFile = ""
    /// Level of the backing track on speaker_out (dB).
    public var backingLevelDB: Float = 0
    /// Start the track again when it ends.
    public var backingLoop = false

    // Icecast stream (read by the host; `[stream]` in presets, overridden by --stream flags).
    // Strings are empty when unset; numbers 0 when the format's default applies.
    /// `icecast://USER@HOST:PORT/MOUNT`, never with a password; empty = no stream from the preset.
    public var streamURL = ""
    /// The tap streamed: voice, mic, reference, monitor or karaoke.
    public var streamTap = "voice"
    /// opus or mp3; empty = from the mount's extension.
    public var streamFormat = ""
    /// kb/s; 0 = the format's default (opus 64, mp3 128).
    public var streamBitrateKbps: Float = 0
    /// 1 or 2 channels on air.
    public var streamChannels: Float = 1
    public var streamName = ""
    public var streamDescription = ""
    public var streamGenre = ""
    /// Environment variable holding the source password.
    public var streamPasswordEnv = ""
    /// File whose first line is the source password; resolved relative to the preset file.
    public var streamPasswordFile = ""
    /// Start streaming when `run` starts; false: only on `stream start` or the stream signal.
    public var streamAutostart = true

    // Output
    public var outputGainDB: Float = 0

    // JACK connections (read by the host when it starts)
    /// Connect mic_in and speaker_out_L/R to the physical ports at start (never adding a second
    /// source to a port a patchbay already connected). False leaves all patching to the user for
    /// good, as `--no-auto-connect` does for one run.
    public var autoConnect = true

    // The PipeWire desktop (read by the host when it starts; `[pipewire]`, docs/pipewire.md)
    /// Link voicerack between the desktop's voicerack nodes and the devices, as `--pipewire`.
    public var pipeWireEnabled = false
    /// `node.name` of the microphone node and of the call-audio node.
    public var pipeWireMicNode = "voicerack-mic"
    public var pipeWireCallNode = "voicerack-call"
    /// Make the two nodes the default source and sink, as `--make-default`.
    public var pipeWireMakeDefault = false
    /// The desktop notification for talking while muted: its summary (empty: none) and body.
    public var mutedNoticeSummary = "You are talking while muted"
    public var mutedNoticeBody = "voicerack's microphone is muted: unmute it to be heard."

    public init() {}

    /// True when the engine needs a far-end reference (the echo canceller is on).
    public var needsReference: Bool { echoCancellation }
}
