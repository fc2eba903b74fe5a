import Foundation
import VoiceRT

/// How much of the canceller's output is still echo: the share of its power that the
/// reference's last 8 frames explain, fitted by least squares bin by bin, and the post-filter
/// gain that follows from it.
///
/// The post-filter's other estimates work from the canceller's echo estimate, so they fail
/// exactly when the canceller is wrong: right after the echo path changes (a laptop moved, a
/// door opened), the filter still models the old room and its estimate no longer matches the mic.
/// This one does not use the filter. Per FFT bin k it keeps the reference's spectra of the last
/// 8 frames (64 ms at 8 ms frames: the direct path and the early reflections; one `SIMD8` lane
/// each), x_k, and smooths R = E[x xᴴ] and r = E[x e*] against the canceller's error e over
/// `timeConstant` seconds. The power a filter of 8 frames can explain of e is
/// rᴴ R⁻¹ r; over the bins of 200–4000 Hz (every `binStep`th bin: the window makes neighbours
/// alike) its sum over Σ E|e|² is the leftover share L.
///
/// Where the far end talks alone and the filter has just been wrong-footed, e is echo and L is
/// high (0.6–0.8 in the yardstick's first second after a path change). Where the near end talks,
/// e is mostly voice that no reference explains and L is low, save the fit's own bias: 8
/// unknowns fitted to ~2τ/frame frames explain ~8·frame/2τ of anything (0.1–0.2), which
/// `bias` takes off. The amplitude gain is then (1 − L')^`exponent`, L' = (L − bias)/(1 − bias),
/// and the post-filter multiplies its coherence gain by it (taking the smaller of the two
/// instead removed 3 dB less after a path change).
///
/// A near-end talker's first syllables would still meet statistics from the far end's stretch
/// before them, for up to ~τ. So a frame whose mic stands `onsetRatio` (4.8 dB) above the echo
/// path's recent gain (mic power over the held reference power, against its own ~0.2 s average)
/// opens the gain for `openFrames` frames and halves r (`onsetForget`), so the fit forgets that
/// stretch faster. In the yardstick's double talk the onsets were where this gain cost: opening
/// without forgetting cost double talk for little more of the path change; a higher ratio cost
/// double-talk STOI, a lower one let the path change itself open the gain and keep much of its
/// echo in the first second (runs: docs/measurement-history.md).
///
/// The reference spectra come two frames to an FFT (two real signals in one complex transform),
/// so the statistics of every other frame are updated one frame late.
///
/// - Realtime: `addReference`, `addError`, `endFrame` and `observe` are safe; `init` allocates,
///   `deallocate` frees.
struct LeftoverEcho {
    /// Seconds over which the spectra are averaged.
    static let timeConstant: Float = 0.2
    /// Every how many FFT bins one is fitted.
    static let binStep = 2

    /// The fit's share of any signal, taken off L before the gain (with 8 taps and 0.2 s at
    /// 8 ms frames the fit explains ~0.16 of pure noise).
    let bias: Float = 0.2
    /// Frames between fits; the statistics update every frame (4 frames of 8 ms: 32 ms, far
    /// below the 0.2 s the statistics average over; every 8 frames cost 16 kHz double talk
    /// 0.002 STOI).
    let solveEvery = 4
    /// Rise of the mic over the held reference (power ratio, 4.8 dB) that opens the gain.
    let onsetRatio: Float = 3
    /// Frames the gain stays open after an onset (64 ms at 8 ms frames).
    let openFrames = 8
    /// Factor on r at each onset frame: the fit forgets the far end's stretch before the talker
    /// faster, so the gain does not close again on the talker's next syllable.
    let onsetForget: Float = 0.5

    /// Exponent on 1 − L' (0 switches the gain off). A live control (`setExponent`).
    private(set) var exponent: Float
    /// FFT bins fitted.
    let bins: Int
    private let weight: Float
    /// Per bin: the reference's last 8 spectra, newest first (re, im: 2 vectors).
    private let history: UnsafeMutablePointer<SIMD8<Float>>
    /// Per bin: R, row by row (row a holds x_a · conj(x_b) for every b; re, im: 16 vectors).
    private let covariance: UnsafeMutablePointer<SIMD8<Float>>
    /// Per bin: r (x_a · conj(e) for every a; re, im: 2 vectors).
    private let cross: UnsafeMutablePointer<SIMD8<Float>>
    /// Per bin: the smoothed error power.
    private let errorPower: UnsafeMutablePointer<Float>
    /// Cholesky factor and solution scratch, for 8 bins side by side (one per lane).
    private let factorReal, factorImaginary, solutionReal, solutionImaginary: UnsafeMutablePointer<SIMD8<Float>>
    private var frame = 0
    private var share: Float = 0
    /// Onset detection: the held reference power, the mic-over-reference average, frames open.
    private var heldReference: HeldReferenceLevel
    private var pathGain: Float = 0
    private var openLeft = 0
    private let pathWeight: Float

