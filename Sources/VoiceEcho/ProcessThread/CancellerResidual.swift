import Foundation
import VoiceRT

/// The spectrum of the echo speexdsp's canceller leaves in its output, rebuilt from the
/// canceller's input and output, for the suppressor to take as a second noise.
///
/// speexdsp's own preprocessor gets this spectrum from the echo state through
/// `speex_echo_get_residual`, which Debian's shared library does not export. What it computes is
/// simple enough to rebuild from the signals: the canceller's echo estimate is what it took away,
/// ŷ = mic − output (16-bit samples), and the residual is the power spectrum of the last two
/// frames of ŷ under a Hann window, scaled by the *leak*: how much of the echo estimate's
/// power still shows in the error. The leak is a regression, over frequency and smoothed in
/// time, of the error's power-spectrum changes on the echo estimate's, in the canceller's
/// pre-emphasised domain (pre-emphasis 0.9 after the canceller's DC notch), updated faster the
/// more echo there is against error. Until the canceller has adapted (a second or so of far end)
/// there is no estimate and the residual is 0, as in speexdsp.
///
/// speexdsp takes one leak for the whole spectrum. That fits a far end whose echo the filter
/// learns evenly across frequency (synthetic voices), but not a muffled or telephone-band
/// recording: there the filter learns the strong low band well and hardly learns the weak upper
/// bands, so the true leak rises steeply with frequency while the one leak, set by the low band's
/// power, claims almost no residual above it and the suppressor leaves that echo in. So the same
/// regression also runs per band (`bandEdges`), and while the far end talks alone each bin's
/// residual takes the larger of the whole spectrum's leak and its band's, up to `mostBandLeak`.
/// In double talk the one leak stays: the bands' leaks there cost the near end more than the echo
/// they took (figures in docs/measurements.md).
///
/// Both still scale the echo estimate, and where the filter learned nothing that estimate is near
/// zero whatever the leak. So under them lies a floor that does not lean on it: `fromReference`
/// (`ReferenceResidual`) predicts the residual from the reference's power spectrum through an
/// echo-path gain per bin, learned while the far end talks alone and applied in every frame,
/// double talk included, where the near end stands above it and the suppressor's Wiener rule
/// leaves the voice (figures in docs/measurements.md).
///
/// Rebuilt this way (from the foreground filter's output, where speexdsp's regression sees its
/// background filter's), the total residual per frame stays close to speexdsp's on the
/// yardstick's echo scenarios, and suppressing with it scored as speexdsp's own did
/// (docs/measurement-history.md).
///
/// Spectra are on an FFT of `fftSize` points (a power of two holding two frames; the suppressor
/// asks for half its own size, so each residual bin falls on every other bin of its own), in the
/// units of a frame of ±1 samples under a window of energy `windowEnergy`, so they add to a
/// power spectrum taken with that window.
///
/// - Realtime: `update` is safe; `init` allocates, deinit frees.
struct CancellerResidual: ~Copyable {
    let preEmphasis: Float = 0.9
    /// The leak is never taken under this (speexdsp's bound: no more than ~33 dB of attenuation).
    let leastLeak: Float = 0.005
    /// Edges (Hz) of the bands whose leaks are regressed apart (those at or above half the rate
    /// are dropped).
    static let bandEdges: [Double] = [1000, 2000, 4000, 8000]
    /// Most a band's leak may claim: where the filter has learned nothing, the residual is the
    /// echo itself and stands above the echo estimate.
    let mostBandLeak: Float = 4
    /// Least share of the mic's power in 200–4000 Hz the echo estimate must explain (the
    /// post-filter's coherence statistics over the last 0.4 s, `ResidualEchoSuppressor.recentEchoShare`) for a frame to
    /// count as the far end alone here.
    let farAloneShare: Float = 0.95

    let frameSize: Int
    let speakers: Int
    /// The error and echo estimate's FFT (one complex transform for both) and the windowed
    /// echo estimate's (a real one).
    let fft: FFT
    let realFFT: RealFFT
    /// Bins of the residual spectrum: fftSize / 2 + 1.
    let bins: Int
    /// The residual echo power per bin, after `update`.
    let power: UnsafeMutablePointer<Float>

