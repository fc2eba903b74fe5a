// voicerack-bench: CPU cost of the full engine against the bare speexdsp calls it wraps.
//
// For each block size, the same 30 s echo scenario (48 kHz, far-end speech-like signal through a
// room, near-end talker joining) runs through
//   1. the full chain: `VoiceEngine` with the preset (high-pass, delay estimator, re-framing,
//      canceller, preprocessor, leveller, meters), block by block, as the JACK callback would;
//   2. the bare calls: speex_echo_cancellation + speex_preprocess_run with the same frame, filter
//      length and preprocessor settings, on pre-converted 16-bit frames (through
//      SpeexVoiceProcessor, whose two methods are one C call each).
// Each is run `--repeat` times, alternating, on one thread; the minimum thread CPU time counts.
// The post-filter's share is the full chain's time minus that of the same chain with
// `residual_suppression = 0` and `coherence_suppression = 0`, as a fraction of the full chain;
// the drift compensator's likewise with `drift_compensation = false`. With `--drift-ppm` the
// loudspeaker's clock drifts, so the compensator engages (after ~6 s) and resamples the
// reference; without, it only looks at the filter every 0.3 s. The speaker curve's share is
// likewise with `speaker_curve = false`; with `--speaker-drive` the loudspeaker soft-clips, so the
// curve engages (after a few seconds) and shapes the reference; without, it only learns.
// With `--worst-block-runs N` it measures the worst block instead, each block's time being its
// minimum over N runs, so that the machine's stalls drop out (see WorstBlock).
// With a learned suppressor (`--preset echo-cancel-dfn`) its model runs on the bench's thread,
// so the full chain's time includes it; beside `--preset echo-cancel`, the difference is the
// stage's cost against voicerack's own suppressor. `--worst-block-runs` leaves the model on its
// worker thread (a bench renders faster than real time, so most hops fall back there): the
// worst block is then the process thread's own, as live.
// Build with `-c release` (scripts/bench.sh) for numbers that mean anything.

import ArgumentParser
import Foundation
import VoiceEngine
import VoicePresets
import VoiceSpeex
import VoiceTestSupport

