import Foundation
import VoiceRT

/// The residual echo predicted from the reference's power spectrum through a per-bin echo-path
/// gain, without the canceller's echo estimate: a floor under `CancellerResidual`'s spectrum.
///
/// `CancellerResidual` scales the canceller's echo estimate ŷ = mic − output, so where the
/// linear filter learned nothing (the weak upper bands of a muffled or telephone-band far end)
/// it claims almost nothing, though the echo there passed through untouched. This model, as
/// WebRTC's AEC3 does, maps the reference itself to the echo left in the output: per FFT bin k, a
/// gain G_k regressed from the reference's power S_k to the output's power |E_k|² while the far
/// end talks alone, and the residual G_k·S_k. The regression is on the powers' deviations from
/// their running means, so the output's steady noise does not count as echo; it learns only in
/// frames where the far end plays and talks alone (the caller's judgement), so neither the near
/// end's voice nor the far end's pauses, where any gain fits the powers' tiny deviations, set it. S_k is the reference's power
/// held with a release of `release` per frame: the echo lags the reference by the delay margin
/// and the room's tail, and the hold covers both.
///
/// In double talk the near end stands above G_k·S_k wherever it talks, so the suppressor's
/// Wiener rule leaves it near whole; where it does not, the echo is taken.
///
/// Spectra as `CancellerResidual`'s: the last two frames under its Hann window, zero-padded to
/// `fftSize` points, in 16-bit units; `windowScale` turns them into the caller's.
///
/// - Realtime: `update` and `raise` are safe; `init` allocates, deinit frees.
struct ReferenceResidual: ~Copyable {
    /// Seconds of far-end-alone frames the regression averages over.
    static let timeConstant: Float = 1
    /// Release of the held reference power per frame (0.75 per 8 ms: 125 dB/s): the delay margin
    /// and the early reflections, not the room's whole tail, which the suppressor holds.
    let release: Float
    /// Most gain of the output's power over the held reference's, per bin (power ratio).
    let mostGain: Float = 4

    let frameSize: Int
    let bins: Int
    private let fft: FFT
    private let rate: Float
    private let window: UnsafePointer<Float>
    private let re, im: UnsafeMutablePointer<Float>
    /// The last two frames of output and reference (mono), 2 × frameSize each.
    private let lastOutput, lastReference: UnsafeMutablePointer<Float>
    /// Per bin: the held reference power; the running means of the output's and held
    /// reference's power; their covariance and the reference's variance; the gain G_k.
    private let held, outputMean, referenceMean, covariance, variance, gain: UnsafeMutablePointer<Float>
    /// Per bin: the output's power this frame (the residual never claims more).
    private let outputPower: UnsafeMutablePointer<Float>
    /// The output's power this frame, summed over bins (after `update`).
    private(set) var lastOutputPower: Float = 0
    /// The block that holds the per-bin arrays.
    private let perBin: UnsafeMutablePointer<Float>

    /// For frames of `frameSize` samples at `sampleRate` Hz under `window` (2 × frameSize, owned by
    /// the caller), on an FFT of `fftSize` points.
    init(frameSize: Int, sampleRate: Int, window: UnsafePointer<Float>, fftSize: Int) {
        self.frameSize = frameSize
        fft = FFT(size: fftSize)
        bins = fftSize / 2 + 1
        let hop = Float(frameSize) / Float(sampleRate)
        rate = hop / Self.timeConstant
        release = Float(pow(0.75, Double(hop) / 0.008))
        self.window = window
        re = .zeroed(fftSize)
        im = .zeroed(fftSize)
        lastOutput = .zeroed(2 * frameSize)
        lastReference = .zeroed(2 * frameSize)
        // The per-bin arrays in one block.
        perBin = .zeroed(7 * bins)
        (held, outputMean, referenceMean) = (perBin, perBin + bins, perBin + 2 * bins)
        (covariance, variance, gain, outputPower) = (
            perBin + 3 * bins, perBin + 4 * bins, perBin + 5 * bins, perBin + 6 * bins
        )
    }

    deinit {
        for p in [re, im, lastOutput, lastReference, perBin] { p.deallocate() }
    }

    /// Takes one frame of the canceller's `output` and `reference` (`speakers` interleaved
    /// channels), 16-bit; learns the gains when `farAlone` (the far end plays, alone).
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func update(
        output: UnsafePointer<Int16>, reference: UnsafePointer<Int16>, speakers: Int, farAlone: Bool
    ) {
        let f = frameSize
        let n = fft.size
        for i in 0..<f {
            lastOutput[i] = lastOutput[f + i]
            lastReference[i] = lastReference[f + i]
        }
        for i in 0..<f {
            lastOutput[f + i] = Float(output[i])
            var x = Float(reference[i * speakers])
            if speakers == 2 { x = 0.5 * (x + Float(reference[i * 2 + 1])) }
            lastReference[f + i] = x
        }
        // Output real, reference imaginary: one complex FFT for both.
        for i in 0..<2 * f {
            re[i] = window[i] * lastOutput[i]
            im[i] = window[i] * lastReference[i]
        }
        for i in 2 * f..<n {
            re[i] = 0
            im[i] = 0
        }
        fft.forward(re, im)
        var total: Float = 0
        for k in 0..<bins {
            let m = k == 0 ? 0 : n - k
            let sr = re[k] + re[m]
            let si = im[k] - im[m]
            let dr = re[k] - re[m]
            let di = im[k] + im[m]
            let e = 0.25 * (sr * sr + si * si)
            let x = 0.25 * (dr * dr + di * di)
            held[k] = max(x, release * held[k])
            outputPower[k] = e
            total += e
        }
        lastOutputPower = total
        guard farAlone else { return }
        for k in 0..<bins {
            let s = held[k]
            let e = outputPower[k]
            let de = e - outputMean[k]
            let ds = s - referenceMean[k]
            covariance[k] += rate * (de * ds - covariance[k])
            variance[k] += rate * (ds * ds - variance[k])
            outputMean[k] += rate * de
            referenceMean[k] += rate * ds
            gain[k] = variance[k] > 0 ? min(max(covariance[k] / variance[k], 0), mostGain) : 0
        }
    }

    /// Raises `power` (in units of `windowScale` times this model's) to the predicted residual
    /// where that is larger, never above the output's own power. The prediction is taken as it
    /// is: scaled up, even only in frames judged the far end alone, it cost the near end where
    /// that judgement missed double talk (figures in docs/measurements.md).
    ///
    /// - Realtime: safe.
    @_noLocks
    func raise(_ power: UnsafeMutablePointer<Float>, windowScale: Float) {
        for k in 0..<bins {
            let predicted = min(gain[k] * held[k], outputPower[k]) * windowScale
            power[k] = max(power[k], predicted)
        }
    }
}
