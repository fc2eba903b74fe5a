import Synchronization
import VoiceCycle

/// How long the process callback takes, measured by the process thread every cycle.
///
/// The process thread is the only writer, so the "worst" values are a plain load-compare-store,
/// not a compare-exchange loop. Each cycle is measured twice: wall time (monotonic-clock
/// nanoseconds from the callback's entry to its return) and the thread's CPU time over the same
/// span. A cycle over its period on the wall clock but not in CPU time did not run out of work
/// to do: the thread was held up (preempted by a higher-priority thread, interrupted, or on a
/// virtual machine, its virtual CPU not scheduled). The period is `frames / sampleRate`.
///
/// - Realtime: `record` is safe (atomics only); any thread may read.
struct CycleTiming: ~Copyable {
    /// Process cycles measured.
    let cycles = Atomic<Int>(0)
    /// Cycles that took longer than their period on the wall clock.
    let overruns = Atomic<Int>(0)
    /// Cycles whose own work (thread CPU time) took longer than their period.
    let workOverruns = Atomic<Int>(0)
    /// Longest cycle, in nanoseconds.
    let worstNanoseconds = Atomic<Int>(0)
    /// Longest cycle relative to its own period, in 1/10,000 of the period (so 10,000 = 100 %).
    /// Kept apart from `worstNanoseconds` because the period changes with the buffer size.
    let worstPeriodFraction = Atomic<Int>(0)
    /// Most CPU time one cycle used, relative to its period, in 1/10,000 of the period.
    let worstWorkFraction = Atomic<Int>(0)
    /// Which cycles (1 = the first) were the longest and the one with the most work: a worst
    /// cycle among the first few is a warm-up cost (code and data paged in), a later one is not.
    let worstCycle = Atomic<Int>(0)
    let worstWorkCycle = Atomic<Int>(0)
    /// Every cycle's wall time and CPU time relative to its period, for percentiles.
    let wallSpread = CycleHistogram()
    let workSpread = CycleHistogram()

    /// Counts one cycle of `frames` samples that took `nanoseconds` of wall time and `cpuNanoseconds`
    /// of the thread's CPU time. - Realtime: safe.
    @inline(__always) @_noLocks
    func record(nanoseconds: Int, cpuNanoseconds: Int, frames: Int, sampleRate: Int) {
        guard frames > 0, sampleRate > 0 else { return }
        let cycle = cycles.add(1, ordering: .relaxed).newValue
        if exceedsPeriod(nanoseconds, frames, sampleRate) { overruns.add(1, ordering: .relaxed) }
        if exceedsPeriod(cpuNanoseconds, frames, sampleRate) { workOverruns.add(1, ordering: .relaxed) }
        if nanoseconds > worstNanoseconds.load(ordering: .relaxed) {
            worstNanoseconds.store(nanoseconds, ordering: .relaxed)
        }
        let wall = periodFraction(nanoseconds, frames, sampleRate)
        let work = periodFraction(cpuNanoseconds, frames, sampleRate)
        wallSpread.record(fraction: wall)
        workSpread.record(fraction: work)
        if keepLarger(worstPeriodFraction, to: wall) { worstCycle.store(cycle, ordering: .relaxed) }
        if keepLarger(worstWorkFraction, to: work) { worstWorkCycle.store(cycle, ordering: .relaxed) }
    }

    /// True when `ns` / 1e9 > frames / rate, i.e. ns × rate > frames × 1e9. - Realtime: safe.
    @inline(__always) @_noLocks
    private func exceedsPeriod(_ ns: Int, _ frames: Int, _ rate: Int) -> Bool {
        ns &* rate > frames &* 1_000_000_000
    }

    /// ns × rate / (frames × 1e9) in 1/10,000: ns × rate / (frames × 100,000). - Realtime: safe.
    @inline(__always) @_noLocks
    private func periodFraction(_ ns: Int, _ frames: Int, _ rate: Int) -> Int {
        ns &* rate / (frames &* 100_000)
    }

    /// Stores `value` in `worst` if larger (single writer); true when it did. - Realtime: safe.
    @inline(__always) @_noLocks
    private func keepLarger(_ worst: borrowing Atomic<Int>, to value: Int) -> Bool {
        guard value > worst.load(ordering: .relaxed) else { return false }
        worst.store(value, ordering: .relaxed)
        return true
    }

    /// The figures so far. - Realtime: never needed; any thread.
    func figures() -> CycleFigures {
        let wall = wallSpread.percentiles([0.99, 0.999]), work = workSpread.percentiles([0.99, 0.999])
        return CycleFigures(
            cycles: cycles.load(ordering: .relaxed), overruns: overruns.load(ordering: .relaxed),
            workOverruns: workOverruns.load(ordering: .relaxed),
            worstMilliseconds: Double(worstNanoseconds.load(ordering: .relaxed)) / 1e6,
            worstPercentOfPeriod: Double(worstPeriodFraction.load(ordering: .relaxed)) / 100,
            worstWorkPercentOfPeriod: Double(worstWorkFraction.load(ordering: .relaxed)) / 100,
            worstCycle: worstCycle.load(ordering: .relaxed), worstWorkCycle: worstWorkCycle.load(ordering: .relaxed),
            percentiles: CycleFigures.Percentiles(p99: wall[0], p999: wall[1], workP99: work[0], workP999: work[1]))
    }
}
