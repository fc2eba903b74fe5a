import Synchronization

/// The two free-running indices of a single-producer, single-consumer ring (`SPSCRing`), each
/// written by one side only. The fill level is `tail - head`.
///
/// - Realtime: the atomics are wait-free.
struct RingIndices: ~Copyable {
    /// Next slot to read; written by the consumer.
    let head = Atomic<Int>(0)
    /// Next slot to write; written by the producer.
    let tail = Atomic<Int>(0)

    /// Ring sizes are powers of two, so free-running indices wrap through a mask: the smallest
    /// one holding `capacity` (at least 1).
    static func ringSize(holding capacity: Int) -> Int {
        var size = 1
        while size < max(1, capacity) { size <<= 1 }
        return size
    }

    /// A fresh pair at 0, for a ring's lifetime. - Realtime: never (allocates).
    static func allocate() -> UnsafeMutablePointer<RingIndices> {
        let pair = UnsafeMutablePointer<RingIndices>.allocate(capacity: 1)
        pair.initialize(to: RingIndices())
        return pair
    }

    /// Frees a pair made by `allocate`. - Realtime: never.
    static func free(_ pair: UnsafeMutablePointer<RingIndices>) {
        pair.deinitialize(count: 1)
        pair.deallocate()
    }
}
