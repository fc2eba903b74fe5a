/// Why a stream could not start or stopped, with the sysexits code the CLI exits with.
///
/// Messages name the key or the server at fault and never contain the password: servers are
/// named by `StreamTarget.description`, which leaves it out.
///
/// - Realtime: never.
public enum StreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A bad URL or setting (`key` names it: `url`, `format`, `bitrate_kbps`...). Exit 64.
    case badSetting(key: String, message: String)
    /// The server could not be reached or broke the connection. Exit 69.
    case unreachable(server: String, detail: String)
    /// The server refused the credentials (HTTP 401/403). Exit 77.
    case refused(server: String)
    /// The server or libshout refused the format. Exit 64.
    case unsupported(server: String, detail: String)

    /// sysexits code: 64 usage, 69 unavailable, 77 no permission.
    public var exitCode: Int32 {
        switch self {
        case .badSetting, .unsupported: 64
        case .unreachable: 69
        case .refused: 77
        }
    }

    public var description: String {
        switch self {
        case .badSetting(let key, let message): "stream: \(key): \(message)"
        case .unreachable(let server, let detail): "stream: cannot reach \(server): \(detail)"
        case .refused(let server):
            "stream: \(server) refused the source credentials (HTTP 401/403, or the mount is in use): "
                + "check the user and the password (URL, password_env or password_file)"
        case .unsupported(let server, let detail): "stream: \(server) does not take this stream: \(detail)"
        }
    }
}
