/// Zeroed heap memory for the units that need buffers (limiter, delay, reverb).
///
/// Units stay copyable plain structs (the `VoiceUnit` protocol and the engine hold them by
/// value), so they cannot free memory in a `deinit`. A unit that owns memory allocates it in
/// `prepare` (freeing what an earlier `prepare` allocated) and exposes `deallocate()`, which
/// its owner must call once when the unit is dropped, off the real-time thread. Copies of such a
/// unit share the memory: keep one live copy.
enum UnitMemory {
    /// `count` zeroed elements of `T`. - Realtime: never (allocates).
    static func zeroed<T: BitwiseCopyable>(_ type: T.Type, _ count: Int, _ zero: T) -> UnsafeMutablePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, count))
        p.initialize(repeating: zero, count: max(1, count))
        return p
    }

    /// The smallest power of two ≥ `n` (ring buffers index with a mask).
    static func powerOfTwo(atLeast n: Int) -> Int {
        var size = 1
        while size < n { size <<= 1 }
        return size
    }
}
