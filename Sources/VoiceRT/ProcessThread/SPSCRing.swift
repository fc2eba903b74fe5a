import Synchronization

/// A lock-free single-producer, single-consumer ring of plain values, allocated once, with an
/// owned end for each side (ringbuf's shape): `producer` writes, `consumer` reads, and neither
/// end has the other's operations.
///
/// Indices run free and wrap through a power-of-two mask; the fill level is `tail - head`. The
/// producer publishes with a releasing store after writing the values, the consumer acquires
/// before reading them (and the reverse for the space it frees), so neither side ever sees a
/// half-written value. Full and empty come back as values (`false`, `nil`, a count), never traps.
///
/// Its users: samples of the backing track (`SPSCRing<Float>`, reader thread → process thread:
/// runs of samples), live parameter messages (`ControlRing`, main → process thread) and the slot
/// indices of every `BlockPool` (recordings, streams, the LV2 worker's messages): `SPSCRing<Int>`,
/// one value at a time. The index protocol is `RingBody`'s, written once; the ends' element
/// operations are in extensions for `Float` and `Int`, the two element types, because the
/// compiler's `@_noLocks` check refuses unspecialised generic code (metadata may be allocated).
///
/// The ring and its ends are copyable bundles of pointers (no class: reference counting on the
/// process thread can lock). The owner keeps the ring, hands each end to its thread and calls
/// `deallocate()` once, after both sides are done.
///
/// - Realtime: the ends' operations are wait-free; `init` and `deallocate` are not real-time
///   safe. One thread uses the producer and one (other) thread the consumer; never more.
public struct SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    /// The writing end.
    public let producer: RingProducer<Element>
    /// The reading end.
    public let consumer: RingConsumer<Element>

    /// A ring holding at least `capacity` values (rounded up to a power of two), each slot set to
    /// `empty`. - Realtime: never (allocates).
    public init(capacity: Int, empty: Element) {
        let size = RingIndices.ringSize(holding: capacity)
        let slots = UnsafeMutablePointer<Element>.allocate(capacity: size)
        slots.initialize(repeating: empty, count: size)
        let body = RingBody(slots: UnsafeMutableRawPointer(slots), indices: RingIndices.allocate(), mask: size - 1)
        producer = RingProducer(body: body)
        consumer = RingConsumer(body: body)
    }

    /// Frees the ring. Call once, when neither side uses it any more. - Realtime: never.
    public func deallocate() {
        producer.body.slots.deallocate()
        RingIndices.free(producer.body.indices)
    }

    /// Values the ring holds when full.
    public var capacity: Int { producer.body.mask + 1 }
}

/// The writing end of an `SPSCRing`: one thread only.
public struct RingProducer<Element: BitwiseCopyable>: @unchecked Sendable {
    let body: RingBody
}

/// The reading end of an `SPSCRing`: one thread only.
public struct RingConsumer<Element: BitwiseCopyable>: @unchecked Sendable {
    let body: RingBody
}

/// What both ends of a ring point at, and the index protocol they share: the slots (untyped
/// here; each end reads them as its element type), the two free-running indices and the mask.
///
/// - Realtime: every method is wait-free.
struct RingBody {
    let slots: UnsafeMutableRawPointer
    let indices: UnsafeMutablePointer<RingIndices>
    let mask: Int

    /// The producer's next slot and how many slots are free. Producer only. - Realtime: safe.
    @inline(__always) @_noLocks
    func writable() -> (tail: Int, free: Int) {
        let t = indices.pointee.tail.load(ordering: .relaxed)
        return (t, mask + 1 - (t &- indices.pointee.head.load(ordering: .acquiring)))
    }

    /// Publishes `count` values written from `tail` on. Producer only. - Realtime: safe.
    @inline(__always) @_noLocks
    func publish(tail: Int, count: Int) { indices.pointee.tail.store(tail &+ count, ordering: .releasing) }

    /// The consumer's next slot and how many values wait. Consumer only. - Realtime: safe.
    @inline(__always) @_noLocks
    func readable() -> (head: Int, waiting: Int) {
        let h = indices.pointee.head.load(ordering: .relaxed)
        return (h, indices.pointee.tail.load(ordering: .acquiring) &- h)
    }

    /// Frees `count` slots read from `head` on. Consumer only. - Realtime: safe.
    @inline(__always) @_noLocks
    func release(head: Int, count: Int) { indices.pointee.head.store(head &+ count, ordering: .releasing) }

    /// Values waiting: a snapshot, a lower bound on the consumer's thread and an upper bound on
    /// the producer's. - Realtime: safe.
    @inline(__always) @_noLocks
    func available() -> Int {
        indices.pointee.tail.load(ordering: .acquiring) &- indices.pointee.head.load(ordering: .acquiring)
    }
}

extension RingProducer where Element == Float {
    /// Appends up to `count` samples from `source`; returns how many fitted. - Realtime: safe.
    @_noLocks
    public func write(_ source: UnsafePointer<Float>, _ count: Int) -> Int {
        let (t, free) = body.writable()
        let n = min(count, free)
        let slots = body.slots.assumingMemoryBound(to: Float.self)
        for i in 0..<n { slots[(t &+ i) & body.mask] = source[i] }
        body.publish(tail: t, count: n)
        return n
    }

    /// Samples that can be written (a lower bound). - Realtime: safe.
    @_noLocks
    public func space() -> Int { body.mask + 1 - body.available() }
}

extension RingConsumer where Element == Float {
    /// Removes up to `count` samples into `destination`; returns how many there were.
    /// - Realtime: safe.
    @_noLocks
    public func read(into destination: UnsafeMutablePointer<Float>, _ count: Int) -> Int {
        let (h, waiting) = body.readable()
        let n = min(count, waiting)
        let slots = body.slots.assumingMemoryBound(to: Float.self)
        for i in 0..<n { destination[i] = slots[(h &+ i) & body.mask] }
        body.release(head: h, count: n)
        return n
    }

    /// Throws away everything the ring holds now. - Realtime: safe.
    @_noLocks
    public func discardAll() {
        let (h, waiting) = body.readable()
        body.release(head: h, count: waiting)
    }

    /// Samples waiting (a lower bound). - Realtime: safe.
    @_noLocks
    public func available() -> Int { body.available() }
}

extension RingProducer where Element == Int {
    /// Appends `value`; false when the ring is full. - Realtime: safe.
    @_noLocks
    public func push(_ value: Int) -> Bool {
        let (t, free) = body.writable()
        guard free > 0 else { return false }
        body.slots.assumingMemoryBound(to: Int.self)[t & body.mask] = value
        body.publish(tail: t, count: 1)
        return true
    }

    /// Values that can be written (a lower bound). - Realtime: safe.
    @_noLocks
    public func space() -> Int { body.mask + 1 - body.available() }
}

extension RingConsumer where Element == Int {
    /// Removes the oldest value; nil when empty. - Realtime: safe.
    @_noLocks
    public func pop() -> Int? {
        let (h, waiting) = body.readable()
        guard waiting > 0 else { return nil }
        let value = body.slots.assumingMemoryBound(to: Int.self)[h & body.mask]
        body.release(head: h, count: 1)
        return value
    }

    /// Values waiting (a lower bound). - Realtime: safe.
    @_noLocks
    public func available() -> Int { body.available() }
}
