import Foundation
import Synchronization
import Testing
import VoiceWeb

/// The panel's server against a bare client: the token, the Host and Origin checks, the
/// WebSocket's limits, and requests that must never reach the session.
@Suite("web panel server: token, origin, limits", .serialized)
struct PanelServerTests: Sendable {
    /// A session stand-in that counts what reaches it.
    final class Backend: PanelBackend {
        let performed = Mutex<[PanelRequest]>([])
        func meters() -> PanelMeters {
            var m = PanelMeters()
            m.micDB = -17
            return m
        }
        func setup() async -> PanelSetup {
            PanelSetup(
                controls: [
                    PanelControl(
                        key: "output.gain_db", kind: .number, minimum: -40, maximum: 40, value: "0", live: true,
                        help: "")
                ],
                presets: ["raw"], preset: "raw")
        }
        func watch() -> (any Sendable)? { nil }
        func perform(_ request: PanelRequest) async -> PanelReply {
            performed.withLock { $0.append(request) }
            return PanelReply(ok: true, lines: ["done"])
        }
    }

    let backend = Backend()
    let server: PanelServer
    let token = PanelToken(text: "0123456789abcdef0123456789abcdef")

    init() throws {
        // Started in each test, off Swift's cooperative pool (`offPool`): start() waits for the
        // server's own tasks, which need that pool, and several suites starting servers on both
        // of its threads at once would wait for ever.
        server = try PanelServer(address: PanelAddress(parsing: "127.0.0.1:0"), token: token, backend: backend)
    }

    var port: UInt16 { server.port }

    /// Runs `body` (blocking socket calls) on a thread of its own: the server answers on Swift's
    /// cooperative pool, which a blocked test thread must not hold (2 threads on 2 cores: two
    /// blocking tests would starve the server).
    func offPool(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await Self.offPool(body)
    }

