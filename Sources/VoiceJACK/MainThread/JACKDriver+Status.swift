import CJack
import VoiceCycle

extension JACKDriver {
    /// True once the server shut down or threw the client out (see `shutdownReason`).
    /// - Realtime: never needed; any thread.
    public var serverHasShutDown: Bool { context.pointee.serverShutDown.load(ordering: .acquiring) }

    /// The reason JACK gave for the shutdown, if any.
    public var shutdownReason: String? {
        guard serverHasShutDown else { return nil }
        let reason = String(cString: context.pointee.shutdownReason)
        return reason.isEmpty ? nil : reason
    }

    /// A new sample rate JACK switched to after the client opened, or nil while it matches.
    /// voicerack refuses to go on then: the engine, its delay estimate and open recordings are all
    /// at the old rate.
    public var changedSampleRate: Int? {
        let announced = context.pointee.announcedSampleRate.load(ordering: .relaxed)
        return announced > 0 && announced != sampleRate ? announced : nil
    }

    /// The server's frame counter at the start of its current cycle (`jack_last_frame_time`).
    ///
    /// This is the audio's own clock: a server that stalls holds it while wall time runs on, and
    /// a dummy driver catching up runs it faster. Wraps at 2³².
    /// - Realtime: never needed; any thread (it reads the server's shared timer).
    public var serverFrameTime: UInt32 { jack_last_frame_time(jackClient) }

    /// Asks JACK to recompute latencies if the cycle's latency changed since the last call.
    /// Main thread only (not from a notification callback, where calling the server can deadlock).
    public func updateLatenciesIfNeeded() {
        guard let cycle = context.pointee.cycle,
            cycle.pointee.latencyChanged.exchange(false, ordering: .acquiring)
        else { return }
        jack_recompute_total_latencies(jackClient)
    }

    /// The figures now. Valid after `close()` too, except the DSP load (0 then).
    /// - Realtime: never; main thread.
    public func status() -> DriverStatus {
        let c = context
        var status = DriverStatus(
            xruns: c.pointee.xruns.load(ordering: .relaxed), cpuLoad: closedOrShutDown ? 0 : jack_cpu_load(jackClient),
            cycle: c.pointee.timing.figures(), framesMissed: c.pointee.framesMissed.load(ordering: .relaxed),
            freewheeling: c.pointee.freewheeling.load(ordering: .relaxed),
            freewheelStarts: c.pointee.freewheelStarts.load(ordering: .relaxed),
            freewheelCycles: c.pointee.freewheelCycles.load(ordering: .relaxed))
        status.framesMissedAtSizeChange = c.pointee.framesMissedAtSizeChange.load(ordering: .relaxed)
        status.sizeChangesWithFramesMissed = c.pointee.sizeChangesWithFramesMissed.load(ordering: .relaxed)
        return status
    }

    private var closedOrShutDown: Bool { serverHasShutDown || !isOpen }
}
