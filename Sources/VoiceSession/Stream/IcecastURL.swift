import Foundation

/// A parsed `icecast://USER:PASS@HOST:PORT/MOUNT` (user, password and port optional: user
/// `source`, port 8000).
///
/// - Realtime: never.
public struct IcecastURL: Sendable, Equatable {
    public var user: String
    /// The password given in the URL, if any.
    public var password: Secret?
    public var host: String
    public var port: Int
    /// The mount, starting with `/`.
    public var mount: String

    /// The default source user of Icecast.
    public static let defaultUser = "source"
    public static let defaultPort = 8000

    /// Parses `text`; errors name the `url` key and what was expected, and quote nothing that
    /// could be the password (not the scheme, the credentials, the port's text or the mount).
    ///
    /// Passwords are often pasted unencoded, `/` and `@` included: the credentials end at the
    /// last `@` that a `/` (the mount's) still follows, so `source:a/b@host/live` has the
    /// password `a/b`, and an `@` inside the mount is left to the mount.
    public init(parsing text: String) throws(StreamError) {
        let expected = "expected icecast://[USER[:PASSWORD]@]HOST[:PORT]/MOUNT"
        func bad(_ why: String) -> StreamError { .badSetting(key: "url", message: "\(why); \(expected)") }
        guard let schemeEnd = text.range(of: "://") else { throw bad("no scheme") }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "icecast" else {
            let plain = !scheme.isEmpty && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            throw bad(plain ? "scheme '\(scheme)' is not icecast" : "the scheme is not icecast")
        }
        var rest = text[schemeEnd.upperBound...]
        user = Self.defaultUser
        password = nil
        if let at = rest.indices.last(where: { rest[$0] == "@" && rest[$0...].contains("/") }) {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts[0].removingPercentEncoding else { throw bad("bad percent-encoding in the user") }
            if !name.isEmpty { user = name }
            if parts.count == 2 {
                guard let pass = parts[1].removingPercentEncoding else {
                    throw bad("bad percent-encoding in the password")
                }
                password = Secret(pass)
            }
        }
        guard let slash = rest.firstIndex(of: "/") else { throw bad("no mount") }
        var authority = rest[..<slash]
        rest = rest[slash...]
        port = Self.defaultPort
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            let digits = authority[authority.index(after: colon)...]
            guard let p = Int(digits), (1...65535).contains(p) else {
                // Not quoted: without an '@', a password typed as `user:password/...` lands here.
                throw bad("the port is not a number in 1...65535")
            }
            port = p
            authority = authority[..<colon]
        }
        host = String(authority).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard !host.isEmpty else { throw bad("no host") }
        mount = String(rest)
        guard mount.count > 1, !mount.contains(where: { $0 == " " || $0 == "?" || $0 == "#" }) else {
            // Not quoted: a password pasted as a query (`/live?pass=...`) or after a stray `/`
            // lands in the mount.
            throw bad("the mount must be a path such as /live.opus, without spaces, '?' or '#'")
        }
    }
}
