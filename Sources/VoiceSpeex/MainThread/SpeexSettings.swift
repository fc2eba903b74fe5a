/// Settings of speexdsp's echo canceller and preprocessor, in the units speexdsp takes.
public struct SpeexSettings: Sendable, Equatable {
    /// Run the echo canceller (`speex_echo_*`); off means the mic passes to the preprocessor.
    public var echoCancellation = true
    /// Samples per echo canceller / preprocessor frame.
    public var frameSize = 480
    /// Adaptive filter length (echo tail) in samples.
    public var filterLength = 7200
    /// Loudspeaker channels the canceller models (1, or 2 for `speex_echo_state_init_mc`).
    public var speakers = 1
    /// Run the preprocessor (`speex_preprocess_*`); off skips NS, VAD, dereverb and echo suppression.
    public var preprocess = true
    /// Noise suppression on.
    public var denoise = true
    /// Maximum noise attenuation in dB (negative).
    public var noiseSuppressDB: Int32 = -15
    /// Maximum residual echo attenuation in dB when the near end is silent (negative).
    public var echoSuppressDB: Int32 = -40
    /// Maximum residual echo attenuation in dB during double talk (negative).
    public var echoSuppressActiveDB: Int32 = -15
    /// Dereverberation on.
    public var dereverb = false

    public init() {}
}
