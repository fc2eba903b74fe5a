import Foundation
import Synchronization
import Testing
import VoiceDeepFilter
import VoiceRT

/// A stand-in for DeepFilterNet: halves each hop (so its output is told from the fallback's), and
/// sleeps first for as many microseconds as the Atomic<Int> its state points at holds.
let halvingModel: LearnedModel.HopFunction = { state, input, output in
    let stall = UnsafeMutablePointer<Atomic<Int>>(state!).pointee.load(ordering: .relaxed)
    if stall > 0 { usleep(UInt32(stall)) }
    for i in 0..<480 { output![i] = 0.5 * input![i] }
    return 0
}

/// The learned stage's process-thread side, with a stand-in model on a real worker thread: the
/// fallback when the worker is stopped or slowed, the crossfade at each switch, the counters, and
/// that a worker that keeps up gives what the offline (in-place) mode gives.
@Suite(.serialized) struct LearnedStageTests {
    static let rate = 48_000
    static let block = 256
    static let frame = 384

    /// A 440 Hz sine at 0.5 (full scale 1) from sample `start`.
    static func sine(_ p: UnsafeMutablePointer<Float>, _ n: Int, start: Int) {
        for i in 0..<n { p[i] = 0.5 * sinf(2 * .pi * 440 * Float(start + i) / Float(rate)) }
    }

    /// Runs `seconds` of the sine through a stage in `block`-sample calls; `pace(cycle, stage)`
    /// runs before each call (the test's clock and its changes to the worker). Returns the output.
    static func run(
        _ stage: inout LearnedStage, seconds: Double, pace: (Int, LearnedStage) -> Void
    ) -> [Float] {
        let total = Int(seconds * Double(rate)) / block * block
        var out = [Float](repeating: 0, count: total)
        let input = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { input.deallocate() }
        out.withUnsafeMutableBufferPointer { o in
            for c in 0..<(total / block) {
                pace(c, stage)
                sine(input, block, start: c * block)
                // Fallback = the input itself (the classical suppressor's stand-in).
                stage.process(input: input, fallback: input, output: o.baseAddress! + c * block, count: block)
            }
        }
        return out
    }

    static func largestStep(_ y: [Float]) -> Float {
        var worst: Float = 0
        for i in 1..<y.count { worst = max(worst, abs(y[i] - y[i - 1])) }
        return worst
    }

    /// Smallest RMS over 10 ms windows after `from`.
    static func quietestWindow(_ y: [Float], from: Int) -> Float {
        var quietest = Float.infinity
        var i = from
        while i + 480 <= y.count {
            var sum: Float = 0
            for k in i..<(i + 480) { sum += y[k] * y[k] }
            quietest = min(quietest, (sum / 480).squareRoot())
            i += 480
        }
        return quietest
    }

    /// A stage of `mode` over the halving model whose stall is `stall`, `latency` samples late.
    static func stage(
        _ mode: LearnedStage.Mode, stall: UnsafeMutablePointer<Atomic<Int>>, latency: Int
    ) -> (
        LearnedStage, LearnedModel
    ) {
        let model = LearnedModel(function: halvingModel, state: OpaquePointer(stall), hop: 480, latency: latency)
        return (
            LearnedStage(model: model, mode: mode, blockSize: block, frameSize: frame, fadeSamples: rate / 400), model
        )
    }

    @Test func stoppedThenSlowWorkerFallsBackWithoutAClick() throws {
        let stall = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        stall.initialize(to: Atomic(0))
        defer { stall.deallocate() }
        var (stage, model) = Self.stage(.worker, stall: stall, latency: 0)
        defer { stage.deallocate() }
        let worker = LearnedWorker(hops: stage.hops, model: model)
        // 0–1 s: no worker (stopped): every hop falls back. 1–2 s: the worker keeps up (each call
        // paced 20 ms apart, far more than a hop needs). 2–2.5 s: each hop takes 30 ms, more than
        // the calls' pace allows. 2.5–3.5 s: quick again.
        var missedWhileStopped = 0
        var missedBeforeStall = 0
        var missedAfterStall = 0
        let cycles = Double(Self.rate) / Double(Self.block)
        let y = Self.run(&stage, seconds: 3.5) { c, stage in
            let t = Double(c) / cycles
            if c == Int(cycles) {
                missedWhileStopped = stage.missedHops
                worker.start()
            }
            if c == Int(2 * cycles) {
                missedBeforeStall = stage.missedHops
                stall.pointee.store(30_000, ordering: .relaxed)
            }
            if c == Int(2.5 * cycles) {
                missedAfterStall = stage.missedHops
                stall.pointee.store(0, ordering: .relaxed)
            }
            if t >= 1 { usleep(t < 2 || t >= 2.5 ? 20_000 : 2_000) }
        }
        worker.stop()
        let missedAtEnd = stage.missedHops
        let learned = stage.learnedHops
        let step = Self.largestStep(y)
        let quietest = Self.quietestWindow(y, from: stage.latency + 480)
        print(
            "learned stage: latency \(stage.latency) samples, missed while stopped \(missedWhileStopped), "
                + "before the stall \(missedBeforeStall - missedWhileStopped), during it \(missedAfterStall - missedBeforeStall), "
                + "after it \(missedAtEnd - missedAfterStall), learned \(learned), largest step \(step), quietest 10 ms RMS \(quietest)"
        )
        // Stopped: about a second of hops fell back (minus the stage's start-up).
        #expect(missedWhileStopped >= 90)
        // Slow worker: hops fell back and were counted.
        #expect(missedAfterStall - missedBeforeStall >= 10)
        #expect(learned >= 100)
        // The sine's own largest step is 0.5·2π·440/48000 ≈ 0.029; a hard switch between the
        // halved and the whole sine would step up to 0.25.
        #expect(step < 0.035)
        // Never silent: the halved sine's RMS is 0.177.
        #expect(quietest > 0.15)
    }

    @Test func aWorkerThatKeepsUpGivesWhatTheInPlaceModeGives() throws {
        let stall = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        stall.initialize(to: Atomic(0))
        defer { stall.deallocate() }
        var (live, model) = Self.stage(.worker, stall: stall, latency: 1440)
        var (offline, _) = Self.stage(.synchronous, stall: stall, latency: 1440)
        defer {
            live.deallocate()
            offline.deallocate()
        }
        let worker = LearnedWorker(hops: live.hops, model: model)
        worker.start()
        let a = Self.run(&live, seconds: 0.5) { _, _ in usleep(10_000) }
        worker.stop()
        let b = Self.run(&offline, seconds: 0.5) { _, _ in }
        #expect(live.missedHops == 0 && offline.missedHops == 0)
        #expect(a == b)
        // The output is the halved sine, `latency` samples late: the stand-in says its output
        // lags by 1440 but does not delay, so here it is 1440 samples earlier than that.
        let late = live.latency - model.latency
        #expect(abs(a[late + 1000] - 0.25 * sinf(2 * .pi * 440 * Float(1000) / Float(Self.rate))) < 1e-5)
    }
}
