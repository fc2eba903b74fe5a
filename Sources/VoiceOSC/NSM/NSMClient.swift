import Foundation
import Glibc
import Synchronization
import VoiceControl

/// A New Session Manager client (NSM API 1.1), when voicerack is started with `NSM_URL` set.
///
/// It announces itself (`/nsm/server/announce`, capabilities `:dirty:message:`), takes the
/// manager's `/nsm/client/open` (the live session then opens the JACK client under the client
/// id, with the session's preset copy, and answers), saves on `/nsm/client/save` by submitting
/// `savePreset` to the session, reports `/nsm/client/is_dirty` and `/nsm/client/is_clean` as
/// live changes come and saves go, and passes the session's warnings and errors on with
/// `/nsm/client/message`. The manager ends the session with SIGTERM, which the live session
/// handles as always (recordings finalised).
///
/// - Realtime: never. `start`/`stop` and the `SessionManager` calls on the main thread; the rest
///   on the client's own thread.
public final class NSMClient: SessionManager, @unchecked Sendable {
    /// What this client supports, as announced: dirty/clean reports and status messages.
    /// (No `switch`: a new session means a new process; no optional GUI.)
    public static let capabilities = ":dirty:message:"
    public static let apiVersion: (major: Int32, minor: Int32) = (1, 1)

    private let server: OSCPeer
    private let serverURL: String
    private let executable: String
    private var socket: OSCSocket?
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let state = Mutex(State())

    private struct State {
        var openRequest: ManagedSession?
        var opened: ManagedSession?
        var announceFailure: String?
    }

    /// A client of the manager at `url` (`osc.udp://HOST:PORT/`, as NSM_URL gives it);
    /// `executable` is what the manager starts again (argv[0]'s name). Throws when the URL is
    /// not one.
    public init(url: String, executable: String) throws(ControlSurfaceError) {
        guard let (host, port) = Self.parse(url), let peer = OSCPeer.resolve(host: host, port: port) else {
            throw ControlSurfaceError(code: 64, "NSM_URL '\(url)' is not an OSC address (osc.udp://HOST:PORT/)")
        }
        server = peer
        serverURL = url
        self.executable = executable
    }

