import CSpeexDSP

/// speexdsp's resampler held at a ratio a few hundred ppm off 1:1, for clock-drift compensation
/// of the echo canceller's reference.
///
/// The ratio (input consumed per output produced) is (65521 + k) / 65521 with an integer k:
/// speexdsp rescales its fractional phase by old × new denominator in 32 bits when the ratio
/// changes, and fails part-way (leaving a phase past its table) once that product overflows, so
/// the denominator stays below 2¹⁶; it is prime, so it is never reduced and the phase carries
/// over exactly. Steps are 15.3 ppm apart; finer ratios are reached on average by switching
/// between the two neighbouring steps (first-order noise shaping) every `switchInterval`
/// samples, which moves the reference's phase by at most 0.02 samples. k = 0 (exactly 1:1) is
/// never used: speexdsp would reduce the ratio to 1/1 and drop the phase.
///
/// `init` sets the widest ratio once, so speexdsp's sinc table and memory are allocated at their
/// largest there; every later ratio within ±`limitPPM` fits them and keeps the filter length.
/// Quality 4 (64 taps, cutoff 0.92 of Nyquist): the canceller's adaptive filter absorbs the
/// resampler's own (linear) response.
///
/// - Realtime: `setRatio`, `advance`, `process`, `restart` are safe (see
///   `SpeexRealtimeEdge.swift`); `init` and deinit allocate and free.
public struct DriftResampler: ~Copyable {
    /// Denominator of the ratio (prime, below 2¹⁶).
    static var denominator: UInt32 {
        @inline(__always) @_noLocks get { 65_521 }
    }
    /// Largest ratio offset taken, in ppm.
    public static var limitPPM: Double {
        @inline(__always) @_noLocks get { 1000 }
    }
    /// Samples between switches of the ratio step (each costs a sinc-table update).
    let switchInterval = 1024
    let state: OpaquePointer
    let sampleRate: UInt32
    public let channels: Int
    /// Input samples the filter looks ahead: output sample j stands for input j − `latency`.
    public let latency: Int
    /// The ratio offset asked for, in ppm (input consumed per output, minus one).
    public internal(set) var ratioPPM = 0.0
    /// The ratio offset asked for, in steps of 1/65521.
    var target = 1.0
    /// The step in use, and the noise shaper's accumulated error.
    var step = 1
    var shapingError = 0.0
    var sinceSwitch = 0

    /// A resampler for `channels` separate channels at `sampleRate` Hz.
    /// - Realtime: never.
    public init(channels: Int, sampleRate: Int) {
        self.channels = channels
        let rate = UInt32(sampleRate)
        var error: Int32 = 0
        let d = Self.denominator
        let widest = UInt32(Self.limitPPM * 1e-6 * Double(d)) + 2
        // The widest ratios first, so the sinc table is allocated at its largest here.
        state = speex_resampler_init_frac(UInt32(channels), d + widest, d, rate, rate, 4, &error)!
        speex_resampler_set_rate_frac(state, d - widest, d, rate, rate)
        speex_resampler_set_rate_frac(state, d + 1, d, rate, rate)
        latency = Int(speex_resampler_get_input_latency(state))
        self.sampleRate = rate
    }

    deinit { speex_resampler_destroy(state) }

    /// The next step: the two integers around `target` (never 0) chosen so that their running
    /// mean is `target`.
    @_noLocks
    mutating func nextStep() -> Int {
        var low = Double(Int(target))  // toward zero; one less below zero
        if low > target { low -= 1 }
        var high = low + 1
        if low == 0 { low = -1 }
        if high == 0 { high = 1 }
        // Choose the one that brings the accumulated error closest to zero.
        let errorLow = shapingError + target - low
        let errorHigh = shapingError + target - high
        let pick = abs(errorLow) <= abs(errorHigh) ? low : high
        shapingError += target - pick
        return Int(pick)
    }
}
