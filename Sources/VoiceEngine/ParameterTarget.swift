import VoiceRT

/// What a `ParameterMessage` addresses: an engine-level control, or a slot of the effect chain.
///
/// Engine controls use `target` codes below 256; slot `s` of the chain is `256 + s`, and the
/// message's `index` is then the unit's parameter index (`EffectKind.parameters`). Unit
/// parameters carry preset values (dB, ms...); the monitor and ducking gains carry linear gains
/// worked out on the main thread (pan laws and dB conversions need libm).
public enum ParameterTarget: Equatable, Sendable {
    /// Input gain (dB), index 0.
    case inputGain
    /// Voice leveller, `VoiceLeveller` parameter indices.
    case leveller
    /// Output gain (dB), index 0.
    case outputGain
    /// Monitor mix gains, linear: index 0 voice left, 1 voice right, 2 far end, 3 master.
    case monitor
    /// Ducking depth, linear, index 0.
    case duckingDepth
    /// Feedback guard: index 0 on (1) / off (0); index 1 re-arm (unmute).
    case feedbackGuard
    /// Slot `n` of the effect chain (position in `chain.order`).
    case effect(slot: Int)

    /// The code carried in `ParameterMessage.target`.
    public var code: UInt16 {
        let code =
            switch self {
            case .inputGain: EngineState.inputGainCode
            case .leveller: EngineState.levellerCode
            case .outputGain: EngineState.outputGainCode
            case .monitor: EngineState.monitorCode
            case .duckingDepth: EngineState.duckingDepthCode
            case .feedbackGuard: EngineState.feedbackGuardCode
            case .effect(let slot): EngineState.firstSlotCode + slot
            }
        return UInt16(code)
    }

    /// A message for parameter `index` of this target.
    public func message(_ index: Int, _ value: Float) -> ParameterMessage {
        ParameterMessage(target: code, index: UInt16(index), value: value)
    }
}
