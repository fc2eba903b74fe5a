import Foundation
import Synchronization
import Testing
import VoiceControl
import VoiceWeb

/// A flood of `set` requests on one panel WebSocket, as a script with the token sends them:
/// every request is answered, and what reaches the session is bounded by the hub's budget.
@Suite("web panel: a flood of requests is answered and bounded", .serialized)
struct PanelFloodTests {
    /// The session's main thread, played by a thread of the test: takes what the hub holds every
    /// millisecond, counts the commands by kind and answers each.
    final class Session: Sendable {
        let hub = ControlHub()
        let sets = Mutex(0)
        let shows = Mutex(0)
        private let running = Atomic<Bool>(true)

        func start() {
            Thread { [self] in
                while running.load(ordering: .relaxed) {
                    for pending in hub.take() {
                        switch pending.command {
                        case .set(let key, let value):
                            sets.withLock { $0 += 1 }
                            pending.reply(LiveReply(lines: ["\(key) = \(value)"]))
                        case .show:
                            shows.withLock { $0 += 1 }
                            pending.reply(LiveReply(lines: []))
                        default:
                            pending.reply(.failure("not in this test"))
                        }
                    }
                    usleep(1000)
                }
            }.start()
        }

        func stop() { running.store(false, ordering: .relaxed) }
    }

    @Test(
        "1,500 sets sent as fast as the socket takes them: all answered, at most the budget per second reach the session"
    )
    func setFlood() async throws {
        let session = Session()
        session.start()
        defer { session.stop() }
        let surface = WebSurface(
            address: try PanelAddress(parsing: "127.0.0.1:0"), preset: "raw", restartKeys: [], presets: { [] },
            presetFolder: { nil })
        // Starting waits for the server, which runs on the pool: not from a pool thread (two
        // suites doing so at once would hold both and wait for each other).
        let started = Mutex<[String]>([])
        try await PanelServerTests.offPool {
            let lines = try surface.start(session.hub)
            started.withLock { $0 = lines }
        }
        let lines = started.withLock { $0 }
        defer { surface.stop() }
        let url = try #require(lines.last { $0.hasPrefix("web panel: open ") }).dropFirst("web panel: open ".count)
        let parts = try #require(URLComponents(string: String(url)))
        let port = try #require(parts.port.map { UInt16($0) })
        let token = try #require(parts.queryItems?.first { $0.name == "token" }?.value)

        // The socket's side on a thread of its own; the checks afterwards, on the test's task.
        let outcome = Mutex<Outcome?>(nil)
        try await PanelServerTests.offPool {
            let result = try Self.flood(port: port, token: token, count: 1500)
            outcome.withLock { $0 = result }
        }
        let result = try #require(outcome.withLock { $0 })
        let limit = Double(ControlHub.commandsPerSecond)
        let sets = session.sets.withLock { $0 }
        let shows = session.shows.withLock { $0 }
        print(
            "panel flood: \(result.count) sets in \(String(format: "%.2f", result.seconds)) s: \(result.ok) done, \(result.refused.count) refused; \(sets) sets and \(shows) shows reached the session"
        )
        #expect(result.ok + result.refused.count == result.count)
        #expect(result.ok == sets)
        // A second's worth at once, then the budget's rate.
        #expect(Double(sets) <= limit * (result.seconds + 1), "\(sets) sets in \(result.seconds) s")
        #expect(sets >= Int(limit))
        #expect(
            Set(result.refused) == ["too many requests: at most \(Int(limit)) per second; wait for the answers"],
            "\(Set(result.refused))")
        // The page's redraws: one per figure beat at most (25 a second), not one per request.
        #expect(Double(shows) <= 30 * (result.seconds + 1), "\(shows) shows in \(result.seconds) s")
        #expect(result.setupAfter)
    }

    /// What the page's side saw.
    struct Outcome: Sendable {
        let count: Int
        let ok: Int
        let refused: [String]
        let seconds: Double
        /// A setup came after the flood: the page keeps its controls.
        let setupAfter: Bool
    }

    /// Opens the socket and sends `count` sets in batches, each batch's replies read before the
    /// next, so the socket never holds more than a batch. - Blocking; not on the pool.
    static func flood(port: UInt16, token: String, count: Int) throws -> Outcome {
        let client = try RawClient(port: port)
        client.send(
            "GET /ws?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:\(port)\r\n\r\n"
        )
        guard client.responseHead().status == 101 else { throw POSIXError(.ECONNREFUSED) }
        let batch = 25
        var ok = 0
        var refused: [String] = []
        let started = ProcessInfo.processInfo.systemUptime
        for first in stride(from: 0, to: count, by: batch) {
            for n in first..<min(count, first + batch) {
                let text = #"{"op":"set","key":"output.gain_db","value":"\#(n % 40 - 20)","id":\#(n + 1)}"#
                client.send(RawClient.frame(opcode: 1, Array(text.utf8)))
            }
            for _ in first..<min(count, first + batch) {
                guard let reply = client.message(ofType: "reply")?["reply"] as? [String: Any] else {
                    throw POSIXError(.ECONNRESET)
                }
                if reply["ok"] as? Bool == true {
                    ok += 1
                } else {
                    refused.append((reply["lines"] as? [String])?.first ?? "")
                }
            }
        }
        let seconds = ProcessInfo.processInfo.systemUptime - started
        return Outcome(
            count: count, ok: ok, refused: refused, seconds: seconds,
            setupAfter: client.message(ofType: "setup") != nil)
    }
}
