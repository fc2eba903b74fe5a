/// One slot of the effect chain as a preset orders it: a built-in unit or a plugin unit named
/// by its preset section (`[eq]` with `lv2 = "URI"` is `.plugin("eq")`).
public enum ChainUnit: Hashable, Sendable, CustomStringConvertible {
    case builtIn(EffectKind)
    case plugin(String)

    /// The name in `chain.order` and the prefix of the unit's live parameters.
    public var name: String {
        switch self {
        case .builtIn(let kind): kind.rawValue
        case .plugin(let name): name
        }
    }

    public var description: String { name }

    /// The unit called `name` in `chain.order`: a built-in kind, else a plugin section.
    public init(named name: String) {
        self = EffectKind(rawValue: name).map(ChainUnit.builtIn) ?? .plugin(name)
    }
}
