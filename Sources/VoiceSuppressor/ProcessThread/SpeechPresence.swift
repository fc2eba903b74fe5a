import Foundation
import VoiceUnits

/// How likely each bin of a frame holds speech, after Cohen's optimally-modified LSA
/// (I. Cohen and B. Berdugo, "Speech enhancement for non-stationary noise environments",
/// Signal Processing 81(11), 2001).
///
/// The a-priori probability that speech is absent, q, comes from the a-priori SNR ξ smoothed
/// over time (a 22 ms time constant) and over neighbouring bins (¼, ½, ¼), ζ. A level of ζ
/// maps to a presence between 0 at −10 dB and 1 at −5 dB (linear in log ζ), once per bin (the
/// local presence, at least 0.2) and once for the mean ζ over 200–4000 Hz (the frame's
/// presence, at least 0.5); q = 1 − local · frame. The conditional presence probability of a
/// bin given what it holds is then p = 1 / (1 + q/(1−q) · (1+ξ) · e^(−v)), v = ξγ/(1+ξ).
///
/// The frame's presence also says how hard residual echo may be suppressed: the suppressor
/// blends from `echo_suppress_db` (no voice) to `echo_suppress_active_db` (voice) with it.
///
/// - Realtime: `update` is safe; `init` allocates, deinit frees.
struct SpeechPresence: ~Copyable {
    let lowestLevelDB: Float = -10
    let highestLevelDB: Float = -5
    let leastLocal: Float = 0.2
    /// At least half: Cohen's 0.1 let a quiet frame's bins fall to the floor even where they held
    /// speech; 0.5 scored better on noise suppression and long-delay double talk at both rates
    /// (docs/measurement-history.md).
    let leastFrame: Float = 0.5

    let bins: Int
    let bandStart: Int
    let bandEnd: Int
    /// Per frame: how much of ζ is kept.
    let smoothing: Float
    /// Per bin: ζ, and this frame's presence probability p (after `update`).
    private let smoothedPrior: UnsafeMutablePointer<Float>
    let probability: UnsafeMutablePointer<Float>
    /// This frame's presence (after `update`), 0.5...1.
    private(set) var frame: Float = 0
    private var started = false

    init(bins: Int, bandStart: Int, bandEnd: Int, hopSeconds: Float) {
        self.bins = bins
        self.bandStart = bandStart
        self.bandEnd = max(bandEnd, bandStart + 1)
        smoothing = exp2f(-hopSeconds / 0.022 * 1.442_695)
        smoothedPrior = .zeroed(bins)
        probability = .zeroed(bins)
    }

    deinit {
        smoothedPrior.deallocate()
        probability.deallocate()
    }

    /// Updates ζ and the presence probabilities from this frame's a-priori SNRs `prior` (ξ) and
    /// `v` = ξγ/(1+ξ), `bins` values each.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func update(prior: UnsafePointer<Float>, v: UnsafePointer<Float>) {
        let s = started ? smoothing : 0
        started = true
        let n = bins
        let zeta = smoothedPrior
        let probability = probability
        // Each loop is branch-free over plain pointers, so it vectorises; the edges take their
        // missing neighbour from themselves.
        zeta[0] = s * zeta[0] + (1 - s) * (0.75 * prior[0] + 0.25 * prior[min(1, n - 1)])
        if n > 1 {
            for k in 1..<n - 1 {
                zeta[k] = s * zeta[k] + (1 - s) * (0.5 * prior[k] + 0.25 * (prior[k - 1] + prior[k + 1]))
            }
            zeta[n - 1] = s * zeta[n - 1] + (1 - s) * (0.75 * prior[n - 1] + 0.25 * prior[n - 2])
        }
        var sum: Float = 0
        for k in bandStart..<bandEnd { sum += zeta[k] }
        let frame = leastFrame + (1 - leastFrame) * presence(sum / Float(bandEnd - bandStart))
        self.frame = frame
        let leastLocal = leastLocal
        for k in 0..<n {
            let local = leastLocal + (1 - leastLocal) * presence(zeta[k])
            let absent = min(max(1 - frame * local, 0.001), 0.999)
            let odds = absent / (1 - absent) * (1 + prior[k]) * FastDecibels.exp2(-min(v[k], 50) * 1.442_695)
            probability[k] = 1 / (1 + odds)
        }
    }

    /// 0 at and under −10 dB, 1 at and over −5 dB, linear in dB between.
    @inline(__always) @_noLocks
    func presence(_ level: Float) -> Float {
        let db = FastDecibels.fromPower(level)
        return min(max((db - lowestLevelDB) / (highestLevelDB - lowestLevelDB), 0), 1)
    }
}
