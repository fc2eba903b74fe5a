extension UnsafeMutablePointer where Pointee == Float {
    /// `count` floats (at least one), allocated and set to zero: the buffers process-thread state
    /// allocates once at init and frees in its deinit.
    ///
    /// - Realtime: never (allocates).
    public static func zeroed(_ count: Int) -> UnsafeMutablePointer<Float> {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: Swift.max(1, count))
        p.initialize(repeating: 0, count: Swift.max(1, count))
        return p
    }
}

extension FFT {
    /// The smallest power of two at or above `n` (and at least 2): the FFT size that holds `n` points.
    public static func size(atLeast n: Int) -> Int {
        var size = 2
        while size < n { size <<= 1 }
        return size
    }
}
