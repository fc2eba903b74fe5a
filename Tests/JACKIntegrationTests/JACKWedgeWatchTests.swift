import Foundation
import Testing

/// The detector behind `RedoOnJACKWedge`, fed logs that look like jackd's: it must call a server
/// wedged only when the incomplete-cycle line keeps coming, and never for a late client that
/// recovers.
@Suite("jackd wedge watch")
struct JACKWedgeWatchTests {
    /// A shell that prints jackd's incomplete-cycle line `times` times, 0.1 s apart, then idles.
    func fakeServer(printing times: Int) throws -> ChildProcess {
        let line = "JackAudioDriver::ProcessGraphSync: SuspendRefNum error, \(JACKWedgeWatch.signature)!!"
        return try ChildProcess(
            "/bin/sh",
            ["-c", "i=0; while [ $i -lt \(times) ]; do echo '\(line)'; sleep 0.1; i=$((i+1)); done; sleep 30"])
    }

    @Test(
        "a server ending every cycle incomplete is called wedged within 2 s; one that recovers after 2 such cycles is not"
    )
    func detectsOnlyPersistentFailure() throws {
        let watch = JACKWedgeWatch()
        let wedged = try fakeServer(printing: 1_000)
        let recovering = try fakeServer(printing: 2)
        defer {
            watch.serverStopped("wedged")
            watch.serverStopped("recovering")
            wedged.stop(SIGKILL)
            recovering.stop(SIGKILL)
        }
        watch.watch(wedged, name: "wedged")
        watch.watch(recovering, name: "recovering")
        #expect(poll(timeout: 2.5) { watch.wedged == ["wedged"] }, "wedged: \(watch.wedged)")
        usleep(1_000_000)
        #expect(watch.wedged == ["wedged"])
        #expect(JACKWedgeWatch.incompleteCycles(in: recovering.output) == 2)
    }

    /// Runs of `failsOnlyUnderAWedge`, counted across its runs.
    final class Runs: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int {
            lock.withLock {
                count += 1; return count
            }
        }
    }
    static let runs = Runs()

    @Test(
        "under RedoOnJACKWedge, a run whose server wedged has its failure excused and the test runs again; the run without a wedge counts",
        RedoOnJACKWedge())
    func failsOnlyUnderAWedge() throws {
        let watch = try #require(JACKWedgeWatch.current, "the trait gives each run a watch")
        let run = Self.runs.next()
        guard run == 1 else {
            #expect(run == 2, "a third run")
            return
        }
        let server = try fakeServer(printing: 1_000)
        defer { server.stop(SIGKILL) }
        watch.watch(server, name: "fake")
        #expect(poll(timeout: 2.5) { !watch.wedged.isEmpty })
        throw CancellationError()  // what a capture that never filled throws, excused by the wedge
    }
}
