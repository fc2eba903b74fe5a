/// A suppressor of noise and of the echo canceller's residual echo, as the canceller drives it:
/// one frame in place, the canceller's residual echo spectrum taken as a second noise.
///
/// voicerack's own is `SpectralSuppressor` (OM-LSA over a four-frame window); speexdsp's
/// preprocessor, the other choice, is bound to speexdsp's echo state and stays inside
/// `SpeexVoiceProcessor`. The canceller holds a concrete suppressor (no existential), so calls are
/// direct and allocation-free on the process thread.
///
/// - Realtime: `init` allocates (main thread); `process` runs on the process thread and is
///   allocation- and lock-free.
public protocol NoiseSuppressor: ~Copyable {
    /// Samples the suppressor delays the voice by.
    var latency: Int { get }
    /// Energy of the analysis window, which a residual spectrum is scaled to.
    var windowEnergy: Float { get }
    /// Size of the FFT a residual spectrum must be on.
    var residualFFTSize: Int { get }
    /// Suppresses one frame in place (the suppressor may deliver an earlier frame: see
    /// `latency`). `residual` is the canceller's residual echo power per bin of a
    /// `residualFFTSize` FFT, or nil without a canceller.
    mutating func process(_ frame: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?)
}
