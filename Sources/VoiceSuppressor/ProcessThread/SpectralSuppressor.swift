import Foundation
import VoiceRT
import VoiceUnits

/// Suppresses noise and the canceller's residual echo in the voice, one canceller frame at a
/// time, with one frame of latency: voicerack's own preprocessor, in the place of speexdsp's.
///
/// Per frame, the last four frames are analysed under an asymmetric window (a long rise over
/// three frames, a short fall over the newest), zero-padded to a power of two; the gains are
/// applied there and the result is overlap-added under a synthesis window over the newest two
/// frames, so the frame before the newest is complete and leaves: latency exactly one frame,
/// as speexdsp's preprocessor had, with the frequency resolution of a four-frame window.
///
/// The gain is Cohen's optimally-modified log-spectral amplitude (OM-LSA): per bin, the LSA
/// gain G of the a-priori SNR ξ (decision-directed: a share of the last frame's clean estimate,
/// the rest this frame's excess power; the share follows what the bin's noise is made of) and
/// the a-posteriori SNR γ, against noise + residual echo, blended in the log domain with the
/// floor G_min by the speech presence probability p: gain = G^p · G_min^(1−p) (`SpeechPresence`).
/// The floor mixes the noise's floor (`NoiseSpectrumTracker`: deep for steady noise, shallow for
/// babble) with the echo's (from `echo_suppress_db` without voice towards
/// `echo_suppress_active_db` with it, by the frame's speech presence, which is at least ½), by
/// their powers. The noise comes from `NoiseSpectrumTracker`, the residual echo from
/// `CancellerResidual`, held with a release of 0.85 per 8 ms: the echo's room tail, which the
/// canceller's residual (the echo estimate's last two frames) leaves out.
///
/// Its yardstick figures against speexdsp's preprocessor (echo-cancel against
/// echo-cancel-speexdsp) are in docs/measurements.md. Its tuning is for 8 ms frames
/// (echo-cancel's); longer frames take less steady noise.
///
/// - Realtime: `process` is safe; `init` allocates, deinit frees.
public struct SpectralSuppressor: ~Copyable, NoiseSuppressor {
    let frameSize: Int
    let fft: RealFFT
    let bins: Int
    /// Samples of latency: one frame (see above).
    public var latency: Int { frameSize }
    /// Size of the FFT a residual spectrum must be on: half this one's.
    public var residualFFTSize: Int { fft.size / 2 }
    /// Remove noise (preset key `noise_suppression`); off, only the residual echo is taken.
    let denoise: Bool
    /// Echo floors (dB): without voice and during double talk.
    let echoFloorDB: Float
    let echoActiveFloorDB: Float
    /// Decision-directed weights of the last frame's clean estimate in ξ, per frame (not scaled by
    /// the frame's length: scaled to 0.81 for 16 ms frames, steady noise came down 12 dB, not 19).
    /// Each bin's weight mixes them by what its noise is made of: residual echo moves fast, steady
    /// noise slowly, babble's estimate reads high and takes the most smoothing against musical
    /// noise. Against one weight for all, the noise's weights raise noise-suppression PESQ and the
    /// echo's raises double-talk STOI at some cost to the far end alone, which the release below
    /// gives back (figures: docs/measurement-history.md, "voicerack's suppressor in echo-cancel").
    let echoMemory: Float = 0.7
    let steadyNoiseMemory: Float = 0.93
    let babbleMemory: Float = 0.97
    /// Release of the held residual echo per frame: 0.85 per 8 ms, 88 dB/s, a room's reverberation
    /// tail. speexdsp's 0.6 per frame, 280 dB/s, let the tail through (with the weights above,
    /// both far end alone and double talk gained: the same section).
    let echoRelease: Float
    /// How much larger the speech presence reads the residual echo in a frame the canceller judges
    /// the far end alone (`farEndAlone`). The residual model claims about what the echo holds, so
    /// an echo-only bin's γ fluctuates about 1, over the presence's −5 dB, and the presence read
    /// 1 there: the gain was the LSA gain alone, not the echo floor. The gain's own ξ
    /// keeps the estimate as it is (docs/measurements.md, branch fe36c).
    let aloneEchoScale: Float = 3
    /// Set by the canceller before `process`: this frame is the far end alone (process thread).
    public var farEndAlone = false

