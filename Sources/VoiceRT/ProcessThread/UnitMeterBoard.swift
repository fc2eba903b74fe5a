import Synchronization

/// Each effect-chain unit's meters, published by the process thread once per engine block and
/// read by any other thread: the unit's output peak and, for a dynamics unit, its gain reduction.
///
/// One relaxed atomic word per unit holds both figures (two `Float` bit patterns), so a reader
/// always sees a peak and a reduction from the same publish; different units may come from
/// neighbouring publishes, which is fine for a meter. There is one writer (the thread rendering
/// the engine), so a publish is a plain store per unit: no compare-exchange, no lock.
///
/// - Realtime: `publish` is safe for the process thread; `reading(_:)` and `readings()` are for
///   any other thread. Allocate the board once and never move it (`init` allocates the words,
///   deinit frees them).
public struct UnitMeterBoard: ~Copyable, @unchecked Sendable {
    /// One word per unit, `count` of them.
    @usableFromInline let words: UnsafeMutablePointer<Atomic<UInt64>>
    /// Units on the board (the chain's length).
    public let count: Int

    /// A board for `count` units, each reading silence and no reduction. - Realtime: never
    /// (allocates).
    public init(count: Int) {
        self.count = count
        words = .allocate(capacity: max(1, count))
        let silence = Self.pack(UnitMeterReading(peak: 0, reductionDB: .nan))
        for i in 0..<max(1, count) { (words + i).initialize(to: Atomic<UInt64>(silence)) }
    }

    deinit {
        words.deinitialize(count: max(1, count))
        words.deallocate()
    }

    /// Publishes unit `index`'s figures; an index off the board is ignored. - Realtime: safe.
    @inlinable @_noLocks
    public func publish(_ index: Int, _ reading: UnitMeterReading) {
        guard index >= 0, index < count else { return }
        words[index].store(Self.pack(reading), ordering: .relaxed)
    }

    /// Unit `index`'s figures as last published. - Realtime: not needed there; any thread.
    public func reading(_ index: Int) -> UnitMeterReading {
        Self.unpack(words[index].load(ordering: .relaxed))
    }

    /// Every unit's figures, in chain order. - Realtime: never (allocates); any other thread.
    public func readings() -> [UnitMeterReading] {
        var all: [UnitMeterReading] = []
        all.reserveCapacity(count)
        for i in 0..<count { all.append(Self.unpack(words[i].load(ordering: .relaxed))) }
        return all
    }

    /// The peak in the low 32 bits, the reduction in the high ones. - Realtime: safe.
    @inlinable @inline(__always) @_noLocks
    static func pack(_ r: UnitMeterReading) -> UInt64 {
        UInt64(r.peak.bitPattern) | UInt64(r.reductionDB.bitPattern) << 32
    }

    @inlinable @inline(__always)
    static func unpack(_ word: UInt64) -> UnitMeterReading {
        UnitMeterReading(
            peak: Float(bitPattern: UInt32(truncatingIfNeeded: word)),
            reductionDB: Float(bitPattern: UInt32(truncatingIfNeeded: word >> 32)))
    }
}

/// One unit's meters at one moment.
///
/// - Realtime: safe (a plain value).
public struct UnitMeterReading: Sendable, BitwiseCopyable {
    /// The unit's output peak, linear (1.0 = full scale), held with a slow release (as the
    /// engine's level meters: about 20 dB per second).
    public var peak: Float
    /// Gain the unit takes off now, dB (≥ 0); NaN for a unit that does not reduce gain (an
    /// equalizer, a reverb, a plugin).
    public var reductionDB: Float

    @inlinable
    public init(peak: Float, reductionDB: Float) {
        self.peak = peak
        self.reductionDB = reductionDB
    }
}
