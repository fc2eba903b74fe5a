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
        var blockPeak: Float = 0
        for i in 0..<frames { blockPeak = max(blockPeak, abs(buffer[i])) }
        let peak = max(blockPeak, held[index] * max(0, 1 - releasePerSample * Float(frames)))
        held[index] = peak
        board.pointee.publish(index, UnitMeterReading(peak: peak, reductionDB: reductionDB))
    }

    /// Frees the held peaks (the board is its owner's). - Realtime: never.
    func deallocate() { held.deallocate() }
}
