import Dispatch
import Foundation
import Testing
import VoiceLV2

/// Instances of one plugin made, run and dropped on several threads at once, as a chain rebuilt
/// live beside an offline job does. lilv counts the users of each plugin library in its world
/// and unloads the library when the count reaches zero; a count changed by two threads at once
/// unloads a library another instance is still running, and the test process crashes in
/// unmapped code (seen in the full suite before the world's lock covered the free).
@Suite struct LV2ConcurrencyTests {
    @Test(
        "instances of one plugin made, run and dropped on four threads at once all give the output of one made alone"
    )
    func concurrentInstancesShareTheirLibrarySafely() throws {
        let tone = (0..<512).map { Float(sin(Double($0) * 2 * .pi * 1_000 / 48_000)) * 0.5 }
        let expected = try makeUnit(Plugins.singlePara, controls: ["gain": 6]).run(tone, block: 256)
        let threads = 4
        let rounds = 150
        let results = Results(threads: threads)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for _ in 0..<rounds {
                do {
                    let out = try makeUnit(Plugins.singlePara, controls: ["gain": 6]).run(tone, block: 256)
                    results.record(thread: thread, matches: out == expected)
                } catch {
                    results.record(thread: thread, matches: false)
                }
            }
        }
        #expect(results.matching == Array(repeating: rounds, count: threads))
    }
}

/// Per-thread tallies of the concurrent test; each thread writes only its own slot.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var matching: [Int]

    init(threads: Int) { matching = Array(repeating: 0, count: threads) }

    func record(thread: Int, matches: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if matches { matching[thread] += 1 }
    }
}
