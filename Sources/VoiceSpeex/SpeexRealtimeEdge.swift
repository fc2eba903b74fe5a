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
