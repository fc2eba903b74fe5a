import Foundation
import Testing
import VoiceLV2
import VoiceTestSupport

/// The worker extension, live (a thread and lock-free rings) and offline (synchronous), and the
/// log feature, through the test bundle's worker plugin (see TestLV2Bundle+Worker.swift).
@Suite("LV2 worker and log")
struct LV2WorkerTests {
    /// The worker plugin at 48 kHz, blocks of 64, with `requests` jobs to schedule.
    func workerUnit(_ mode: LV2Configuration.WorkerMode, requests: Float, folder: TemporaryFolder) throws -> LV2Unit {
        let testWorld = LV2World(path: try TestLV2Bundle.build(in: folder))
        let unit = try LV2Unit(
            world: testWorld, uri: TestLV2Bundle.workerURI,
            configuration: LV2Configuration(sampleRate: 48_000, maximumBlockSize: 64, worker: mode))
        try unit.setControl("requests", requests)
        return unit
    }

    func outputIndex(_ unit: borrowing LV2Unit, _ symbol: String) -> Int {
        unit.info.ports.first { $0.symbol == symbol }!.index
    }

    @Test("offline, each job's answer is delivered right after the run that scheduled it")
    func synchronous() throws {
        let folder = try TemporaryFolder()
        let unit = try workerUnit(.synchronous, requests: 3, folder: folder)
        let responses = outputIndex(unit, "responses")
        let ends = outputIndex(unit, "ends")
        #expect(unit.control(responses) == 0 && unit.control(ends) == 1, "one block of silence at load")
        var block = [Float](repeating: 0.5, count: 64)
        for k in 1...5 {
            block = [Float](repeating: 0.5, count: 64)
            block.withUnsafeMutableBufferPointer { unit.process($0.baseAddress!, frames: 64) }
            #expect(unit.control(responses) == Float(min(k, 3)), "after block \(k)")
            #expect(unit.control(ends) == Float(k + 1))
            // The first answer arrives after block 1's run: block 1 is unchanged, later ones halved.
            #expect(block[0] == (k == 1 ? 0.5 : 0.25), "block \(k)")
        }
        #expect(unit.drainLog() == ["note: test worker ready at 48000 Hz"])
        #expect(unit.drainLog().isEmpty)
    }

    @Test("live, the worker thread answers and the answers arrive in order")
    func threaded() throws {
        let folder = try TemporaryFolder()
        let unit = try workerUnit(.threaded, requests: 3, folder: folder)
        let responses = outputIndex(unit, "responses")
        var block = [Float](repeating: 0.5, count: 64)
        // Process blocks until the three answers are in (they take a thread switch each).
        let deadline = Date().addingTimeInterval(30)
        var blocks = 0
        while unit.control(responses) < 3 && Date() < deadline {
            block = [Float](repeating: 0.5, count: 64)
            block.withUnsafeMutableBufferPointer { unit.process($0.baseAddress!, frames: 64) }
            blocks += 1
            usleep(1_000)
        }
        #expect(unit.control(responses) == 3)
        #expect(blocks >= 3)
        // Answers are delivered after a run, so the block after the last one shows their effect
        // (under load all three can arrive after the same run).
        block = [Float](repeating: 0.5, count: 64)
        block.withUnsafeMutableBufferPointer { unit.process($0.baseAddress!, frames: 64) }
        #expect(block[0] == 0.25, "answers in order (an out-of-order one would silence the output)")
        #expect(unit.drainLog().contains("note: test worker ready at 48000 Hz"))
    }
}