@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voicerack-bench",
        abstract: "CPU time of the full voicerack chain vs the bare speexdsp calls, per block size.")

    @Option(help: "Preset to measure.") var preset = "echo-cancel"
    @Option(help: "Block sizes (samples), comma-separated.") var blocks = "64,256,1024"
    @Option(help: "Sample rate (Hz).") var rate = 48_000
    @Option(help: "Seconds of audio.") var seconds = 30
    @Option(help: "Runs of each measurement (the minimum counts).") var `repeat` = 3
    @Option(help: "Clock drift of the loudspeaker in the scenario (ppm), so drift compensation engages.")
    var driftPpm = 0.0
    @Option(
        help: "Soft clipping of the loudspeaker in the scenario, tanh(d·x)/d (0: linear), so the speaker curve engages."
    )
    var speakerDrive = 0.0
    @Option(help: "Measure the recorder instead: channels to record in real time (e.g. 2 or 8).")
    var recorderChannels: Int?
    @Option(help: "Measure the streamer instead: icecast://USER:PASS@HOST:PORT/MOUNT to stream --stream-input to.")
    var streamURL: String?
    @Option(help: "Stream format (opus or mp3).") var streamFormat = "opus"
    @Option(help: "Stream bitrate (kb/s).") var streamBitrate = 64
    @Option(help: "Mono audio file streamed in real time.") var streamInput = ""

    @Flag(
        help:
            "Run the full chain and the bare calls once each and nothing else (no worst-block run, no shares): what scripts/bench.sh --instructions counts under callgrind."
    )
    var ratioOnly = false

    @Option(
        help: ArgumentHelp(
            "Measure the worst block instead: each block's time is its minimum over N runs (the machine's stalls taken out), and the worst of those is printed.",
            valueName: "N"))
    var worstBlockRuns: Int?

    @Option(help: "Measure LV2 hosting instead: plugin URIs (comma-separated), LV2Unit.process vs the bare run().")
    var lv2: String?

    func run() throws {
        if let url = streamURL {
            try StreamBench.run(url: url, format: streamFormat, kbps: streamBitrate, input: streamInput, block: 256)
            return
        }
        if let lv2 {
            let block = blocks.split(separator: ",").compactMap { Int($0) }.first ?? 256
            let uris = lv2.split(separator: ",").map(String.init)
            try LV2Bench.run(uris: uris, seconds: seconds, rate: rate, block: block, repeats: self.repeat)
            return
        }
        if let channels = recorderChannels {
            try RecorderBench.run(
                channels: channels, seconds: seconds, rate: rate, block: 256, folder: NSTemporaryDirectory()
            )
            return
        }
        var configuration = try PresetLibrary.standard(pluginHost: nil).load(preset).configuration
        // A learned suppressor (suppressor = "deepfilter") runs its model on this thread, as
        // offline runs do, so its CPU time is counted and no hop is missed; the worst-block
        // measurement keeps it on its worker (the process thread's own share, as live).
        configuration.learnedRunsInPlace = worstBlockRuns == nil
        let audio = Scenario(rate: rate, seconds: seconds, driftPPM: driftPpm, speakerDrive: speakerDrive)
        if let runs = worstBlockRuns {
            print(
                "voicerack-bench: preset \(preset), \(seconds) s at \(rate) Hz, wall time per block, each block's minimum over \(runs) runs"
            )
            print("block  worst block ms  % of period  at (s)  99.9th percentile")
            for block in blocks.split(separator: ",").compactMap({ Int($0) }) {
                let w = try WorstBlock.measure(self, configuration, audio, block: block, runs: runs)
                let period = Double(block) / Double(rate)
                print(
                    String(
                        format: "%5d  %14.3f  %10.1f%%  %6.3f  %16.1f%%", block, 1000 * w.worst, 100 * w.worst / period,
                        Double(w.index * block) / Double(rate), 100 * w.percentile999 / period))
            }
            return
        }
        print(
            "voicerack-bench: preset \(preset), \(seconds) s at \(rate) Hz, min of \(self.repeat) runs, thread CPU time"
        )
        print(
            "block  frame  full chain s  bare speexdsp s  ratio  full ×RT  mean load  worst load  post-filter share"
                + "  drift share  curve share")
        if driftPpm != 0 { print("loudspeaker clock drift: \(driftPpm) ppm") }
        if speakerDrive != 0 { print("loudspeaker soft clipping: tanh(\(speakerDrive)·x)/\(speakerDrive)") }
        // The same chain without the residual echo post-filter: the difference is its own cost.
        var withoutPostFilter = configuration
        withoutPostFilter.residualSuppression = 0
        withoutPostFilter.coherenceSuppression = 0
        withoutPostFilter.clippingCoherenceSuppression = 0
        withoutPostFilter.leftoverEchoSuppression = 0
        var withoutDrift = configuration
        withoutDrift.driftCompensation = false
        var withoutCurve = configuration
        withoutCurve.speakerCurve = false
        for block in blocks.split(separator: ",").compactMap({ Int($0) }) {
            if ratioOnly {
                try printRatioOnly(configuration, audio, block: block)
                continue
            }
            var full = Measurement()
            var bare = Double.infinity
            var noPostFilter = Double.infinity
            var noDrift = Double.infinity
            var noCurve = Double.infinity
            var following = false
            var curveApplied = false
            for _ in 0..<self.repeat {
                let engine = try VoiceEngine(
                    configuration: configuration, sampleRate: rate, blockSize: block)
                full = min(full, runFullChain(engine, audio, block: block))
                following = engine.health().driftCompensation == .following
                curveApplied = engine.health().speakerDrive > 0
                bare = min(bare, runBareSpeex(engine.bareSpeexSettings, audio))
                let plain = try VoiceEngine(
                    configuration: withoutPostFilter, sampleRate: rate, blockSize: block)
                let t0 = threadCPUTime()
                renderAll(plain, audio, block: block) { _ in }
                noPostFilter = min(noPostFilter, threadCPUTime() - t0)
                let steady = try VoiceEngine(configuration: withoutDrift, sampleRate: rate, blockSize: block)
                let t1 = threadCPUTime()
                renderAll(steady, audio, block: block) { _ in }
                noDrift = min(noDrift, threadCPUTime() - t1)
                let linear = try VoiceEngine(configuration: withoutCurve, sampleRate: rate, blockSize: block)
                let t2 = threadCPUTime()
                renderAll(linear, audio, block: block) { _ in }
                noCurve = min(noCurve, threadCPUTime() - t2)
            }
            let curveShare = configuration.speakerCurve ? max(0, full.total - noCurve) / full.total : 0
            let driftShare = configuration.driftCompensation ? max(0, full.total - noDrift) / full.total : 0
            let share =
                configuration.residualSuppression > 0 || configuration.coherenceSuppression > 0
                    || configuration.leftoverEchoSuppression > 0
                ? max(0, full.total - noPostFilter) / full.total : 0
            let period = Double(block) / Double(rate)
            print(
                String(
                    format: "%5d  %5d  %12.3f  %15.3f  %5.3f  %8.0f  %8.2f%%  %9.2f%%  %16.1f%%  %10.1f%%  %10.1f%%",
                    block,
                    FramePlan(
                        blockSize: block, sampleRate: rate, frameMilliseconds: configuration.frameMilliseconds
                    ).frameSize,
                    full.total, bare, full.total / bare, Double(seconds) / full.total,
                    100 * full.total / Double(audio.blocks(block)) / period, 100 * full.worst / period,
                    100 * share, 100 * driftShare, 100 * curveShare) + (following ? "  (drift followed)" : "")
                    + (curveApplied ? "  (curve applied)" : ""))
        }
    }

    /// One run of the full chain and one of the bare calls: the ratio alone, so that an
    /// instruction count of `render` covers exactly one run.
    func printRatioOnly(_ configuration: EngineConfiguration, _ audio: Scenario, block: Int) throws {
        let engine = try VoiceEngine(configuration: configuration, sampleRate: rate, blockSize: block)
        let t0 = threadCPUTime()
        renderAll(engine, audio, block: block) { _ in }
        let full = threadCPUTime() - t0
        let bare = runBareSpeex(engine.bareSpeexSettings, audio)
        print(String(format: "%5d  %19.3f  %15.3f  %5.3f", block, full, bare, full / bare))
    }

    /// The full render cycle, block by block: the thread CPU time of the whole run (one clock
    /// reading each side: a per-block CPU-clock reading is a system call, which at 64-sample
    /// blocks would itself cost ~1%), and the worst single block, from a second run timed per
    /// block with the (vDSO, no system call) monotonic clock.
    func runFullChain(_ engine: VoiceEngine, _ audio: Scenario, block: Int) -> Measurement {
        let t0 = threadCPUTime()
        renderAll(engine, audio, block: block) { _ in }
        let total = threadCPUTime() - t0
        var worst = 0.0
        renderAll(engine, audio, block: block) { worst = max(worst, $0) }
        return Measurement(total: total, worst: worst)
    }

    /// Renders the whole scenario; with `perBlock` timing each block by wall clock.
    func renderAll(_ engine: VoiceEngine, _ audio: Scenario, block: Int, perBlock: (Double) -> Void) {
        var out = [Float](repeating: 0, count: block)
        audio.mic.withUnsafeBufferPointer { mic in
            audio.far.withUnsafeBufferPointer { far in
                out.withUnsafeMutableBufferPointer { o in
                    var start = 0
                    while start + block <= audio.mic.count {
                        let t0 = DispatchTime.now().uptimeNanoseconds
                        engine.render(
                            mic: mic.baseAddress! + start, farLeft: far.baseAddress! + start, farRight: nil,
                            voice: o.baseAddress!, frames: block)
                        perBlock(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
                        start += block
                    }
                }
            }
        }
    }

    /// speex_echo_cancellation + speex_preprocess_run over the same audio, frame by frame.
    func runBareSpeex(_ settings: SpeexSettings, _ audio: Scenario) -> Double {
        let processor = SpeexVoiceProcessor(settings: settings, sampleRate: rate)
        let f = settings.frameSize
        let mic = audio.mic16
        let far = audio.far16
        var out = [Int16](repeating: 0, count: f)
        var micFrame = [Int16](repeating: 0, count: f)
        var farFrame = [Int16](repeating: 0, count: f)
        let t0 = threadCPUTime()
        var start = 0
        while start + f <= mic.count {
            for i in 0..<f {
                micFrame[i] = mic[start + i]
                farFrame[i] = far[start + i]
            }
            micFrame.withUnsafeMutableBufferPointer { m in
                farFrame.withUnsafeMutableBufferPointer { r in
                    out.withUnsafeMutableBufferPointer { o in
                        processor.cancel(mic: m.baseAddress!, reference: r.baseAddress!, output: o.baseAddress!)
                        processor.preprocess(o.baseAddress!)
                    }
                }
            }
            start += f
        }
        return threadCPUTime() - t0
    }
}