    private let notchRadius: Float
    private let notchDenominator: Float
    /// Per frame: how fast the spectra's running means move (speexdsp's spec_average), the
    /// regression's update rate per unit of echo over error, and its most.
    private let meanRate: Float
    private let rateScale: Float
    private let rateCeiling: Float
    /// Filter blocks: the canceller counts as adapted after this much adaptation.
    private let blocks: Float
    private let windowScale: Float
    private let re: UnsafeMutablePointer<Float>
    private let im: UnsafeMutablePointer<Float>
    private let window: UnsafeMutablePointer<Float>
    /// The last two frames of the echo estimate ŷ (2 × frameSize), and them windowed and
    /// zero-padded to the FFT's size.
    private let lastEcho: UnsafeMutablePointer<Float>
    private let windowed: UnsafeMutablePointer<Float>
    /// Running means of the error's and the echo estimate's power spectra.
    private let errorMean: UnsafeMutablePointer<Float>
    private let echoMean: UnsafeMutablePointer<Float>
    private var notch: (Float, Float) = (0, 0)
    private var lastNotched: Float = 0
    private var lastOutput: Float = 0
    private var lastReference: (Float, Float) = (0, 0)
    private var covariance: Float = 1
    private var variance: Float = 1
    private var adaptation: Float = 0
    private var adapted = false
    /// The canceller's output power over this residual's (both summed over bins) after the last
    /// `update`: under 1 where the residual claims all the output holds, as with the far end
    /// alone; a near end's onset stands above it at once. Infinite until adapted.
    private(set) var outputOverResidual: Float = .infinity
    /// The leak as last estimated, 0.005...1.
    private(set) var leak: Float = 0
    /// Bands of the per-band leak, and each band's end bin.
    let bands: Int
    private let bandEnd: UnsafeMutablePointer<Int>
    /// Per band: the regression's sums this frame, its running covariance and variance, and the
    /// residual's gain (from the larger of the band's leak and the whole spectrum's).
    private let bandCross, bandEcho, bandCovariance, bandVariance, bandGain: UnsafeMutablePointer<Float>
    /// The residual predicted from the reference, a floor under the echo estimate's.
    var fromReference: ReferenceResidual

    /// For the canceller's frames of `frameSize` samples at `sampleRate` Hz, `filterLength`
    /// samples of echo tail and `speakers` interleaved reference channels, on an FFT of `fftSize`.
    init(frameSize: Int, sampleRate: Int, filterLength: Int, speakers: Int, windowEnergy: Float, fftSize size: Int) {
        precondition(size >= 2 * frameSize && size & (size - 1) == 0, "the FFT must hold two frames")
        self.frameSize = frameSize
        self.speakers = speakers
        fft = FFT(size: size)
        realFFT = RealFFT(size: size)
        bins = size / 2 + 1
        // speexdsp's DC notch radius by rate, and its denominator.
        let r: Float = sampleRate < 12000 ? 0.9 : sampleRate < 24000 ? 0.982 : 0.992
        notchRadius = r
        notchDenominator = r * r + 0.7 * (1 - r) * (1 - r)
        let hop = Float(frameSize) / Float(sampleRate)
        meanRate = hop
        rateScale = 2 * hop
        rateCeiling = 0.5 * hop
        blocks = Float((filterLength + frameSize - 1) / frameSize)
        let window = HannWindow.allocate(2 * frameSize)
        var hannEnergy: Float = 0
        for i in 0..<2 * frameSize { hannEnergy += window[i] * window[i] }
        self.window = window
        // 16-bit samples to ±1, and the Hann window's energy to the caller's.
        windowScale = windowEnergy / hannEnergy / (32768 * 32768)
        re = .zeroed(size)
        im = .zeroed(size)
        lastEcho = .zeroed(2 * frameSize)
        windowed = .zeroed(size)
        errorMean = .zeroed(bins)
        echoMean = .zeroed(bins)
        power = .zeroed(bins)
        let edges = Self.bandEdges.filter { $0 < Double(sampleRate) / 2 }
        bands = edges.count + 1
        bandEnd = .allocate(capacity: bands)
        for (b, hertz) in edges.enumerated() {
            bandEnd[b] = min(bins, max(1, Int((hertz * Double(size) / Double(sampleRate)).rounded())))
        }
        bandEnd[bands - 1] = bins
        bandCross = .zeroed(bands)
        bandEcho = .zeroed(bands)
        bandCovariance = .zeroed(bands)
        bandVariance = .zeroed(bands)
        bandGain = .zeroed(bands)
        for b in 0..<bands {
            bandCovariance[b] = 1
            bandVariance[b] = 1
        }
        fromReference = ReferenceResidual(
            frameSize: frameSize, sampleRate: sampleRate, window: window, fftSize: size)
    }

    deinit {
        for p in [re, im, window, lastEcho, windowed, errorMean, echoMean, power] { p.deallocate() }
        for p in [bandCross, bandEcho, bandCovariance, bandVariance, bandGain] { p.deallocate() }
        bandEnd.deallocate()
    }

    /// The leak of band `b` as last estimated, 0.005...`mostBandLeak` (for tests).
    func bandLeak(_ b: Int) -> Float { bandCovariance[b] / bandVariance[b] }

