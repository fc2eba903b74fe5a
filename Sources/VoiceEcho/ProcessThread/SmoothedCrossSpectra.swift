import Foundation
import VoiceRT

/// The auto and cross spectra of the canceller's echo estimate ŷ and the mic d, smoothed over
/// frames with a time constant of `timeConstant` seconds, and the share of the mic's power they
/// say ŷ explains: the statistics under `EchoCoherence`'s gain (0.8 s) and the post-filter's
/// far-end-alone decision (0.4 s, `ResidualEchoSuppressor.recentShareTimeConstant`).
///
/// - Realtime: `accumulate` and `explainedShare` are safe; `init` allocates, `deallocate` frees.
struct SmoothedCrossSpectra {
    /// Weight of the newest frame in the smoothed spectra.
    let newWeight: Float
    /// Smoothed |D|², |Ŷ|² and Ŷ·conj(D) per FFT bin.
    let micPower, echoPower, crossReal, crossImaginary: UnsafeMutablePointer<Float>

    /// Statistics for `bins` FFT bins of frames `frameSize` samples long at `sampleRate` Hz.
    init(bins: Int, frameSize: Int, sampleRate: Int, timeConstant: Double) {
        let frameSeconds = Double(frameSize) / Double(sampleRate)
        newWeight = Float(1 - exp(-frameSeconds / timeConstant))
        let storage = UnsafeMutablePointer<Float>.zeroed(4 * max(bins, 1))
        micPower = storage
        echoPower = storage + bins
        crossReal = storage + 2 * bins
        crossImaginary = storage + 3 * bins
    }

    /// Frees the spectra; call once, from the thread that owns the engine.
    func deallocate() { micPower.deallocate() }

    /// Adds one frame's bin `k`: the echo estimate's spectrum (yr, yi) and the mic's (dr, di).
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func accumulate(_ k: Int, yr: Float, yi: Float, dr: Float, di: Float) {
        let w = newWeight
        micPower[k] += w * (dr * dr + di * di - micPower[k])
        echoPower[k] += w * (yr * yr + yi * yi - echoPower[k])
        // Ŷ · conj(D)
        crossReal[k] += w * (yr * dr + yi * di - crossReal[k])
        crossImaginary[k] += w * (yi * dr - yr * di - crossImaginary[k])
    }

    /// The share of the mic's power the echo estimate explains over bins `bins`, in 0...1: the
    /// coherence weighted by the mic's power, Σ |S_ŷd|² / S_ŷŷ over Σ S_dd. Near 1 where only the
    /// far end's echo (and little noise) reaches the mic; a talker pulls it down by their share.
    ///
    /// - Realtime: safe.
    @_noLocks
    func explainedShare(_ bins: Range<Int>) -> Float {
        var explained: Float = 0
        var total: Float = 0
        for k in bins {
            let cross = crossReal[k] * crossReal[k] + crossImaginary[k] * crossImaginary[k]
            explained += cross / max(echoPower[k], 1e-30)
            total += micPower[k]
        }
        return total > 0 ? min(explained / total, 1) : 0
    }
}
