import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// The web control panel's server (`voicerack run --web`): the page at `/` and its WebSocket at
/// `/ws`, both only with the session's token (a fixed one, or the token file's, which a
/// rotation replaces at once), served by FlyingFox on its own tasks.
///
/// Checks, in order, on every request: the path is `/` or `/ws` (else 404); the `Host` header
/// names this server (a loopback bind only; defeats DNS rebinding); an `Origin`, when sent, is this
/// server's own (403: another site's page cannot drive the panel); the `token` query parameter
/// (401). The WebSocket must also carry a matching `Origin`, as every browser sends one. At most
/// `maximumSockets` pages are open at once (503 beyond). The page itself loads nothing from
/// elsewhere (its Content-Security-Policy says so), is never cached and sends no referrer, so
/// the token in its address stays with it.
///
/// - Realtime: never; `start` and `stop` from the main thread, the rest on the server's tasks.
public final class PanelServer: Sendable {
    public let address: PanelAddress
    private let tokens: PanelTokens
    private let server: HTTPServer
    private let routes: PanelRoutes
    private let task = Mutex<Task<Void, any Error>?>(nil)

    public static let maximumSockets = 8
    /// The largest WebSocket message the panel takes, bytes.
    public static let maximumMessage = 16 * 1024

    /// Bounds on every client, checked before the bytes they guard are read: request line and
    /// header lines 8 KiB, 64 headers, 32 KiB of headers, 1 KiB of body (the panel takes none), a
    /// request head within 10 s of waiting for it, WebSocket frames up to `maximumMessage`, and
    /// connections below the descriptor limit (a slow or idle one makes room for a new one).
    static let limits = HTTPLimits(
        maxRequestLineBytes: 8_192, maxHeaderLineBytes: 8_192, maxHeaderCount: 64, maxHeaderBytes: 32_768,
        maxBodyBytes: 1_024, headTimeout: 10, maxWebSocketFrameBytes: maximumMessage)

    /// A server for `backend` at `address`; `interval` is the time between figure messages;
    /// `note` takes the server's lines for the session's log. `headTimeout` (seconds) and
    /// `maxConnections` (default: below the descriptor limit) override `limits`, for tests.
    public init(
        address: PanelAddress, token: PanelToken = PanelToken(), tokenFile: PanelTokenFile? = nil,
        backend: any PanelBackend,
        interval: Duration = .milliseconds(40), note: @escaping @Sendable (String) -> Void = { _ in },
        headTimeout: Double? = nil, maxConnections: Int? = nil
    ) throws(PanelError) {
        self.address = address
        tokens = PanelTokens(token, file: tokenFile)
        let socketAddress: sockaddr_in
        do {
            socketAddress = try sockaddr_in.inet(ip4: address.host, port: address.port)
        } catch {
            throw PanelError("--web: cannot use address \(address.host): \(error)")
        }
        routes = PanelRoutes(
            tokens: tokens, loopbackHost: address.isLoopback ? address.host : nil, backend: backend, interval: interval)
        var limits = Self.limits
        if let headTimeout { limits.headTimeout = headTimeout }
        if let maxConnections { limits.maxConnections = maxConnections }
        server = HTTPServer(
            config: .init(address: socketAddress, timeout: 30, logger: PanelLog(note: note), limits: limits),
            handler: routes)
    }

    /// Binds and starts serving; throws when the address cannot be bound (in use, not this
    /// machine's). - Realtime: never; main thread (waits up to 5 s for the socket).
    public func start() throws(PanelError) {
        let server = server
        let started = DispatchSemaphore(value: 0)
        let failure = StartFailure()
        let routes = routes
        // Whichever comes first: listening, or the server failing (a port in use fails at once).
        let running = Task.detached {
            do {
                try await server.run()
            } catch {
                failure.note(error)
                started.signal()
                throw error
            }
        }
        task.withLock { $0 = running }
        Task.detached {
            do {
                try await server.waitUntilListening(timeout: 5)
                if case .ip4(_, let p) = await server.listeningAddress { routes.port.withLock { $0 = p } }
            } catch {
                failure.note(error)
            }
            started.signal()
        }
        // Bounded: the server's tasks need Swift's cooperative pool, and a caller blocking that
        // pool's threads (never the main thread) would otherwise wait for ever.
        if started.wait(timeout: .now() + 120) == .timedOut {
            failure.note(PanelError("the server did not start listening within 2 minutes"))
        }
        if let problem = failure.text.withLock({ $0 }) {
            stop()
            throw PanelError("--web \(address.host):\(address.port): cannot listen (\(problem)); is the port in use?")
        }
    }

    /// The token in force: the one given, or the token file's latest (`tokenFile`).
    public var token: PanelToken { tokens.current }

    /// The port listened on, once started.
    public var port: UInt16 { routes.port.withLock { $0 } }