    /// HOST and PORT of `osc.udp://HOST:PORT/`.
    static func parse(_ url: String) -> (String, Int)? {
        guard url.hasPrefix("osc.udp://") else { return nil }
        var rest = url.dropFirst("osc.udp://".count)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        let host = rest[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host.isEmpty ? nil : (host, port)
    }

    public func start(_ hub: ControlHub) throws(ControlSurfaceError) -> [String] {
        let socket: OSCSocket
        do {
            // Loopback when the manager is on this machine, else every interface (it answers
            // to where the announce came from).
            socket = try OSCSocket(host: server.isLoopback ? "127.0.0.1" : "0.0.0.0", port: 0)
        } catch {
            throw ControlSurfaceError(code: 69, "NSM: \(error.message)")
        }
        self.socket = socket
        let announce = OSCMessage(
            "/nsm/server/announce",
            [
                .string("voicerack"), .string(Self.capabilities), .string(executable), .int(Self.apiVersion.major),
                .int(Self.apiVersion.minor), .int(Int32(getpid())),
            ])
        guard let bytes = announce.encoded(), socket.send(bytes, to: server) else {
            throw ControlSurfaceError(code: 69, "NSM: cannot reach the session manager at \(serverURL)")
        }
        let thread = Thread { [self] in
            serve(socket, hub)
            finished.signal()
        }
        thread.name = "voicerack-nsm"
        thread.start()
        return ["NSM: announced to the session manager at \(serverURL); waiting for it to open a session"]
    }

    public func stop() {
        guard let socket, !stopped.exchange(true, ordering: .relaxed) else { return }
        socket.wake()
        finished.wait()
    }

    public func takeOpenRequest() -> ManagedSession? {
        state.withLock { s in
            defer { s.openRequest = nil }
            return s.openRequest
        }
    }

    public var announceFailure: String? { state.withLock { $0.announceFailure } }

    public func answerOpen(_ result: Result<String, ManagedSession.OpenFailure>) {
        switch result {
        case .success(let message):
            send(OSCMessage("/reply", [.string("/nsm/client/open"), .string(message)]))
        case .failure(let failure):
            state.withLock { $0.opened = nil }
            send(
                OSCMessage(
                    "/error", [.string("/nsm/client/open"), .int(Self.code(failure.kind)), .string(failure.message)]))
        }
    }

    /// NSM's error codes (`ERR_CREATE_FAILED`, `ERR_BAD_PROJECT`, `ERR_GENERAL`).
    static func code(_ kind: ManagedSession.OpenFailure.Kind) -> Int32 {
        switch kind {
        case .createFailed: -10
        case .badProject: -9
        case .general: -1
        }
    }

    private func send(_ message: OSCMessage) {
        guard let socket, let bytes = message.encoded() else { return }
        socket.send(bytes, to: server)
    }

    /// The thread's loop: the manager's messages, and every 100 ms the dirty flag and new
    /// problems from the session's snapshot.
    private func serve(_ socket: OSCSocket, _ hub: ControlHub) {
        var reportedDirty: Bool?
        var problemsSent = 0
        while !stopped.load(ordering: .relaxed) {
            if let (bytes, peer) = socket.receive(timeout: 0.1), peer == server,
                let message = try? OSCMessage(decoding: bytes)
            {
                handle(message, hub)
            }
            guard state.withLock({ $0.opened != nil }) else { continue }
            let snapshot = hub.snapshot()
            guard snapshot.sequence > 0 else { continue }
            if reportedDirty != snapshot.unsavedChanges {
                reportedDirty = snapshot.unsavedChanges
                send(OSCMessage(snapshot.unsavedChanges ? "/nsm/client/is_dirty" : "/nsm/client/is_clean"))
            }
            if snapshot.problemCount > problemsSent {
                let fresh = min(snapshot.problemCount - problemsSent, snapshot.problems.count)
                for line in snapshot.problems.suffix(fresh) {
                    // Priority 0...3; the session's warnings and errors are worth a look.
                    send(OSCMessage("/nsm/client/message", [.int(3), .string(line)]))
                }
                problemsSent = snapshot.problemCount
            }
        }
    }

    private func handle(_ message: OSCMessage, _ hub: ControlHub) {
        let a = message.arguments
        switch message.path {
        case "/reply" where a.first == .string("/nsm/server/announce"):
            let name = a.count > 2 ? (a[2].text ?? "?") : "?"
            hub.note("NSM: the session manager (\(name)) accepted the announce")
        case "/error" where a.first == .string("/nsm/server/announce"):
            let why = a.count > 2 ? (a[2].text ?? "") : ""
            state.withLock { $0.announceFailure = "the session manager refused the announce: \(why)" }
        case "/nsm/client/open":
            guard a.count == 3, case .string(let path) = a[0], case .string(let name) = a[1],
                case .string(let id) = a[2]
            else {
                return send(
                    OSCMessage(
                        "/error",
                        [.string("/nsm/client/open"), .int(-1), .string("expected ,sss; got ,\(message.typeTags)")]))
            }
            let session = ManagedSession(path: path, displayName: name, clientID: id)
            let accepted = state.withLock { s in
                guard s.opened == nil else { return false }
                s.opened = session
                s.openRequest = session
                return true
            }
            if !accepted {
                // Without the `switch` capability the manager restarts a client to change sessions.
                send(
                    OSCMessage(
                        "/error",
                        [
                            .string("/nsm/client/open"), .int(-8),
                            .string("a session is open; voicerack does not switch"),
                        ]))
            }
        case "/nsm/client/save":
            guard let session = state.withLock({ $0.opened }) else {
                return send(
                    OSCMessage("/error", [.string("/nsm/client/save"), .int(-6), .string("no session is open")]))
            }
            hub.submit(.savePreset(session.presetPath), from: "NSM") { [weak self] reply in
                guard let self else { return }
                if reply.succeeded {
                    self.send(
                        OSCMessage("/reply", [.string("/nsm/client/save"), .string(reply.lines.first ?? "saved")]))
                } else {
                    self.send(
                        OSCMessage(
                            "/error",
                            [.string("/nsm/client/save"), .int(-1), .string(reply.lines.joined(separator: "; "))]))
                }
            }
        default:
            // session_is_loaded and anything else need no answer.
            break
        }
    }
}
