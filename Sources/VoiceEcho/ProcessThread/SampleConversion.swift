/// Conversions between the engine's Float samples (±1.0 full scale) and speexdsp's 16-bit frames.
///
/// - Realtime: all functions are safe.
public enum SampleConversion {
    /// Converts `frames` samples to 16 bits, saturating; returns how many were at or beyond full
    /// scale (clipped).
    @inline(__always) @_noLocks
    static func toInt16(
        _ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Int16>, _ frames: Int,
        stride: Int = 1
    ) -> Int {
        var clipped = 0
        for i in 0..<frames {
            var v = source[i] * 32768
            if v.isNaN {
                // Int16(NaN) traps; a NaN can only come from a filter fed absurd values.
                v = 0
                clipped += 1
            } else if v >= 32767 {
                v = 32767
                clipped += 1
            } else if v <= -32768 {
                v = -32768
                clipped += 1
            }
            destination[i * stride] = Int16(v >= 0 ? v + 0.5 : v - 0.5)  // round half away from 0
        }
        return clipped
    }

    /// Converts `frames` 16-bit samples to Float.
    @inline(__always) @_noLocks
    static func toFloat(_ source: UnsafePointer<Int16>, _ destination: UnsafeMutablePointer<Float>, _ frames: Int) {
        let scale: Float = 1 / 32768
        for i in 0..<frames { destination[i] = Float(source[i]) * scale }
    }

    /// Mean square of `frames` samples.
    @inlinable @inline(__always) @_noLocks
    public static func power(_ p: UnsafePointer<Float>, _ frames: Int) -> Float {
        var sum: Float = 0
        for i in 0..<frames { sum += p[i] * p[i] }
        return frames > 0 ? sum / Float(frames) : 0
    }

    /// The canceller's echo estimate (mic − error) against its error over `frames` 16-bit
    /// samples: the mean of error × estimate and the estimate's mean square, in full-scale units.
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    static func estimateFit(
        mic: UnsafePointer<Int16>, error: UnsafePointer<Int16>, _ frames: Int
    ) -> (
        cross: Float, power: Float
    ) {
        var cross: Float = 0
        var power: Float = 0
        for i in 0..<frames {
            let e = Float(error[i])
            let y = Float(mic[i]) - e
            cross += e * y
            power += y * y
        }
        let scale = frames > 0 ? 1 / (Float(frames) * 32768 * 32768) : 0
        return (cross * scale, power * scale)
    }

    /// Mean square of `frames` 16-bit samples, in Float full-scale units.
    @inline(__always) @_noLocks
    static func power(_ p: UnsafePointer<Int16>, _ frames: Int) -> Float {
        var sum: Float = 0
        for i in 0..<frames {
            let v = Float(p[i])
            sum += v * v
        }
        return frames > 0 ? sum / (Float(frames) * 32768 * 32768) : 0
    }

    /// Largest absolute value among `frames` samples.
    @inlinable @inline(__always) @_noLocks
    public static func peak(_ p: UnsafePointer<Float>, _ frames: Int) -> Float {
        var m: Float = 0
        for i in 0..<frames { m = max(m, abs(p[i])) }
        return m
    }
}
