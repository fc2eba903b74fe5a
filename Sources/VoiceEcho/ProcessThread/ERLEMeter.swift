import VoiceRT

/// Estimates the echo return loss enhancement of the whole run: the energy ratio mic / output
/// over far-end-only frames, after the canceller has settled.
///
/// A short-memory estimate read at the end of a run reports whatever the last seconds held:
/// the echo tail after the far end stopped, or near-end onsets the detector had not confirmed
/// yet, which read a small fraction of what the yardstick measured. Summing energies over every frame in
/// which the far end plays and no near-end voice was detected gives the same kind of number
/// the yardstick reports (energy ratio over far-end-only speech). The first `settleSeconds` of
/// far-end signal after the start and after every canceller reset are left out: the adaptive
/// filter is still converging then (speexdsp needs 1.5–3 s to pass 20 dB on the yardstick).
///
/// - Realtime: `measure` is safe.
struct ERLEMeter {
    /// Seconds of far-end-only signal skipped after a (re)start while the filter converges.
    static let settleSeconds = 3
    /// Sums in Double: a Float sum of an hour's frame energies would stop growing (24-bit mantissa).
    private var micEnergy: Double = 0
    private var outputEnergy: Double = 0
    /// Far-end-only samples still to skip before energies count; -1 until the first frame.
    private var settleRemaining = -1
    /// Canceller resets seen so far (a reset restarts the settling).
    private var resetsSeen = 0

    /// True once frames have counted towards the estimate.
    var measured: Bool { micEnergy > 0 }

    /// Power ratio mic / output over the counted frames; 0 until measured.
    @inline(__always) @_noLocks
    func ratio() -> Float { measured ? Float(micEnergy / max(outputEnergy, 1e-12)) : 0 }

    /// Counts one far-end-only frame of `frames` samples with mean squares `mic` (canceller
    /// input) and `out` (final output). `resets` is the engine's canceller reset count so far.
    @inline(__always) @_noLocks
    mutating func measure(micPower mic: Float, outputPower out: Float, frames: Int, sampleRate: Int, resets: Int) {
        if settleRemaining < 0 || resets != resetsSeen {
            settleRemaining = Self.settleSeconds * sampleRate
            resetsSeen = resets
        }
        if settleRemaining > 0 {
            // Never below 0: a negative count read as "first frame" and restarted the settling
            // for ever whenever the frame did not divide 3 s (e.g. 256-sample frames), so the
            // figure was never measured.
            settleRemaining = max(0, settleRemaining - frames)
            return
        }
        micEnergy += Double(mic) * Double(frames)
        outputEnergy += Double(out) * Double(frames)
    }
}
