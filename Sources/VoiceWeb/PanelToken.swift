/// The panel's access token: 128 random bits from the system's secure generator, as hex, asked
/// of every page load and every WebSocket (in the URL the session prints at start).
///
/// - Realtime: never; any thread (immutable).
public struct PanelToken: Sendable {
    public let text: String

    /// A new random token.
    public init() {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next(), generator.next()] as [UInt64]
        text = words.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// A given token (tests).
    public init(text: String) { self.text = text }

    /// Compares in time independent of where `candidate` first differs, so timing reveals nothing.
    public func matches(_ candidate: String?) -> Bool {
        guard let candidate else { return false }
        let a = Array(text.utf8)
        let b = Array(candidate.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<a.count { difference |= a[i] ^ (i < b.count ? b[i] : 0) }
        return difference == 0
    }
}
