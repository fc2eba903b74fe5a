import Foundation
import Testing
import VoiceTestSupport
import VoiceWeb

/// Fuzz: mutated HTTP requests (request line, header lines, CR and LF, Content-Length and chunked
/// bodies, huge values, NUL bytes) against one in-process panel server with a short head
/// timeout. Every connection is answered or closed within `PanelFuzzRig.bound` of its last byte
/// (open longer: a hang; an upgrade answered 101 may stay open), and the page answers at the end.
@Suite(.serialized) struct PanelHTTPFuzzTests {
    static let fragments: [[UInt8]] = [
        "\r\n", "\n", "\r", "\0", "\r\n\r\n", " ", ":", "\t", "é", "%00", "%", "?token=", "HTTP/1.0", "HTTP/9.9",
        "Content-Length: 99999999999999999999\r\n", "Content-Length: -1\r\n", "Content-Length: 1000\r\n",
        "Content-Length: 5\r\nContent-Length: 7\r\n", "Transfer-Encoding: chunked\r\n", "ffffffffffffffff\r\n",
        "0\r\n\r\n", "5\r\nhello\r\n", "Expect: 100-continue\r\n", "Host: evil.example\r\n", "Connection: close\r\n",
        "Upgrade: websocket\r\n", "GET / HTTP/1.1\r\n\r\n", String(repeating: "a", count: 9_000),
        (0..<70).map { "X-\($0): v\r\n" }.joined(),
    ].map { Array($0.utf8) }

    /// Requests to start from: the page (closed and kept alive), the upgrade, bodies both ways,
    /// two pipelined requests.
    static func requests(_ rig: PanelFuzzRig) -> [String] {
        let page = "GET /?token=\(rig.token.text) HTTP/1.1\r\nHost: \(rig.host)\r\n"
        return [
            page + "Connection: close\r\n\r\n", page + "\r\n", rig.upgrade,
            "POST / HTTP/1.1\r\nHost: \(rig.host)\r\nContent-Length: 5\r\n\r\nhello",
            "POST / HTTP/1.1\r\nHost: \(rig.host)\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            "GET /favicon.ico HTTP/1.1\r\nHost: \(rig.host)\r\n\r\n",
            page + "\r\n" + page + "Connection: close\r\n\r\n",
        ]
    }

    @Test func mutatedRequestsAreAnsweredOrClosedInTime() async throws {
        try await PanelServerTests.offPool {
            let rig = try PanelFuzzRig()
            defer { rig.server.stop() }
            let requests = Self.requests(rig).map { Array($0.utf8) }
            var random = SeededRandom(seed: FuzzTally.seed(35))
            var tally = FuzzTally("panel HTTP framing")
            try rig.run(&tally, budget: FuzzTally.budget(200), &random) { random in
                let bytes = ByteMutation.mutated(
                    requests.randomElement(using: &random)!, rounds: 3, fragments: Self.fragments, &random)
                let client = try RawClient(port: rig.port)
                client.send(bytes)
                return (client, PanelFuzzRig.described(bytes))
            } judge: { client, input, deadline in
                let end = client.untilClosed(by: deadline) { Self.status($0) == 101 }
                let status = Self.status(end.bytes)
                if status == 101 { return .accepted }
                guard end.closed else { return .hang("\(input): open past the bound, answered \(status ?? 0)") }
                return (status ?? 400) < 400 ? .accepted : .cleanError
            }
            let pageAnswers = rig.pageAnswers()
            print(tally.summary)
            #expect(tally.failures.isEmpty, "\(tally.failures.prefix(3))")
            #expect(pageAnswers, "the page did not answer within 2 s after the fuzz")
        }
    }

    /// The status of the first response in `bytes`, once its status line has come.
    static func status(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 12, bytes.starts(with: Array("HTTP/1.1 ".utf8)) else { return nil }
        return Int(String(decoding: bytes[9..<12], as: UTF8.self))
    }
}
