import CSpeexDSP

/// speexdsp's echo canceller with its preprocessor attached: one frame of 16-bit mic and
/// reference in, one frame of cleaned voice out.
///
/// Owns both speexdsp states and destroys the preprocessor before the echo state it points at.
/// Either half can be off; with both off it copies mic to output (the engine runs VoiceEcho's
/// `NullEchoCanceller` in its place where nothing reads the canceller's voice decision).
///
/// Latency: the canceller adds none (output frame n is input frame n); the preprocessor's
/// overlap-add adds exactly one frame (`frameSize` samples), reported as `latency`.
///
/// - Realtime: `cancel`, `preprocess` and `resetCanceller` are safe (see `SpeexRealtimeEdge.swift`);
///   `init` and deinit allocate and free.
public struct SpeexVoiceProcessor: ~Copyable {
    let echo: OpaquePointer?
    let preprocessor: OpaquePointer?
    /// The settings the states were built with.
    public let settings: SpeexSettings
    /// Values `impulseResponse(into:)` writes (0 without a canceller).
    public let impulseResponseLength: Int

    /// Builds the states for `settings` at `sampleRate` Hz.
    /// - Realtime: never (speexdsp allocates).
    public init(settings: SpeexSettings, sampleRate: Int) {
        self.settings = settings
        let frame = Int32(settings.frameSize)
        var rate = Int32(sampleRate)
        var echo: OpaquePointer? = nil
        var responseLength: Int32 = 0
        if settings.echoCancellation {
            echo = speex_echo_state_init_mc(
                frame, Int32(settings.filterLength), 1, Int32(settings.speakers))
            if let echo {
                speex_echo_ctl(echo, SPEEX_ECHO_SET_SAMPLING_RATE, &rate)
                speex_echo_ctl(echo, SPEEX_ECHO_GET_IMPULSE_RESPONSE_SIZE, &responseLength)
            }
        }
        impulseResponseLength = Int(responseLength)
        var preprocessor: OpaquePointer? = nil
        if settings.preprocess {
            preprocessor = speex_preprocess_state_init(frame, rate)
            if preprocessor != nil { Self.configure(preprocessor, settings: settings, echo: echo) }
        }
        self.echo = echo
        self.preprocessor = preprocessor
    }

    deinit {
        if let preprocessor { speex_preprocess_state_destroy(preprocessor) }
        if let echo { speex_echo_state_destroy(echo) }
    }

    /// True when speexdsp made every state the settings ask for (it returns no state when its
    /// allocation fails). A host runs without the processor otherwise.
    public var isReady: Bool {
        (echo != nil || !settings.echoCancellation) && (preprocessor != nil || !settings.preprocess)
    }

    /// Samples of delay between input and output: one frame when the preprocessor runs.
    public var latency: Int { preprocessor == nil ? 0 : settings.frameSize }

    private static func configure(
        _ pp: OpaquePointer?, settings: SpeexSettings, echo: OpaquePointer?
    ) {
        func set(_ request: Int32, _ flag: Bool) {
            var value: Int32 = flag ? 1 : 0
            speex_preprocess_ctl(pp, request, &value)
        }
        if let echo {
            speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_ECHO_STATE, UnsafeMutableRawPointer(echo))
        }
        set(SPEEX_PREPROCESS_SET_DENOISE, settings.denoise)
        var noise = settings.noiseSuppressDB
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &noise)
        var suppress = settings.echoSuppressDB
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS, &suppress)
        var suppressActive = settings.echoSuppressActiveDB
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS_ACTIVE, &suppressActive)
        // speexdsp's AGC lifts residual echo; voicerack levels the voice with VoiceLeveller instead.
        set(SPEEX_PREPROCESS_SET_AGC, false)
        // speexdsp's VAD (off by default) is, in its own words, "replaced by a hack pending a
        // complete rewrite", and touching it prints that on stderr; voicerack detects voice itself
        // (NoiseFloorTracker, NearEndDetector).
        set(SPEEX_PREPROCESS_SET_DEREVERB, settings.dereverb)
    }
}
