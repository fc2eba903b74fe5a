import Foundation
import Testing
import VoiceWeb

/// The panel's server against hostile clients: every size, count and time on the wire is bounded
/// before the bytes it guards are read, and the page answers throughout.
@Suite("web panel server: hostile clients are bounded", .serialized)
struct PanelBoundsTests: Sendable {
    let backend = PanelServerTests.Backend()
    let token = PanelToken(text: "0123456789abcdef0123456789abcdef")

    /// A server with a small connection cap; the head timeout is short only where it is tested
    /// (a whole suite running beside this one can hold the server's tasks up for seconds).
    /// Started and stopped off Swift's cooperative pool (in `offPool`): both wait for the server's
    /// own tasks, which need that pool's two threads.
    func makeServer(headTimeout: Double = 30, maxConnections: Int = 16) throws -> PanelServer {
        let server = try PanelServer(
            address: PanelAddress(parsing: "127.0.0.1:0"), token: token, backend: backend, headTimeout: headTimeout,
            maxConnections: maxConnections)
        try server.start()
        return server
    }

    /// The page's status, fetched as a browser would. (How fast it answers under attack is
    /// LivePanelAttackTests' concern, out of process: in here other suites share the server's
    /// threads.)
    func page(_ port: UInt16) throws -> Int {
        try RawClient.get(
            port: port, "GET /?token=\(token.text) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        ).status
    }

    @Test("a 1 MB header line is refused with 431 once it passes 8 KiB; the page answers meanwhile and after")
    func longHeaderLine() async throws {
        try await PanelServerTests.offPool { [self] in
            let server = try makeServer()
            defer { server.stop() }
            let port = server.port
            let client = try RawClient(port: port)
            // The send stops when the server, having refused the line, closes the connection.
            client.send("GET /?token=\(token.text) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Big: ")
            client.send([UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20))
            let (status, head) = client.responseHead()
            #expect(status == 431, "the answer to a 1 MB header line: \(head)")
            #expect(client.closedByServer(within: 5), "the connection stayed open after its 431")
            #expect(try page(port) == 200, "the page after the refusal")
        }
    }

    @Test("a request line over 8 KiB is refused with 414, and more than 64 headers with 431")
    func longRequestLineAndManyHeaders() async throws {
        try await PanelServerTests.offPool { [self] in
            let server = try makeServer()
            defer { server.stop() }
            let port = server.port
            let target = "/?token=" + String(repeating: "b", count: 9_000)
            let long = try RawClient.get(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            #expect(long.status == 414, "\(long.head)")
            let headers = (0..<65).map { "X-H\($0): v\r\n" }.joined()
            let many = try RawClient.get(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(headers)\r\n")
            #expect(many.status == 431, "\(many.head)")
            let body = try RawClient.get(
                port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 1000000\r\n\r\n")
            #expect(body.status == 413, "\(body.head)")
        }
    }

    @Test("slowloris: heads that never end are closed after the head timeout; the page answers throughout")
    func slowloris() async throws {
        try await PanelServerTests.offPool { [self] in
            let server = try makeServer(headTimeout: 1, maxConnections: 64)
            defer { server.stop() }
            let port = server.port
            var slow: [RawClient] = []
            for _ in 0..<40 {
                let client = try RawClient(port: port)
                client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: ")
                slow.append(client)
            }
            #expect(try page(port) == 200, "the page among slow clients")
            // A byte now and then does not keep a head open past the timeout.
            Thread.sleep(forTimeInterval: 0.5)
            for client in slow { client.send("a") }
            let closed = slow.filter { $0.closedByServer(within: 10) }.count
            #expect(
                closed == slow.count,
                "\(slow.count - closed) of \(slow.count) slow heads still open 10 s after their last byte")
        }
    }

    @Test("idle connections past the cap make room for new ones; the page answers with 200 idle connections open")
    func idleConnectionsPastTheCap() async throws {
        try await PanelServerTests.offPool { [self] in
            let server = try makeServer(headTimeout: 30, maxConnections: 16)
            defer { server.stop() }
            let port = server.port
            var idle: [RawClient] = []
            for _ in 0..<200 { idle.append(try RawClient(port: port)) }
            #expect(try page(port) == 200, "the page with 200 idle connections")
            // The cap held: the first ones made room (closed long before their 30 s timeout).
            let closed = idle.prefix(100).filter { $0.closedByServer(within: 5) }.count
            #expect(closed == 100, "only \(closed) of the 100 oldest idle connections were closed")
        }
    }

    @Test(
        "a 512 MB WebSocket frame is refused from its header (1009); an unmasked frame or reserved bits close with 1002"
    )
    func webSocketFrames() async throws {
        try await PanelServerTests.offPool { [self] in
            let server = try makeServer()
            defer { server.stop() }
            let port = server.port
            let huge = 512 << 20
            var header: [UInt8] = [0x81, 0x80 | 127] + (0..<8).reversed().map { UInt8((huge >> ($0 * 8)) & 0xFF) }
            header += [1, 2, 3, 4] + [UInt8](repeating: 0x61, count: 1_000)
            let unmasked: [UInt8] = [0x81, 5] + Array("hello".utf8)
            let reserved = RawClient.frame(opcode: 1, Array("hello".utf8)).enumerated().map {
                $0.offset == 0 ? $0.element | 0x40 : $0.element
            }
            for (bytes, code) in [(header, 1009), (unmasked, 1002), (reserved, 1002)] {
                let client = try RawClient(port: port)
                client.send(
                    "GET /ws?token=\(token.text) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:\(port)\r\n\r\n"
                )
                #expect(client.responseHead().status == 101)
                client.send(bytes)
                let close = client.message(ofType: "reply")
                #expect(
                    close?["type"] as? String == "close" && close?["code"] as? Int == code,
                    "\(String(describing: close))")
            }
            #expect(try page(port) == 200, "the page after the frames")
            #expect(backend.performed.withLock { $0.isEmpty })
        }
    }
}
