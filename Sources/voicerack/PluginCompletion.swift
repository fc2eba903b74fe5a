import ArgumentParser
import VoiceLV2

/// Shell completion for a plugin's name (`plugins show <TAB>`): each installed plugin by the
/// end of its URI after the last `/` (`dpl#mono`, `compressor_mono`), which `LV2World.find`
/// takes, or by its whole URI where that end is not unique. Names with spaces are not offered:
/// a shell splits them.
///
/// - Realtime: never (reads the LV2 bundles' manifests, no plugin's data; runs only inside the
///   shell's completion call, and for `plugins list --names`).
enum PluginCompletion {
    /// The completion kind, for `@Argument(completion:)`.
    static let kind = CompletionKind.custom { _, _, prefix in candidates(prefix: prefix) }

    /// The candidates for the word `prefix` typed so far, sorted.
    static func candidates(prefix: String) -> [String] {
        names(uris: LV2World().pluginURIs()).filter { $0.hasPrefix(prefix) }
    }

    /// The word each plugin is completed as: its URI's last `/` component when no other URI
    /// ends with it (`LV2World.find` then resolves it to that plugin, unless a plugin is named
    /// exactly so, which no installed one is known to be), else the URI.
    static func names(uris: [String]) -> [String] {
        let lowered = uris.map { $0.lowercased() }
        return uris.map { uri in
            guard let slash = uri.lastIndex(of: "/") else { return uri }
            let tail = String(uri[uri.index(after: slash)...])
            let ending = lowered.filter { LV2World.uriEnds($0, with: tail.lowercased()) }.count
            return ending == 1 && !tail.isEmpty ? tail : uri
        }.sorted()
    }
}
