import Foundation
import Testing

/// Watches the test's jackd servers for the wedge of jackd2's synchronous engine, the one
/// server defect the JACK suites run a test again for.
///
/// jackd2 1.9.21 in synchronous mode (`-S`, which `JACKServer` uses so that a late client's
/// audio still reaches the next one) can stop completing its graph for good when a client opens,
/// activates or closes while another client in the graph is late: from then on every cycle ends
/// with jackd's own "SuspendRefNum error, engine may now behave abnormally!!", about one cycle in
/// ten reaches the clients, and jack_capture's take holds only its header. The server stays
/// like that until it is stopped. `scripts/dev/jackd-sync-wedge-probe.sh` reproduces it without
/// the test suite (three runs of 30 opens and closes beside a client stopped for 10–300 ms:
/// wedged at the 13th, 2nd and 4th in synchronous mode, never in the default asynchronous mode).
///
/// A server counts as wedged once that line has kept coming for a whole second (four polls
/// 250 ms apart, each finding a new one). A late client that recovers prints it once or twice.
/// Thread-safe: servers register from the test thread, each one's watcher runs on its own thread.
final class JACKWedgeWatch: @unchecked Sendable {
    /// The watch of the test that is running, if the test runs under `RedoOnJACKWedge`.
    @TaskLocal static var current: JACKWedgeWatch?

    /// jackd's line for a cycle whose graph did not complete.
    static let signature = "engine may now behave abnormally"

    /// How many of jackd's cycles in `log` ended with the graph not completed.
    static func incompleteCycles(in log: String) -> Int { log.components(separatedBy: signature).count - 1 }

    /// jackd's lines after its start-up banner, up to and including the first incomplete
    /// cycle: what happened to the graph just before it wedged.
    static func leadUp(in log: String) -> String {
        let lines = log.split(separator: "\n")
        let start = (lines.firstIndex { $0.contains("self-connect-mode") }).map { $0 + 1 } ?? 0
        let end = (lines.firstIndex { $0.contains(signature) }).map { $0 + 1 } ?? lines.count
        return lines[start..<max(start, end)].suffix(20).joined(separator: "\n")
    }

    private let lock = NSLock()
    private var wedgedServers: [String] = []
    private var stopped: Set<String> = []
    private var excused = false

    /// The names of the servers that wedged so far. - Any thread.
    var wedged: [String] { lock.withLock { wedgedServers } }

    /// Whether an issue was recorded after a server wedged (and so counted as known). - Any thread.
    var excusedAnIssue: Bool { lock.withLock { excused } }

    /// Whether `issue`, recorded now, is excused by a wedge so far; remembers that it was.
    /// - Any thread.
    func excuses(_ issue: Issue) -> Bool {
        lock.withLock {
            if !wedgedServers.isEmpty { excused = true }
            return excused
        }
    }

    /// Starts watching the log of `jackd`, the server called `name`, until
    /// `serverStopped(_:)` or its wedge. - Test thread.
    func watch(_ jackd: ChildProcess, name: String) {
        let log = jackd.outputPath
        let thread = Thread { [self] in
            var growingPolls = 0
            var lastCount = 0
            while !lock.withLock({ stopped.contains(name) }) {
                Thread.sleep(forTimeInterval: 0.25)
                let count = Self.incompleteCycles(in: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
                growingPolls = count > lastCount ? growingPolls + 1 : 0
                lastCount = count
                if growingPolls >= 4 {
                    lock.withLock { wedgedServers.append(name) }
                    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                    print(
                        "jackd '\(name)': its synchronous engine wedged (\(count) cycles ended with '\(Self.signature)'); "
                            + "what it said before:\n\(Self.leadUp(in: text))")
                    return
                }
            }
        }
        thread.name = "jackd wedge watch"
        thread.start()
    }

    /// Ends the watch of the server called `name`. - Any thread.
    func serverStopped(_ name: String) {
        _ = lock.withLock { stopped.insert(name) }
    }
}

/// Runs a JACK test again, on fresh servers, when a server it started wedged (see
/// `JACKWedgeWatch`), at most `runs` times in all; nothing else is ever run again.
///
/// What a run recorded counts as a known issue only if one of its servers had wedged by the time
/// it was recorded. The last run counts in full, and a wedge in it fails the test with what
/// happened. Three runs, not two: under scripts/dev/stress-tests.sh wedges came in clusters (four in
/// two minutes, one test wedging twice in a row). Applied to the JACK suites, so to each of
/// their tests.
struct RedoOnJACKWedge: SuiteTrait, TestTrait, TestScoping {
    var runs = 3
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        for run in 1..<runs {
            let watch = JACKWedgeWatch()
            try await withKnownIssue("jackd2's synchronous engine wedged under this test", isIntermittent: true) {
                try await JACKWedgeWatch.$current.withValue(watch) { try await function() }
            } matching: {
                watch.excuses($0)
            }
            guard watch.excusedAnIssue else { return }
            print(
                "\(test.name): jackd \(watch.wedged.joined(separator: ", ")) wedged; running the test again on a fresh server (run \(run + 1) of at most \(runs))"
            )
        }
        let last = JACKWedgeWatch()
        try await JACKWedgeWatch.$current.withValue(last) { try await function() }
        if !last.wedged.isEmpty {
            Issue.record("jackd's synchronous engine wedged in all \(runs) runs (last: \(last.wedged))")
        }
    }
}
