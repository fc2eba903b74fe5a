/// The minimum of the last `window` values pushed, in O(1) amortised per value.
///
/// A monotonic queue (ascending minima): each push drops the queued values that are not smaller
/// than the new one (they can never be the minimum again) and the front ones that left the window.
/// The limiter uses it to hold the smallest required gain across its look-ahead.
///
/// Memory is allocated by `allocate` and released by `deallocate` (see `UnitMemory`).
/// - Realtime: `push` is safe (a block of n pushes does at most 2n queue operations).
struct SlidingMinimum {
    private var values: UnsafeMutablePointer<Float>?
    private var stamps: UnsafeMutablePointer<Int>?
    private var mask = 0
    private var head = 0
    private var count = 0
    private var time = 0
    /// Number of values the minimum covers, including the newest.
    private(set) var window = 1

    /// Makes room for a window of `window` values (frees any earlier allocation). - Realtime: never.
    mutating func allocate(window: Int) {
        deallocate()
        self.window = max(1, window)
        let size = UnitMemory.powerOfTwo(atLeast: self.window + 1)
        values = UnitMemory.zeroed(Float.self, size, 0)
        stamps = UnitMemory.zeroed(Int.self, size, 0)
        mask = size - 1
        reset()
    }

    /// Frees the memory. - Realtime: never.
    mutating func deallocate() {
        values?.deallocate()
        stamps?.deallocate()
        values = nil
        stamps = nil
    }

    /// Empties the window.
    mutating func reset() {
        head = 0
        count = 0
        time = 0
    }

    /// Adds `v` and returns the minimum of the last `window` values (`v` itself if unallocated).
    @inline(__always) @_noLocks
    mutating func push(_ v: Float) -> Float {
        guard let values, let stamps else { return v }
        time &+= 1
        while count > 0, values[(head &+ count &- 1) & mask] >= v { count -= 1 }
        let slot = (head &+ count) & mask
        values[slot] = v
        stamps[slot] = time
        count += 1
        while stamps[head] <= time &- window {
            head = (head &+ 1) & mask
            count -= 1
        }
        return values[head]
    }
}
