import CJack
import VoiceEngine

/// JACK's process callback: one cycle of `frames` samples.
///
/// `arg` points at the client's `ProcessContext`. Far L/R go to speaker L/R (ducked while the
/// near end talks, when the preset asks; what the speakers play is exactly the echo reference the
/// engine gets), the engine renders the mic into `voice_out`, the monitor mix (ear return) goes
/// to `monitor_out_L/R`, and the recorder taps get the cycle's buffers. The whole cycle is timed (`ProcessContext.timing`).
///
/// - Realtime: safe; this is the process thread's entry point.
@_noLocks
func processCycle(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    arg.assumingMemoryBound(to: ProcessContext.self).pointee.run(frames)
    return 0
}

extension ProcessContext {
    /// Runs one cycle; see `processCycle`. - Realtime: safe.
    @_noLocks
    func run(_ frames: jack_nframes_t) {
        let start = monotonicNanoseconds()
        let cpuStart = threadCPUNanoseconds()
        cycle(frames)
        let cpu = threadCPUNanoseconds() &- cpuStart
        timing.record(
            nanoseconds: monotonicNanoseconds() &- start, cpuNanoseconds: cpu, frames: Int(frames),
            sampleRate: sampleRate)
    }

    /// The cycle's work, without the timing. - Realtime: safe.
    @inline(__always) @_noLocks
    func cycle(_ frames: jack_nframes_t) {
        let n = Int(frames)
        guard let mic = audioBuffer(ports.mic, frames),
            let farLeft = audioBuffer(ports.farLeft, frames),
            let farRight = audioBuffer(ports.farRight, frames),
            let voice = audioBuffer(ports.voice, frames),
            let speakerLeft = audioBuffer(ports.speakerLeft, frames),
            let speakerRight = audioBuffer(ports.speakerRight, frames),
            let monitorLeft = audioBuffer(ports.monitorLeft, frames),
            let monitorRight = audioBuffer(ports.monitorRight, frames)
        else { return }
        render(
            mic: mic, farLeft: farLeft, farRight: farRight, voice: voice, speakerLeft: speakerLeft,
            speakerRight: speakerRight, monitorLeft: monitorLeft, monitorRight: monitorRight, n)
        routeTaps(
            mic: mic, speakerLeft: speakerLeft, speakerRight: speakerRight, voice: voice,
            monitorLeft: monitorLeft, monitorRight: monitorRight, n)
    }

    /// Feeds the recordings while holding the route set's token (see `TapRoutes`).
    @inline(__always) @_noLocks
    func routeTaps(
        mic: UnsafeMutablePointer<Float>, speakerLeft: UnsafeMutablePointer<Float>,
        speakerRight: UnsafeMutablePointer<Float>, voice: UnsafeMutablePointer<Float>,
        monitorLeft: UnsafeMutablePointer<Float>, monitorRight: UnsafeMutablePointer<Float>, _ n: Int
    ) {
        // Acquire pairs with the main thread's release when it installed the set.
        guard let token = routeSlot.exchange(nil, ordering: .acquiring) else { return }
        let routes = token.assumingMemoryBound(to: TapRoutes.self)
        routes.pointee.record(
            mic: mic, speakerLeft: speakerLeft, speakerRight: speakerRight, voice: voice,
            monitorLeft: monitorLeft, monitorRight: monitorRight,
            backingLeft: backing.map { UnsafePointer($0.pointee.left) },
            backingRight: backing.map { UnsafePointer($0.pointee.right) }, frames: n,
            latency: voiceLatency.load(ordering: .relaxed))
        // Release: the main thread may free the set (and finish its recordings) once it holds
        // the token again, so this cycle's writes must happen before.
        routeSlot.store(token, ordering: .releasing)
    }

    /// Renders through the engine while holding its token: the (ducked) far end to the speakers,
    /// which is also the engine's echo reference, the voice, and the monitor mix. Without a token
    /// (a swap is in progress) or with a block larger than the engine was built for, the far end
    /// passes to the speakers and voice and monitor are silent.
    @inline(__always) @_noLocks
    func render(
        mic: UnsafeMutablePointer<Float>, farLeft: UnsafeMutablePointer<Float>,
        farRight: UnsafeMutablePointer<Float>, voice: UnsafeMutablePointer<Float>,
        speakerLeft: UnsafeMutablePointer<Float>, speakerRight: UnsafeMutablePointer<Float>,
        monitorLeft: UnsafeMutablePointer<Float>, monitorRight: UnsafeMutablePointer<Float>, _ n: Int
    ) {
        guard let state = takeEngine(n) else {
            copy(farLeft, to: speakerLeft, n)
            copy(farRight, to: speakerRight, n)
            silence(voice, n)
            silence(monitorLeft, n)
            silence(monitorRight, n)
            return
        }
        state.pointee.feedSpeakers(
            farLeft: farLeft, farRight: farRight, speakerLeft: speakerLeft, speakerRight: speakerRight, frames: n)
        // The backing joins the speakers after ducking, so it is in the reference and the monitor.
        backing?.pointee.play(into: speakerLeft, speakerRight, frames: n)
        state.pointee.render(mic: mic, farLeft: speakerLeft, farRight: speakerRight, voice: voice, frames: n)
        state.pointee.mixMonitor(
            voice: voice, speakerLeft: speakerLeft, speakerRight: speakerRight, monitorLeft: monitorLeft,
            monitorRight: monitorRight, frames: n)
        // Release: the control side may free the engine once it holds the token again, so this
        // cycle's writes to it must happen before.
        engineSlot.store(UnsafeMutableRawPointer(state), ordering: .releasing)
    }

    /// Takes the engine's token for this cycle; nil (and counted) when a swap holds it or the
    /// block is larger than the engine was built for (the token is then put back at once).
    @inline(__always) @_noLocks
    func takeEngine(_ n: Int) -> UnsafeMutablePointer<EngineState>? {
        // Acquire pairs with the control side's release when it installed this engine, so the
        // engine's memory is fully visible here.
        guard let token = engineSlot.exchange(nil, ordering: .acquiring) else {
            silentCycles.add(1, ordering: .relaxed)
            return nil
        }
        let state = token.assumingMemoryBound(to: EngineState.self)
        guard n <= state.pointee.plan.blockSize else {
            oversizedCycles.add(1, ordering: .relaxed)
            engineSlot.store(token, ordering: .releasing)
            return nil
        }
        return state
    }
}

/// Copies `n` samples. A plain loop: no call the real-time checker cannot see into.
@inline(__always) @_noLocks
private func copy(_ from: UnsafeMutablePointer<Float>, to: UnsafeMutablePointer<Float>, _ n: Int) {
    for i in 0..<n { to[i] = from[i] }
}

/// Writes `n` samples of silence.
@inline(__always) @_noLocks
private func silence(_ buffer: UnsafeMutablePointer<Float>, _ n: Int) {
    for i in 0..<n { buffer[i] = 0 }
}
