/// One parameter change for the process thread: which control, which of its parameters, the value.
///
/// A plain 8-byte value (no references), so it travels through `ParameterRing` packed into one
/// machine word. What `target` and `index` mean is the engine's business (`ParameterTarget` in
/// VoiceEngine: engine-level controls below 256, effect-chain slots from 256 on).
///
/// - Realtime: safe (a POD value).
public struct ParameterMessage: Sendable, Equatable, BitwiseCopyable {
    /// The control addressed (engine control or chain slot).
    public var target: UInt16
    /// The parameter of that control.
    public var index: UInt16
    /// The new value, in the parameter's own unit (dB, ms, linear gain...).
    public var value: Float

    public init(target: UInt16, index: UInt16, value: Float) {
        self.target = target
        self.index = index
        self.value = value
    }

    /// The message as one word: target in bits 48–63, index in 32–47, the value's bits in 0–31.
    @inline(__always) @_noLocks
    public func packed() -> Int {
        Int(bitPattern: UInt(target) << 48 | UInt(index) << 32 | UInt(value.bitPattern))
    }

    /// Unpacks a word made by `packed()`.
    @inline(__always) @_noLocks
    public init(packed: Int) {
        let bits = UInt(bitPattern: packed)
        target = UInt16(truncatingIfNeeded: bits >> 48)
        index = UInt16(truncatingIfNeeded: bits >> 32)
        value = Float(bitPattern: UInt32(truncatingIfNeeded: bits))
    }
}

/// A lock-free single-producer, single-consumer queue of `ParameterMessage`s, main → process
/// thread: an `IndexRing` carrying each message packed into one word.
///
/// Full comes back as `false` from `push` (the producer counts it and may retry later); the
/// consumer drains a bounded number per cycle.
///
/// - Realtime: `push` and `pop` are wait-free; `init` allocates, `deallocate` frees. One thread
///   may push and one (other) thread may pop.
public struct ParameterRing: @unchecked Sendable {
    private let ring: IndexRing

    /// A ring holding at least `capacity` messages.
    public init(capacity: Int) { ring = IndexRing(capacity: capacity) }

    /// Frees the ring once neither side uses it. - Realtime: never.
    public func deallocate() { ring.deallocate() }

    /// Queues `message`; false when the ring is full. Producer only.
    @_noLocks
    public func push(_ message: ParameterMessage) -> Bool { ring.push(message.packed()) }

    /// The oldest message; nil when none waits. Consumer only.
    @_noLocks
    public func pop() -> ParameterMessage? {
        guard let word = ring.pop() else { return nil }
        return ParameterMessage(packed: word)
    }

    /// Messages waiting (a snapshot). - Realtime: safe.
    @_noLocks
    public func available() -> Int { ring.available() }
}
