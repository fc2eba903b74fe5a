import Synchronization

/// A lock-free single-producer, single-consumer ring of Float samples, allocated once.
///
/// The backing-track player moves audio through it: a reader thread (file I/O, resampling)
/// writes ahead, the process thread reads one block per cycle. Indices run free and wrap through
/// a power-of-two mask; the fill level is `tail - head`. The producer publishes with a releasing
/// store after writing the samples, the consumer acquires before reading them (and the reverse for
/// the space it frees), so neither side ever sees a half-written sample.
///
/// A copyable bundle of pointers (no class: reference counting on the process thread can lock),
/// so both threads hold a copy; the owner calls `deallocate()` once, after both are done.
///
/// - Realtime: `read`, `write`, `available` and `space` are wait-free; `init` and `deallocate`
///   are not. One thread writes and one (other) thread reads; never more.
public struct SampleRing: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Float>
    private let indices: UnsafeMutablePointer<RingIndices>
    private let mask: Int

    /// A ring holding at least `capacity` samples (rounded up to a power of two), zero-filled.
    public init(capacity: Int) {
        let size = RingIndices.ringSize(holding: capacity)
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
        indices = RingIndices.allocate()
        mask = size - 1
    }

    /// Frees the ring. Call once, when neither side uses it any more. - Realtime: never.
    public func deallocate() {
        storage.deallocate()
        RingIndices.free(indices)
    }

    /// Samples the ring holds when full.
    public var capacity: Int { mask + 1 }

    /// Samples waiting to be read (a lower bound on the consumer's thread). - Realtime: safe.
    @_noLocks
    public func available() -> Int {
        indices.pointee.tail.load(ordering: .acquiring) &- indices.pointee.head.load(ordering: .acquiring)
    }

    /// Samples that can be written (a lower bound on the producer's thread). - Realtime: safe.
    @_noLocks
    public func space() -> Int { capacity - available() }

    /// Appends up to `count` samples; returns how many fitted. Producer only.
    @_noLocks
    public func write(_ source: UnsafePointer<Float>, _ count: Int) -> Int {
        let t = indices.pointee.tail.load(ordering: .relaxed)
        let free = capacity - (t &- indices.pointee.head.load(ordering: .acquiring))
        let n = min(count, free)
        for i in 0..<n { storage[(t &+ i) & mask] = source[i] }
        indices.pointee.tail.store(t &+ n, ordering: .releasing)
        return n
    }

    /// Throws away everything the ring holds now. Consumer only. - Realtime: safe.
    @_noLocks
    public func discardAll() {
        indices.pointee.head.store(indices.pointee.tail.load(ordering: .acquiring), ordering: .releasing)
    }

    /// Removes up to `count` samples into `destination`; returns how many there were. Consumer only.
    @_noLocks
    public func read(into destination: UnsafeMutablePointer<Float>, _ count: Int) -> Int {
        let h = indices.pointee.head.load(ordering: .relaxed)
        let n = min(count, indices.pointee.tail.load(ordering: .acquiring) &- h)
        for i in 0..<n { destination[i] = storage[(h &+ i) & mask] }
        indices.pointee.head.store(h &+ n, ordering: .releasing)
        return n
    }
}
