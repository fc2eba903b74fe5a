/// The installed name nearest to a mistyped one, for "did you mean" hints on plugin URIs and
/// control symbols.
///
/// URIs are long and share prefixes (`http://lsp-plug.in/plugins/lv2/...`), so a whole-string
/// distance would prefer a sibling with the same prefix; the candidates are compared on their
/// distinctive tail (after the last '/' or '#') as well as in full, and the better score wins.
///
/// - Realtime: never.
enum NearMatch {
    static func closest(to word: String, in candidates: [String]) -> String? {
        let key = word.lowercased()
        var best: (candidate: String, cost: Int)?
        for candidate in candidates {
            let lower = candidate.lowercased()
            let cost = min(distance(key, lower), distance(tail(key), tail(lower)))
            if cost <= max(2, tail(key).count / 3), cost < best?.cost ?? .max { best = (candidate, cost) }
            if lower.contains(tail(key)) && tail(key).count >= 4 && best == nil {
                best = (candidate, Int.max - 1)
            }
        }
        return best?.candidate
    }

    /// The part after the last '/' or '#': the plugin's own name in a URI.
    private static func tail(_ s: String) -> String {
        guard let cut = s.lastIndex(where: { $0 == "/" || $0 == "#" }) else { return s }
        return String(s[s.index(after: cut)...])
    }

    /// Edits (insert, delete, substitute) between two strings, one row of the table at a time.
    private static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var row = Array(0...y.count)
        for (i, cx) in x.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, cy) in y.enumerated() {
                let above = row[j + 1]
                row[j + 1] = Swift.min(above + 1, row[j] + 1, diagonal + (cx == cy ? 0 : 1))
                diagonal = above
            }
        }
        return row[y.count]
    }
}
