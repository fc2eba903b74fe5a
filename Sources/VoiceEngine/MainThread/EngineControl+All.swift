import VoiceUnits

/// The engine's own parameters, each declared once (`EngineControl`), in the order a change's
/// messages are sent. The preset schema places the keyed ones among its switches and choices.
///
/// - Realtime: never (main thread).
extension EngineControl {
    public static let inputGain = EngineControl(
        Key("input", "gain_db", -40...40, .decibels, "Gain applied to the microphone before any processing."),
        .inputGain(index: 0), \.inputGainDB)
    // The leveller's, by its descriptors' ids and positions (a test checks they agree).
    public static let levellerTarget = EngineControl(
        Key("agc", VoiceLeveller.parameters[0], "Level the voice is steered towards."), .leveller(index: 0),
        \.levellerTargetDBFS)
    public static let levellerMaxGain = EngineControl(
        Key("agc", VoiceLeveller.parameters[1], "Most gain the leveller may add; caps how much quiet noise is raised."),
        .leveller(index: 1), \.levellerMaxGainDB)
    public static let levellerSpeed = EngineControl(
        Key("agc", VoiceLeveller.parameters[2], "How fast the gain may change."), .leveller(index: 2),
        \.levellerSpeedDBPerSecond)
    public static let outputGain = EngineControl(
        Key("output", "gain_db", -40...40, .decibels, "Gain applied to voice_out after all processing."),
        .outputGain(index: 0), \.outputGainDB)

    // The post-filter runs after the canceller; its strengths change no latency or allocation,
    // so `echo-cancel` → `echo-cancel-strong` needs no restart.
    public static let residualSuppression = EngineControl(
        Key(
            "preprocessor", "residual_suppression", 0...4, .ratio,
            "Residual echo post-filter strength after the canceller: per-band gains from a modelled reverberation tail, with comfort noise; 1 = the residual as measured, higher removes more echo but can thin double talk. echo-cancel leaves it off: beside its coherence and leftover gains it added little (docs/measurements.md).",
            zero: "off"), .canceller(.residualSuppression), \.residualSuppression)
    public static let coherenceSuppression = EngineControl(
        Key(
            "preprocessor", "coherence_suppression", 0...1, .ratio,
            "Residual echo gain from how much of the mic the echo estimate explains, raised to this power: follows long rooms and changed echo paths the post-filter's model misses. Higher removes more echo where only the far end plays and thins double talk: echo-cancel uses 0.2, echo-cancel-strong 0.5 (docs/measurements.md).",
            zero: "off"), .canceller(.coherenceSuppression), \.coherenceSuppression)
    public static let clippingCoherenceSuppression = EngineControl(
        Key(
            "preprocessor", "clipping_coherence_suppression", 0...1, .ratio,
            "coherence_suppression while the canceller models a loudspeaker that clips (echo_canceller.speaker_curve), where echo is left that no model removes; the larger of the two is used. echo-cancel's 0.3 removes more of a clipping speaker's echo than 0.2 at the same double-talk quality (docs/measurements.md).",
            zero: "no change"), .canceller(.clippingCoherenceSuppression), \.clippingCoherenceSuppression)
    public static let leftoverEchoSuppression = EngineControl(
        Key(
            "preprocessor", "leftover_echo_suppression", 0...4, .ratio,
            "Residual echo gain from how much of the canceller's output the far end's last 64 ms still explain (fitted bin by bin, without the canceller's model), raised to this power: catches the echo a moved speaker or mic leaves while the canceller re-learns the room, most of all in the first second after the change, at almost no cost to double talk (echo-cancel: 2.2; docs/measurements.md).",
            zero: "off"), .canceller(.leftoverEchoSuppression), \.leftoverEchoSuppression)
    public static let residualEchoGate = EngineControl(
        Key(
            "preprocessor", "residual_echo_gate_db", -30...0, .decibels,
            "Extra attenuation while only the far end plays (0 = off); stronger values can clip double talk."),
        .canceller(.residualEchoGate), \.residualEchoGateDB, sent: .gainFromDecibels,
        message: "preprocessor.residual_echo_gate_gain")
    public static let duckingDepth = EngineControl(
        Key("ducking", "depth_db", -40...0, .decibels, "How far the far end is lowered."), .duckingDepth,
        \.duckingDepthDB, sent: .gainFromDecibels, message: "ducking.depth_gain")

    /// The monitor's gains, linear, worked out on the main thread from its levels and pan (pan
    /// laws need libm).
    public static let monitorGains = [
        EngineControl(message: "monitor.voice_gain_left", .monitor(gain: 0)),
        EngineControl(message: "monitor.voice_gain_right", .monitor(gain: 1)),
        EngineControl(message: "monitor.far_gain", .monitor(gain: 2)),
        EngineControl(message: "monitor.master_gain", .monitor(gain: 3)),
    ]
    /// The feedback guard on (1) or off (0), `monitor.feedback_guard`'s message.
    public static let feedbackGuard = EngineControl(message: "monitor.feedback_guard", .feedbackGuard)
    /// An action: unmute the monitor and let the guard watch again (any value).
    public static let unmuteMonitor = EngineControl(message: "monitor.unmute", .unmuteMonitor)

    public static let monitorVoice = EngineControl(
        Key("monitor", "voice_db", -60...12, .decibels, "Level of your voice in the monitor."), \.monitorVoiceDB,
        sent: .monitorMix)
    public static let monitorVoicePan = EngineControl(
        Key("monitor", "voice_pan", -1...1, .ratio, "Position of your voice: -1 left, 0 centre, 1 right."),
        \.monitorVoicePan, sent: .monitorMix)
    public static let monitorFar = EngineControl(
        Key("monitor", "far_db", -60...12, .decibels, "Level of the far end / program in the monitor."),
        \.monitorFarDB, sent: .monitorMix)
    public static let monitorMaster = EngineControl(
        Key("monitor", "master_db", -60...12, .decibels, "Overall monitor level."), \.monitorMasterDB,
        sent: .monitorMix)

    /// Every engine control: the messages in the order a change sends them, then the monitor's
    /// levels (sent as its gains) and the keys that need a restart.
    public static let all: [EngineControl] =
        [inputGain, levellerTarget, levellerMaxGain, levellerSpeed, outputGain]
        + [residualSuppression, coherenceSuppression, clippingCoherenceSuppression, leftoverEchoSuppression]
        + [residualEchoGate, duckingDepth] + monitorGains + [feedbackGuard, unmuteMonitor]
        + [monitorVoice, monitorVoicePan, monitorFar, monitorMaster] + restartControls

    /// The controls a message carries, in `all`'s order.
    static var routed: [EngineControl] { all.filter { $0.route != nil } }
}
