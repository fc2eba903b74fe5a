import VoiceCycle

/// What the JACK side reports, for the status line and the exit summary.
public struct DriverStatus: Sendable {
    /// xruns reported by JACK since activation.
    public var xruns: Int
    /// JACK's DSP load estimate, percent of the period.
    public var cpuLoad: Float
    /// How long the process callback takes.
    public var cycle: CycleFigures
    /// Frames of the server's timeline this client did not run for (padded in recordings).
    public var framesMissed: Int
    /// Of `framesMissed`, those the server skipped just before the first cycle at a new buffer
    /// size (PipeWire's JACK skips at least one cycle at each new quantum), and at how many sizes.
    public var framesMissedAtSizeChange = 0
    public var sizeChangesWithFramesMissed = 0
    /// True while the server freewheels; how often it started to, and the cycles run so (not
    /// counted in `cycle`, and their xruns not in `xruns`).
    public var freewheeling = false
    public var freewheelStarts = 0
    public var freewheelCycles = 0
}
