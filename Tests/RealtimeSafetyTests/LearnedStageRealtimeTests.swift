import CRealtimeCheck
import Foundation
import Synchronization
import Testing
import VoiceDeepFilter
import VoiceEngine
import VoicePresets
import VoiceRT
import VoiceTestSupport

/// A stand-in for DeepFilterNet on the worker thread: copies each hop at half level, taking 2 ms
/// for it (the worker's sleep, outside the real-time region).
private let halving: LearnedModel.HopFunction = { _, input, output in
    usleep(2_000)
    for i in 0..<480 { output![i] = 0.5 * input![i] }
    return 0
}

/// The learned suppressor's process-thread side inside RealtimeSanitizer's region: handing hops
/// to the worker (the ring and `sem_post`), taking them back, the fallback for missed ones and the
/// crossfades; then the whole render cycle of `echo-cancel-dfn` with DeepFilterNet's own runtime
/// on the worker, when it is installed.
@Suite("Real-time safety: the learned suppressor", .serialized)
struct LearnedStageRealtimeTests {
    @Test("the stage hands hops over, takes them back and falls back without anything real-time unsafe")
    func stageIsRealtimeSafe() {
        let model = LearnedModel(function: halving, state: nil, hop: 480, latency: 1440)
        var stage = LearnedStage(model: model, mode: .worker, blockSize: 256, frameSize: 384, fadeSamples: 120)
        defer { stage.deallocate() }
        let worker = LearnedWorker(hops: stage.hops, model: model)
        worker.start()
        let block = UnsafeMutablePointer<Float>.allocate(capacity: 384)
        defer { block.deallocate() }
        var phase = 0
        // Frames of 384 as the engine's; the first 100 outside the region. Half the frames are
        // paced (the worker keeps up: learned hops), half not (it falls behind: fallbacks).
        for f in 0..<3000 {
            for i in 0..<384 { block[i] = 0.3 * sinf(Float(phase + i) * 0.05) }
            phase += 384
            if f >= 100 { rtcheck_enter() }
            stage.process(input: block, fallback: block, output: block, count: 384)
            if f >= 100 { rtcheck_exit() }
            if f % 2000 < 1000 { usleep(5_000) }
        }
        worker.stop()
        #expect(stage.learnedHops > 100)
        #expect(stage.missedHops > 10)
        print("learned stage under the sanitizer: \(stage.learnedHops) hops learned, \(stage.missedHops) missed")
    }

    @Test(
        "echo-cancel-dfn's render cycles with DeepFilterNet on the worker do nothing real-time unsafe",
        .enabled(if: (try? DeepFilterRuntime.locate()) != nil, "DeepFilterNet 3's runtime is not installed"))
    func presetIsRealtimeSafe() throws {
        let configuration = try PresetLibrary.standard(pluginHost: nil).load("echo-cancel-dfn").configuration
        #expect(configuration.suppressor == .deepfilter)
        let rate = 48_000, block = 256
        let rig = try CycleRig(configuration: configuration, rate: rate, block: block, referenceChannels: 1)
        let n = rate * 4
        let far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 31)
        let near = Signals.speechLike(count: n, sampleRate: rate, rms: 0.03, seed: 32)
        let echo = Signals.convolve(
            far, Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.05, tail: 0.05, gain: 0.5, seed: 33))
        let mic = Signals.mix(echo, near)
        // Paced like a live period for the first half (the model keeps up), unpaced after.
        let cycles = rig.renderChecked(mic: mic, far: far, warmBlocks: rate / block) { start in
            if start < n / 2 { usleep(5_000) }
        }
        #expect(cycles > 200)
        let h = rig.host.status().health
        print("echo-cancel-dfn under the sanitizer: \(h.learnedHops) hops learned, \(h.learnedMissedHops) missed")
        #expect(h.learnedHops > 50)
    }
}
