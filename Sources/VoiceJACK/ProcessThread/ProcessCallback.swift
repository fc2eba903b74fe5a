import CJack
import VoiceCycle

/// JACK's process callback: one cycle of `frames` samples.
///
/// `arg` points at the driver's `DriverContext`. The callback fetches the eight port buffers,
/// renders the session's cycle (`CycleState.render`: everything else is decided there) and
/// times it.
///
/// - Realtime: safe; this is the process thread's entry point.
@_noLocks
func processCycle(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    arg.assumingMemoryBound(to: DriverContext.self).pointee.run(frames)
    return 0
}

extension DriverContext {
    /// Runs one cycle and times it (wall clock and the thread's own CPU time). - Realtime: safe.
    @_noLocks
    func run(_ frames: jack_nframes_t) {
        let start = monotonicNanoseconds()
        let cpuStart = threadCPUNanoseconds()
        if let cycle, var io = buffers(frames) {
            io.framesMissed = missedSinceLastCycle(frames)
            cycle.pointee.render(io)
        }
        let cpu = threadCPUNanoseconds() &- cpuStart
        timing.record(
            nanoseconds: monotonicNanoseconds() &- start, cpuNanoseconds: cpu, frames: Int(frames),
            sampleRate: sampleRate)
    }

    /// Frames of the server's timeline since the last cycle that this client never rendered:
    /// the process was stopped (SIGSTOP, a debugger) or kept from running past whole periods.
    /// The first cycle, and a timeline that went backwards, count nothing. - Realtime: safe.
    @inline(__always) @_noLocks
    func missedSinceLastCycle(_ frames: jack_nframes_t) -> Int {
        let now = cycleStartFrame(client)
        let expected = expectedFrame.exchange(now &+ frames, ordering: .relaxed)
        guard expected != .max else { return 0 }
        // Wrapping distance on JACK's 32-bit frame counter.
        let ahead = Int(Int32(bitPattern: now &- expected))
        guard ahead > 0 else { return 0 }
        framesMissed.add(ahead, ordering: .relaxed)
        return ahead
    }

    /// This cycle's port buffers; nil if JACK has none for a port (never for an active client).
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func buffers(_ frames: jack_nframes_t) -> CycleIO? {
        guard let mic = audioBuffer(ports.mic, frames),
            let farLeft = audioBuffer(ports.farLeft, frames),
            let farRight = audioBuffer(ports.farRight, frames),
            let voice = audioBuffer(ports.voice, frames),
            let speakerLeft = audioBuffer(ports.speakerLeft, frames),
            let speakerRight = audioBuffer(ports.speakerRight, frames),
            let monitorLeft = audioBuffer(ports.monitorLeft, frames),
            let monitorRight = audioBuffer(ports.monitorRight, frames)
        else { return nil }
        return CycleIO(
            mic: mic, farLeft: farLeft, farRight: farRight, voice: voice, speakerLeft: speakerLeft,
            speakerRight: speakerRight, monitorLeft: monitorLeft, monitorRight: monitorRight, frames: Int(frames))
    }
}