    private var noise: NoiseSpectrumTracker
    private var presence: SpeechPresence
    private let gainRule: LogSpectralGain
    private let analysisWindow: UnsafeMutablePointer<Float>
    private let synthesisWindow: UnsafeMutablePointer<Float>
    /// The last four input frames, oldest first, and the output's overlap (4 frames).
    private let history: UnsafeMutablePointer<Float>
    private let overlap: UnsafeMutablePointer<Float>
    /// The windowed signal (zero-padded to the FFT's size) and its spectrum.
    private let signal: UnsafeMutablePointer<Float>
    private let re: UnsafeMutablePointer<Float>
    private let im: UnsafeMutablePointer<Float>
    /// Per bin: power, held echo, last clean estimate, ξ, v (then log₂ v and the LSA boost), and
    /// the gain.
    private let power: UnsafeMutablePointer<Float>
    private let echo: UnsafeMutablePointer<Float>
    private let clean: UnsafeMutablePointer<Float>
    private let prior: UnsafeMutablePointer<Float>
    private let v: UnsafeMutablePointer<Float>
    private let gain: UnsafeMutablePointer<Float>
    private var started = false
    private var framesSeen = 0

    /// Energy of the analysis window: `CancellerResidual` scales its spectra to it.
    public let windowEnergy: Float

    /// A suppressor for frames of `frameSize` samples at `sampleRate` Hz. Floors in dB (≤ 0):
    /// steady noise, babble, residual echo without and with near-end voice. - Realtime: never
    /// (allocates); main thread.
    public init(
        frameSize: Int, sampleRate: Int, denoise: Bool, noiseFloorDB: Float, babbleFloorDB: Float,
        echoFloorDB: Float, echoActiveFloorDB: Float
    ) {
        self.frameSize = frameSize
        self.denoise = denoise
        let span = 4 * frameSize
        var size = FFT.size(atLeast: span)
        // Zero-padded at least to 4/3 of the window (a window of 4 frames is a power of two at
        // 16 kHz): with padding the gains' circular wrap falls in zeros, which the yardstick
        // scored slightly better at 16 kHz on noise and long-delay double talk.
        if size == span { size <<= 1 }
        fft = RealFFT(size: size)
        bins = size / 2 + 1
        let hop = Float(frameSize) / Float(sampleRate)
        let frames8ms = hop / 0.008
        echoRelease = powf(0.85, frames8ms)
        self.echoFloorDB = echoFloorDB
        self.echoActiveFloorDB = echoActiveFloorDB
        noise = NoiseSpectrumTracker(
            bins: bins, fftSize: size, sampleRate: sampleRate, hopSeconds: hop, steadyFloorDB: noiseFloorDB,
            babbleFloorDB: babbleFloorDB)
        presence = SpeechPresence(bins: bins, bandStart: noise.bandStart, bandEnd: noise.bandEnd, hopSeconds: hop)
        gainRule = LogSpectralGain()
        analysisWindow = .zeroed(span)
        synthesisWindow = .zeroed(span)
        Self.makeWindows(frameSize: frameSize, analysis: analysisWindow, synthesis: synthesisWindow)
        var energy: Float = 0
        for i in 0..<span { energy += analysisWindow[i] * analysisWindow[i] }
        windowEnergy = energy
        history = .zeroed(span)
        overlap = .zeroed(span)
        signal = .zeroed(size)
        re = .zeroed(bins)
        im = .zeroed(bins)
        power = .zeroed(bins)
        echo = .zeroed(bins)
        clean = .zeroed(bins)
        prior = .zeroed(bins)
        v = .zeroed(bins)
        gain = .zeroed(bins)
    }

    deinit {
        for p in [
            analysisWindow, synthesisWindow, history, overlap, signal, re, im, power, echo, clean, prior, v,
            gain,
        ] {
            p.deallocate()
        }
    }

