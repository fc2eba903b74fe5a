/// A first-in first-out queue of mono samples with a fixed capacity, allocated once.
///
/// The engine uses it to re-frame audio between the host's block size and the echo canceller's
/// frame size. It is not a thread-safe ring: one thread (the process thread) both pushes and pops.
/// Indices run free and wrap through a power-of-two mask, so the fill level is `write - read`.
///
/// - Realtime: `push`, `pop`, `peek`, `discard`, `count` and `space` are safe; `init` allocates and
///   deinit frees, so create and drop it off the process thread.
public struct SampleFIFO: ~Copyable {
    @usableFromInline let storage: UnsafeMutablePointer<Float>
    @usableFromInline let mask: Int
    @usableFromInline var readIndex = 0
    @usableFromInline var writeIndex = 0

    /// Room for at least `minimumCapacity` samples (rounded up to a power of two), zero-filled.
    public init(minimumCapacity: Int) {
        var size = 1
        while size < max(1, minimumCapacity) { size <<= 1 }
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
        mask = size - 1
    }

    deinit { storage.deallocate() }

    /// Number of samples the FIFO can hold.
    @inlinable public var capacity: Int { mask + 1 }

    /// Samples waiting to be popped.
    @inlinable public var count: Int { writeIndex - readIndex }

    /// Samples that can be pushed before the FIFO is full.
    @inlinable public var space: Int { capacity - count }

    /// Where `frames` samples from free-running `index` start in storage, and how many of them
    /// fit before its end (the rest wrap to its start). Copying in these two contiguous runs
    /// lets the copies vectorise; the samples land where the masked index would put them.
    @inlinable @inline(__always)
    func run(from index: Int, _ frames: Int) -> (head: UnsafeMutablePointer<Float>, first: Int) {
        let start = index & mask
        return (storage + start, min(frames, capacity - start))
    }

    /// Appends `frames` samples; the caller guarantees `frames <= space`.
    @inlinable @_noLocks
    public mutating func push(_ source: UnsafePointer<Float>, _ frames: Int) {
        precondition(frames <= space, "SampleFIFO overflow")
        let (head, first) = run(from: writeIndex, frames)
        for i in 0..<first { head[i] = source[i] }
        let rest = source + first
        for i in 0..<(frames - first) { storage[i] = rest[i] }
        writeIndex &+= frames
    }

    /// Appends `frames` zero samples (latency pre-fill, padding).
    @inlinable @_noLocks
    public mutating func pushSilence(_ frames: Int) {
        precondition(frames <= space, "SampleFIFO overflow")
        for i in 0..<frames { storage[(writeIndex &+ i) & mask] = 0 }
        writeIndex &+= frames
    }

    /// Copies the oldest `frames` samples out without removing them.
    @inlinable @_noLocks
    public func peek(into destination: UnsafeMutablePointer<Float>, _ frames: Int) {
        precondition(frames <= count, "SampleFIFO underflow")
        let (head, first) = run(from: readIndex, frames)
        for i in 0..<first { destination[i] = head[i] }
        let rest = destination + first
        for i in 0..<(frames - first) { rest[i] = storage[i] }
    }

    /// Removes the oldest `frames` samples.
    @inlinable @_noLocks
    public mutating func discard(_ frames: Int) {
        precondition(frames <= count, "SampleFIFO underflow")
        readIndex &+= frames
    }

    /// Copies out and removes the oldest `frames` samples.
    @inlinable @_noLocks
    public mutating func pop(into destination: UnsafeMutablePointer<Float>, _ frames: Int) {
        peek(into: destination, frames)
        readIndex &+= frames
    }

    /// Empties the FIFO without touching memory.
    @inlinable @_noLocks
    public mutating func clear() { readIndex = writeIndex }
}
