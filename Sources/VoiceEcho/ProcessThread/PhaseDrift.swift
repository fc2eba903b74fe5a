import Foundation
import VoiceRT

/// Clock drift from how the reference-to-mic cross-spectrum turns between analyses 1.5 s apart.
///
/// With the loudspeaker's clock off by ε, the echo's delay grows by ε seconds per second, and
/// the cross-spectrum of mic and reference at frequency ω turns by −ω·ε·Δt over Δt: the room's
/// own phase cancels out of X(t)·conj(X(t − Δt)). A least-squares line through the origin of
/// those phases against frequency gives the delay change, weighted by the product's magnitude.
/// The peak lag `DelayEstimator` tracks moves in steps between reflections instead (at 16 kHz on
/// the yardstick's drift scenario it went the wrong way for 4 s), so this figure comes sooner.
///
/// Double talk and a moved loudspeaker also turn the phases, but not along one line: a sample
/// counts only when the phases stand close to the line (their weighted mean resultant length
/// about it, `leastAgreement`). A moved loudspeaker's jump does lie on a line, for the
/// `baseline` samples whose span holds it; the figure is the median of the last `window`
/// samples, so it needs more than that many to move.
///
/// On the yardstick's seed 1 and 7 sets (both rates), a numpy model of this read −78 to −106
/// ppm on the 100 ppm scenario 4.6–5.1 s into it, and at most 29 ppm in the first 8 s of the
/// scenarios without drift (path change, nonlinear and noisy double talk, 250 ms delay
/// included). In `DriftEstimatorTests`' synthetic room it reads about a third of the drift (see
/// `PhaseDriftTests`); `EngineState.followDriftFigure` lets the delay slope lead there.
///
/// Baseline `baseline` analyses (1.5 s at `DelayEstimator`'s 0.5 s hops): at 950 Hz the phase
/// stays within ±π up to ~350 ppm, past the ±300 ppm the engine must follow.
///
/// - Realtime: `record` and `figure` are safe; `init` allocates, `deallocate` frees.
struct PhaseDrift {
    /// Analyses between the two spectra compared.
    static var baseline: Int { 3 }
    /// Samples the median is taken over, and how many it needs.
    static let window = 9
    static var leastSamples: Int { 3 }
    /// Largest figure (ppm, either sign) trusted over the delay slope's: beyond it the phases
    /// near the band's top come close to wrapping.
    static var trustedPPM: Double {
        @inline(__always) @_noLocks get { 150 }
    }
    /// Least agreement of the phases with the fitted line for a sample to count (0...1).
    static let leastAgreement: Float = 0.7

    /// First bin and bin count of the band compared (every other bin is used).
    let lowBin: Int
    let bins: Int
    /// FFT size (decimated samples) and full-rate samples per decimated sample.
    let size: Int
    let decimation: Int
    /// The last `baseline + 1` cross-spectra (re, im per bin) and their analysis times.
    private let spectra: UnsafeMutablePointer<Float>
    private let times: UnsafeMutablePointer<Int>
    private var stored = 0
    private var head = 0
    /// The last `window` drift samples (ppm) and a scratch copy for the median.
    private let samples: UnsafeMutablePointer<Double>
    private let scratch: UnsafeMutablePointer<Double>
    private var sampleCount = 0
    private var sampleHead = 0
    /// Samples taken so far (the engine compares it to know when a new one came).
    private(set) var taken = 0

    /// Drift over bins `lowBin...highBin` of a `size`-point FFT of signals decimated by
    /// `decimation`.
    init(lowBin: Int, highBin: Int, size: Int, decimation: Int) {
        self.lowBin = lowBin
        bins = max(1, highBin - lowBin + 1)
        self.size = size
        self.decimation = decimation
        spectra = .zeroed(2 * bins * (Self.baseline + 1))
        times = .allocate(capacity: Self.baseline + 1)
        times.initialize(repeating: 0, count: Self.baseline + 1)
        samples = .allocate(capacity: 2 * Self.window)
        samples.initialize(repeating: 0, count: 2 * Self.window)
        scratch = samples + Self.window
    }

    /// Frees the storage; call exactly once.
    func deallocate() {
        spectra.deallocate()
        times.deallocate()
        samples.deallocate()
    }

    /// Where bin `lowBin + j` of the analysis `slot` keeps its real part (imaginary next to it).
    @inline(__always)
    private func entry(_ slot: Int, _ j: Int) -> UnsafeMutablePointer<Float> {
        spectra + 2 * (slot * bins + j)
    }

    /// Stores bin `k` of the current analysis's cross-spectrum (mic × conj(reference)).
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func store(_ k: Int, re: Float, im: Float) {
        let p = entry(head, k - lowBin)
        p[0] = re
        p[1] = im
    }

