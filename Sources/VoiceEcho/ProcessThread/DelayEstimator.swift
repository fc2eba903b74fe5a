import Foundation
import VoiceRT

/// Estimates the bulk delay from the far-end reference to its echo in the microphone (GCC-PHAT).
///
/// speexdsp has no delay estimator: its adaptive filter must span bulk delay plus room tail, and it
/// cancels nothing when the delay exceeds the filter. This estimator finds the bulk delay so the
/// engine can delay the reference and leave the filter only the room.
///
/// Method: both signals are decimated by box-car averaging to about 2 kHz
/// (plenty for speech's delay cues, and half the FFT work of 4 kHz: the FFTs were 6% of the chain's CPU). Every `hop` decimated
/// samples (half a frame), Hann-windowed frames of the last `size` samples are transformed; their cross-spectrum
/// (mic × conj(ref)) is smoothed over updates, whitened to unit magnitude (PHAT) in the 150–950 Hz
/// voice band, and transformed back. The lag of the largest peak in 0…`maximumLag` is a
/// candidate; it becomes the estimate once three updates in a row agree within 1 ms and the peak
/// stands `minimumPeakRatio` above the correlation's RMS. Only frames with far-end signal update
/// the spectrum, so double talk and silence do not drag the estimate.
///
/// Cost is spread over render cycles: one FFT per cycle at most (about 0.1 ms for 4096 points);
/// mic and reference share one complex FFT (real and imaginary parts).
///
/// - Realtime: `process` is safe; `init` allocates.
public struct DelayEstimator: ~Copyable {
    /// Decimated samples per analysis frame (a power of two).
    public let size: Int
    /// Full-rate samples per decimated sample.
    public let decimation: Int
    /// Largest lag searched, in decimated samples.
    public let maximumLag: Int
    /// Decimated samples between analyses.
    let hop: Int

    /// Smoothing of the cross-spectrum per update (closer to 1 = longer memory).
    let smoothing: Float = 0.8
    /// How far the PHAT peak must rise above the correlation's RMS to count.
    let minimumPeakRatio: Float = 10
    /// Mean square (decimated) below which a frame counts as far-end silence.
    let silenceFloor: Float = 1e-7

    private let fft: FFT
    private let window: UnsafeMutablePointer<Float>
    private let micHistory: UnsafeMutablePointer<Float>
    private let refHistory: UnsafeMutablePointer<Float>
    /// Mic (real part) and reference (imaginary part) packed into one complex FFT: two real
    /// transforms for the price of one.
    private let packedRe, packedIm: UnsafeMutablePointer<Float>
    /// The whitened cross-spectrum, then (after the inverse FFT) the correlation by lag.
    private let correlation, correlationIm: UnsafeMutablePointer<Float>
    private let crossRe, crossIm: UnsafeMutablePointer<Float>
    private let lowBin: Int
    private let highBin: Int

    private var historyIndex = 0
    private var untilHop: Int
    private var micSum: Float = 0
    private var refSum: Float = 0
    private var phase = 0
    /// 0: idle; 1: forward FFT due; 2: combine due; 3: inverse FFT and peak search due.
    private var stage = 0
    private var candidate = -1
    private var agreeingUpdates = 0

    /// Latest accepted estimate in full-rate samples, or -1 before the first.
    public private(set) var estimate = -1
    /// Peak-to-RMS ratio of the last accepted peak (higher is surer; ≥ 10 to be accepted).
    public private(set) var confidence: Float = 0
    /// Analyses done with far-end signal present (for tests and diagnostics).
    public private(set) var analyses = 0
    /// The last clear peak's lag in full-rate samples, refined between decimated samples by a
    /// parabola through the peak and its neighbours (for the drift estimate); -1 before the first.
    public private(set) var preciseLag: Double = -1
    /// Full-rate samples seen when the analysis behind `preciseLag` started.
    public private(set) var preciseLagTime = 0
    /// Clear peaks found so far (each updates `preciseLag`).
    public private(set) var peaks = 0
    private var samplesSeen = 0
    private var analysisTime = 0
    /// Clock drift from the turning of the cross-spectrum between analyses (see PhaseDrift).
    var phaseDrift: PhaseDrift

