import Synchronization

/// How the process callback's cycle times spread, for their high percentiles (p99, p99.9): a
/// count per 0.1 % of the period up to twice the period, and one count for all longer cycles.
///
/// A worst cycle alone is one sample, and on a shared machine mostly says what else ran then;
/// a percentile says how the cycles as a whole hold up. The process thread is the only writer,
/// so a count is a plain load and store (no read-modify-write), as `CycleTiming`'s worst values.
///
/// - Realtime: `record` is safe (atomics only); `percentile` is for any other thread. Allocated
///   once with its `CycleTiming` (`init` allocates, deinit frees).
struct CycleHistogram: ~Copyable {
    /// Buckets per percent of the period (each is 0.1 % wide).
    static let bucketsPerPercent = 10
    /// Buckets below twice the period; one more counts every cycle of 200 % and over.
    static let inRange = 200 * bucketsPerPercent
    private let counts: UnsafeMutablePointer<Atomic<Int>>

    /// An empty histogram. - Realtime: never (allocates).
    init() {
        counts = .allocate(capacity: Self.inRange + 1)
        for i in 0...Self.inRange { (counts + i).initialize(to: Atomic<Int>(0)) }
    }

    deinit {
        counts.deinitialize(count: Self.inRange + 1)
        counts.deallocate()
    }

    /// Counts one cycle that took `fraction` of its period, in 1/10,000 of the period (as
    /// `CycleTiming` computes it). - Realtime: safe.
    @inline(__always) @_noLocks
    func record(fraction: Int) {
        let bucket = min(max(0, fraction / (10_000 / (100 * Self.bucketsPerPercent))), Self.inRange)
        counts[bucket].store(counts[bucket].load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    /// The cycle times, percent of the period, that `quantiles` (0.99 for p99) of the cycles
    /// counted did not exceed, in the same order: the upper edge of the bucket where the count
    /// reaches each (so at most 0.1 % of the period high); 0 before any cycle; 200 when it lies
    /// among the cycles of twice the period or more. One read of the counts serves them all
    /// (the session asks for them with every status, many times a second). - Realtime: never
    /// needed; any thread.
    func percentiles(_ quantiles: [Double]) -> [Double] {
        let counts = (0...Self.inRange).map { self.counts[$0].load(ordering: .relaxed) }
        let total = counts.reduce(0, +)
        guard total > 0 else { return quantiles.map { _ in 0 } }
        var cumulative = counts
        for i in 1..<cumulative.count { cumulative[i] += cumulative[i - 1] }
        return quantiles.map { quantile in
            // The rank of the cycle at `quantile`, 1-based: the smallest count covering that share.
            let rank = max(1, Int((quantile * Double(total)).rounded(.up)))
            guard let bucket = cumulative.firstIndex(where: { $0 >= rank }), bucket < Self.inRange else { return 200 }
            return Double(bucket + 1) / Double(Self.bucketsPerPercent)
        }
    }
}