    /// Analysis: √Hann rising over three frames, √Hann falling over one. Synthesis, over the
    /// newest two frames: a Hann window divided by the analysis window there, so analysis times
    /// synthesis is a Hann window of two frames, which overlap-adds to 1 at a hop of one frame.
    static func makeWindows(
        frameSize f: Int, analysis: UnsafeMutablePointer<Float>, synthesis: UnsafeMutablePointer<Float>
    ) {
        for i in 0..<3 * f { analysis[i] = Float(HannWindow.point(i, 6 * f).squareRoot()) }
        for i in 0..<f { analysis[3 * f + i] = Float(HannWindow.point(f + i, 2 * f).squareRoot()) }
        for i in 0..<2 * f {
            synthesis[2 * f + i] = Float(HannWindow.point(i, 2 * f)) / max(analysis[2 * f + i], 1e-6)
        }
    }

    /// Suppresses one frame in place: `frame` (frameSize samples, ±1) goes in and the previous
    /// frame, suppressed, comes out. `residual` is the canceller's residual echo power on an FFT
    /// of half this one's size (`CancellerResidual.power`), or nil without a canceller.
    ///
    /// - Realtime: safe.
    @_noLocks
    public mutating func process(_ frame: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?) {
        let f = frameSize
        let span = 4 * f
        for i in 0..<3 * f { history[i] = history[i + f] }
        for i in 0..<f { history[3 * f + i] = frame[i] }
        // The padding too: the last inverse transform left its output there.
        for i in 0..<span { signal[i] = history[i] * analysisWindow[i] }
        for i in span..<fft.size { signal[i] = 0 }
        fft.forward(signal, re: re, im: im)
        for k in 0..<bins { power[k] = re[k] * re[k] + im[k] * im[k] }
        // The noise estimate starts once the window holds four frames of signal: its first
        // frames' zeros would start it far too low. Signal, not frames: after digital silence (a
        // stream that starts muted, a source connected late) the count starts again. Started
        // from a window three quarters silent, the estimate sat 20 dB under the room's noise, its
        // percentile gate let nothing in, and the first pause of the far end let the noise through
        // (a fraction of the suppression, read as voice by the leveller and ducking).
        var energy: Float = 0
        for i in 0..<f { energy += frame[i] * frame[i] }
        framesSeen = energy > 1e-12 * Float(f) ? min(framesSeen + 1, 4) : 0
        holdEcho(residual)
        // The noise estimate learns only where the residual echo does not outweigh the noise
        // (200-4000 Hz): learned, the canceller's residual would be suppressed as noise ever
        // after, and with it the quiet parts of the voice: without this, near-end speech after
        // double talk lost most of a PESQ point (docs/measurement-history.md, "voicerack's own
        // preprocessor").
        var learns = true
        if residual != nil && noise.started {
            var echoBand: Float = 0
            var noiseBand: Float = 0
            for k in noise.bandStart..<noise.bandEnd {
                echoBand += echo[k]
                noiseBand += noise.noise[k]
            }
            learns = echoBand <= noiseBand
        }
        if framesSeen == 4 && learns { noise.update(power) }
        computeGains()
        for k in 0..<bins {
            re[k] *= gain[k]
            im[k] *= gain[k]
        }
        fft.inverse(re: re, im: im, into: signal)
        for i in 0..<span - f { overlap[i] = overlap[i + f] }
        for i in span - f..<span { overlap[i] = 0 }
        for i in 2 * f..<span { overlap[i] += signal[i] * synthesisWindow[i] }
        for i in 0..<f { frame[i] = overlap[2 * f + i] }
    }

    /// Holds the residual echo: each bin takes the larger of the new residual (on the residual's
    /// grid of half the resolution: even bins exactly, odd bins between two) and its held value
    /// released by `echoRelease`.
    @_noLocks
    private mutating func holdEcho(_ residual: UnsafePointer<Float>?) {
        guard let residual else { return }
        let echo = echo
        let release = echoRelease
        // Bins in pairs (even, odd), no branch: the loop vectorises. `bins` is odd (a power of
        // two over 2, plus 1): the last bin is even and done apart.
        let pairs = bins / 2
        for j in 0..<pairs {
            echo[2 * j] = max(release * echo[2 * j], residual[j])
            echo[2 * j + 1] = max(release * echo[2 * j + 1], 0.5 * (residual[j] + residual[j + 1]))
        }
        echo[bins - 1] = max(release * echo[bins - 1], residual[pairs])
    }