    /// An estimator for `sampleRate` Hz searching delays up to `maximumDelaySeconds`.
    public init(sampleRate: Int, maximumDelaySeconds: Double) {
        decimation = max(1, Int((Double(sampleRate) / 2000).rounded()))
        let decimatedRate = Double(sampleRate) / Double(decimation)
        maximumLag = max(1, Int(maximumDelaySeconds * decimatedRate))
        // The frame must hold the longest lag plus enough overlap (≥ 1024 samples, 0.25 s) for
        // the correlation; negative lags wrap to N − lag, outside the searched 0…maximumLag.
        var n = 1024
        while n < maximumLag + 1024 { n <<= 1 }
        size = n
        hop = n / 2
        untilHop = hop
        fft = FFT(size: n)
        lowBin = Int(150 * Double(n) / decimatedRate)
        highBin = min(n / 2 - 1, Int(950 * Double(n) / decimatedRate))
        window = HannWindow.allocate(n)
        func zeroed() -> UnsafeMutablePointer<Float> { .zeroed(n) }
        micHistory = zeroed()
        refHistory = zeroed()
        packedRe = zeroed()
        packedIm = zeroed()
        correlation = zeroed()
        correlationIm = zeroed()
        crossRe = zeroed()
        crossIm = zeroed()
        phaseDrift = PhaseDrift(lowBin: lowBin, highBin: highBin, size: n, decimation: decimation)
    }

    deinit {
        for p in [window, micHistory, refHistory, packedRe, packedIm, correlation, correlationIm, crossRe, crossIm] {
            p.deallocate()
        }
        phaseDrift.deallocate()
    }

    /// Feeds `frames` samples of mic and (undelayed, mono) reference and advances the analysis by
    /// at most one FFT; with `advance` false the analysis waits for a later call (the samples are
    /// still taken). Returns true when a new estimate was accepted.
    /// - Realtime: safe.
    @_noLocks
    public mutating func process(
        mic: UnsafePointer<Float>, reference: UnsafePointer<Float>, frames: Int, advance: Bool = true
    ) -> Bool {
        decimate(mic: mic, reference: reference, frames: frames)
        guard advance else { return false }
        switch stage {
        case 1:
            fft.forward(packedRe, packedIm)
            stage = 2
        case 2:
            combine()
            stage = 3
        case 3:
            stage = 0
            fft.inverse(correlation, correlationIm)
            return acceptPeak()
        default:
            break
        }
        return false
    }

    /// Box-car decimation into the history rings; starts an analysis every `hop` samples.
    @inline(__always) @_noLocks
    private mutating func decimate(mic: UnsafePointer<Float>, reference: UnsafePointer<Float>, frames: Int) {
        let scale = 1 / Float(decimation)
        for i in 0..<frames {
            micSum += mic[i]
            refSum += reference[i]
            phase += 1
            samplesSeen += 1
            guard phase == decimation else { continue }
            micHistory[historyIndex] = micSum * scale
            refHistory[historyIndex] = refSum * scale
            historyIndex = (historyIndex + 1) & (size - 1)
            micSum = 0
            refSum = 0
            phase = 0
            untilHop -= 1
            if untilHop == 0 {
                untilHop = hop
                if stage == 0 { startAnalysis() }
            }
        }
    }

    /// Copies the windowed histories (oldest first) into the FFT buffers, if the far end spoke.
    @_noLocks
    private mutating func startAnalysis() {
        var refPower: Float = 0
        for i in 0..<size {
            let j = (historyIndex + i) & (size - 1)
            packedRe[i] = micHistory[j] * window[i]
            packedIm[i] = refHistory[j] * window[i]
            refPower += refHistory[j] * refHistory[j]
        }
        if refPower / Float(size) > silenceFloor {
            stage = 1
            analysisTime = samplesSeen
        }
    }

