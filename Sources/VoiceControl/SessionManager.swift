/// A session manager the live session answers to (NSM): it says where the session's files
/// live and what the JACK client is called, asks for saves, and ends the session with SIGTERM.
///
/// The live session starts it like any surface (`start` announces), waits for the manager to
/// open a session before it opens the JACK client, then answers the open.
///
/// - Realtime: never. `takeOpenRequest`, `announceFailure` and `answerOpen` on the main thread.
public protocol SessionManager: ControlSurface {
    /// The session the manager asked to open, once (nil until then, and after it was taken).
    func takeOpenRequest() -> ManagedSession?
    /// Why the manager refused the announce, once it did.
    var announceFailure: String? { get }
    /// Answers the open: what was opened, or why it failed.
    func answerOpen(_ result: Result<String, ManagedSession.OpenFailure>)
}

/// Where a session manager put this client: a path (the client makes a folder there), the
/// name shown, and the client id (the JACK client's name).
public struct ManagedSession: Sendable, Equatable {
    public var path: String
    public var displayName: String
    public var clientID: String

    public init(path: String, displayName: String, clientID: String) {
        self.path = path
        self.displayName = displayName
        self.clientID = clientID
    }

    /// The session's preset copy, saved with its live changes.
    public var presetPath: String { path + "/preset.toml" }
    /// Where recordings with relative names go.
    public var recordingsFolder: String { path + "/recordings" }

    /// Why an open failed, in the manager's terms.
    public struct OpenFailure: Error, Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// The session's folder or preset copy cannot be made.
            case createFailed
            /// The session's preset copy does not load.
            case badProject
            /// Anything else (no JACK server).
            case general
        }
        public var kind: Kind
        public var message: String
        public init(_ kind: Kind, _ message: String) {
            self.kind = kind
            self.message = message
        }
    }
}
