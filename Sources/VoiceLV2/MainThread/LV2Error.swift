/// Why an LV2 plugin cannot be used, with the plugin, port or feature at fault.
///
/// Every case is bad input data (sysexits 65): a preset or command named a plugin, a port or a
/// value the installed plugins do not accept.
public enum LV2Error: Error, Equatable, CustomStringConvertible {
    /// No installed plugin has this URI; `suggestion` is the nearest installed URI, if any.
    case unknownPlugin(uri: String, suggestion: String?)
    /// A name (not a URI) fits several installed plugins: each as `URI (name)`.
    case ambiguousPlugin(name: String, candidates: [String])
    /// The plugin requires an LV2 feature voicerack does not provide.
    case unsupportedFeature(plugin: String, feature: String)
    /// The plugin's audio ports do not fit a mono voice path (1 or 2 inputs and outputs).
    case unusablePorts(plugin: String, reason: String)
    /// No input control port of the plugin has this symbol.
    case unknownControl(plugin: String, symbol: String, suggestion: String?)
    /// The value lies outside the control port's own range.
    case outOfRange(plugin: String, symbol: String, value: Float, range: ClosedRange<Float>)
    /// lilv could not load the plugin's library or the plugin refused to instantiate.
    case instantiationFailed(plugin: String)
    /// A saved state could not be parsed or does not belong to this plugin.
    case badState(plugin: String, reason: String)

    /// The sysexits code: 64 (EX_USAGE) for a name that fits several plugins, 65 (EX_DATAERR)
    /// for every other case.
    public var exitCode: Int32 {
        if case .ambiguousPlugin = self { return 64 }
        return 65
    }

    public var description: String {
        switch self {
        case .unknownPlugin(let uri, let suggestion):
            return "no LV2 plugin '\(uri)' is installed" + hint(suggestion)
                + "; see `voicerack plugins list`"
        case .ambiguousPlugin(let name, let candidates):
            return "'\(name)' names \(candidates.count) installed LV2 plugins; give one of them: "
                + candidates.joined(separator: ", ")
        case .unsupportedFeature(let plugin, let feature):
            return
                "LV2 plugin '\(plugin)' requires the feature \(feature), which voicerack does not provide"
        case .unusablePorts(let plugin, let reason):
            return "LV2 plugin '\(plugin)' cannot run on the mono voice path: \(reason)"
        case .unknownControl(let plugin, let symbol, let suggestion):
            return "LV2 plugin '\(plugin)' has no input control port '\(symbol)'" + hint(suggestion)
        case .outOfRange(let plugin, let symbol, let value, let range):
            return
                "LV2 plugin '\(plugin)': \(symbol) = \(value) is outside \(range.lowerBound)...\(range.upperBound)"
        case .instantiationFailed(let plugin):
            return
                "LV2 plugin '\(plugin)' failed to instantiate (its library did not load or refused the host)"
        case .badState(let plugin, let reason):
            return "LV2 plugin '\(plugin)': bad saved state: \(reason)"
        }
    }

    private func hint(_ suggestion: String?) -> String {
        suggestion.map { " (did you mean '\($0)'?)" } ?? ""
    }
}