    /// The power gain for the last frame observed: (1 − L')^(2·exponent), or 1.
    private(set) var powerGain: Float = 1

    /// True when the gain takes part (exponent above 0).
    private(set) var isOn: Bool

    /// A fit over `bins` FFT bins for `frameSize`-sample frames at `sampleRate` Hz.
    init(exponent: Float, bins: Int, frameSize: Int, sampleRate: Int) {
        self.exponent = exponent
        isOn = exponent > 0
        self.bins = bins
        let frameSeconds = Float(frameSize) / Float(sampleRate)
        weight = 1 - exp(-frameSeconds / Self.timeConstant)
        pathWeight = 1 - exp(-frameSeconds / 0.2)
        heldReference = HeldReferenceLevel(frameSize: frameSize, sampleRate: sampleRate)
        func vectors(_ count: Int) -> UnsafeMutablePointer<SIMD8<Float>> {
            let p = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: count)
            p.initialize(repeating: .zero, count: count)
            return p
        }
        history = vectors(2 * bins)
        covariance = vectors(16 * bins)
        cross = vectors(2 * bins)
        errorPower = .zeroed(bins)
        factorReal = vectors(64)
        factorImaginary = vectors(64)
        solutionReal = vectors(8)
        solutionImaginary = vectors(8)
    }

    /// Frees the statistics; call once, from the thread that owns the engine.
    func deallocate() {
        for p in [history, covariance, cross, factorReal, factorImaginary, solutionReal, solutionImaginary] {
            p.deallocate()
        }
        errorPower.deallocate()
    }

    /// Sets the exponent (clamped to 0...4; 0 or NaN switches the gain off). Switched on again,
    /// the statistics pick up where they stopped and follow the room within ~0.2 s.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func setExponent(_ value: Float) {
        exponent = value > 0 ? min(value, 4) : 0
        isOn = exponent > 0
        if !isOn { powerGain = 1 }
    }

    /// Takes one frame's reference spectrum at fitted bin `i` (the frame's error follows).
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func addReference(_ i: Int, re: Float, im: Float) {
        let old = (history[2 * i], history[2 * i + 1])
        let xr = SIMD8<Float>(re, old.0[0], old.0[1], old.0[2], old.0[3], old.0[4], old.0[5], old.0[6])
        let xi = SIMD8<Float>(im, old.1[0], old.1[1], old.1[2], old.1[3], old.1[4], old.1[5], old.1[6])
        history[2 * i] = xr
        history[2 * i + 1] = xi
        let c = covariance + 16 * i
        let w = weight
        for a in 0..<8 {
            // Row a: x_a · conj(x_b) for every b.
            let ar = xr[a]
            let ai = xi[a]
            c[2 * a] += w * (ar * xr + ai * xi - c[2 * a])
            c[2 * a + 1] += w * (ai * xr - ar * xi - c[2 * a + 1])
        }
    }

    /// Takes the same frame's error spectrum at fitted bin `i`.
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func addError(_ i: Int, re er: Float, im ei: Float) {
        let xr = history[2 * i]
        let xi = history[2 * i + 1]
        let w = weight
        // x_a · conj(e) for every a.
        cross[2 * i] += w * (xr * er + xi * ei - cross[2 * i])
        cross[2 * i + 1] += w * (xi * er - xr * ei - cross[2 * i + 1])
        errorPower[i] += w * (er * er + ei * ei - errorPower[i])
    }

    /// Ends a frame whose spectra were all added: every `solveEvery` frames, fits every bin
    /// anew and sums the share. (Fitting a quarter of the bins each frame instead, so that no
    /// frame carries every fit, updated the share every frame from fits of mixed age and removed
    /// less of a path change, most in its first second: docs/measurement-history.md.)
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func endFrame() {
        frame += 1
        guard frame >= solveEvery else { return }
        frame = 0
        var explained: Float = 0
        var total: Float = 0
        var first = 0
        while first < bins {
            let powers = explainedPowers(from: first)
            for lane in 0..<min(8, bins - first) {
                explained += powers[lane]
                total += errorPower[first + lane]
            }
            first += 8
        }
        share = total > 0 ? min(max(explained / total, 0), 1) : 0
    }

    /// Takes one frame's mic and reference mean squares and sets `powerGain` for it.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func observe(micPower: Float, referencePower: Float) {
        let gain = micPower / max(heldReference.update(referencePower), 1e-10)
        if pathGain > 0 && gain > onsetRatio * pathGain {
            openLeft = openFrames
            for i in 0..<(2 * bins) { cross[i] *= onsetForget }
        }
        pathGain += pathWeight * (gain - pathGain)
        guard isOn else { return }
        if openLeft > 0 {
            openLeft -= 1
            powerGain = 1
            return
        }
        let leftover = max(0, (share - bias) / (1 - bias))
        powerGain = RealtimeMath.power(max(1 - leftover, 1e-3), 2 * exponent)
    }

    /// rᴴ R⁻¹ r at the 8 fitted bins from `first`, one per lane, through a Cholesky factor of R
    /// (loaded with 10⁻⁴ of its mean diagonal, so silent bins and a reference of pure tone stay
    /// solvable); a bin whose R is not positive definite reads 0, and lanes past the last bin
    /// hold R = I, r = 0 and read 0.
    ///
    /// Eight bins go side by side because one 8 × 8 solve is too small to vectorise and the 21
    /// solves of a 48 kHz fit were the heaviest process cycle at 64-sample periods. Each lane
    /// does the operations of a one-bin solve in the same order (no reassociation, no fused
    /// multiply-add), so its value is that solve's to the bit.
    @_noLocks
    private func explainedPowers(from first: Int) -> SIMD8<Float> {
        let n = 8
        let count = min(bins - first, 8)
        /// Lane j: element `element` of vector `vector` of bin first + j's block of `stride`
        /// vectors in `statistics`; `fill` in the lanes past the last bin.
        @inline(__always)
        func gather(
            _ statistics: UnsafeMutablePointer<SIMD8<Float>>, stride: Int, _ vector: Int, _ element: Int,
            fill: Float = 0
        ) -> SIMD8<Float> {
            var v = SIMD8<Float>(repeating: fill)
            for lane in 0..<count { v[lane] = statistics[stride * (first + lane) + vector][element] }
            return v
        }
        var trace = SIMD8<Float>()
        for a in 0..<n { trace += gather(covariance, stride: 16, 2 * a, a, fill: 1) }
        let load = 1e-4 * trace / Float(n) + 1e-20
        var broken = SIMDMask<SIMD8<Int32>>()
        // L Lᴴ = R, L lower triangular; L[a][b] stored at a * n + b.
        for a in 0..<n {
            for b in 0...a {
                var sr = gather(covariance, stride: 16, 2 * a, b, fill: a == b ? 1 : 0)
                var si = gather(covariance, stride: 16, 2 * a + 1, b)
                if a == b { sr += load }
                for k in 0..<b {
                    // − L[a][k] · conj(L[b][k])
                    let ar = factorReal[a * n + k]
                    let ai = factorImaginary[a * n + k]
                    let br = factorReal[b * n + k]
                    let bi = factorImaginary[b * n + k]
                    sr -= ar * br + ai * bi
                    si -= ai * br - ar * bi
                }
                if a == b {
                    // A lane that breaks down goes on with NaNs of its own and reads 0 at the end.
                    broken .|= .!(sr .> 0)
                    factorReal[a * n + a] = RealtimeMath.squareRoot(sr)
                    factorImaginary[a * n + a] = .zero
                } else {
                    let d = factorReal[b * n + b]
                    factorReal[a * n + b] = sr / d
                    factorImaginary[a * n + b] = si / d
                }
            }
        }
        // Solve L y = r; then rᴴ R⁻¹ r = |y|².
        var power = SIMD8<Float>()
        for a in 0..<n {
            var sr = gather(cross, stride: 2, 0, a)
            var si = gather(cross, stride: 2, 1, a)
            for k in 0..<a {
                let lr = factorReal[a * n + k]
                let li = factorImaginary[a * n + k]
                let yr = solutionReal[k]
                let yi = solutionImaginary[k]
                sr -= lr * yr - li * yi
                si -= lr * yi + li * yr
            }
            let d = factorReal[a * n + a]
            solutionReal[a] = sr / d
            solutionImaginary[a] = si / d
            power += solutionReal[a] * solutionReal[a] + solutionImaginary[a] * solutionImaginary[a]
        }
        return power.replacing(with: 0, where: broken)
    }
}
