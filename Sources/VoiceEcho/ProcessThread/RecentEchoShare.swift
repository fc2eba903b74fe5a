import Foundation
import VoiceRT

/// The share of the mic's power the canceller's echo estimate explains over the last
/// `timeConstant` seconds: the coherence-weighted explained share of `EchoCoherence`, from
/// statistics with a shorter memory, for the residual model's far-end-alone decision.
///
/// `EchoCoherence` averages its spectra over 0.8 s, which its gain needs (shorter estimates
/// scatter and cost double talk). As the decision of whether the far end talks alone, that
/// memory holds the near end's voice in the mic's power long after the talker stopped: with a
/// talker as loud as the echo, the explained share needs about 2.5 s to climb back over 0.95, and in those seconds `CancellerResidual` neither learns the residual from the
/// reference nor takes its bands' leaks, so the echo just after double talk is suppressed less
/// than elsewhere. With 0.4 s it is back in half that time, while a talker still pulls
/// it down at once; shorter memories (0.25 s) let the estimate's own scatter judge some
/// double-talk frames far-end alone (figures in docs/measurements.md).
///
/// Only the bins of the share's band (200–4000 Hz) are kept: bin `i` here is the caller's bin
/// `first + i`.
///
/// - Realtime: `accumulate` and `share` are safe; `init` allocates, `deallocate` frees.
struct RecentEchoShare {
    /// Seconds over which the spectra are averaged (exponential, per frame).
    static let timeConstant = 0.4

    /// Weight of the newest frame in the smoothed spectra.
    private let newWeight: Float
    /// Smoothed |D|², |Ŷ|² and Ŷ·conj(D) per kept bin.
    private let micPower, echoPower, crossReal, crossImaginary: UnsafeMutablePointer<Float>
    let bins: Int

    /// Statistics for `bins` bins of frames `frameSize` samples long at `sampleRate` Hz.
    init(bins: Int, frameSize: Int, sampleRate: Int) {
        self.bins = bins
        let frameSeconds = Double(frameSize) / Double(sampleRate)
        newWeight = Float(1 - exp(-frameSeconds / Self.timeConstant))
        let storage = UnsafeMutablePointer<Float>.zeroed(4 * max(bins, 1))
        micPower = storage
        echoPower = storage + bins
        crossReal = storage + 2 * bins
        crossImaginary = storage + 3 * bins
    }

    /// Frees the spectra; call once, from the thread that owns the engine.
    func deallocate() { micPower.deallocate() }

    /// Adds one frame's bin `i`: the echo estimate's spectrum (yr, yi) and the mic's (dr, di).
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func accumulate(_ i: Int, yr: Float, yi: Float, dr: Float, di: Float) {
        let w = newWeight
        micPower[i] += w * (dr * dr + di * di - micPower[i])
        echoPower[i] += w * (yr * yr + yi * yi - echoPower[i])
        crossReal[i] += w * (yr * dr + yi * di - crossReal[i])
        crossImaginary[i] += w * (yi * dr - yr * di - crossImaginary[i])
    }

    /// Σ |S_ŷd|² / S_ŷŷ over Σ S_dd, in 0...1 (as `EchoCoherence.explainedShare`).
    ///
    /// - Realtime: safe.
    @_noLocks
    func share() -> Float {
        var explained: Float = 0
        var total: Float = 0
        for i in 0..<bins {
            let cross = crossReal[i] * crossReal[i] + crossImaginary[i] * crossImaginary[i]
            explained += cross / max(echoPower[i], 1e-30)
            total += micPower[i]
        }
        return total > 0 ? min(explained / total, 1) : 0
    }
}
