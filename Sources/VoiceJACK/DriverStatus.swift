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
    /// True while the server freewheels; how often it started to, and the cycles run so (not
    /// counted in `cycle`, and their xruns not in `xruns`).
    public var freewheeling = false
    public var freewheelStarts = 0
    public var freewheelCycles = 0
}
