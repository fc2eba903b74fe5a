/// Errors the host reports to the user, each with the sysexits code the CLI exits with.
///
/// Messages name the file, key or port at fault and what was expected.
public struct HostError: Error, CustomStringConvertible, Equatable {
    /// sysexits.h codes used by voicerack.
    public enum Kind: Int32, Sendable {
        /// EX_USAGE: the command line is wrong.
        case usage = 64
        /// EX_DATAERR: bad input data (audio file, preset).
        case data = 65
        /// EX_NOINPUT: an input file does not exist.
        case noInput = 66
        /// EX_UNAVAILABLE: a service (the JACK server) is not available.
        case unavailable = 69
        /// EX_CANTCREAT: an output file cannot be created (or exists and --force was not given).
        case cannotCreate = 73
        /// EX_IOERR: reading or writing failed.
        case io = 74
        /// EX_NOPERM: a server refused the credentials (an Icecast source password).
        case noPermission = 77
        /// EX_CONFIG: the configuration cannot work here (the learned suppressor at a rate other
        /// than its model's).
        case configuration = 78
        /// Stopped by SIGINT/SIGTERM before the work was done (128 + SIGINT, the shell's
        /// convention); nothing partial is left behind.
        case interrupted = 130
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The process exit code for this error.
    public var exitCode: Int32 { kind.rawValue }
    public var description: String { message }
}
