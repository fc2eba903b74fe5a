import VoiceRT
import VoiceUnits

/// The names of the chain's live parameters: preset keys (`compressor.threshold_dbfs`,
/// `eq.gain_1`). The engine's own controls name theirs in their declaration (`EngineControl`).
///
/// - Realtime: never (builds strings); the process thread sees only `ParameterID`s.
public enum ControlNames {
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
