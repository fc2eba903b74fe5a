import CJack

/// Checks client and server names against libjack's own limits before libjack sees them.
///
/// libjack copies the server name into fixed buffers without bounds (a 270-byte name smashes the
/// stack inside `jack_client_open`), and answers an overlong client name with "server is not
/// running". These checks turn both into usage errors that name the limit.
///
/// - Realtime: never.
public enum JACKNames {
    /// Longest client name in bytes. jack2's `jack_client_name_size()` returns
    /// JACK_CLIENT_NAME_SIZE + 1 (65) but `jack_client_open` refuses names of JACK_CLIENT_NAME_SIZE
    /// bytes or more ("Please use 63 characters or less"), so two less than it says.
    public static var maximumClientNameBytes: Int { Int(jack_client_name_size()) - 2 }

    /// Longest server name in bytes: jack2's `JACK_SERVER_NAME_SIZE` (256, JackConstants.h,
    /// not in the public headers) counts the terminating NUL.
    public static let maximumServerNameBytes = 255

    /// Why `name` cannot be a JACK client name, or nil when it can.
    public static func clientNameProblem(_ name: String) -> String? {
        if let problem = commonProblem(
            name, limit: maximumClientNameBytes, what: "client name", source: "jack_client_name_size()")
        {
            return problem
        }
        // "client:port" is how ports are named; a colon in the client name makes them ambiguous.
        if name.contains(":") {
            return "client name '\(name)' contains ':', which separates client and port in JACK port names"
        }
        return nil
    }

    /// Why `name` cannot be a JACK server name, or nil when it can.
    public static func serverNameProblem(_ name: String) -> String? {
        if let problem = commonProblem(
            name, limit: maximumServerNameBytes, what: "server name", source: "JACK_SERVER_NAME_SIZE")
        {
            return problem
        }
        // The server name becomes part of its socket's file name under /dev/shm.
        if name.contains("/") { return "server name '\(name)' contains '/'; JACK makes a file name of it" }
        return nil
    }

    private static func commonProblem(_ name: String, limit: Int, what: String, source: String) -> String? {
        if name.isEmpty { return "the \(what) is empty" }
        let bytes = name.utf8.count
        if bytes > limit {
            return "the \(what) is \(bytes) bytes long; JACK allows at most \(limit) (\(source))"
        }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "the \(what) contains control characters"
        }
        return nil
    }
}
