import Foundation

/// The periodic Hann window, w(i) = 0.5 − 0.5·cos(2πi / length), that the spectral analyses
/// (delay estimator, canceller residual, suppressor, feedback guard) weight their frames with.
///
/// - Realtime: never (libm, and `allocate` allocates); the tables are built at init.
public enum HannWindow {
    /// Point `i` of a window `length` points long (0 at i = 0, 1 at i = length / 2).
    public static func point(_ i: Int, _ length: Int) -> Double {
        0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(length))
    }

    /// The `length` points of the window, in a buffer the caller frees.
    public static func allocate(_ length: Int) -> UnsafeMutablePointer<Float> {
        let window = UnsafeMutablePointer<Float>.allocate(capacity: length)
        for i in 0..<length { window[i] = Float(point(i, length)) }
        return window
    }
}
