import Foundation
import VoiceTestSupport
import VoiceWeb

/// One panel server for a fuzzer, with a short head timeout, and the batches of connections the
/// fuzzers open against it: each input on a connection of its own, a batch open together (so a
/// batch waits for the slowest connection once, not for each in turn).
///
/// - Test thread only (off Swift's cooperative pool: see `PanelServerTests.offPool`).
final class PanelFuzzRig {
    /// Short, so inputs that leave a head unfinished end quickly.
    static let headTimeout = 0.5
    /// How long past its last byte a connection may stay open: the head timeout, the lingering
    /// close, and room for a machine busy with other builds. Open longer, it is a hang.
    static let bound = Duration.seconds(headTimeout + 2.5)
    /// Connections a batch opens together; below the server's cap, so none is evicted.
    static let batch = 32
    /// WebSockets a batch opens together: below the panel's cap, with room for sockets of the
    /// batch before whose close the server has not yet seen.
    static let socketBatch = PanelServer.maximumSockets - 2

    let backend = PanelServerTests.Backend()
    let token = PanelToken(text: "0123456789abcdef0123456789abcdef")
    let server: PanelServer

    init() throws {
        server = try PanelServer(
            address: PanelAddress(parsing: "127.0.0.1:0"), token: token, backend: backend,
            headTimeout: Self.headTimeout, maxConnections: 4 * Self.batch)
        try server.start()
    }

    var port: UInt16 { server.port }

    /// The Host line's value, as a browser on the panel's page sends it.
    var host: String { "127.0.0.1:\(port)" }

    /// A valid WebSocket upgrade with the token.
    var upgrade: String {
        "GET /ws?token=\(token.text) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: http://\(host)\r\n\r\n"
    }

    /// Whether the page answers 200 within 2 s (1 s is the bound; the rest is for a busy machine).
    func pageAnswers() -> Bool {
        let start = ContinuousClock.now
        let answer = try? RawClient.get(
            port: port, "GET /?token=\(token.text) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
        return answer?.status == 200 && ContinuousClock.now - start < .seconds(2)
    }

    /// Runs `budget` inputs in batches: `open` makes one input's connection (sent, ready to be
    /// judged) from the random numbers, `judge` says how it ended by the deadline it is given.
    func run(
        _ tally: inout FuzzTally, budget: Int, batch: Int = batch, _ random: inout SeededRandom,
        open: (inout SeededRandom) throws -> (RawClient, String),
        judge: (RawClient, String, ContinuousClock.Instant) -> FuzzTally.Outcome
    ) throws {
        var done = 0
        while done < budget {
            let count = min(batch, budget - done)
            var clients: [(RawClient, String)] = []
            for _ in 0..<count { clients.append(try open(&random)) }
            let deadline = ContinuousClock.now + Self.bound
            for (client, input) in clients { tally.record(judge(client, input, deadline)) }
            done += count
        }
    }

    /// A client upgraded to a WebSocket with the token; nil when the panel refused it for longer
    /// than its sockets take to close (503 while it is full).
    func upgradedClient() throws -> RawClient? {
        for _ in 0..<50 {
            let client = try RawClient(port: port)
            client.send(upgrade)
            let status = client.responseHead().status
            if status == 101 { return client }
            guard status == 503 else { return nil }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    /// `bytes` as a short printable description of an input.
    static func described(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription
        return bytes.count > 300 ? "\(text)... (\(bytes.count) bytes)" : text
    }
}
