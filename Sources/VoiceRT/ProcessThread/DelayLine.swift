/// A mono delay line whose delay (in samples) can change between blocks.
///
/// The engine delays the echo canceller's reference by the estimated bulk delay of the echo path,
/// so the canceller's adaptive filter only has to cover the room. Storage is allocated once for
/// `maximumDelay + maximumBlock` samples.
///
/// - Realtime: `process` and `setDelay` are safe; `init` allocates.
public struct DelayLine: ~Copyable {
    @usableFromInline let storage: UnsafeMutablePointer<Float>
    @usableFromInline let mask: Int
    @usableFromInline var writeIndex = 0
    @usableFromInline var _delay = 0
    /// Current delay in samples, `0...maximumDelay`.
    @inlinable public var delay: Int { _delay }
    /// Largest delay this line can hold, in samples.
    public let maximumDelay: Int

    /// A line that can delay by up to `maximumDelay` samples, processed in blocks of at most
    /// `maximumBlock` samples.
    public init(maximumDelay: Int, maximumBlock: Int) {
        var size = 1
        while size < maximumDelay + maximumBlock + 1 { size <<= 1 }
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
        mask = size - 1
        self.maximumDelay = maximumDelay
    }

    deinit { storage.deallocate() }

    /// Sets the delay, clamped to `0...maximumDelay` samples.
    @inlinable @_noLocks
    public mutating func setDelay(_ samples: Int) {
        _delay = min(max(samples, 0), maximumDelay)
    }

    /// Writes `frames` input samples and reads the same number, delayed; in-place allowed.
    @inlinable @_noLocks
    public mutating func process(
        _ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ frames: Int
    ) {
        for i in 0..<frames {
            let w = writeIndex &+ i
            storage[w & mask] = input[i]
            output[i] = storage[(w &- delay) & mask]
        }
        writeIndex &+= frames
    }

    /// Forgets everything held (silence comes out for `delay` samples).
    public mutating func reset() {
        storage.update(repeating: 0, count: mask + 1)
    }
}
