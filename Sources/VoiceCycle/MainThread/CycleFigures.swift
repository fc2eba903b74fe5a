/// A live driver's process callback timing since activation, for the status line and the exit
/// summary.
///
/// - Realtime: never; any thread (a plain value).
public struct CycleFigures: Sendable, Equatable {
    /// Process cycles run.
    public var cycles: Int
    /// Cycles whose callback took longer than the period (wall clock).
    public var overruns: Int
    /// Cycles whose callback's own work (thread CPU time) took longer than the period; the rest of
    /// `overruns` were the thread being held up by something else.
    public var workOverruns: Int
    /// Longest callback, in milliseconds.
    public var worstMilliseconds: Double
    /// Longest callback as a percentage of its period (100 = the whole period).
    public var worstPercentOfPeriod: Double
    /// Most CPU time one callback used, as a percentage of its period.
    public var worstWorkPercentOfPeriod: Double
    /// The longest callback's number (1 = the first after activation; 0 before any).
    public var worstCycle: Int = 0
    /// The number of the callback with the most CPU time (0 before any).
    public var worstWorkCycle: Int = 0

    public init(
        cycles: Int, overruns: Int, workOverruns: Int, worstMilliseconds: Double, worstPercentOfPeriod: Double,
        worstWorkPercentOfPeriod: Double, worstCycle: Int = 0, worstWorkCycle: Int = 0
    ) {
        self.cycles = cycles
        self.overruns = overruns
        self.workOverruns = workOverruns
        self.worstMilliseconds = worstMilliseconds
        self.worstPercentOfPeriod = worstPercentOfPeriod
        self.worstWorkPercentOfPeriod = worstWorkPercentOfPeriod
        self.worstCycle = worstCycle
        self.worstWorkCycle = worstWorkCycle
    }
}
