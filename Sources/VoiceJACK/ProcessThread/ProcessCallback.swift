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
    /// Runs one cycle and times it (wall clock and the thread's own CPU time), or, while the
    /// server freewheels, runs it untimed (`runFreewheeling`). - Realtime: safe.
    @_noLocks
    func run(_ frames: jack_nframes_t) {
        // Acquire: pairs with the freewheel callback's release.
        if freewheeling.load(ordering: .acquiring) {
            runFreewheeling(frames)
            return
        }
        let start = monotonicNanoseconds()
        let cpuStart = threadCPUNanoseconds()
        if let cycle, var io = buffers(frames) {
            io.framesMissed = missedSinceLastCycle(frames, startedAt: start)
            io.transport = transportPosition(client)
            cycle.pointee.render(io)
        }
        let cpu = threadCPUNanoseconds() &- cpuStart
        timing.record(
            nanoseconds: monotonicNanoseconds() &- start, cpuNanoseconds: cpu, frames: Int(frames),
            sampleRate: sampleRate)
    }

    /// A freewheel cycle: no deadline, so the cycle may wait for its consumers
    /// (`CycleIO.freewheeling`), and the statistics pause: it is neither timed nor checked for
    /// missed frames (the frame time runs far ahead of the wall clock), and the next real-time
    /// cycle starts the missed-frame check afresh. - Realtime: safe itself; the cycle it renders
    /// takes the freewheel wait path.
    @inline(__always) @_noLocks
    func runFreewheeling(_ frames: jack_nframes_t) {
        expectedFrame.store(.max, ordering: .relaxed)
        freewheelCycles.add(1, ordering: .relaxed)
        guard let cycle, var io = buffers(frames) else { return }
        io.freewheeling = true
        io.transport = transportPosition(client)
        cycle.pointee.render(io)
    }

    /// Frames of the server's timeline since the last cycle that this client never rendered:
    /// the process was stopped (SIGSTOP, a debugger) or kept from running past whole periods, or
    /// the server skipped the client (PipeWire's JACK runs no process callback in the first cycle
    /// at a new quantum, nor while the client's buffer-size callback runs: those are counted
    /// apart, as missed at a size change). The first cycle, and a timeline that went backwards,
    /// count nothing.
    ///
    /// The frame time is checked against the wall clock (`start`, ns): PipeWire's JACK reports
    /// the position of whichever node drives the graph, and each driver counts its own frames,
    /// so when linking a device moves voicerack to another driver the frame time jumps by
    /// seconds (or back) while no time passed. A jump the wall clock does not confirm is a
    /// change of timeline, not missed cycles (see `framesNotRun`). - Realtime: safe.
    @inline(__always) @_noLocks
    func missedSinceLastCycle(_ frames: jack_nframes_t, startedAt start: Int) -> Int {
        let now = cycleStartFrame(client)
        let expected = expectedFrame.exchange(now &+ frames, ordering: .relaxed)
        let previousFrames = lastCycleFrames.exchange(Int(frames), ordering: .relaxed)
        let period = Int(frames) &* 1_000_000_000 / sampleRate
        let expectedStart = expectedStartNanoseconds.exchange(start &+ period, ordering: .relaxed)
        guard expected != .max else { return 0 }
        // Wrapping distance on JACK's 32-bit frame counter.
        let ahead = Int(Int32(bitPattern: now &- expected))
        // How late this cycle started by the wall clock, in frames (ns × Hz / 10⁹).
        let late = (start &- expectedStart) &* sampleRate / 1_000_000_000
        let missed = Self.framesNotRun(
            frameTimeAhead: ahead, wallClockLate: late, frames: Int(frames), sampleRate: sampleRate)
        if missed > 0 {
            framesMissed.add(missed, ordering: .relaxed)
            if previousFrames != 0 && previousFrames != Int(frames) {
                framesMissedAtSizeChange.add(missed, ordering: .relaxed)
                sizeChangesWithFramesMissed.add(1, ordering: .relaxed)
            }
        }
        return missed
    }

    /// The frames to count as not run, from the frame time's jump past the expected cycle start
    /// (`frameTimeAhead`) and how late the cycle started by the wall clock (`wallClockLate`),
    /// both in frames.
    ///
    /// The frame time is exact, so it counts whenever the wall clock agrees with it within one
    /// period plus 10 ms (wake-up jitter). A larger jump is the server's timeline moving (a
    /// driver change under PipeWire); then only the time the wall clock saw pass counts, and
    /// none within the jitter. - Realtime: safe (integer arithmetic).
    @inline(__always) @_noLocks
    static func framesNotRun(frameTimeAhead ahead: Int, wallClockLate late: Int, frames: Int, sampleRate: Int) -> Int {
        guard ahead > 0 else { return 0 }
        let jitter = frames + sampleRate / 100
        if ahead <= late + jitter { return ahead }
        return late > jitter ? late : 0
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
