import Synchronization

/// How long the process callback takes, measured by the process thread every cycle.
///
/// The process thread is the only writer, so the "worst" values are a plain load-compare-store,
/// not a compare-exchange loop. Durations are monotonic-clock nanoseconds from the callback's
/// entry to its return; the period is `frames / sampleRate`.
///
/// - Realtime: `record` is safe (atomics only); any thread may read.
struct CycleTiming: ~Copyable {
    /// Process cycles measured.
    let cycles = Atomic<Int>(0)
    /// Cycles that took longer than their period (the callback alone overran the deadline).
    let overruns = Atomic<Int>(0)
    /// Longest cycle, in nanoseconds.
    let worstNanoseconds = Atomic<Int>(0)
    /// Longest cycle relative to its own period, in 1/10,000 of the period (so 10,000 = 100 %).
    /// Kept apart from `worstNanoseconds` because the period changes with the buffer size.
    let worstPeriodFraction = Atomic<Int>(0)

    /// Counts one cycle of `frames` samples that took `nanoseconds`. - Realtime: safe.
    @inline(__always) @_noLocks
    func record(nanoseconds: Int, frames: Int, sampleRate: Int) {
        guard frames > 0, sampleRate > 0 else { return }
        cycles.add(1, ordering: .relaxed)
        // Over the period when ns / 1e9 > frames / rate, i.e. ns × rate > frames × 1e9.
        if nanoseconds &* sampleRate > frames &* 1_000_000_000 { overruns.add(1, ordering: .relaxed) }
        if nanoseconds > worstNanoseconds.load(ordering: .relaxed) {
            worstNanoseconds.store(nanoseconds, ordering: .relaxed)
        }
        // ns × rate / (frames × 1e9) in 1/10,000: ns × rate / (frames × 100,000).
        let fraction = nanoseconds &* sampleRate / (frames &* 100_000)
        if fraction > worstPeriodFraction.load(ordering: .relaxed) {
            worstPeriodFraction.store(fraction, ordering: .relaxed)
        }
    }

    /// The figures so far. - Realtime: never needed; any thread.
    func figures() -> CycleFigures {
        CycleFigures(
            cycles: cycles.load(ordering: .relaxed), overruns: overruns.load(ordering: .relaxed),
            worstMilliseconds: Double(worstNanoseconds.load(ordering: .relaxed)) / 1e6,
            worstPercentOfPeriod: Double(worstPeriodFraction.load(ordering: .relaxed)) / 100)
    }
}

/// The process callback's timing since activation, for the status line and the exit summary.
public struct CycleFigures: Sendable, Equatable {
    /// Process cycles run.
    public var cycles: Int
    /// Cycles whose callback took longer than the period.
    public var overruns: Int
    /// Longest callback, in milliseconds.
    public var worstMilliseconds: Double
    /// Longest callback as a percentage of its period (100 = the whole period).
    public var worstPercentOfPeriod: Double
}
