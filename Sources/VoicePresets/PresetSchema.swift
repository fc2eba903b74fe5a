import VoiceEngine
import VoiceFiles
import VoiceUnits

/// Every key a preset may set: its section, type, allowed values, unit, help and target field.
///
/// The single source of truth for validation (`PresetDefinition`), resolution (`apply`) and
/// rendering (`PresetRenderer`), so the three cannot drift apart. Ranges are deliberately
/// narrower than what the engine would accept: they keep hand-edited presets in the region where
/// the DSP behaves sensibly.
///
/// - Realtime: never.
enum PresetSchema {
    /// Top-level keys that are not configuration fields.
    static let topLevelKeys = ["description", "base"]

    /// Sections in the order they are rendered (the order of the signal flow), with a one-line help.
    static let sections: [(name: String, help: String)] =
        [
            ("jack", "How `voicerack run` joins the JACK graph."),
            ("pipewire", "voicerack on a PipeWire desktop: its microphone and call nodes (docs/pipewire.md)."),
            ("input", "Microphone gain and high-pass filter, before everything else."),
            ("echo_canceller", "Acoustic echo canceller (speexdsp) and the alignment of its far-end reference."),
            (
                "preprocessor",
                "Noise and residual-echo suppression, voice activity detection, dereverberation (speexdsp)."
            ),
            ("agc", "Voice leveller: slowly steers the voice towards a target level."),
            ("monitor", "Ear return on monitor_out_L/R: your voice (dry = no added latency) plus the far end."),
            ("ducking", "Lower the far end on speaker_out_L/R while you talk."),
            (
                "backing",
                "Backing track (--backing FILE) played on speaker_out_L/R: it joins the echo reference, the monitor and the karaoke tap."
            ),
            ("recording", "How `voicerack run` records (--record FILE or TAP=FILE)."),
            (
                "stream",
                "Icecast stream of a tap (voicerack run; --stream URL and the --stream-* flags override these)."
            ),
            (
                "chain",
                "Effect units after the leveller, in the order listed; each has its own section below (LV2 units: a section with lv2 = \"URI\")."
            ),
        ]
        + EffectKind.allCases.map {
            ($0.rawValue, "Settings of the \($0.rawValue) unit (used when listed in chain.order).")
        }
        + [("output", "Gain applied to voice_out, after all processing.")]

    static let keys: [PresetKey] =
        jackKeys + pipeWireKeys + engineKeys + [levellerTargetLUFS] + backingKeys + [recordingFormat] + streamKeys
        + [chainOrder]
        + EffectKind.allCases.flatMap(effectKeys)

    /// `recording.format`: checked with libsndfile's own list, so a preset cannot name a format
    /// this machine cannot write.
    static let recordingFormat = PresetKey(
        section: "recording", name: "format", unit: "",
        help:
            "Container and encoding of recordings, e.g. \"flac:pcm24\"; empty = from each file's extension; --format overrides.",
        kind: .text(
            "\"\" or CONTAINER[:ENCODING] (wav, wavex, rf64, w64, caf, aiff, flac, ogg, opus, mp3)",
            get: { $0.session.recordingFormat }, set: { $0.session.recordingFormat = $1 },
            check: { text in
                guard !text.isEmpty else { return nil }
                do {
                    let format = try AudioFormat(parsing: text)
                    return format.isWritable(channels: 1, sampleRate: 48_000)
                        ? nil : "libsndfile cannot write \(format) here"
                } catch {
                    return "\(error)"
                }
            }))

    /// `chain.order`: which effect units run, in which order.
    static let chainOrder = PresetKey(
        section: "chain", name: "order", unit: "",
        help:
            "Effect units in processing order, e.g. \"gate, compressor, deesser, limiter\"; built-in units or LV2 units (a section of their own with lv2 = \"URI\"); empty = none.",
        kind: .list(
            EffectKind.allCases.map(\.rawValue), get: { $0.engine.chain.map(\.name) },
            set: { settings, names in settings.engine.chain = names.map(ChainUnit.init(named:)) }))

    /// One key per parameter of an effect unit, from the unit's own descriptor (ranges, units,
    /// the help line: `help(_:)`).
    static func effectKeys(_ kind: EffectKind) -> [PresetKey] {
        kind.parameters.enumerated().map { index, p in
            var key = PresetKey.number(
                kind.rawValue, p, \PresetSettings.engine.effectValues[kind.index][index], help(p))
            key.live = .effect(kind, index: index)
            return key
        }
    }