    /// Unpacks the two spectra, smooths their cross-spectrum and whitens it (PHAT) into
    /// `correlation` as a Hermitian spectrum, ready for the inverse FFT.
    @_noLocks
    private mutating func combine() {
        analyses += 1
        let a = smoothing
        for k in 0..<size {
            correlation[k] = 0
            correlationIm[k] = 0
        }
        for k in lowBin...highBin {
            // Z = FFT(mic + i·ref): X[k] = (Z[k] + conj Z[N−k]) / 2, Y[k] = (Z[k] − conj Z[N−k]) / 2i.
            let zr = packedRe[k], zi = packedIm[k]
            let cr = packedRe[size - k], ci = packedIm[size - k]
            let xr = 0.5 * (zr + cr), xi = 0.5 * (zi - ci)
            let yr = 0.5 * (zi + ci), yi = 0.5 * (cr - zr)
            // X · conj(Y): its inverse transform peaks at lag d when mic[n] ≈ h · ref[n − d].
            let re = xr * yr + xi * yi
            let im = xi * yr - xr * yi
            phaseDrift.store(k, re: re, im: im)
            crossRe[k] = a * crossRe[k] + (1 - a) * re
            crossIm[k] = a * crossIm[k] + (1 - a) * im
            let magnitude = RealtimeMath.squareRoot(crossRe[k] * crossRe[k] + crossIm[k] * crossIm[k])
            guard magnitude > 1e-20 else { continue }
            correlation[k] = crossRe[k] / magnitude
            correlationIm[k] = crossIm[k] / magnitude
            correlation[size - k] = correlation[k]
            correlationIm[size - k] = -correlationIm[k]
        }
        phaseDrift.record(time: analysisTime, hopSamples: hop * decimation)
    }

    /// Finds the largest |correlation| in 0…maximumLag and applies the agreement rule.
    @_noLocks
    private mutating func acceptPeak() -> Bool {
        var best = 0
        var bestValue: Float = 0
        var power: Float = 0
        for k in 0..<size { power += correlation[k] * correlation[k] }
        for k in 0...min(maximumLag, size - 1) where abs(correlation[k]) > bestValue {
            bestValue = abs(correlation[k])
            best = k
        }
        let rms = RealtimeMath.squareRoot(power / Float(size))
        let ratio = rms > 0 ? bestValue / rms : 0
        guard ratio >= minimumPeakRatio else {
            agreeingUpdates = 0
            return false
        }
        refineLag(best)
        let tolerance = 2  // decimated samples: 1 ms at ~2 kHz
        if candidate >= 0 && abs(best - candidate) <= tolerance {
            agreeingUpdates += 1
        } else {
            candidate = best
            agreeingUpdates = 1
        }
        guard agreeingUpdates >= 3 else { return false }
        confidence = ratio
        let newEstimate = best * decimation
        let changed = newEstimate != estimate
        estimate = newEstimate
        return changed
    }

    /// Sets `preciseLag` from the peak at decimated lag `best` and its two neighbours.
    @inline(__always) @_noLocks
    private mutating func refineLag(_ best: Int) {
        var offset = 0.0
        if best > 0 && best < size - 1 {
            let a = Double(abs(correlation[best - 1]))
            let b = Double(abs(correlation[best]))
            let c = Double(abs(correlation[best + 1]))
            let curvature = a - 2 * b + c
            if curvature < 0 { offset = max(-0.5, min(0.5, 0.5 * (a - c) / curvature)) }
        }
        preciseLag = (Double(best) + offset) * Double(decimation)
        preciseLagTime = analysisTime
        peaks += 1
    }
}
