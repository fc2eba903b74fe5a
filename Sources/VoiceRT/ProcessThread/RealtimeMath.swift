#if canImport(Glibc)
    import Glibc
#endif

/// Math the process thread needs that the `@_noLocks` checker cannot see through.
///
/// - Realtime: safe.
public enum RealtimeMath {
    /// √x. Realtime: `Float.squareRoot` compiles to one square-root instruction, but at -Onone it
    /// is an opaque stdlib call the checker rejects, so it is vouched for here once.
    @inlinable @inline(__always) @_noLocks
    public static func squareRoot(_ x: Float) -> Float {
        _unsafePerformance { x.squareRoot() }
    }

    /// √x lane by lane, each lane rounded as `squareRoot(_: Float)` rounds it. Realtime: the
    /// stdlib's SIMD square root is not inlinable, so the checker cannot see that it is eight
    /// square roots; it is vouched for here once.
    @inlinable @inline(__always) @_noLocks
    public static func squareRoot(_ x: SIMD8<Float>) -> SIMD8<Float> {
        _unsafePerformance { x.squareRoot() }
    }

    /// x raised to y (x > 0), through libm's `powf`: pure arithmetic, no allocation or lock, but
    /// a C call the checker cannot see into.
    @inlinable @inline(__always) @_noLocks
    public static func power(_ x: Float, _ y: Float) -> Float {
        _unsafePerformance { powf(x, y) }
    }

    /// The angle of (x, y) in radians, through libm's `atan2f`: pure arithmetic, a C call the
    /// checker cannot see into.
    @inlinable @inline(__always) @_noLocks
    public static func angle(y: Float, x: Float) -> Float {
        _unsafePerformance { atan2f(y, x) }
    }

    /// (cos x, sin x) through libm: pure arithmetic, C calls the checker cannot see into.
    @inlinable @inline(__always) @_noLocks
    public static func cosineAndSine(_ x: Float) -> (cos: Float, sin: Float) {
        _unsafePerformance { (cosf(x), sinf(x)) }
    }
}
