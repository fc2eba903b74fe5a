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
            .number(kind.rawValue, p, \PresetSettings.engine.effectValues[kind.index][index], help(p))
        }
    }

    static let engineKeys: [PresetKey] = [
        .number(
            "input", "gain_db", \.engine.inputGainDB, -40...40, "dB",
            "Gain applied to the microphone before any processing."),
        .number(
            "input", "highpass_hz", \.engine.highPassHz, 20...500, "Hz",
            "High-pass corner that removes rumble and handling noise.", zero: "off"),

        .boolean(
            "echo_canceller", "enabled", \.engine.echoCancellation,
            "Cancel the echo of the far end (far_in_L/R) from the microphone."),
        .number(
            "echo_canceller", "tail_ms", \.engine.tailMilliseconds, 20...1000, "ms",
            "Length of the echo path modelled; cover the room's reverb, cost grows with it."),
        .number(
            "echo_canceller", "frame_ms", \.engine.frameMilliseconds, 2.5...40, "ms",
            "Frame of the canceller and preprocessor; 0 derives it from the JACK block size.", zero: "auto"),
        .choice(
            "echo_canceller", "reference", \.engine.reference,
            "Stereo far end as mono (L+R)/2, one echo path, or stereo, two paths at twice the cost."),
        .choice(
            "echo_canceller", "delay", \.engine.delayMode,
            "Reference delay: auto estimates it from the signals, fixed uses delay_ms as is."),
        .number(
            "echo_canceller", "delay_ms", \.engine.delayMilliseconds, 0...2000, "ms",
            "Reference delay when fixed; the starting estimate when auto."),
        .number(
            "echo_canceller", "max_delay_ms", \.engine.maximumDelayMilliseconds, 50...2000, "ms",
            "Largest speaker-to-mic delay the estimator searches."),
        .number(
            "echo_canceller", "delay_margin_ms", \.engine.delayMarginMilliseconds, 0...100, "ms",
            "Kept off the estimate so the reference always leads its echo."),
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
            "voicerack (echo-cancel): tells steady noise from babble and takes the canceller's residual echo and its room tail as a second noise, so it removes more noise and babble and keeps double talk better. speexdsp (echo-cancel-speexdsp): speexdsp's preprocessor, the only one with dereverb, at less CPU. Figures: docs/measurements.md."
        ),
        .boolean("preprocessor", "noise_suppression", \.engine.noiseSuppression, "Suppress background noise."),
        .number(
            "preprocessor", "noise_suppress_db", \.engine.noiseSuppressDB, -60...0, "dB",
            "Most attenuation applied to noise (steady noise, with the voicerack suppressor); deeper sounds cleaner but more artificial."
        ),
        .number(
            "preprocessor", "babble_suppress_db", \.engine.babbleSuppressDB, -60...0, "dB",
            "Most attenuation of babble (other voices) with the voicerack suppressor, never deeper than noise_suppress_db: deeper chops the voice with the babble's syllables."
        ),
        .number(
            "preprocessor", "echo_suppress_db", \.engine.echoSuppressDB, -90...0, "dB",
            "Most attenuation of residual echo while only the far end talks."),
        .number(
            "preprocessor", "echo_suppress_active_db", \.engine.echoSuppressActiveDB, -90...0, "dB",
            "Most attenuation of residual echo while the near end talks too (double talk)."),
        .boolean(
            "preprocessor", "vad", \.engine.voiceActivityDetection,
            "Detect speech, so the leveller only adapts while someone talks."),
        .boolean(
            "preprocessor", "dereverb", \.engine.dereverb,
            "Reduce room reverberation (can sound processed); speexdsp's suppressor only: with suppressor = \"voicerack\" it does nothing."
        ),
        .number(
            "preprocessor", "residual_suppression", \.engine.residualSuppression, 0...4, "",
            "Residual echo post-filter strength after the canceller: per-band gains from a modelled reverberation tail, with comfort noise; 1 = the residual as measured, higher removes more echo but can thin double talk. echo-cancel leaves it off: beside its coherence and leftover gains it added little (docs/measurements.md).",
            zero: "off"),
        .number(
            "preprocessor", "coherence_suppression", \.engine.coherenceSuppression, 0...1, "",
            "Residual echo gain from how much of the mic the echo estimate explains, raised to this power: follows long rooms and changed echo paths the post-filter's model misses. Higher removes more echo where only the far end plays and thins double talk: echo-cancel uses 0.2, echo-cancel-strong 0.5 (docs/measurements.md).",
            zero: "off"),
        .number(
            "preprocessor", "clipping_coherence_suppression", \.engine.clippingCoherenceSuppression, 0...1, "",
            "coherence_suppression while the canceller models a loudspeaker that clips (echo_canceller.speaker_curve), where echo is left that no model removes; the larger of the two is used. echo-cancel's 0.3 removes more of a clipping speaker's echo than 0.2 at the same double-talk quality (docs/measurements.md).",
            zero: "no change"),
        .number(
            "preprocessor", "leftover_echo_suppression", \.engine.leftoverEchoSuppression, 0...4, "",
            "Residual echo gain from how much of the canceller's output the far end's last 64 ms still explain (fitted bin by bin, without the canceller's model), raised to this power: catches the echo a moved speaker or mic leaves while the canceller re-learns the room, most of all in the first second after the change, at almost no cost to double talk (echo-cancel: 2.2; docs/measurements.md).",
            zero: "off"),
        .number(
            "preprocessor", "residual_echo_gate_db", \.engine.residualEchoGateDB, -30...0, "dB",
            "Extra attenuation while only the far end plays (0 = off); stronger values can clip double talk."),

        .boolean("agc", "enabled", \.engine.leveller, "Level the voice towards target_dbfs."),
        // The leveller's own parameters: names, ranges and units from its declaration.
        .number("agc", VoiceLeveller.parameters[0], \.engine.levellerTargetDBFS, "Level the voice is steered towards."),
        .number(
            "agc", VoiceLeveller.parameters[1], \.engine.levellerMaxGainDB,
            "Most gain the leveller may add; caps how much quiet noise is raised."),
        .number("agc", VoiceLeveller.parameters[2], \.engine.levellerSpeedDBPerSecond, "How fast the gain may change."),

        .boolean("monitor", "enabled", \.engine.monitor, "Feed monitor_out_L/R (off: silence)."),
        .choice(
            "monitor", "source", \.engine.monitorSource,
            "dry: the mic after gain and high-pass, no added latency; processed: the finished voice, late by the engine's latency."
        ),
        .number("monitor", "voice_db", \.engine.monitorVoiceDB, -60...12, "dB", "Level of your voice in the monitor."),
        .number(
            "monitor", "voice_pan", \.engine.monitorVoicePan, -1...1, "",
            "Position of your voice: -1 left, 0 centre, 1 right."
        ),
        .number(
            "monitor", "far_db", \.engine.monitorFarDB, -60...12, "dB", "Level of the far end / program in the monitor."
        ),
        .number("monitor", "master_db", \.engine.monitorMasterDB, -60...12, "dB", "Overall monitor level."),
        .boolean(
            "monitor", "feedback_guard", \.engine.monitorFeedbackGuard,
            "Mute the monitor when it makes the speakers howl (a growing narrow-band peak in the mic); unmute with SIGHUP or `unmute` (--control)."
        ),

        .boolean("ducking", "enabled", \.engine.ducking, "Lower speaker_out while near-end voice is detected."),
        .number("ducking", "depth_db", \.engine.duckingDepthDB, -40...0, "dB", "How far the far end is lowered."),
        .number(
            "ducking", "attack_ms", \.engine.duckingAttackMilliseconds, 1...1000, "ms", "Time to go all the way down."),
        .number(
            "ducking", "release_ms", \.engine.duckingReleaseMilliseconds, 10...5000, "ms",
            "Time to come all the way back."),

        .number(
            "output", "gain_db", \.engine.outputGainDB, -40...40, "dB",
            "Gain applied to voice_out after all processing."),
    ]

    /// Every key by its full name (`compressor.threshold_dbfs`), for commands.
    static let keysByFullName = Dictionary(uniqueKeysWithValues: keys.map { ($0.fullName, $0) })

    /// The key `name` of `section`, if the schema has one.
    static func key(section: String, name: String) -> PresetKey? { keysByFullName["\(section).\(name)"] }

    static func keys(in section: String) -> [PresetKey] { keys.filter { $0.section == section } }
}