extension VoiceEngine {
    /// The engine's speexdsp settings with speexdsp's preprocessor on whenever the engine runs a
    /// preprocessor: the reference is speexdsp as a user would run it, canceller and preprocessor,
    /// whichever suppressor the engine itself uses.
    var bareSpeexSettings: SpeexSettings {
        var settings = speexSettings
        settings.preprocess = configuration.preprocess
        return settings
    }
}

/// Total and worst-block CPU seconds of one run.
struct Measurement: Comparable {
    var total = Double.infinity
    var worst = Double.infinity
    static func < (a: Measurement, b: Measurement) -> Bool { a.total < b.total }
}

/// The benchmark's audio: an echo scenario with a near-end talker, as Float and as 16-bit.
struct Scenario {
    let mic: [Float]
    let far: [Float]
    let mic16: [Int16]
    let far16: [Int16]

    init(rate: Int, seconds: Int, driftPPM: Double, speakerDrive: Double = 0) {
        let n = rate * seconds
        far = Signals.speechLike(count: n, sampleRate: rate, rms: 0.1, seed: 1)
        let played = Signals.softClipped(far, drive: speakerDrive)
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.06, tail: 0.1, gain: 0.5, seed: 2)
        let near = Signals.delayed(
            Signals.speechLike(count: n, sampleRate: rate, rms: 0.04, seed: 3), by: n / 3)
        var echo = Signals.convolve(played, room)
        if driftPPM != 0 {
            // The echo read at n × (1 + drift), linearly interpolated: its delay drifts.
            let still = echo
            for i in 0..<echo.count {
                let position = Double(i) * (1 + driftPPM * 1e-6)
                let j = Int(position)
                let f = Float(position - Double(j))
                echo[i] = j + 1 < still.count ? still[j] * (1 - f) + still[j + 1] * f : 0
            }
        }
        mic = Signals.mix(echo, near)
        mic16 = mic.map { Int16(max(-32768, min(32767, $0 * 32768))) }
        far16 = far.map { Int16(max(-32768, min(32767, $0 * 32768))) }
    }

    func blocks(_ block: Int) -> Int { mic.count / block }
}

/// CPU time of the calling thread, in seconds.
func threadCPUTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
