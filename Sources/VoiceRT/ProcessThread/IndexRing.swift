import Synchronization

/// A lock-free single-producer, single-consumer queue of small integers (block indices).
///
/// The recorder moves preallocated blocks between the process thread and its writer thread as
/// indices on two of these rings (filled blocks one way, free blocks back). Indices run free;
/// the fill level is `tail - head`. The producer publishes with a releasing store after writing
/// the slot, the consumer acquires before reading it, so a block's contents written before
/// `push` are visible to whoever pops its index.
///
/// A copyable bundle of pointers (no class: reference counting on the process thread can lock),
/// so both threads hold a copy; the owner calls `deallocate()` once, after both are done.
///
/// - Realtime: `push` and `pop` are wait-free and safe on the process thread; `init` allocates.
///   One thread may push and one (other) thread may pop; never more.
public struct IndexRing: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Int>
    private let indices: UnsafeMutablePointer<RingIndices>
    private let mask: Int

    /// A ring holding at least `capacity` indices.
    public init(capacity: Int) {
        let size = RingIndices.ringSize(holding: capacity)
        slots = .allocate(capacity: size)
        slots.initialize(repeating: 0, count: size)
        indices = RingIndices.allocate()
        mask = size - 1
    }

    /// Frees the ring. Call once, when neither side uses it any more. - Realtime: never.
    public func deallocate() {
        slots.deallocate()
        RingIndices.free(indices)
    }

    /// Appends `value`; false when the ring is full. Producer only.
    @_noLocks
    public func push(_ value: Int) -> Bool {
        let t = indices.pointee.tail.load(ordering: .relaxed)
        guard t &- indices.pointee.head.load(ordering: .acquiring) <= mask else { return false }
        slots[t & mask] = value
        indices.pointee.tail.store(t &+ 1, ordering: .releasing)
        return true
    }

    /// Removes the oldest value; nil when empty. Consumer only.
    @_noLocks
    public func pop() -> Int? {
        let h = indices.pointee.head.load(ordering: .relaxed)
        guard h != indices.pointee.tail.load(ordering: .acquiring) else { return nil }
        let value = slots[h & mask]
        indices.pointee.head.store(h &+ 1, ordering: .releasing)
        return value
    }

    /// Values waiting (a snapshot: a lower bound on the consumer's thread, an upper bound on
    /// the producer's). - Realtime: safe.
    @_noLocks
    public func available() -> Int {
        indices.pointee.tail.load(ordering: .acquiring) &- indices.pointee.head.load(ordering: .acquiring)
    }
}
