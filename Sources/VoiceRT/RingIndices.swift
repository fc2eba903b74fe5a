import Synchronization

/// The two free-running indices of a single-producer, single-consumer ring (`IndexRing`,
/// `SampleRing`), each written by one side only. The fill level is `tail - head`.
///
/// - Realtime: the atomics are wait-free.
struct RingIndices: ~Copyable {
    /// Next slot to read; written by the consumer.
    let head = Atomic<Int>(0)
    /// Next slot to write; written by the producer.
    let tail = Atomic<Int>(0)
}
