import VoiceUnits

/// The engine's number keys that a running engine cannot take: each shapes what the engine
/// allocates or prepares, so a change waits for a restart (`EngineControl.needsRestart`).
///
/// - Realtime: never (main thread).
extension EngineControl {
    /// The high-pass's design is made when the engine is built, and 0 takes it out of the plan.
    public static let highPass = EngineControl(
        restart: Key(
            "input", "highpass_hz", 20...500, .hertz, "High-pass corner that removes rumble and handling noise.",
            zero: "off"), \.highPassHz)
    /// The canceller's filter length: speexdsp allocates it.
    public static let tail = EngineControl(
        restart: Key(
            "echo_canceller", "tail_ms", 20...1000, .milliseconds,
            "Length of the echo path modelled; cover the room's reverb, cost grows with it."), \.tailMilliseconds)
    /// The frame sets the engine's block plan and every frame buffer.
    public static let frame = EngineControl(
        restart: Key(
            "echo_canceller", "frame_ms", 2.5...40, .milliseconds,
            "Frame of the canceller and preprocessor; 0 derives it from the JACK block size.", zero: "auto"),
        \.frameMilliseconds)
    /// The delay line's length and the estimator's search are allocated from these.
    public static let delay = EngineControl(
        restart: Key(
            "echo_canceller", "delay_ms", 0...2000, .milliseconds,
            "Reference delay when fixed; the starting estimate when auto."), \.delayMilliseconds)
    public static let maximumDelay = EngineControl(
        restart: Key(
            "echo_canceller", "max_delay_ms", 50...2000, .milliseconds,
            "Largest speaker-to-mic delay the estimator searches."), \.maximumDelayMilliseconds)
    public static let delayMargin = EngineControl(
        restart: Key(
            "echo_canceller", "delay_margin_ms", 0...100, .milliseconds,
            "Kept off the estimate so the reference always leads its echo."), \.delayMarginMilliseconds)
    /// The suppressors' depths are set when the preprocessor (speexdsp's or voicerack's) is made.
    public static let noiseSuppress = EngineControl(
        restart: Key(
            "preprocessor", "noise_suppress_db", -60...0, .decibels,
            "Most attenuation applied to noise (steady noise, with the voicerack suppressor); deeper sounds cleaner but more artificial."
        ), \.noiseSuppressDB)
    public static let babbleSuppress = EngineControl(
        restart: Key(
            "preprocessor", "babble_suppress_db", -60...0, .decibels,
            "Most attenuation of babble (other voices) with the voicerack suppressor, never deeper than noise_suppress_db: deeper chops the voice with the babble's syllables."
        ), \.babbleSuppressDB)
    public static let echoSuppress = EngineControl(
        restart: Key(
            "preprocessor", "echo_suppress_db", -90...0, .decibels,
            "Most attenuation of residual echo while only the far end talks."), \.echoSuppressDB)
    public static let echoSuppressActive = EngineControl(
        restart: Key(
            "preprocessor", "echo_suppress_active_db", -90...0, .decibels,
            "Most attenuation of residual echo while the near end talks too (double talk)."),
        \.echoSuppressActiveDB)
    /// The learned suppressor's limit is given to its model when the model is made.
    public static let learnedSuppress = EngineControl(
        restart: Key(
            "preprocessor", "deepfilter_suppress_db", -100...0, .decibels,
            "Most attenuation DeepFilterNet 3 may apply (suppressor = \"deepfilter\"); -100 is no limit, shallower keeps more of a voice it mistakes for noise."
        ), \.learnedSuppressDB)
    /// Ducking's time constants are worked out when the engine is built.
    public static let duckingAttack = EngineControl(
        restart: Key(
            "ducking", "attack_ms", 1...1000, .milliseconds, "Time to go all the way down."),
        \.duckingAttackMilliseconds)
    public static let duckingRelease = EngineControl(
        restart: Key(
            "ducking", "release_ms", 10...5000, .milliseconds, "Time to come all the way back."),
        \.duckingReleaseMilliseconds)

    static let restartControls = [
        highPass, tail, frame, delay, maximumDelay, delayMargin, noiseSuppress, babbleSuppress, echoSuppress,
        echoSuppressActive, learnedSuppress, duckingAttack, duckingRelease,
    ]
}
