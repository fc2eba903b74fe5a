/// `--room IR.wav`: the echo a room adds to the mic, made live from what the speakers play (the
/// first listened port), so it follows exactly what was played, gaps and all, as a room does.
///
/// The impulse response is kept sparse (its non-zero taps only): a synthetic room has a few
/// dozen, which a debug build convolves in real time. A ring holds the speakers' recent
/// samples; its write index is the process thread's alone.
///
/// - Realtime: `addEcho` is the process thread's; `init` and `deallocate` the main thread's.
struct RoomEcho: ~Copyable, @unchecked Sendable {
    let offsets: UnsafeMutablePointer<Int>
    let gains: UnsafeMutablePointer<Float>
    let tapCount: Int
    /// The speakers' last `mask + 1` samples (a power of two above the longest offset).
    let history: UnsafeMutablePointer<Float>
    let mask: Int
    let written: UnsafeMutablePointer<Int>

    /// The non-zero taps of `impulse` (none: no room).
    init(impulse: [Float]) {
        let taps = impulse.indices.filter { impulse[$0] != 0 }
        tapCount = taps.count
        offsets = .allocate(capacity: max(1, taps.count))
        gains = .allocate(capacity: max(1, taps.count))
        for (k, i) in taps.enumerated() {
            offsets[k] = i
            gains[k] = impulse[i]
        }
        var size = 1
        while size <= (taps.last ?? 0) { size *= 2 }
        mask = size - 1
        history = .allocate(capacity: size)
        history.initialize(repeating: 0, count: size)
        written = .allocate(capacity: 1)
        written.initialize(to: 0)
    }

    deinit {
        offsets.deallocate()
        gains.deallocate()
        history.deallocate()
        written.deallocate()
    }

    /// Takes `n` samples the speakers play from `speakers` and adds their echo to `mic`.
    /// - Realtime: safe (no allocation, no lock).
    @_noLocks
    func addEcho(from speakers: UnsafeMutablePointer<Float>, to mic: UnsafeMutablePointer<Float>, _ n: Int) {
        guard tapCount > 0 else { return }
        var w = written.pointee
        for i in 0..<n {
            history[w & mask] = speakers[i]
            var echo: Float = 0
            for k in 0..<tapCount { echo += gains[k] * history[(w - offsets[k]) & mask] }
            mic[i] += echo
            w += 1
        }
        written.pointee = w
    }
}