    /// The address to open, with the token: `http://127.0.0.1:8080/?token=…`. A wildcard bind
    /// shows the loopback address (the one that works from this machine).
    public var url: String {
        let host = address.host == "0.0.0.0" ? "127.0.0.1" : address.host
        return "http://\(host):\(port)/?token=\(token.text)"
    }

    /// Pages open now.
    public var connectedPages: Int { routes.openSockets.withLock { $0 } }

    /// Stops listening and closes the pages. - Realtime: never; main thread (waits up to 2 s).
    public func stop() {
        let server = server
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await server.stop(timeout: 1)
            done.signal()
        }
        _ = done.wait(timeout: .now() + 2)
        task.withLock {
            $0?.cancel()
            $0 = nil
        }
    }
}

/// Why a start failed: the first error of listening or of running. - Realtime: never; any thread.
private final class StartFailure: Sendable {
    let text = Mutex<String?>(nil)
    func note(_ error: any Error) { text.withLock { $0 = $0 ?? "\(error)" } }
}

/// The two routes and their checks. - Realtime: never; the server's tasks.
final class PanelRoutes: HTTPHandler, Sendable {
    let tokens: PanelTokens
    /// The loopback address bound (`127.0.0.1`), whose name alone a request may give as its Host;
    /// nil for a wider bind.
    let loopbackHost: String?
    let backend: any PanelBackend
    let interval: Duration
    /// Pages with an open socket.
    let openSockets = Mutex(0)
    /// The port listened on (the chosen one when the address asked for 0); set once listening.
    let port = Mutex<UInt16>(0)

    init(tokens: PanelTokens, loopbackHost: String?, backend: any PanelBackend, interval: Duration) {
        self.tokens = tokens
        self.loopbackHost = loopbackHost
        self.backend = backend
        self.interval = interval
    }

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let port = port.withLock { $0 }
        guard request.method == .GET else { return Self.plain(.methodNotAllowed, "only GET") }
        return request.path == "/ws" ? await socket(request, port: port) : page(request, port: port)
    }

    /// Why `request` is refused, or nil when it may go on.
    func refusal(_ request: HTTPRequest, port: UInt16, socket: Bool) -> HTTPResponse? {
        let host = request.headers[.host] ?? ""
        if let bound = loopbackHost {
            let names = ["\(bound):\(port)"] + (bound == "127.0.0.1" ? ["localhost:\(port)"] : [])
            guard names.contains(host.lowercased()) else {
                return Self.plain(.forbidden, "this panel answers only to " + names.joined(separator: " or "))
            }
        }
        let origin = request.headers[HTTPHeader("Origin")]
        if let origin, origin.lowercased() != "http://" + host.lowercased() {
            return Self.plain(.forbidden, "requests from other sites are refused")
        }
        if socket, origin == nil {
            return Self.plain(.forbidden, "the panel's socket needs the Origin header a browser sends")
        }
        guard tokens.current.matches(request.query["token"]) else {
            return Self.plain(.unauthorized, "the panel needs its token: open the address voicerack printed at start")
        }
        return nil
    }

    func page(_ request: HTTPRequest, port: UInt16) -> HTTPResponse {
        guard request.path == "/" else { return Self.plain(.notFound, "not found") }
        if let refused = refusal(request, port: port, socket: false) { return refused }
        var headers = Self.safety
        headers[.contentType] = "text/html; charset=utf-8"
        return HTTPResponse(statusCode: .ok, headers: headers, body: Data(PanelPage.html.utf8))
    }

    func socket(_ request: HTTPRequest, port: UInt16) async -> HTTPResponse {
        if let refused = refusal(request, port: port, socket: true) { return refused }
        let admitted = openSockets.withLock { count in
            guard count < PanelServer.maximumSockets else { return false }
            count += 1
            return true
        }
        guard admitted else { return Self.plain(.serviceUnavailable, "too many panels open") }
        let handler = PanelSocket(
            backend: backend, interval: interval, maximumMessage: PanelServer.maximumMessage,
            closed: { [self] in openSockets.withLock { $0 -= 1 } })
        do {
            let response = try await WebSocketHTTPHandler(handler: handler).handleRequest(request)
            if response.statusCode != .switchingProtocols { openSockets.withLock { $0 -= 1 } }
            return response
        } catch {
            openSockets.withLock { $0 -= 1 }
            return Self.plain(.badRequest, "bad WebSocket request")
        }
    }

    /// Headers every page answer carries: nothing from elsewhere, no framing, no caching, no referrer.
    static var safety: HTTPHeaders {
        var headers = HTTPHeaders()
        headers[HTTPHeader("Content-Security-Policy")] =
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        headers[.cacheControl] = "no-store"
        headers[HTTPHeader("Referrer-Policy")] = "no-referrer"
        headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        return headers
    }

    static func plain(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
        var headers = safety
        headers[.contentType] = "text/plain; charset=utf-8"
        return HTTPResponse(statusCode: status, headers: headers, body: Data((text + "\n").utf8))
    }
}
