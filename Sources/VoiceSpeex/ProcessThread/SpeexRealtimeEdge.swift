import CSpeexDSP

// The one place where the process thread calls into speexdsp. The compiler's @_noLocks check
// cannot see into C, so each call is wrapped in _unsafePerformance with the reason it is safe;
// RealtimeSafetyTests checks the same calls at run time under RealtimeSanitizer.

extension SpeexVoiceProcessor {
    /// Cancels the echo of `reference` from one frame of `mic` into `output`.
    ///
    /// `mic` and `output` hold `frameSize` samples; `reference` holds `frameSize × speakers`
    /// samples, interleaved. Without an echo canceller (the null twin) the mic is copied.
    ///
    /// - Realtime: safe.
    @_noLocks
    public func cancel(
        mic: UnsafeMutablePointer<Int16>, reference: UnsafeMutablePointer<Int16>,
        output: UnsafeMutablePointer<Int16>
    ) {
        guard let echo else {
            for i in 0..<settings.frameSize { output[i] = mic[i] }
            return
        }
        // Realtime: speex_echo_cancellation works in buffers allocated by
        // speex_echo_state_init_mc; it does no allocation, locking or I/O.
        _unsafePerformance { speex_echo_cancellation(echo, mic, reference, output) }
    }

    /// Runs noise suppression, residual echo suppression and dereverb over one frame, in place.
    ///
    /// - Realtime: safe.
    @_noLocks
    public func preprocess(_ frame: UnsafeMutablePointer<Int16>) {
        guard let preprocessor else { return }
        // Realtime: speex_preprocess_run works in buffers allocated by
        // speex_preprocess_state_init; it does no allocation, locking or I/O.
        _ = _unsafePerformance { speex_preprocess_run(preprocessor, frame) }
    }

    /// Clears the canceller's adaptive filter, e.g. after the reference delay jumped.
    ///
    /// - Realtime: safe but O(filter length): it zeroes the state's buffers.
    @_noLocks
    public func resetCanceller() {
        guard let echo else { return }
        // Realtime: speex_echo_state_reset only zeroes and re-initialises fields of the existing
        // state; it does no allocation, locking or I/O.
        _unsafePerformance { speex_echo_state_reset(echo) }
    }
}

extension DriftResampler {
    /// Sets the ratio: input samples consumed per output sample are 1 + `ppm` × 10⁻⁶ on
    /// average (clamped to ±`limitPPM`).
    ///
    /// - Realtime: safe.
    @_noLocks
    public mutating func setRatio(ppm: Double) {
        ratioPPM = min(max(ppm, -Self.limitPPM), Self.limitPPM)
        target = ratioPPM * 1e-6 * 65_521
        applyStep(nextStep())
    }

    /// Counts `samples` of output; every `switchInterval` samples picks the next ratio step.
    ///
    /// - Realtime: safe.
    @_noLocks
    public mutating func advance(samples: Int) {
        sinceSwitch += samples
        guard sinceSwitch >= switchInterval else { return }
        sinceSwitch = 0
        applyStep(nextStep())
    }

    @_noLocks
    mutating func applyStep(_ k: Int) {
        guard k != step else { return }
        step = k
        let st = state, rate = sampleRate
        // Realtime: speex_resampler_set_rate_frac recomputes the sinc table in place; init set
        // the widest ratios first, so the table and memory are already at their largest and
        // nothing is reallocated (speexdsp grows them only when a ratio needs more). The integer
        // conversions are inside too: unspecialised in debug builds, they need no allocation.
        _ = _unsafePerformance {
            speex_resampler_set_rate_frac(st, UInt32(65_521 + k), 65_521, rate, rate)
        }
    }

    /// Resamples one channel: consumes up to `inputCount` samples, produces up to
    /// `outputCount`. Returns (consumed, produced).
    ///
    /// - Realtime: safe.
    @_noLocks
    public func process(
        channel: Int, input: UnsafePointer<Float>, inputCount: Int,
        output: UnsafeMutablePointer<Float>, outputCount: Int
    ) -> (consumed: Int, produced: Int) {
        var inLength = UInt32(inputCount)
        var outLength = UInt32(outputCount)
        let st = state
        // Realtime: speex_resampler_process_float works in the state's own buffers.
        _ = _unsafePerformance {
            speex_resampler_process_float(st, UInt32(channel), input, &inLength, output, &outLength)
        }
        return (Int(inLength), Int(outLength))
    }

    /// Forgets the filter's history and skips its look-ahead, so the next output sample stands
    /// for the next input sample (the caller feeds `latency` samples of history first).
    ///
    /// - Realtime: safe.
    @_noLocks
    public func restart() {
        let st = state
        // Realtime: both only zero and set fields of the existing state.
        _unsafePerformance {
            speex_resampler_reset_mem(st)
            speex_resampler_skip_zeros(st)
        }
    }
}

extension SpeexVoiceProcessor {
    /// Copies the canceller's adaptive filter (the first loudspeaker's impulse response, as
    /// speexdsp scales it) into `response`, which holds `impulseResponseLength` values.
    /// Returns false without a canceller.
    ///
    /// - Realtime: safe, but costs about one frame of canceller work (one inverse FFT per
    ///   filter block).
    @_noLocks
    public func impulseResponse(into response: UnsafeMutablePointer<Int32>) -> Bool {
        guard let echo else { return false }
        // Realtime: SPEEX_ECHO_GET_IMPULSE_RESPONSE transforms the weights in the state's own
        // scratch buffer into the caller's; no allocation, locking or I/O.
        _ = _unsafePerformance { speex_echo_ctl(echo, SPEEX_ECHO_GET_IMPULSE_RESPONSE, response) }
        return true
    }
}
