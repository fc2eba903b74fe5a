/// Close-match suggestions for misspelt keys and sections ("did you mean 'tail_ms'?").
///
/// - Realtime: never.
enum Suggestion {
    /// The candidate closest to `word`: one it is a prefix of (or that is a prefix of it), or one
    /// within a small edit distance. Nil when nothing is close enough to be a useful hint.
    static func closest(to word: String, in candidates: [String]) -> String? {
        // Names longer than any candidate by far are not misspellings; skip the O(n·m) search.
        guard word.count <= 2 * (candidates.map(\.count).max() ?? 0) + 8 else { return nil }
        let limit = max(2, word.count / 3)
        let scored = candidates.compactMap { candidate -> (String, Int)? in
            let distance = editDistance(word, candidate)
            let prefix = word.count >= 3 && (candidate.hasPrefix(word) || word.hasPrefix(candidate))
            return distance <= limit || prefix ? (candidate, distance) : nil
        }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance over characters; the words are short, so O(n·m) is fine.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}