    /// Ends the current analysis, taken at full-rate sample `time`, and compares it with the one
    /// `baseline` analyses back when that one is at most one hop further back than planned
    /// (`hopSamples` full-rate samples per hop).
    ///
    /// - Realtime: safe: ~`bins`/2 `atan2` calls.
    @_noLocks
    mutating func record(time: Int, hopSamples: Int) {
        times[head] = time
        let current = head
        head = (head + 1) % (Self.baseline + 1)
        stored = min(stored + 1, Self.baseline + 1)
        guard stored == Self.baseline + 1 else { return }
        // After the advance, `head` is the oldest of the stored analyses.
        let old = head
        let span = time - times[old]
        guard span > 0, span <= (Self.baseline + 1) * hopSamples else { return }
        // Least squares through the origin: phase(k) ≈ slope · k.
        var weightedPhase: Float = 0
        var weightedSquare: Float = 0
        var j = 0
        while j < bins {
            let a = entry(current, j)
            let b = entry(old, j)
            let zr = a[0] * b[0] + a[1] * b[1]
            let zi = a[1] * b[0] - a[0] * b[1]
            let w = RealtimeMath.squareRoot(zr * zr + zi * zi)
            let k = Float(lowBin + j)
            weightedPhase += w * k * RealtimeMath.angle(y: zi, x: zr)
            weightedSquare += w * k * k
            j += 2
        }
        guard weightedSquare > 0 else { return }
        let slope = weightedPhase / weightedSquare
        // Agreement: |Σ Z·e^(−i·slope·k)| / Σ |Z|, the rotation stepped bin by bin.
        let step = 2 * slope
        let stepTurn = RealtimeMath.cosineAndSine(step)
        let stepCos = stepTurn.cos
        let stepSin = -stepTurn.sin
        let start = RealtimeMath.cosineAndSine(slope * Float(lowBin))
        var rotCos = start.cos
        var rotSin = -start.sin
        var sumRe: Float = 0
        var sumIm: Float = 0
        var sumMagnitude: Float = 0
        j = 0
        while j < bins {
            let a = entry(current, j)
            let b = entry(old, j)
            let zr = a[0] * b[0] + a[1] * b[1]
            let zi = a[1] * b[0] - a[0] * b[1]
            sumRe += zr * rotCos - zi * rotSin
            sumIm += zr * rotSin + zi * rotCos
            sumMagnitude += RealtimeMath.squareRoot(zr * zr + zi * zi)
            let c = rotCos * stepCos - rotSin * stepSin
            rotSin = rotCos * stepSin + rotSin * stepCos
            rotCos = c
            j += 2
        }
        let agreement = sumMagnitude > 0 ? RealtimeMath.squareRoot(sumRe * sumRe + sumIm * sumIm) / sumMagnitude : 0
        guard agreement >= Self.leastAgreement else { return }
        // Phase −2π·k/N·Δτ: the delay grew by Δτ decimated samples over `span` samples.
        let delayChange = -Double(slope) * Double(size) / (2 * Double.pi) * Double(decimation)
        take(delayChange / Double(span) * 1e6)
    }

    /// Takes one drift sample (ppm) into the window.
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func take(_ ppm: Double) {
        samples[sampleHead] = ppm
        sampleHead = (sampleHead + 1) % Self.window
        sampleCount = min(sampleCount + 1, Self.window)
        taken += 1
    }

    /// The median of the last `window` samples (ppm), or nil before `leastSamples`.
    ///
    /// - Realtime: safe.
    @_noLocks
    func figure() -> Double? {
        guard sampleCount >= Self.leastSamples else { return nil }
        for i in 0..<sampleCount { scratch[i] = samples[i] }
        return median(of: sampleCount)
    }

    /// The figure, when the samples behind it agree: their median absolute deviation from it is
    /// at most `steadySpread` of its size. Nil otherwise, or before `leastSamples`.
    ///
    /// A clock drift turns the phases alike from one comparison to the next. On recorded voices
    /// without drift the few samples that pass `leastAgreement` in the first seconds scatter
    /// widely, and their median can stand past `phaseEngagePPM` (figures in
    /// docs/measurements.md): such a figure must not engage following.
    ///
    /// - Realtime: safe.
    @_noLocks
    func steadyFigure() -> Double? {
        guard let middle = figure() else { return nil }
        for i in 0..<sampleCount { scratch[i] = abs(samples[i] - middle) }
        return median(of: sampleCount) <= Self.steadySpread * abs(middle) ? middle : nil
    }

    /// Most median absolute deviation of the samples, as a share of their median, for
    /// `steadyFigure`: the yardstick's drifts stay well inside it (docs/measurements.md).
    static var steadySpread: Double {
        @inline(__always) @_noLocks get { 0.5 }
    }

    /// Sorts the first `count` entries of `scratch` and returns their median.
    @_noLocks
    private func median(of count: Int) -> Double {
        for i in 1..<max(1, count) {
            let v = scratch[i]
            var j = i
            while j > 0 && scratch[j - 1] > v {
                scratch[j] = scratch[j - 1]
                j -= 1
            }
            scratch[j] = v
        }
        return count % 2 == 1 ? scratch[count / 2] : 0.5 * (scratch[count / 2 - 1] + scratch[count / 2])
    }
}
