/// Percentiles of the last `capacity` values of a stream, exactly, in O(capacity) per value.
///
/// Keeps the values in arrival order (a ring, to know which one leaves) and in sorted order (to
/// read any percentile at once). Each new value removes the oldest from the sorted copy and is
/// inserted in its place by moving the values between them: at most `capacity` moves, which for
/// the noise tracker's 500 values (4 s of 8 ms frames) is less than one FFT.
///
/// - Realtime: `add` and `percentile` are safe; `init` allocates, deinit frees.
struct SlidingPercentiles: ~Copyable {
    let capacity: Int
    private let arrivals: UnsafeMutablePointer<Float>
    private let sorted: UnsafeMutablePointer<Float>
    private var next = 0
    /// Values held: grows to `capacity`, then stays.
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        arrivals = .allocate(capacity: capacity)
        sorted = .allocate(capacity: capacity)
    }

    deinit {
        arrivals.deallocate()
        sorted.deallocate()
    }

    /// Adds `value`, dropping the oldest once `capacity` values are held.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func add(_ value: Float) {
        var hole: Int
        if count == capacity {
            hole = position(of: arrivals[next])
        } else {
            hole = count
            count += 1
        }
        arrivals[next] = value
        next = next + 1 == capacity ? 0 : next + 1
        // Slide the hole to where `value` belongs, moving the values it passes.
        while hole > 0 && sorted[hole - 1] > value {
            sorted[hole] = sorted[hole - 1]
            hole -= 1
        }
        while hole + 1 < count && sorted[hole + 1] < value {
            sorted[hole] = sorted[hole + 1]
            hole += 1
        }
        sorted[hole] = value
    }

    /// The `fraction` (0...1) percentile, interpolated between the two nearest ranks as numpy's
    /// default does; 0 when empty.
    ///
    /// - Realtime: safe.
    @_noLocks
    func percentile(_ fraction: Float) -> Float {
        guard count > 0 else { return 0 }
        let rank = fraction * Float(count - 1)
        let low = min(Int(rank), count - 1)
        let high = min(low + 1, count - 1)
        return sorted[low] + (rank - Float(low)) * (sorted[high] - sorted[low])
    }

    /// Index in `sorted` of one value equal to `value` (binary search).
    @_noLocks
    private func position(of value: Float) -> Int {
        var low = 0
        var high = count - 1
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
