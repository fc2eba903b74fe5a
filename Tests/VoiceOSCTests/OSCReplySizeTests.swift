import Foundation
import Testing
import VoiceControl
import VoiceOSC

/// Answers that would not fit one datagram still answer: an `/error` that fits, from a real
/// liblo peer's point of view.
@Suite("OSC: a reply too large for a datagram becomes an error that fits", .serialized)
struct OSCReplySizeTests {
    /// Sends ADDRESS with a string argument ARG; prints every message that came back within
    /// 3 s, with its size.
    static let ask = #"""
        import json, sys, time, liblo
        port, address, argument = int(sys.argv[1]), sys.argv[2], sys.argv[3]
        server = liblo.Server()
        got = []
        server.add_method(None, None, lambda path, args, types, src: got.append([path] + list(args)))
        server.send(("127.0.0.1", port), address, argument)
        deadline = time.monotonic() + 3
        while not got and time.monotonic() < deadline:
            server.recv(50)
        print(json.dumps({"answers": got}))
        """#

    @Test(
        "an unknown 40,000-byte address and a reply of 70,000 bytes are each answered with an error that fits",
        .enabled(if: LibloPeer.available, "python3-liblo is missing"))
    func tooLargeRepliesAnswer() throws {
        // The session's answer to `get`: a value far beyond a datagram.
        try SessionStandIn.withOSC(answer: { _ in LiveReply(lines: [String(repeating: "v", count: 70_000)]) }) {
            _, port in try tooLarge(port)
        }
    }

    private func tooLarge(_ port: Int) throws {
        // The error for an unknown address quotes the address twice: 80,000 bytes.
        let long = "/voicerack/" + String(repeating: "x", count: 40_000)
        let unknown = try LibloPeer.run(Self.ask, port: port, [long, "a"])["answers"] as? [[Any]] ?? []
        #expect(unknown.count == 1, "\(unknown.map { $0.prefix(2) })")
        #expect(unknown.first?.first as? String == "/voicerack/error")
        let quoted = unknown.first?.dropFirst().first as? String ?? ""
        #expect(quoted.hasPrefix("/voicerack/xxx") && quoted.hasSuffix("…") && quoted.utf8.count < 300)
        let why = unknown.first?.dropFirst(2).first as? String ?? ""
        #expect(why.hasPrefix("reply too large: 800"), "\(why)")
        #expect(why.contains("ask for less"), "\(why)")

        let large =
            try LibloPeer.run(Self.ask, port: port, ["/voicerack/get", "output.gain_db"])["answers"] as? [[Any]]
            ?? []
        #expect(large.count == 1)
        #expect(large.first?.first as? String == "/voicerack/error")
        #expect(large.first?.dropFirst().first as? String == "/voicerack/get")
        let said = large.first?.dropFirst(2).first as? String ?? ""
        #expect(said.hasPrefix("reply too large: 700"), "\(said.prefix(200))")
    }
}
