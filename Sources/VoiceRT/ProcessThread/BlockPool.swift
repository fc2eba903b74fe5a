/// A pool of preallocated slots moved between a producer thread and a consumer thread as slot
/// indices over two `SPSCRing`s: free slots to the producer, filled ones to the consumer. The
/// slots' memory is the owner's (blocks of samples, message bytes); the pool moves their indices,
/// so neither side waits, locks or allocates, and the contents written before `publish` are
/// visible to whoever takes the slot from `next`.
///
/// jack_capture's scheme: the recorder's and the stream's blocks (process thread → writer or
/// sender thread) and the LV2 worker's messages (both ways) all move through one of these.
///
/// - Realtime: the ends' operations are wait-free; `init` allocates and `deallocate` frees, off
///   the process thread. One thread uses `producer`, one (other) thread `consumer`.
public struct BlockPool: @unchecked Sendable {
    /// How many slots there are (indices `0..<count`).
    public let count: Int
    /// The filling side's end.
    public let producer: PoolProducer
    /// The draining side's end.
    public let consumer: PoolConsumer
    private let free: SPSCRing<Int>
    private let filled: SPSCRing<Int>

    /// `count` slots, all free. - Realtime: never (allocates).
    public init(count: Int) {
        self.count = count
        free = SPSCRing(capacity: count, empty: 0)
        filled = SPSCRing(capacity: count, empty: 0)
        for slot in 0..<count { _ = free.producer.push(slot) }
        producer = PoolProducer(free: free.consumer, filled: filled.producer)
        consumer = PoolConsumer(filled: filled.consumer, free: free.producer)
    }

    /// Frees the rings once neither side uses them. - Realtime: never.
    public func deallocate() {
        free.deallocate()
        filled.deallocate()
    }
}

/// The filling side of a `BlockPool`: takes free slots and publishes them filled.
public struct PoolProducer: @unchecked Sendable {
    let free: RingConsumer<Int>
    let filled: RingProducer<Int>

    /// A free slot to fill; nil when the consumer holds them all. - Realtime: safe.
    @_noLocks
    public func take() -> Int? { free.pop() }

    /// Hands a filled slot (one `take` gave) to the consumer. - Realtime: safe.
    @_noLocks
    public func publish(_ slot: Int) { _ = filled.push(slot) }

    /// Free slots waiting (a lower bound). - Realtime: safe.
    @_noLocks
    public func freeSlots() -> Int { free.available() }
}

/// The draining side of a `BlockPool`: takes filled slots and gives them back.
public struct PoolConsumer: @unchecked Sendable {
    let filled: RingConsumer<Int>
    let free: RingProducer<Int>

    /// The oldest filled slot; nil when none waits. - Realtime: safe.
    @_noLocks
    public func next() -> Int? { filled.pop() }

    /// Gives a slot (one `next` gave) back to the producer. - Realtime: safe.
    @_noLocks
    public func release(_ slot: Int) { _ = free.push(slot) }
}
