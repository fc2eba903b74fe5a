import Foundation
import Synchronization
import Testing
import VoiceControl

/// `ControlHub`: commands from surface threads reach the main thread in order and are answered;
/// snapshots and meter watches are safe from any thread.
@Suite struct ControlHubTests {
    @Test func commandsFromManyThreadsAreAllAnsweredInOrderPerThread() async {
        let wakes = Atomic<Int>(0)
        let hub = ControlHub(wake: { wakes.add(1, ordering: .relaxed) })
        let answered = Mutex<[Int: [String]]>([:])
        let threads = 4
        let perThread = 50
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for i in 0..<perThread {
                hub.submit(.get(key: "k\(i)"), from: "thread \(t)") { reply in
                    answered.withLock { $0[t, default: []].append(reply.lines[0]) }
                }
            }
        }
        #expect(wakes.load(ordering: .relaxed) == threads * perThread)
        // The main thread's part: take and answer.
        let pending = hub.take()
        #expect(pending.count == threads * perThread)
        for p in pending {
            guard case .get(let key) = p.command else { continue }
            p.reply(LiveReply(lines: [key]))
        }
        #expect(hub.take().isEmpty)
        for t in 0..<threads {
            #expect(answered.withLock { $0[t] } == (0..<perThread).map { "k\($0)" })
        }
    }

    @Test func aFullInboxRefusesAtOnceWithAReason() {
        let hub = ControlHub()
        for _ in 0..<ControlHub.capacity { hub.submit(.status, from: "test") { _ in } }
        let refused = Mutex<LiveReply?>(nil)
        hub.submit(.status, from: "test") { reply in refused.withLock { $0 = reply } }
        let reply = refused.withLock { $0 }
        #expect(reply?.succeeded == false)
        #expect(reply?.lines.first?.hasPrefix("busy: 256 commands are waiting") == true)
        #expect(hub.take().count == ControlHub.capacity)
    }

    @Test func snapshotsCountAndMeterWatchesEnd() {
        let hub = ControlHub()
        var s = LiveSnapshot()
        s.xruns = 3
        hub.publish(s)
        hub.publish(s)
        #expect(hub.snapshot().sequence == 2)
        #expect(hub.snapshot().xruns == 3)
        #expect(!hub.wantsMeters)
        let a = hub.watchMeters()
        var b: MeterWatch? = hub.watchMeters()
        #expect(hub.wantsMeters)
        a.end()
        a.end()
        #expect(hub.wantsMeters)
        b = nil
        #expect(b == nil)
        #expect(!hub.wantsMeters)
    }
}
