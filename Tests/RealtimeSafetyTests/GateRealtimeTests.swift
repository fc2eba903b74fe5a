import CRealtimeCheck
import Foundation
import Testing
import VoiceCycle
import VoiceEngine
import VoiceFiles
import VoicePresets
import VoiceRecorder
import VoiceTestSupport

/// The recording gate (`--record-on-transport`, `--record-on-freewheel`) and the freewheel wait,
/// through the one render cycle. Outside freewheel the cycle must never wait: a full recorder
/// loses frames (counted, padded) inside RealtimeSanitizer's region, which aborts on any sleep.
/// In freewheel the same stalled recorder is waited for and loses nothing.
@Suite("Real-time safety: recording gate and freewheel", .serialized)
struct GateRealtimeTests {
    static let rate = 48_000
    static let block = 256

    func rig(_ preset: String = "echo-cancel", folder: String? = nil) throws -> CycleRig {
        let configuration = try PresetLibrary.standard(pluginHost: nil).load(preset).configuration
        return try CycleRig(
            configuration: configuration, rate: Self.rate, block: Self.block, referenceChannels: 2, folder: folder)
    }

    @Test("a transport-gated take opens, records and closes inside the region; its file carries the transport frame")
    func transportGateIsRealtimeSafe() throws {
        let rig = try rig()
        rig.host.setRecordingGate(.transport)
        try rig.record([.voice, .mic], timeReference: true)
        let mic = Signals.whiteNoise(count: Self.block, rms: 0.05, seed: 5)
        let silence = [Float](repeating: 0, count: Self.block)
        let start = 96_000
        var frame = start
        // Warm-up outside the region (stopped), then 200 stopped, 400 rolling, 200 stopped cycles
        // inside it.
        var rolled = 0
        for cycle in 0..<1_000 {
            let inRegion = cycle >= 200
            let rolling = cycle >= 400 && cycle < 800
            if inRegion { rtcheck_enter() }
            mic.withUnsafeBufferPointer { m in
                silence.withUnsafeBufferPointer { f in
                    rig.render(
                        mic: m.baseAddress!, far: f.baseAddress!,
                        transport: TransportPosition(rolling: rolling, frame: frame))
                }
            }
            if inRegion { rtcheck_exit() }
            if rolling {
                frame += Self.block
                rolled += Self.block
            }
            if cycle == 399 { #expect(rig.host.takeState == .armed) }
            if cycle == 400 { #expect(rig.host.takeState == .open) }
        }
        #expect(rig.host.takeState == .closed)
        #expect(rig.host.takeFrame == start)
        for recording in rig.recordings {
            recording.finishProducer()
            let result = recording.waitUntilFinished()
            #expect(result.status.framesWritten == rolled, "only the rolling cycles are recorded")
            #expect(result.status.framesLost == 0)
            #expect(AudioFileContents.timeReference(of: result.files[0]) == UInt64(start))
        }
    }

    /// Cycles the server ran without voicerack, as PipeWire's JACK skips them under load: a
    /// transport take pads only what the transport rolled through meanwhile, so the take lasts
    /// as long as its roll (and the next roll starts where it ended).
    @Test("a transport take across missed cycles lasts exactly as long as its roll, inside the region")
    func transportTakeFollowsTheRollAcrossMissedCycles() throws {
        let rig = try rig("raw")
        rig.host.setRecordingGate(.transport)
        try rig.record([.voice], timeReference: true)
        let b = Self.block
        let start = 48_000
        // (rolling, transport frame, frames missed before the cycle). Missed cycles: one just
        // before the roll (before the take's first frame: no silence), two while the transport
        // moved only one period (as PipeWire was seen to), one it rolled through in full, a
        // relocation with none missed (not time: no silence), and one rolled through unseen
        // just before the stop.
        let cycles: [(Bool, Int, Int)] = [
            (false, start, 0), (true, start, b), (true, start + b, 0), (true, start + 3 * b, 2 * b),
            (true, start + 4 * b, 0), (true, start + 6 * b, b), (true, start + 7 * b, 0),
            (true, start + 100_000, 0), (true, start + 100_000 + b, 0), (false, start + 100_000 + 3 * b, b),
            (false, start + 100_000 + 3 * b, 0),
        ]
        // Recorded cycles 8 × b; silence 1 + 1 + 1 periods (the relocation and the first miss add none).
        let expected = 8 * b + 3 * b
        let mic = Signals.whiteNoise(count: b, rms: 0.05, seed: 7)
        let silence = [Float](repeating: 0, count: b)
        // One stopped cycle outside the region warms the path.
        for (index, (rolling, frame, missed)) in cycles.enumerated() {
            if index > 0 { rtcheck_enter() }
            mic.withUnsafeBufferPointer { m in
                silence.withUnsafeBufferPointer { f in
                    rig.render(
                        mic: m.baseAddress!, far: f.baseAddress!,
                        transport: TransportPosition(rolling: rolling, frame: frame), framesMissed: missed)
                }
            }
            if index > 0 { rtcheck_exit() }
        }
        #expect(rig.host.takeState == .closed)
        #expect(rig.host.takeFrame == start)
        let recording = rig.recordings[0]
        recording.finishProducer()
        let result = recording.waitUntilFinished()
        #expect(result.status.framesWritten == expected, "take frames against the roll's \(expected)")
        #expect(AudioFileContents.timeReference(of: result.files[0]) == UInt64(start))
        let samples = try AudioFileContents.read(result.files[0]).channels[0]
        // The first period is the first rolling cycle's noise, not silence.
        #expect(samples.prefix(b).contains { $0 != 0 }, "the take starts with its stamped frame")
    }

    /// The raw preset recording the voice through a 0.1 s buffer whose writer stalls `seconds`,
    /// and `cycles` cycles of noise rendered (freewheeling or not), those from `regionFrom` on
    /// inside the sanitizer's region.
    func renderWithStalledWriter(
        seconds: Double, cycles: Int, freewheeling: Bool, regionFrom: Int = .max, folder: String? = nil
    ) throws -> CycleRig {
        let rig = try rig("raw", folder: folder)
        try rig.record([.voice], bufferSeconds: 0.1)
        rig.recordings[0].stallWriter(seconds: seconds)
        let mic = Signals.whiteNoise(count: Self.block, rms: 0.05, seed: 6)
        for cycle in 0..<cycles {
            let inRegion = cycle >= regionFrom
            if inRegion { rtcheck_enter() }
            mic.withUnsafeBufferPointer { m in
                rig.render(mic: m.baseAddress!, far: m.baseAddress!, freewheeling: freewheeling)
            }
            if inRegion { rtcheck_exit() }
        }
        return rig
    }

    @Test("outside freewheel a stalled recorder loses frames and the cycle never waits (inside the region)")
    func noWaitOutsideFreewheel() throws {
        // A stall longer than the 400 cycles take, short enough not to hold up the rig's teardown.
        let rig = try renderWithStalledWriter(seconds: 2, cycles: 400, freewheeling: false, regionFrom: 20)
        // 400 cycles of 256 frames are 2.1 s; the buffer holds 0.1 s (at least 4 blocks of 4096).
        let lost = rig.framesLost
        print("outside freewheel, stalled writer: \(lost) of \(400 * Self.block) frames lost")
        #expect(lost >= 400 * Self.block - 4 * 4_096)
    }

    @Test("in freewheel the same stalled recorder is waited for: nothing is lost")
    func freewheelWaitsForTheRecorder() throws {
        // 0.3 s of stall: the cycle sleeps until the writer drains (outside any region: in
        // freewheel the process thread is not real-time).
        let rig = try renderWithStalledWriter(seconds: 0.3, cycles: 400, freewheeling: true)
        rig.recordings[0].finishProducer()
        let result = rig.recordings[0].waitUntilFinished()
        print(
            "freewheel, stalled writer: \(result.status.framesWritten) frames written, \(result.status.framesLost) lost"
        )
        #expect(result.status.framesLost == 0)
        #expect(result.status.framesPadded == 0)
        #expect(result.status.framesWritten == 400 * Self.block)
        #expect(rig.host.freewheelWaitsAbandoned == 0)
    }

    @Test("a consumer stuck for good holds one freewheel cycle 5 s, then the run drops as in real time")
    func freewheelGivesUpOnAStuckConsumer() throws {
        // Stalled 6 s: the first cycle that finds the buffer full waits 5 s and gives up; the
        // rest of the 400 cycles drop without waiting.
        let start = Date()
        let rig = try renderWithStalledWriter(seconds: 6, cycles: 400, freewheeling: true)
        let elapsed = Date().timeIntervalSince(start)
        print(
            "stuck writer in freewheel: \(rig.host.freewheelWaitsAbandoned) wait given up, \(rig.framesLost) frames lost"
        )
        #expect(rig.host.freewheelWaitsAbandoned == 1)
        #expect(rig.framesLost > 0)
        #expect(elapsed < 30, "more than one cycle waited")
    }

    @Test("the freewheel wait is what the sanitizer stops in a real-time region (so the test above it can fail)")
    func sanitizerCatchesTheFreewheelWait() async {
        guard RenderCycleRealtimeTests.sanitizerExpected else { return }
        // The child process dies inside the rig, so the rig cannot remove its recording folder:
        // this process names it and removes it.
        let folder = NSTemporaryDirectory() + "voicerack-rt-exit-\(getpid())-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await #expect(processExitsWith: .exitCode(43)) { [folder = folder as String] in
            _ = try GateRealtimeTests().renderWithStalledWriter(
                seconds: 30, cycles: 100, freewheeling: true, regionFrom: 0, folder: folder)
        }
        #expect(FileManager.default.fileExists(atPath: folder), "the child recorded somewhere else")
    }

    @Test("a backing track following the transport: the locate handshake and a roll inside the region")
    func backingFollowingTheTransportIsRealtimeSafe() throws {
        let rig = try rig("raw")
        let source = UnsafeMutablePointer<BackingSource>.allocate(capacity: 1)
        source.initialize(to: BackingSource(ringFrames: Self.rate, levelDB: 0, glideSamples: 960))
        defer {
            source.deinitialize(count: 1)
            source.deallocate()
        }
        source.pointee.followsTransport = true
        rig.host.attachBacking(source)
        defer { rig.host.attachBacking(nil) }
        let old = [Float](repeating: 0.5, count: 2 * Self.block * 4)
        let new = [Float](repeating: 0.25, count: 2 * Self.block * 4)
        _ = source.pointee.ring.producer.write(old, old.count)
        let silence = [Float](repeating: 0, count: Self.block)
        func cycle(rolling: Bool) {
            silence.withUnsafeBufferPointer { f in
                rig.render(
                    mic: f.baseAddress!, far: f.baseAddress!,
                    transport: TransportPosition(rolling: rolling, frame: 4_800))
            }
        }
        let state = rig.host.cycle
        // Each step in the region is what the process thread does (sync callback, cycles); between
        // them, outside it, what the reader thread does.
        rtcheck_enter()
        let asked = state.pointee.transportReady(atFrame: 4_800)
        cycle(rolling: false)
        rtcheck_exit()
        #expect(!asked)
        #expect(source.pointee.ring.consumer.available() == old.count, "stopped: the ring is not touched")
        source.pointee.seekAccepted.store(4_800, ordering: .releasing)
        rtcheck_enter()
        let drained = state.pointee.transportReady(atFrame: 4_800)
        rtcheck_exit()
        #expect(!drained)
        #expect(source.pointee.ring.consumer.available() == 0, "the old position's audio is thrown away")
        _ = source.pointee.ring.producer.write(new, new.count)
        source.pointee.seekServed.store(4_800, ordering: .releasing)
        rtcheck_enter()
        let ready = state.pointee.transportReady(atFrame: 4_800)
        cycle(rolling: true)
        rtcheck_exit()
        #expect(ready)
        #expect(rig.speakerLeft[0] == 0.25 && rig.speakerLeft[Self.block - 1] == 0.25, "rolls from the new frame")
    }
}
