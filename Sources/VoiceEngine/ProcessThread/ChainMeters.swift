import VoiceRT

/// The effect chain's per-unit meters: after each unit, the block's peak (held with a slow
/// release, as `LevelMeter`'s) and the unit's gain reduction go to a `UnitMeterBoard`.
///
/// Metering only reads the chain's buffer: the audio is the same with or without it.
///
/// - Realtime: `measure` is safe; `init` and `deallocate` are not. The held peaks belong to the
///   thread rendering the engine; the board is `VoiceEngine`'s.
struct ChainMeters {
    /// Each unit's held peak, linear.
    private let held: UnsafeMutablePointer<Float>
    private let count: Int
    /// Fraction of the held peak lost per sample: about 20 dB per second, as `LevelMeter`.
    private let releasePerSample: Float
    let board: UnsafeMutablePointer<UnitMeterBoard>

    /// Meters for `board.count` units at `sampleRate` Hz. - Realtime: never (allocates).
    init(board: UnsafeMutablePointer<UnitMeterBoard>, sampleRate: Double) {
        self.board = board
        count = board.pointee.count
        held = .allocate(capacity: max(1, count))
        held.initialize(repeating: 0, count: max(1, count))
        releasePerSample = Float(2.3 / sampleRate)
    }

    /// Meters unit `index`'s output, `frames` samples of `buffer`, and publishes it with the
    /// unit's gain reduction (dB, NaN: none). - Realtime: safe.
    @inline(__always) @_noLocks
    func measure(_ index: Int, _ buffer: UnsafePointer<Float>, frames: Int, reductionDB: Float) {
        guard index < count else { return }
        let peak = max(Self.peak(buffer, frames), held[index] * max(0, 1 - releasePerSample * Float(frames)))
        held[index] = peak
        board.pointee.publish(index, UnitMeterReading(peak: peak, reductionDB: reductionDB))
    }

    /// The largest magnitude among `frames` samples. A float's magnitude orders as its bit
    /// pattern without the sign, read as an unsigned integer, so this is an integer maximum,
    /// which the compiler vectorises (a float maximum it may not: NaN rules). A NaN reads as
    /// infinity. - Realtime: safe.
    @inline(__always) @_noLocks
    static func peak(_ buffer: UnsafePointer<Float>, _ frames: Int) -> Float {
        let bits = UnsafeRawPointer(buffer)
        var top: UInt32 = 0
        for i in 0..<frames { top = max(top, bits.load(fromByteOffset: 4 * i, as: UInt32.self) & 0x7fff_ffff) }
        return Float(bitPattern: min(top, 0x7f80_0000))
    }

    /// Frees the held peaks (the board is its owner's). - Realtime: never.
    func deallocate() { held.deallocate() }
}
