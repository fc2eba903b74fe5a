import VoiceUnits

/// The effect units a preset can put in the voice chain, after the leveller.
public enum EffectKind: String, CaseIterable, Sendable {
    case equalizer
    case gate
    case compressor
    case deesser
    case limiter
    case delay
    case reverb

    /// The unit's parameters, in index order (ids become preset keys).
    public var parameters: [ParameterDescriptor] {
        switch self {
        case .equalizer: Equalizer.parameters
        case .gate: NoiseGate.parameters
        case .compressor: Compressor.parameters
        case .deesser: DeEsser.parameters
        case .limiter: Limiter.parameters
        case .delay: Delay.parameters
        case .reverb: Reverb.parameters
        }
    }

    /// Position in `allCases`, the index into `EngineConfiguration.effectValues`.
    public var index: Int { Self.allCases.firstIndex(of: self)! }

    /// Every kind's default parameter values, indexed like `allCases`.
    public static var defaultValues: [[Float]] { allCases.map { $0.parameters.map(\.defaultValue) } }
}
