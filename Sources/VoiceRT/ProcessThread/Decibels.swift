import Foundation

/// Conversions between decibels and linear amplitude or power.
///
/// - Realtime: not for the process thread: libm is C, which `@_noLocks` cannot see into. The
///   engine converts in `prepare` and publishes linear values that the main thread converts.
public enum Decibels {
    /// Linear amplitude for `db` decibels (20·log10 convention).
    @inlinable public static func amplitude(_ db: Float) -> Float { powf(10, db / 20) }

    /// Decibels for a linear amplitude; `floor` (in dB) for zero or denormal input.
    @inlinable public static func fromAmplitude(_ a: Float, floor: Float = -120) -> Float {
        a > 1e-6 ? max(20 * log10f(a), floor) : floor
    }

    /// Decibels for a power ratio (10·log10 convention); `floor` (in dB) for zero.
    @inlinable public static func fromPower(_ p: Double, floor: Double = -120) -> Double {
        p > 1e-12 ? max(10 * log10(p), floor) : floor
    }
}