    /// `offPool` for any suite.
    static func offPool(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            Thread {
                do {
                    try body()
                    done.resume()
                } catch {
                    done.resume(throwing: error)
                }
            }.start()
        }
    }

    func request(
        _ target: String, host: String? = nil, origin: String? = nil, method: String = "GET"
    ) throws -> (
        status: Int, head: String, body: String
    ) {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        if let origin { text += "Origin: \(origin)\r\n" }
        return try RawClient.get(port: port, text + "\r\n")
    }

    /// An upgraded socket (after its 101), or the refusal's status.
    func socket(token: String? = nil, origin: String? = "same") throws -> (RawClient, Int) {
        let client = try RawClient(port: port)
        var text =
            "GET /ws?token=\(token ?? self.token.text) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { text += "Origin: \(origin == "same" ? "http://127.0.0.1:\(port)" : origin)\r\n" }
        client.send(text + "\r\n")
        return (client, client.responseHead().status)
    }

    @Test("the page needs the token, this server's Host and no foreign Origin; nothing else is served")
    func pageChecks() async throws {
        try await offPool { [self] in
            try server.start()
            defer { server.stop() }
            let good = try request("/?token=\(token.text)")
            #expect(good.status == 200)
            #expect(good.body.contains("<title>voicerack</title>"))
            #expect(good.head.contains("Content-Security-Policy: default-src 'none'"))
            #expect(try request("/").status == 401)
            #expect(try request("/?token=0123456789abcdef0123456789abcdee").status == 401)
            #expect(try request("/?token=\(token.text)", origin: "http://evil.example").status == 403)
            #expect(try request("/?token=\(token.text)", host: "evil.example:\(port)").status == 403)
            #expect(try request("/../../etc/passwd?token=\(token.text)").status == 404)
            #expect(try request("/%2e%2e/%2e%2e/etc/passwd?token=\(token.text)").status == 404)
            #expect(try request("/?token=\(token.text)", method: "POST").status == 405)
        }
    }

    @Test("the socket needs the token and this server's Origin; when open it sends the setup, then the figures")
    func socketChecks() async throws {
        try await offPool { [self] in
            try server.start()
            defer { server.stop() }
            #expect(try socket(token: "wrong").1 == 401)
            #expect(try socket(origin: "http://evil.example").1 == 403)
            #expect(try socket(origin: nil).1 == 403)
            let (client, status) = try socket()
            #expect(status == 101)
            #expect(client.message()?["type"] as? String == "setup")
            let meters = client.message(ofType: "meters")?["meters"] as? [String: Any]
            #expect(meters?["micDB"] as? Double == -17)
            #expect(backend.performed.withLock { $0.isEmpty })
        }
    }

    @Test("oversized, binary and non-UTF-8 messages close that socket with its code; the server serves on")
    func oversizedAndBinary() async throws {
        try await offPool { [self] in
            try server.start()
            defer { server.stop() }
            let big = Array(repeating: UInt8(ascii: "a"), count: PanelServer.maximumMessage + 1)
            for (frames, code) in [
                ([RawClient.frame(opcode: 1, big)], 1009),
                // The same size in fragments: refused once the gathered message passes the limit.
                (
                    [
                        RawClient.frame(opcode: 1, Array(big[..<10_000]), fin: false),
                        RawClient.frame(opcode: 0, Array(big[10_000...])),
                    ],
                    1009
                ),
                // A megabyte: FlyingFox gathers one frame before the panel sees it, so this is refused
                // after arrival (only a page holding the token can get this far).
                ([RawClient.frame(opcode: 1, Array(repeating: UInt8(ascii: "b"), count: 1 << 20))], 1009),
                ([RawClient.frame(opcode: 2, [1, 2, 3])], 1003),
                ([RawClient.frame(opcode: 1, [0xC3, 0x28])], 1007),
            ] {
                let (client, status) = try socket()
                #expect(status == 101)
                for frame in frames { client.send(frame) }
                let close = client.message(ofType: "reply")
                #expect(close?["type"] as? String == "close")
                #expect(close?["code"] as? Int == code)
            }
            let (client, status) = try socket()
            #expect(status == 101)
            #expect(client.message(ofType: "meters") != nil)
            #expect(backend.performed.withLock { $0.isEmpty })
        }
    }

    @Test("malformed requests are answered with what is wrong, never reach the session, and the socket stays open")
    func malformedRequests() async throws {
        try await offPool { [self] in
            try server.start()
            defer { server.stop() }
            let (client, status) = try socket()
            #expect(status == 101)
            let cases: [(String, String)] = [
                ("not json", "not a JSON object"),
                ("[1,2]", "not a JSON object"),
                (#"{"op":"format-disk"}"#, "unknown op 'format-disk'"),
                (#"{"op":"set","key":"output.gain_db"}"#, "'value' must be text"),
                (#"{"op":"set","key":"a\u0007b","value":"1"}"#, "control character"),
                (#"{"op":"save","name":"../../etc/cron.d/evil"}"#, "is not a preset name"),
                (#"{"op":"save","name":"/tmp/evil"}"#, "is not a preset name"),
                (#"{"op":"save","name":"a.toml"}"#, "is not a preset name"),
                (#"{"op":"load","preset":"../secret"}"#, "is not a preset name"),
                (#"{"op":"record"}"#, "'start' must be true or false"),
                (#"{"op":"mute","on":"yes"}"#, "'on' must be true or false"),
            ]
            for (text, expected) in cases {
                client.send(RawClient.frame(opcode: 1, Array(text.utf8)))
                let reply = client.message(ofType: "reply")?["reply"] as? [String: Any]
                #expect(reply?["ok"] as? Bool == false, "\(text)")
                let lines = reply?["lines"] as? [String] ?? []
                #expect(lines.first?.contains(expected) == true, "\(text): \(lines)")
            }
            #expect(backend.performed.withLock { $0.isEmpty })
            client.send(RawClient.frame(opcode: 1, Array(#"{"op":"save","name":"my-podcast_2","id":7}"#.utf8)))
            let reply = client.message(ofType: "reply")
            #expect(reply?["id"] as? Int == 7)
            #expect(backend.performed.withLock { $0 } == [.savePreset("my-podcast_2")])
        }
    }

    @Test("--web addresses: PORT binds loopback; HOST:PORT; words and IPv6 are refused with what to give")
    func addresses() throws {
        let port = try PanelAddress(parsing: "8080")
        #expect(port.host == "127.0.0.1" && port.port == 8080 && port.isLoopback)
        #expect(try PanelAddress(parsing: "localhost:9000").host == "127.0.0.1")
        #expect(try !PanelAddress(parsing: "0.0.0.0:9000").isLoopback)
        for bad in ["", "http", "99999", "example.com:80", "[::1]:80", "1.2.3:80", "1.2.3.4:x"] {
            #expect(throws: PanelError.self, "\(bad)") { try PanelAddress(parsing: bad) }
        }
        #expect(PanelToken().text.count == 32)
        #expect(PanelToken().text != PanelToken().text)
    }
}
