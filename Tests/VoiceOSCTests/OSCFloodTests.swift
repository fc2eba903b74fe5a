import Foundation
import Testing
import VoiceControl
import VoiceOSC

/// A flood of `/voicerack/set` from a real liblo peer: every message answered, and what reaches
/// the session bounded by the hub's budget per second.
@Suite("OSC: a flood of messages is answered and bounded", .serialized)
struct OSCFloodTests {
    /// Sends COUNT sets in batches of BATCH, each batch's answers awaited (so nothing is lost to
    /// a full socket buffer); prints the tally.
    static let flood = #"""
        import json, sys, time, liblo
        port, count, batch = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
        server = liblo.Server()
        answers = []
        server.add_method(None, None, lambda path, args, types, src: answers.append((path, args)))
        for first in range(0, count, batch):
            for i in range(first, min(count, first + batch)):
                server.send(("127.0.0.1", port), "/voicerack/set", "output.gain_db", float(i % 40 - 20))
            deadline = time.monotonic() + 5
            while len(answers) < min(count, first + batch) and time.monotonic() < deadline:
                server.recv(10)
        errors = {}
        for path, args in answers:
            if path == "/voicerack/error":
                errors[args[1]] = errors.get(args[1], 0) + 1
        replies = sum(1 for path, _ in answers if path == "/voicerack/reply")
        print(json.dumps({"replies": replies, "errors": errors}))
        """#

    @Test(
        "1,500 sets from one peer as fast as answered: all answered, at most the budget per second reach the session",
        .enabled(if: LibloPeer.available, "python3-liblo is missing"))
    func setFlood() throws {
        try SessionStandIn.withOSC { session, port in try flood(session, port) }
    }

    private func flood(_ session: SessionStandIn, _ port: Int) throws {
        let count = 1500
        let started = ProcessInfo.processInfo.systemUptime
        let tally = try LibloPeer.run(Self.flood, port: port, [String(count), "25"])
        let seconds = ProcessInfo.processInfo.systemUptime - started
        let replies = tally["replies"] as? Int ?? -1
        let errors = tally["errors"] as? [String: Int] ?? [:]
        let sets = session.sets.withLock { $0 }
        print(
            "OSC flood: \(count) sets in \(String(format: "%.2f", seconds)) s: \(replies) replies, \(errors); \(sets) reached the session"
        )
        let limit = Double(ControlHub.commandsPerSecond)
        #expect(replies + errors.values.reduce(0, +) == count)
        // Admitted: a second's worth at once, then the budget's rate; sets of the one key still
        // waiting are folded into one, so fewer reach the session.
        #expect(replies >= Int(limit) && Double(replies) <= limit * (seconds + 1), "\(replies) in \(seconds) s")
        #expect(sets >= 1 && sets <= replies)
        #expect(Array(errors.keys) == ["too many requests: at most \(Int(limit)) per second; wait for the answers"])
    }
}
