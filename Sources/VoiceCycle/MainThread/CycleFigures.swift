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
    /// High percentiles of the callbacks' times; nil where the driver does not keep them.
    public var percentiles: Percentiles?

    /// The callback time, percent of its period, that 99 % and 99.9 % of the callbacks did not
    /// exceed, on the wall clock and in the thread's CPU time (each within 0.1 % of the period).
    public struct Percentiles: Sendable, Equatable {
        public var p99: Double
        public var p999: Double
        public var workP99: Double
        public var workP999: Double

        public init(p99: Double, p999: Double, workP99: Double, workP999: Double) {
            self.p99 = p99
            self.p999 = p999
            self.workP99 = workP99
            self.workP999 = workP999
        }
    }

    public init(
        cycles: Int, overruns: Int, workOverruns: Int, worstMilliseconds: Double, worstPercentOfPeriod: Double,
        worstWorkPercentOfPeriod: Double, worstCycle: Int = 0, worstWorkCycle: Int = 0, percentiles: Percentiles? = nil
    ) {
        self.percentiles = percentiles
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
