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

    /// Parses `text`; errors name the `url` key and what was expected, never the password.
    public init(parsing text: String) throws(StreamError) {
        let expected = "expected icecast://[USER[:PASSWORD]@]HOST[:PORT]/MOUNT"
        func bad(_ why: String) -> StreamError { .badSetting(key: "url", message: "\(why); \(expected)") }
        guard let schemeEnd = text.range(of: "://") else { throw bad("no scheme") }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "icecast" else { throw bad("scheme '\(scheme)' is not icecast") }
        var rest = text[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { throw bad("no mount") }
        var authority = rest[..<slash]
        rest = rest[slash...]
        user = Self.defaultUser
        password = nil
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            authority = authority[authority.index(after: at)...]
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
        port = Self.defaultPort
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            let digits = authority[authority.index(after: colon)...]
            guard let p = Int(digits), (1...65535).contains(p) else {
                throw bad("port '\(digits)' is not a number in 1...65535")
            }
            port = p
            authority = authority[..<colon]
        }
        host = String(authority).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard !host.isEmpty else { throw bad("no host") }
        mount = String(rest)
        guard mount.count > 1, !mount.contains(where: { $0 == " " || $0 == "?" || $0 == "#" }) else {
            throw bad("mount '\(mount)' must be a path such as /live.opus")
        }
    }
}
