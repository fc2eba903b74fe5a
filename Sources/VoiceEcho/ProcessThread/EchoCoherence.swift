import Foundation
import VoiceRT

/// How much of the microphone the canceller's echo estimate explains, bin by bin: the
/// magnitude-squared coherence C = |S_ŷd|² / (S_ŷŷ · S_dd) of the echo estimate ŷ and the mic d,
/// from auto and cross spectra smoothed over frames.
///
/// Where only the far end plays, the mic is echo and C is near 1 wherever the linear filter models
/// it, including its reverberant tail that the filter's own error still carries. Where the near
/// end talks, the part of the mic that ŷ cannot explain grows and C falls. The post-filter uses
/// 1 − C as a suppression gain that, unlike its tail model, does not depend on knowing the room:
/// on the public yardstick it removes more echo where only the far end plays and after an
/// echo-path change (figures in `docs/measurements.md`). Its price is double talk: 1 − C follows the mic's
/// share of near-end voice, not the error's, so a loud echo under the near end lowers the gain
/// although the linear filter removed that echo. Hence the exponent (`drive`) that softens it.
///
/// The spectra are smoothed with a time constant of `timeConstant` seconds: shorter estimates
/// scatter more, and the scatter itself takes gain away during double talk (at drive 0.3, 0.16 s
/// and 0.4 s cost 0.007 and 0.003 double-talk STOI against 0.8 s, at the same echo removal).
/// That memory also held the coherence, and its 2–3 dB cut, through a talker's words long after
/// the echo had died away. So for the gain a bin's mic power rises within `talkerRiseTimeConstant` where the
/// mic grows and the echo estimate does not (a talker's onset); where both grow (the far end's
/// onset, which the echo estimate follows) it keeps the long memory, or the coherence would fall
/// at every far-end onset (mic alone at 0.05 s removed less far-end-only echo). The yardstick's
/// long-delay double talk gained from it (figures in `docs/measurements.md`).
///
/// - Realtime: `accumulate` and `suppression` are safe; `init` allocates, `deallocate` frees.
struct EchoCoherence {
    /// Seconds over which the spectra are averaged (exponential, per frame).
    static let timeConstant = 0.8
    /// Least 1 − C before the exponent (−20 dB): at drive 0.3 the coherence takes at most 12 dB.
    static let leastUnexplained: Float = 0.01
    /// Seconds over which a bin's mic power rises at a talker's onset.
    static let talkerRiseTimeConstant = 0.05
    /// A mic bin rising counts as a talker's onset while the echo estimate's power stays under
    /// this share of its average (at 1, the echo estimate's own frame-to-frame scatter let the
    /// path change's residual pass as a talker, and less echo was removed after it).
    static let echoRiseShare: Float = 0.5

    /// Exponent on 1 − C (0 switches the coherence gain off): 1 is the full Wiener-like gain,
    /// lower values keep double talk and remove less. A live control (`setDrive`).
    private(set) var drive: Float
    /// Weight of the newest frame in a mic bin's power at a talker's onset.
    private let talkerRiseWeight: Float
    /// The smoothed auto and cross spectra, over `timeConstant`.
    private let spectra: SmoothedCrossSpectra
    /// |D|² as the gain sees it: rising within `talkerRiseTimeConstant` at a talker's onset.
    /// The explained share (the health figure's double-talk test) keeps the spectra's mic power:
    /// with the fast rise it also left out the canceller's own bad frames and read 5 dB high.
    private let gainMicPower: UnsafeMutablePointer<Float>

    /// True when the coherence gain takes part (drive above 0). Stored, not computed: the
    /// process thread reads it every bin.
    private(set) var isOn: Bool

    /// Statistics for `bins` FFT bins of frames `frameSize` samples long at `sampleRate` Hz.
    init(drive: Float, bins: Int, frameSize: Int, sampleRate: Int) {
        self.drive = drive
        isOn = drive > 0
        let frameSeconds = Double(frameSize) / Double(sampleRate)
        talkerRiseWeight = Float(1 - exp(-frameSeconds / Self.talkerRiseTimeConstant))
        spectra = SmoothedCrossSpectra(
            bins: bins, frameSize: frameSize, sampleRate: sampleRate, timeConstant: Self.timeConstant)
        gainMicPower = .zeroed(max(bins, 1))
    }

    /// Sets the exponent (clamped to 0...1; 0 or NaN switches the gain off). Switched on again,
    /// the statistics pick up where they stopped and follow the room within ~`timeConstant`.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func setDrive(_ value: Float) {
        drive = value > 0 ? min(value, 1) : 0
        isOn = drive > 0
    }

    /// Frees the spectra; call once, from the thread that owns the engine.
    func deallocate() {
        spectra.deallocate()
        gainMicPower.deallocate()
    }

    /// Adds one frame's bin `k`: the echo estimate's spectrum (yr, yi) and the mic's (dr, di).
    ///
    /// - Realtime: safe.
    @inline(__always) @_noLocks
    func accumulate(_ k: Int, yr: Float, yi: Float, dr: Float, di: Float) {
        let mic = dr * dr + di * di
        let echo = yr * yr + yi * yi
        let talkerOnset = mic > gainMicPower[k] && echo <= Self.echoRiseShare * spectra.echoPower[k]
        gainMicPower[k] += (talkerOnset ? talkerRiseWeight : spectra.newWeight) * (mic - gainMicPower[k])
        spectra.accumulate(k, yr: yr, yi: yi, dr: dr, di: di)
    }

    /// The share of the mic's power the echo estimate explains over bins `bins`, in 0...1: the
    /// coherence weighted by the mic's power, Σ |S_ŷd|² / S_ŷŷ over Σ S_dd. Near 1 where only the
    /// far end's echo (and little noise) reaches the mic; a talker pulls it down by their share.
    ///
    /// - Realtime: safe.
    @_noLocks
    func explainedShare(_ bins: Range<Int>) -> Float { spectra.explainedShare(bins) }

    /// The power gain the coherence allows over bins `bins`: (1 − mean C)^(2 · drive), in 0...1.
    ///
    /// - Realtime: safe.
    @_noLocks
    func suppression(_ bins: Range<Int>) -> Float {
        var coherence: Float = 0
        let crossReal = spectra.crossReal, crossImaginary = spectra.crossImaginary
        for k in bins {
            let cross = crossReal[k] * crossReal[k] + crossImaginary[k] * crossImaginary[k]
            coherence += cross / max(spectra.echoPower[k] * gainMicPower[k], 1e-30)
        }
        let unexplained = max(1 - coherence / Float(max(bins.count, 1)), Self.leastUnexplained)
        return RealtimeMath.power(unexplained, 2 * drive)
    }
}
