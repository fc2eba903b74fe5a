import VoiceRT
import VoiceUnits

/// The names of every live parameter the engine answers to, one place for both sides.
///
/// Names are preset keys (`input.gain_db`, `compressor.threshold_dbfs`), except for values the
/// main thread derives before sending (pan laws and dB conversions need libm): the monitor's
/// linear gains and the ducking depth's linear gain, which have names of their own.
///
/// - Realtime: never (builds strings); the process thread sees only `ParameterID`s.
public enum ControlNames {
    public static let inputGain = "input.gain_db"
    public static let outputGain = "output.gain_db"
    /// The leveller's parameters, by its descriptors' ids (`agc.target_dbfs`...).
    public static func leveller(_ id: String) -> String { "agc.\(id)" }
    /// Monitor gains, linear, worked out on the main thread from the preset's dB and pan.
    public static let monitorVoiceLeft = "monitor.voice_gain_left"
    public static let monitorVoiceRight = "monitor.voice_gain_right"
    public static let monitorFar = "monitor.far_gain"
    public static let monitorMaster = "monitor.master_gain"
    /// The residual echo post-filter's tail-model strength and coherence exponent (preset keys).
    public static let residualSuppression = "preprocessor.residual_suppression"
    public static let coherenceSuppression = "preprocessor.coherence_suppression"
    /// The coherence exponent while a clipping loudspeaker is modelled (`SpeakerCurve`).
    public static let clippingCoherenceSuppression = "preprocessor.clipping_coherence_suppression"
    /// The leftover-echo gain's exponent (`LeftoverEcho`).
    public static let leftoverEchoSuppression = "preprocessor.leftover_echo_suppression"
    /// The residual echo gate (`preprocessor.residual_echo_gate_db`) as a linear gain.
    public static let residualEchoGate = "preprocessor.residual_echo_gate_gain"
    /// The ducking depth as a linear gain.
    public static let duckingDepth = "ducking.depth_gain"
    /// The feedback guard on (1) or off (0).
    public static let feedbackGuard = "monitor.feedback_guard"
    /// An action: unmute the monitor and let the guard watch again (any value).
    public static let unmuteMonitor = "monitor.unmute"
    /// Parameter `id` of the chain's `kind` unit (`compressor.threshold_dbfs`).
    public static func effect(_ kind: EffectKind, _ id: String) -> String { "\(kind.rawValue).\(id)" }
    /// The message identifier of every effect parameter, by `EffectKind.index`, then the
    /// parameter's position in its unit's descriptors: resolved from the names once, so a live
    /// change goes from its position to its identifier without building the name again.
    public static let effectIDs: [[ParameterID]] = EffectKind.allCases.map { kind in
        kind.parameters.map { ParameterID(effect(kind, $0.id)) }
    }
    /// Control port `symbol` of the chain's plugin unit `name` (`eq.gain_1`).
    public static func plugin(_ name: String, _ symbol: String) -> String { "\(name).\(symbol)" }
}