    /// ξ, v, the presence probabilities and the OM-LSA gain of every bin.
    ///
    /// Each pass but the table's is a branch-free loop over plain pointers (selects, wrapping
    /// integers: `FastDecibels`), so the compiler vectorises it: about 120 instructions per bin
    /// against 400 as one loop with branches (callgrind, 48 kHz), which took the chain from 1.40×
    /// bare speexdsp's CPU to 1.23× and the frame's cycle under speexdsp's preprocessor's.
    @_noLocks
    private mutating func computeGains() {
        // The first frame has no clean estimate to remember.
        let remembers: Float = started ? 1 : 0
        started = true
        let n = bins
        let noisePower = noise.noise
        // Off, the noise counts for nothing: a weight, not a branch in the loops.
        let noiseWeight: Float = denoise ? 1 : 0
        let power = power
        let echo = echo
        let clean = clean
        let prior = prior
        let v = v
        let gain = gain
        let tiny: Float = 1e-12
        let echoMemory = remembers * echoMemory
        let noiseMemory = remembers * (steadyNoiseMemory + (babbleMemory - steadyNoiseMemory) * noise.babble)
        // ξ and v against noise + residual echo, the echo scaled by `echoScale`.
        func priors(echoScale: Float) {
            for k in 0..<n {
                let noiseK = noiseWeight * noisePower[k]
                let total = noiseK + echoScale * echo[k] + tiny
                let memory = echoMemory + (noiseMemory - echoMemory) * noiseK / total
                let gamma = min(power[k] / total, 1e4)
                let xi = max(memory * clean[k] / total + (1 - memory) * max(gamma - 1, 0), 1e-3)
                prior[k] = xi
                v[k] = xi * gamma / (1 + xi)
            }
        }
        // The presence reads the echo larger while the far end talks alone; the gain, as it is.
        let presenceEchoScale: Float = farEndAlone ? aloneEchoScale : 1
        priors(echoScale: presenceEchoScale)
        presence.update(prior: prior, v: v)
        if presenceEchoScale != 1 { priors(echoScale: 1) }
        let p = presence.probability
        // The LSA gain in log₂: log₂(ξ/(1+ξ)) plus its boost over the Wiener gain, a table of
        // log₂ v (`v`, which the presence has used, holds log₂ v, then the boost).
        for k in 0..<n { v[k] = FastDecibels.log2(v[k]) }
        for k in 0..<n { v[k] = gainRule.log2Boost(log2V: v[k]) }
        // The echo floor moves in dB with the frame's speech presence: 0.332 = log₂10 / 10.
        let echoFloorLog2 = ((1 - presence.frame) * echoFloorDB + presence.frame * echoActiveFloorDB) * 0.332_192_8
        let echoPowerFloor = FastDecibels.exp2(echoFloorLog2)
        let noisePowerFloor = noise.floor * noise.floor
        // log₂ of the least gain taken (−120 dB).
        let leastLog2: Float = -19.93
        for k in 0..<n {
            let noiseK = noiseWeight * noisePower[k]
            let total = noiseK + echo[k] + tiny
            // The floor (an amplitude, in log₂) mixes the noise's and the echo's by their powers,
            // but never takes the background under its own floor: where the held echo outlasts
            // the echo, the bin holds noise alone, and the echo's deeper floor would pump the
            // background down while the far end talks and up in its pauses.
            // max(mixed / total, background / held) with one division: the larger fraction's
            // numerator and denominator are chosen by cross-multiplying.
            let mixed = noisePowerFloor * noiseK + echoPowerFloor * echo[k]
            let background = noisePowerFloor * noiseK
            let held = max(power[k], noiseK) + tiny
            let backgroundWins = background * total > mixed * held
            let floorPower = (backgroundWins ? background : mixed) / (backgroundWins ? held : total)
            let logFloor = max(0.5 * FastDecibels.log2(floorPower), leastLog2)
            let xi = prior[k]
            let logGain = max(min(FastDecibels.log2(xi / (1 + xi)) + v[k], 0), logFloor)
            let blended = FastDecibels.exp2(p[k] * logGain + (1 - p[k]) * logFloor)
            gain[k] = blended
            clean[k] = blended * blended * power[k]
        }
    }
}
