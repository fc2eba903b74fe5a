/// A stable identifier of a live parameter, derived from its name (`compressor.threshold_dbfs`).
///
/// The identifier is the name's 32-bit FNV-1a hash, so it does not depend on where a parameter
/// sits in any descriptor array: reordering descriptors or units cannot rewire a message. Names
/// are hashed once, off the process thread; the engine resolves identifiers through a table it
/// built from the same names (`ControlTable`), which refuses a collision when it is built.
///
/// - Realtime: safe to copy and compare; `init(_ name:)` is never called on the process thread.
public struct ParameterID: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The identifier of the parameter called `name`. - Realtime: never.
    public init(_ name: String) {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        rawValue = hash
    }

    public var description: String { "#" + String(rawValue, radix: 16) }
}

/// One control change for the process thread: which parameter, and its new value.
///
/// A plain 8-byte value, so it travels through `ControlRing` packed into one machine word. The
/// value is in the parameter's own unit (dB, ms, a linear gain for the derived monitor gains).
///
/// - Realtime: safe (a POD value).
public struct ControlMessage: Sendable, Equatable, BitwiseCopyable {
    /// The parameter addressed.
    public var parameter: ParameterID
    /// The new value.
    public var value: Float

    public init(_ parameter: ParameterID, _ value: Float) {
        self.parameter = parameter
        self.value = value
    }

    /// A message for the parameter called `name`. - Realtime: never (hashes the name).
    public init(_ name: String, _ value: Float) { self.init(ParameterID(name), value) }

    /// The message as one word: the identifier in bits 32–63, the value's bits in 0–31.
    @inline(__always) @_noLocks
    public func packed() -> Int {
        Int(bitPattern: UInt(parameter.rawValue) << 32 | UInt(value.bitPattern))
    }

    /// Unpacks a word made by `packed()`.
    @inline(__always) @_noLocks
    public init(packed: Int) {
        let bits = UInt(bitPattern: packed)
        parameter = ParameterID(rawValue: UInt32(truncatingIfNeeded: bits >> 32))
        value = Float(bitPattern: UInt32(truncatingIfNeeded: bits))
    }
}

/// A lock-free single-producer, single-consumer queue of `ControlMessage`s, main → process
/// thread: an `SPSCRing<Int>` carrying each message packed into one word.
///
/// Full comes back as `false` from `push` (the producer counts it and may retry later); the
/// consumer drains a bounded number per cycle.
///
/// - Realtime: `push` and `pop` are wait-free; `init` allocates, `deallocate` frees. One thread
///   may push and one (other) thread may pop.
public struct ControlRing: @unchecked Sendable {
    private let ring: SPSCRing<Int>

    /// A ring holding at least `capacity` messages.
    public init(capacity: Int) { ring = SPSCRing(capacity: capacity, empty: 0) }

    /// Frees the ring once neither side uses it. - Realtime: never.
    public func deallocate() { ring.deallocate() }

    /// Queues `message`; false when the ring is full. Producer only. - Realtime: safe.
    @_noLocks
    public func push(_ message: ControlMessage) -> Bool { ring.producer.push(message.packed()) }

    /// The oldest message; nil when none waits. Consumer only. - Realtime: safe.
    @_noLocks
    public func pop() -> ControlMessage? {
        guard let word = ring.consumer.pop() else { return nil }
        return ControlMessage(packed: word)
    }

    /// Messages waiting (a snapshot). - Realtime: safe.
    @_noLocks
    public func available() -> Int { ring.consumer.available() }
}