    /// Takes one canceller frame: its `mic` input, `reference` (`speakers` interleaved channels)
    /// and `output`, all 16-bit; updates the leaks and `power`. `nearEndTalks`: the near end may
    /// talk (anything but the far end alone); the bands' leaks are then left out.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func update(
        mic: UnsafePointer<Int16>, reference: UnsafePointer<Int16>, output: UnsafePointer<Int16>,
        nearEndTalks: Bool = false
    ) {
        let f = frameSize
        let n = fft.size
        // Error e and echo estimate y in the pre-emphasised domain, zero-padded after a frame
        // of zeros (speexdsp's layout), in one complex FFT: e real, y imaginary.
        var errorEnergy: Float = 0
        var echoEnergy: Float = 0
        for i in 0..<n {
            re[i] = 0
            im[i] = 0
        }
        for i in 0..<f {
            let input = Float(mic[i])
            let out = notch.0 + input
            notch.0 = notch.1 + 2 * (-input + notchRadius * out)
            notch.1 = input - notchDenominator * out
            let notched = notchRadius * out
            let emphasised = notched - preEmphasis * lastNotched
            lastNotched = notched
            let output = Float(output[i])
            let error = output - preEmphasis * lastOutput
            lastOutput = output
            let echo = emphasised - error
            re[f + i] = error
            im[f + i] = echo
            errorEnergy += error * error
            echoEnergy += echo * echo
        }
        var referenceEnergy: Float = 0
        for c in 0..<speakers {
            var last = c == 0 ? lastReference.0 : lastReference.1
            for i in 0..<f {
                let x = Float(reference[i * speakers + c])
                let emphasised = x - preEmphasis * last
                last = x
                referenceEnergy += emphasised * emphasised
            }
            if c == 0 { lastReference.0 = last } else { lastReference.1 = last }
        }
        errorEnergy = max(errorEnergy, Float(2 * f) * 100)
        fft.forward(re, im)
        // Split the two spectra (e real, y imaginary) and regress the error's power changes
        // on the echo estimate's, bin by bin. Powers as speexdsp scales them: the FFT over 2f.
        let scale = 1 / Float(4 * f * f)
        var crossSum: Float = 1
        var echoSum: Float = 1
        var band = 0
        for b in 0..<bands {
            bandCross[b] = 0
            bandEcho[b] = 0
        }
        for k in 0..<bins {
            if k == bandEnd[band] { band += 1 }
            let m = k == 0 ? 0 : n - k
            let sr = re[k] + re[m]
            let si = im[k] - im[m]
            let dr = re[k] - re[m]
            let di = im[k] + im[m]
            let errorPower = 0.25 * (sr * sr + si * si) * scale
            let echoPower = 0.25 * (dr * dr + di * di) * scale
            let errorChange = errorPower - errorMean[k]
            let echoChange = echoPower - echoMean[k]
            crossSum += errorChange * echoChange
            echoSum += echoChange * echoChange
            bandCross[band] += errorChange * echoChange
            bandEcho[band] += echoChange * echoChange
            errorMean[k] += meanRate * (errorPower - errorMean[k])
            echoMean[k] += meanRate * (echoPower - echoMean[k])
        }
        let echoNorm = RealtimeMath.squareRoot(echoSum)
        let rate = min(rateScale * echoEnergy, rateCeiling * errorEnergy) / errorEnergy
        covariance += rate * (crossSum / echoNorm - covariance)
        variance = max(variance + rate * (echoNorm - variance), 1)
        covariance = min(max(covariance, leastLeak * variance), variance)
        leak = covariance / variance
        // Each band's regression as the whole spectrum's; the regularising 1 shared by width.
        for b in 0..<bands {
            let width = Float(bandEnd[b] - (b == 0 ? 0 : bandEnd[b - 1])) / Float(bins)
            let norm = RealtimeMath.squareRoot(bandEcho[b] + width)
            bandCovariance[b] += rate * ((bandCross[b] + width) / norm - bandCovariance[b])
            bandVariance[b] = max(bandVariance[b] + rate * (norm - bandVariance[b]), width)
            bandCovariance[b] = min(max(bandCovariance[b], leastLeak * bandVariance[b]), mostBandLeak * bandVariance[b])
            let bandLeak = nearEndTalks ? leak : max(leak, bandCovariance[b] / bandVariance[b])
            bandGain[b] = min(max(1, bandLeak), 2 * bandLeak) * windowScale
        }
        if !adapted && adaptation > blocks && leak > 0.03 { adapted = true }
        if !adapted && referenceEnergy > Float(2 * f) * 1000 {
            adaptation += min(0.25 * referenceEnergy, 0.25 * errorEnergy) / errorEnergy
        }
        // The last two frames of ŷ (none until adapted), windowed, as a power spectrum.
        for i in 0..<f { lastEcho[i] = lastEcho[f + i] }
        for i in 0..<f { lastEcho[f + i] = adapted ? Float(mic[i]) - Float(output[i]) : 0 }
        for i in 0..<2 * f { windowed[i] = window[i] * lastEcho[i] }
        realFFT.forward(windowed, re: re, im: im)
        var first = 0
        for b in 0..<bands {
            let gain = bandGain[b]
            for k in first..<bandEnd[b] { power[k] = gain * (re[k] * re[k] + im[k] * im[k]) }
            first = bandEnd[b]
        }
        // Learned only while the far end plays: in its pauses the powers' small deviations would
        // fit any gain.
        let farPlays = referenceEnergy > Float(2 * f) * 1000
        fromReference.update(
            output: output, reference: reference, speakers: speakers, farAlone: adapted && farPlays && !nearEndTalks)
        guard adapted else {
            outputOverResidual = .infinity
            return
        }
        fromReference.raise(power, windowScale: windowScale)
        var claimed: Float = 0
        for k in 0..<bins { claimed += power[k] }
        outputOverResidual = fromReference.lastOutputPower * windowScale / max(claimed, .leastNormalMagnitude)
    }
}