    static let engineKeys: [PresetKey] = [
        .engine(EngineControl.inputGain),
        .engine(EngineControl.highPass),

        .boolean(
            "echo_canceller", "enabled", \.engine.echoCancellation,
            "Cancel the echo of the far end (far_in_L/R) from the microphone."),
        .engine(EngineControl.tail),
        .engine(EngineControl.frame),
        .choice(
            "echo_canceller", "reference", \.engine.reference,
            "Stereo far end as mono (L+R)/2, one echo path, or stereo, two paths at twice the cost."),
        .choice(
            "echo_canceller", "delay", \.engine.delayMode,
            "Reference delay: auto estimates it from the signals, fixed uses delay_ms as is."),
        .engine(EngineControl.delay),
        .engine(EngineControl.maximumDelay),
        .engine(EngineControl.delayMargin),
        .boolean(
            "echo_canceller", "drift_compensation", \.engine.driftCompensation,
            "Follow clock drift between two sound cards (±1000 ppm) by resampling the reference."),
        .boolean(
            "echo_canceller", "startup_suppression", \.engine.startupSuppression,
            "Until the canceller first converges (~1.5 s of far-end speech), attenuate frames that hold only echo."),
        .boolean(
            "echo_canceller", "speaker_curve", \.engine.speakerCurve,
            "Learn how loud small speakers soft-clip and clip the canceller's reference alike (mono reference)."),

        .boolean(
            "preprocessor", "enabled", \.engine.preprocess,
            "Suppress noise and the canceller's residual echo in the voice (one frame of latency)."),
        .choice(
            "preprocessor", "suppressor", \.engine.suppressor,
            "voicerack (echo-cancel): tells steady noise from babble and takes the canceller's residual echo and its room tail as a second noise, so it removes more noise and babble and keeps double talk better. speexdsp (echo-cancel-speexdsp): speexdsp's preprocessor, the only one with dereverb, at less CPU. deepfilter (echo-cancel-dfn): DeepFilterNet 3, a learned noise suppressor on a worker thread, with voicerack's suppressor taking the residual echo and standing in for any hop the worker misses; 48 kHz only, about 56 ms more latency, needs DeepFilterNet's runtime (docs/deepfilter.md). Figures: docs/measurements.md."
        ),
        .boolean("preprocessor", "noise_suppression", \.engine.noiseSuppression, "Suppress background noise."),
        .engine(EngineControl.noiseSuppress),
        .engine(EngineControl.babbleSuppress),
        .engine(EngineControl.echoSuppress),
        .engine(EngineControl.echoSuppressActive),
        .engine(EngineControl.learnedSuppress),
        .boolean(
            "preprocessor", "vad", \.engine.voiceActivityDetection,
            "Detect speech, so the leveller only adapts while someone talks."),
        .boolean(
            "preprocessor", "dereverb", \.engine.dereverb,
            "Reduce room reverberation (can sound processed); speexdsp's suppressor only: with suppressor = \"voicerack\" it does nothing."
        ),
        .engine(EngineControl.residualSuppression),
        .engine(EngineControl.coherenceSuppression),
        .engine(EngineControl.clippingCoherenceSuppression),
        .engine(EngineControl.leftoverEchoSuppression),
        .engine(EngineControl.residualEchoGate),

        .boolean("agc", "enabled", \.engine.leveller, "Level the voice towards target_dbfs."),
        .engine(EngineControl.levellerTarget),
        .engine(EngineControl.levellerMaxGain),
        .engine(EngineControl.levellerSpeed),

        .boolean("monitor", "enabled", \.engine.monitor, "Feed monitor_out_L/R (off: silence)."),
        .choice(
            "monitor", "source", \.engine.monitorSource,
            "dry: the mic after gain and high-pass, no added latency; processed: the finished voice, late by the engine's latency."
        ),
        .engine(EngineControl.monitorVoice),
        .engine(EngineControl.monitorVoicePan),
        .engine(EngineControl.monitorFar),
        .engine(EngineControl.monitorMaster),
        .boolean(
            "monitor", "feedback_guard", \.engine.monitorFeedbackGuard,
            "Mute the monitor when it makes the speakers howl (a growing narrow-band peak in the mic); unmute with SIGHUP or `unmute` (--control)."
        ),

        .boolean("ducking", "enabled", \.engine.ducking, "Lower speaker_out while near-end voice is detected."),
        .engine(EngineControl.duckingDepth),
        .engine(EngineControl.duckingAttack),
        .engine(EngineControl.duckingRelease),

        .engine(EngineControl.outputGain),
    ]

    /// Every key by its full name (`compressor.threshold_dbfs`), for commands.
    static let keysByFullName = Dictionary(uniqueKeysWithValues: keys.map { ($0.fullName, $0) })

    /// The key `name` of `section`, if the schema has one.
    static func key(section: String, name: String) -> PresetKey? { keysByFullName["\(section).\(name)"] }

    static func keys(in section: String) -> [PresetKey] { keys.filter { $0.section == section } }
}
