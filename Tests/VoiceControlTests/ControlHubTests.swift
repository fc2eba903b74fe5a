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
        // From several surfaces: one alone would spend its budget first.
        for i in 0..<ControlHub.capacity { hub.submit(.status, from: "test \(i % 4)") { _ in } }
        let refused = Mutex<LiveReply?>(nil)
        hub.submit(.status, from: "test 5") { reply in refused.withLock { $0 = reply } }
        let reply = refused.withLock { $0 }
        #expect(reply?.succeeded == false)
        #expect(reply?.lines.first?.hasPrefix("busy: 256 commands are waiting") == true)
        #expect(hub.take().count == ControlHub.capacity)
    }

    @Test func eachSurfaceGetsItsBudgetPerSecondAndTheRestIsRefusedAtOnce() {
        let now = Mutex(1000.0)
        let hub = ControlHub(clock: { now.withLock { $0 } })
        let limit = ControlHub.commandsPerSecond
        let refusals = Mutex<[String]>([])
        func flood(_ count: Int, surface: String) {
            for i in 0..<count {
                hub.submit(.get(key: "k\(i)"), from: "\(surface) peer \(i)", surface: surface) { reply in
                    if !reply.succeeded { refusals.withLock { $0.append(reply.lines[0]) } }
                }
            }
        }
        // Many peers of one surface share its budget; another surface has its own.
        flood(3 * limit, surface: "web")
        flood(limit, surface: "OSC")
        #expect(hub.take().count == 2 * limit)
        #expect(refusals.withLock { $0.count } == 2 * limit)
        #expect(
            refusals.withLock { $0.first } == "too many requests: at most \(limit) per second; wait for the answers")
        // Half a second later, half a second's worth more; never more than a second's worth.
        now.withLock { $0 += 0.5 }
        flood(limit, surface: "web")
        #expect(hub.take().count == limit / 2)
        now.withLock { $0 += 60 }
        flood(3 * limit, surface: "web")
        #expect(hub.take().count == limit)
    }

    @Test func aSetOfAKeyStillWaitingReplacesItsValueAndBothAreAnswered() {
        let hub = ControlHub()
        let answers = Mutex<[String]>([])
        func set(_ key: String, _ value: String, surface: String = "web") {
            hub.submit(.set(key: key, value: .word(value)), from: surface) { reply in
                answers.withLock { $0.append("\(value): \(reply.lines[0])") }
            }
        }
        set("a", "1")
        set("b", "1")
        set("a", "2")
        set("a", "3", surface: "OSC")
        let pending = hub.take()
        #expect(
            pending.map(\.command) == [
                .set(key: "a", value: "2"), .set(key: "b", value: "1"), .set(key: "a", value: "3"),
            ])
        pending[0].reply(LiveReply(lines: ["a = 2"]))
        #expect(answers.withLock { $0 } == ["1: a = 2", "2: a = 2"])
        // A load between two sets of a key keeps both: the second must land after the load.
        set("a", "4")
        hub.submit(.loadPreset("raw"), from: "web") { _ in }
        set("a", "5")
        #expect(hub.take().count == 3)
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
