import CLilv

/// Plugins named as people name them: by URI, by name, by the end of the URI, or by a word of
/// either, with the candidates listed when a name fits several.
///
/// - Realtime: never; main thread.
extension LV2World {
    /// The plugin `name` names, tried in this order, the first rule that matches deciding:
    /// its full URI; its name (any case, `x42-dpl - Digital Peak Limiter Mono`); the end of its
    /// URI after a `/`, `#` or `:` (`dpl#mono`); a word of its URI or name (`dpl`, `limiter`).
    /// Throws `ambiguousPlugin` with the candidates when the deciding rule matches more than
    /// one plugin, `unknownPlugin` with the nearest URI when none matches.
    public func find(_ name: String) throws(LV2Error) -> LV2PluginInfo {
        // Only a URI goes to lilv: it reports anything else as an invalid URI on standard error.
        if name.contains(":"), let info = locked({ lilvPlugin(name).map(describe) }) { return info }
        let plugins = allPlugins()
        let key = name.lowercased()
        let rules: [(LV2PluginInfo) -> Bool] = [
            { $0.name.lowercased() == key },
            { Self.uriEnds($0.uri.lowercased(), with: key) },
            { Self.words($0.uri).contains(key) || Self.words($0.name).contains(key) },
        ]
        for rule in rules {
            let matches = plugins.filter(rule)
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 {
                throw .ambiguousPlugin(name: name, candidates: matches.map { "\($0.uri) (\($0.name))" })
            }
        }
        let containing = plugins.first { $0.uri.lowercased().contains(key) }?.uri
        throw .unknownPlugin(
            uri: name, suggestion: containing ?? NearMatch.closest(to: name, in: plugins.map(\.uri)))
    }

    /// Every installed plugin's URI, sorted, from the bundles' manifests alone: no plugin's own
    /// data is read (its name, ports), so this is quick enough for a shell's completion.
    public func pluginURIs() -> [String] {
        locked {
            var uris: [String] = []
            eachLilvPlugin { p in
                if let uri = lilv_node_as_uri(lilv_plugin_get_uri(p)) { uris.append(String(cString: uri)) }
            }
            return uris.sorted()
        }
    }

    /// True when `uri` ends with `tail` just after a `/`, `#` or `:`.
    public static func uriEnds(_ uri: String, with tail: String) -> Bool {
        guard !tail.isEmpty, uri.hasSuffix(tail), uri.count > tail.count else { return false }
        let before = uri[uri.index(uri.endIndex, offsetBy: -tail.count - 1)]
        return before == "/" || before == "#" || before == ":"
    }

    /// The lowercased words of `text`: runs of letters and digits.
    static func words(_ text: String) -> Set<String> {
        Set(text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init))
    }
}
