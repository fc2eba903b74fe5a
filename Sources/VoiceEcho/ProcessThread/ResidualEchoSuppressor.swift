import Foundation
import VoiceRT

/// The residual echo post-filter: suppression gains after speexdsp's linear canceller, modelled
/// per band, with comfort noise.
///
/// What the linear filter leaves is mostly reverberation beyond its reach: on the yardstick's
/// far-end-only speech, half the output energy sits in the ~250 ms after the far end pauses,
/// where the room still rings and the output is only ~10 dB below the mic. Per band b and frame,
/// the residual is modelled as a reverberation tail of the canceller's own echo estimate
/// ŷ = mic − e: R_b = max(decay · R_b, share · Ŷ_b), decaying 60 dB in `tailSeconds`, scaled by
/// `strength`. A band's gain is G_b² = max(floor², 1 − R_b / E_b): where the near end stands
/// above the modelled residual, G ≈ 1 (the voice masks the echo). Gains fall at most
/// `fallPerFrame` and rise at most `risePerFrame` per frame.
///
/// The band gains are applied as one gain per frame, G² = Σ G_b² P_b / Σ P_b over the output's
/// band powers P_b, ramped sample by sample. Applying them band by band through the zero-latency
/// splitter was measured first: its bands are not power-complementary, so unequal gains lifted
/// parts of the near-end voice and cost double talk dearly; the single gain does not
/// (docs/measurement-history.md). Comfort noise shaped like the output's own noise floor (band by band) fills
/// what the gain takes from the background, so it does not pump with the echo.
///
/// A second, optional estimate caps each band's gain: the coherence of the echo estimate and the
/// mic (`EchoCoherence`), raised to `coherenceDrive`. It needs no model of the room, so it also
/// follows what the tail model misses (a longer tail, an echo path that changed), at a small cost
/// in double talk; 0 leaves the tail model alone.
///
/// A third, optional estimate scales that cap: the leftover-echo gain (`LeftoverEcho`), from how
/// much of the error the reference's last frames explain, fitted without the canceller's model.
/// Both estimates above trust the canceller's echo estimate; this one catches what a canceller
/// still re-learning a changed echo path leaves (the yardstick's path change, its first second
/// most: figures in docs/measurements.md). Its reference spectra take half an FFT per frame.
///
/// Analysis runs on the canceller's frame (error and echo estimate share one complex FFT); the
/// gain is applied to the preprocessor's output. The preprocessor delays its output by exactly
/// one frame, so with it on, frame n's gain is applied to the next frame's output, the one that
/// holds frame n. No latency is added. That lag also lets the engine run `analyse` and
/// `computeGains` in the cycle after the frame where blocks are at most half a frame, keeping
/// only `advanceGains` and `apply` in the frame's own cycle (see `DeferredFrameAnalysis`).
///
/// The three strengths are live controls (`setStrength`, `setCoherenceDrive`,
/// `setLeftoverExponent`): they change no latency and no allocation. Switched off, the post-filter keeps running until its gain has
/// risen back to 1 (at most `risePerFrame` a frame), so turning it off never steps the output.
///
/// - Realtime: `analyse`, `update`, `apply` and the setters are safe; `init` allocates, deinit
///   frees.
struct ResidualEchoSuppressor: ~Copyable {
    /// Band edges in Hz (those above 0.45 · rate are dropped).
    static let edges: [Double] = [400, 1000, 2000, 3500, 6000]
    /// Reverberation time of the modelled tail (seconds to −60 dB).
    static let tailSeconds: Float = 0.3
    /// Share of the echo estimate's power that rings on beyond the filter at strength 1 (−25 dB).
    static var tailShare: Float { 0.003 }
    /// Lowest gain per band (−40 dB): comfort noise fills the rest.
    static let floorGain: Float = 0.01

    /// Most tail-model strength a control may set (the preset key's range).
    static var strongest: Float { 4 }

    /// Scales the modelled residual; 0 switches the tail model off.
    private(set) var strength: Float
    /// The coherence gain's statistics and exponent (off at drive 0).
    private var coherence: EchoCoherence
    /// The leftover-echo fit and its exponent (off at 0).
    private var leftover: LeftoverEcho
    /// FFT bins the leftover fit uses: every `LeftoverEcho.binStep`th from `fitStart`.
    private let fitStart: Int
    private let fitStep = LeftoverEcho.binStep
    /// The reference's FFT buffers, the previous frame's windowed reference, and its error
    /// spectrum at the fitted bins (re, im): two frames' references share one FFT.
    private let referenceRe, referenceIm, previousReference, previousError: UnsafeMutablePointer<Float>
    private var holdsPreviousFrame = false
    let frameSize: Int
    let bands: Int
    /// True when the gain of one frame is applied to the next frame's output (the
    /// preprocessor's one-frame delay).
    let lagsOneFrame: Bool
    private let fft: FFT
    /// Half the size of `fft`, for the leftover fit's reference (see `fitLeftover`).
    private let halfFFT: FFT
    private let re, im, window: UnsafeMutablePointer<Float>
    /// First FFT bin of each band, plus the end (bands + 1 entries).
    private let bandStart: UnsafeMutablePointer<Int>
    private let splitter: BandSplitter
    private let noiseSplitter: BandSplitter
    /// Band rows of the output and of the comfort noise (bands × frame), and a noise frame.
    private let rows, noiseRows, noise: UnsafeMutablePointer<Float>
    /// Per-band figures, `bands` each.
    private let error, echo, residual, gain, nextGain: UnsafeMutablePointer<Float>
    private let outputEnergy, outputFloor, noiseEnergy, noisePower: UnsafeMutablePointer<Float>
    /// Each band's comfort-noise amplitude at the frame's start and its step per sample.
    private let comfortLevel, comfortStep: UnsafeMutablePointer<Float>
    /// Per band, the power gain the coherence allows (1 with it off).
    private let coherenceGain: UnsafeMutablePointer<Float>
    private let storage: UnsafeMutablePointer<Float>
    private let tailDecay: Float
    private let floorRise: Float
    let fallPerFrame: Float = 0.25
    let risePerFrame: Float = 4
    private var appliedGain: Float = 1
    /// The last `apply`'s broadband gain ramp, start and end (1, 1 while off).
    private var lastRamp: (start: Float, end: Float) = (1, 1)
    private var random: UInt32 = 0x1234_5678
    /// The gain applied to the last frame, linear (for tests and health).
    var lastGain: Float { appliedGain }
    /// FFT bins of 200–4000 Hz, where `echoShare` is measured (most of speech's power).
    private let shareBins: Range<Int>
    /// The share of the mic's power in 200–4000 Hz that the echo estimate explains, from the
    /// coherence statistics of the last frame analysed; −1 while the coherence gain is off.
    private(set) var echoShare: Float = -1
    /// The same share over the last `recentShareTimeConstant` seconds: the residual model's
    /// far-end-alone decision; −1 while the coherence gain is off.
    private(set) var recentEchoShare: Float = -1
    /// Seconds of memory of `recentEchoShare`'s statistics. The coherence gain's 0.8 s, which
    /// the gain needs (shorter estimates scatter and cost double talk), holds the near end's voice
    /// in the mic's power long after the talker stopped: with a talker as loud as the echo the
    /// share needs about 2.5 s to climb back over 0.95, and in those seconds `CancellerResidual`
    /// neither learns the residual from the reference nor takes its bands' leaks, so the echo just
    /// after double talk is suppressed less than elsewhere. With 0.4 s it is back in half that
    /// time while a talker still pulls it down at once; shorter memories (0.25 s) let the
    /// estimate's own scatter judge some double-talk frames far-end alone (figures in
    /// docs/measurements.md, branch dt36).
    static let recentShareTimeConstant = 0.4
    /// The statistics of `recentEchoShare`, accumulated over `shareBins` only.
    private let recent: SmoothedCrossSpectra

    /// A post-filter for `frameSize`-sample frames at `sampleRate` Hz; `coherenceDrive` 0 leaves
    /// the coherence gain out.
    init(
        strength: Float, coherenceDrive: Float = 0, leftoverExponent: Float = 0, frameSize: Int, sampleRate: Int,
        lagsOneFrame: Bool
    ) {
        self.strength = strength
        isOn = strength > 0 || coherenceDrive > 0 || leftoverExponent > 0
        isSet = isOn
        self.frameSize = frameSize
        self.lagsOneFrame = lagsOneFrame
        var n = 2
        while n < frameSize { n <<= 1 }
        fft = FFT(size: n)
        halfFFT = FFT(size: n / 2)
        coherence = EchoCoherence(drive: coherenceDrive, bins: n / 2 + 1, frameSize: frameSize, sampleRate: sampleRate)
        splitter = BandSplitter(edges: Self.edges, sampleRate: sampleRate)
        noiseSplitter = BandSplitter(edges: Self.edges, sampleRate: sampleRate)
        bands = splitter.bands
        re = .zeroed(n)
        im = .zeroed(n)
        window = .zeroed(frameSize)
        for i in 0..<frameSize {
            window[i] = 0.5 - 0.5 * cos(2 * Float.pi * (Float(i) + 0.5) / Float(frameSize))
        }
        bandStart = .allocate(capacity: bands + 1)
        bandStart[0] = 1
        for b in 0..<(bands - 1) {
            bandStart[b + 1] = max(1, Int((Self.edges[b] * Double(n) / Double(sampleRate)).rounded()))
        }
        bandStart[bands] = n / 2 + 1
        func bin(_ hertz: Double) -> Int { Int((hertz * Double(n) / Double(sampleRate)).rounded()) }
        let lowShareBin = max(1, bin(200))
        shareBins = lowShareBin..<max(lowShareBin, min(n / 2 + 1, bin(4000)))
        recent = SmoothedCrossSpectra(
            bins: n / 2 + 1, frameSize: frameSize, sampleRate: sampleRate, timeConstant: Self.recentShareTimeConstant)
        // Even, so that every fitted bin is an even one (see `fitLeftover`); 2 at every rate
        // voicerack runs at.
        fitStart = lowShareBin + lowShareBin % 2
        let fitted = (shareBins.count + LeftoverEcho.binStep - 1) / LeftoverEcho.binStep
        leftover = LeftoverEcho(exponent: leftoverExponent, bins: fitted, frameSize: frameSize, sampleRate: sampleRate)
        referenceRe = .zeroed(n)
        referenceIm = .zeroed(n)
        previousReference = .zeroed(frameSize)
        previousError = .zeroed(2 * fitted)
        rows = .zeroed(bands * frameSize)
        noiseRows = .zeroed(bands * frameSize)
        noise = .zeroed(frameSize)
        storage = .zeroed(12 * bands)
        error = storage
        echo = storage + bands
        residual = storage + 2 * bands
        gain = storage + 3 * bands
        nextGain = storage + 4 * bands
        outputEnergy = storage + 5 * bands
        outputFloor = storage + 6 * bands
        noiseEnergy = storage + 7 * bands
        noisePower = storage + 8 * bands
        coherenceGain = storage + 9 * bands
        comfortLevel = storage + 10 * bands
        comfortStep = storage + 11 * bands
        for b in 0..<bands {
            coherenceGain[b] = 1
            gain[b] = 1
            nextGain[b] = 1
            outputFloor[b] = 1e30
        }
        let framesPerSecond = Float(sampleRate) / Float(frameSize)
        tailDecay = pow(10, -6 / (Self.tailSeconds * framesPerSecond))
        // The output's noise floor: drops at once, rises 3 dB/s (as NoiseFloorTracker).
        floorRise = 1 + 0.693 / framesPerSecond
    }

    deinit {
        splitter.deallocate()
        noiseSplitter.deallocate()
        for p in [
            re, im, window, rows, noiseRows, noise, storage, referenceRe, referenceIm, previousReference, previousError,
        ] { p.deallocate() }
        bandStart.deallocate()
        coherence.deallocate()
        recent.deallocate()
        leftover.deallocate()
    }

    /// True when the post-filter runs: its tail model, coherence gain or leftover-echo gain is
    /// set, or all were just switched off and its gain is still rising back to 1.
    private(set) var isOn: Bool
    /// True when the tail model, the coherence gain or the leftover-echo gain is set.
    private var isSet: Bool

    /// Sets the tail model's strength (clamped to 0...`strongest`; 0 or NaN switches it off).
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func setStrength(_ value: Float) {
        strength = value > 0 ? min(value, Self.strongest) : 0
        settingsChanged()
    }

    /// Sets the coherence gain's exponent (see `EchoCoherence.setDrive`).
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func setCoherenceDrive(_ value: Float) {
        coherence.setDrive(value)
        if !coherence.isOn {
            for b in 0..<bands { coherenceGain[b] = 1 }
        }
        settingsChanged()
    }

    /// Sets the leftover-echo gain's exponent (see `LeftoverEcho`).
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func setLeftoverExponent(_ value: Float) {
        leftover.setExponent(value)
        settingsChanged()
    }

    @inline(__always) @_noLocks
    private mutating func settingsChanged() {
        isSet = strength > 0 || coherence.isOn || leftover.isOn
        // Off: runs on until `apply` has brought the gain back to 1.
        if isSet { isOn = true }
    }

    /// Measures one canceller frame: band powers of the error (`output`, what the canceller
    /// left) and of its echo estimate (`mic` − `output`), and, with the leftover gain on, the
    /// fit of the error from `reference` (the canceller's reference frame, mono).
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func analyse(
        mic: UnsafePointer<Int16>, output: UnsafePointer<Int16>, reference: UnsafePointer<Float>? = nil
    ) {
        guard isOn else {
            echoShare = -1
            recentEchoShare = -1
            return
        }
        let n = fft.size
        let scale: Float = 1 / 32768
        for i in 0..<frameSize {
            let e = Float(output[i]) * scale
            let m = Float(mic[i]) * scale
            re[i] = window[i] * e
            im[i] = window[i] * (m - e)
        }
        for i in frameSize..<n {
            re[i] = 0
            im[i] = 0
        }
        fft.forward(re, im)
        // Two real spectra from one complex one: E(k) = (Z(k) + Z*(N−k))/2,
        // Ŷ(k) = (Z(k) − Z*(N−k))/2i (both scaled by 2 here: only their ratio is used).
        for b in 0..<bands {
            var pe: Float = 0
            var py: Float = 0
            for k in bandStart[b]..<bandStart[b + 1] {
                let j = (n - k) & (n - 1)
                let er = re[k] + re[j]
                let ei = im[k] - im[j]
                let yr = im[k] + im[j]
                let yi = re[j] - re[k]
                pe += er * er + ei * ei
                py += yr * yr + yi * yi
                if coherence.isOn {
                    coherence.accumulate(k, yr: yr, yi: yi, dr: er + yr, di: ei + yi)
                    if shareBins.contains(k) {
                        recent.accumulate(k, yr: yr, yi: yi, dr: er + yr, di: ei + yi)
                    }
                }
            }
            error[b] = pe
            echo[b] = py
            if coherence.isOn { coherenceGain[b] = coherence.suppression(bandStart[b]..<bandStart[b + 1]) }
        }
        echoShare = coherence.isOn ? coherence.explainedShare(shareBins) : -1
        recentEchoShare = coherence.isOn ? recent.explainedShare(shareBins) : -1
        if leftover.isOn, let reference { fitLeftover(reference) }
    }

    /// Adds this frame to the leftover fit. Frames come in pairs: the first keeps its windowed
    /// reference and error spectrum, the second transforms both references in one FFT.
    ///
    /// The fit uses even bins only (every 2nd from an even one), and bin 2m of the n-point DFT of
    /// the zero-padded frame is bin m of the n/2-point DFT of the frame folded onto its first
    /// half (x[i] + x[i + n/2]): the same values from an FFT of half the size. The frame with
    /// the FFT set the worst block at 64-sample periods; at 48 kHz the 256-point transform does
    /// the 512-point one's work in well under half the time.
    @_noLocks
    private mutating func fitLeftover(_ reference: UnsafePointer<Float>) {
        let n = fft.size
        let step = fitStep
        guard holdsPreviousFrame else {
            for i in 0..<frameSize { previousReference[i] = window[i] * reference[i] }
            for i in 0..<leftover.bins {
                let k = fitStart + i * step
                let j = (n - k) & (n - 1)
                previousError[2 * i] = re[k] + re[j]
                previousError[2 * i + 1] = im[k] - im[j]
            }
            holdsPreviousFrame = true
            return
        }
        holdsPreviousFrame = false
        let h = n / 2
        for i in 0..<h {
            let folded = i + h < frameSize
            referenceRe[i] = previousReference[i] + (folded ? previousReference[i + h] : 0)
            referenceIm[i] = window[i] * reference[i] + (folded ? window[i + h] * reference[i + h] : 0)
        }
        halfFFT.forward(referenceRe, referenceIm)
        // Same unpacking as `analyse`, at half-size bin m = k/2: the previous frame in the real
        // part, this one in the imaginary part (both scaled by 2, as the error).
        for i in 0..<leftover.bins {
            let k = fitStart + i * step
            let m = k / 2
            let j = (h - m) & (h - 1)
            leftover.addReference(i, re: referenceRe[m] + referenceRe[j], im: referenceIm[m] - referenceIm[j])
            leftover.addError(i, re: previousError[2 * i], im: previousError[2 * i + 1])
        }
        leftover.endFrame()
        for i in 0..<leftover.bins {
            let k = fitStart + i * step
            let m = k / 2
            let j = (h - m) & (h - 1)
            let jj = (n - k) & (n - 1)
            leftover.addReference(i, re: referenceIm[m] + referenceIm[j], im: referenceRe[j] - referenceRe[m])
            leftover.addError(i, re: re[k] + re[jj], im: im[k] - im[jj])
        }
        leftover.endFrame()
    }

    /// Takes the frame's mic and reference mean squares, for the leftover gain's onset check.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func observe(micPower: Float, referencePower: Float) {
        leftover.observe(micPower: micPower, referencePower: referencePower)
    }

    /// Computes the band gains for the frame last analysed. `echoPossible`: the far end played
    /// recently enough for its echo to ring on; without it the coherence gain stays open (the
    /// "echo estimate" is then only what the canceller's DC notch took from the mic, and its
    /// coherence with the mic cost the noise-only scenarios PESQ).
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func update(echoPossible: Bool = true) {
        advanceGains()
        computeGains(echoPossible: echoPossible)
    }

    /// The first half of `update`: where the gains lag one frame, the gains computed from the
    /// last analysis become the ones `apply` uses. Split from `computeGains` so that, with the
    /// analysis run a cycle later, `apply` can still run in the frame's own cycle.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func advanceGains() {
        guard isOn, lagsOneFrame else { return }
        for b in 0..<bands { gain[b] = nextGain[b] }
    }

    /// The second half of `update`: the band gains from the frame last analysed (the next
    /// frame's where they lag one frame, this frame's otherwise).
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func computeGains(echoPossible: Bool) {
        guard isOn else { return }
        let share = strength * Self.tailShare
        for b in 0..<bands {
            let e = error[b]
            let y = echo[b]
            // Switched off: the gains rise back to 1 at `risePerFrame`, the tail starts anew.
            residual[b] = isSet ? max(tailDecay * residual[b], share * y) : 0
            let echoCap = echoPossible ? coherenceGain[b] * leftover.powerGain : 1
            let g2 = max(min(1 - residual[b] / max(e, 1e-12), echoCap), Self.floorGain * Self.floorGain)
            let previous = lagsOneFrame ? nextGain[b] : gain[b]
            let g = min(
                min(max(RealtimeMath.squareRoot(g2), previous * fallPerFrame), previous * risePerFrame), 1)
            if lagsOneFrame {
                nextGain[b] = g
            } else {
                gain[b] = g
            }
        }
    }

    /// Applies the gain to one frame of output, in place, and adds comfort noise where it took
    /// the background away.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func apply(_ frame: UnsafeMutablePointer<Float>) {
        guard isOn else {
            lastRamp = (1, 1)
            return
        }
        let f = frameSize
        for b in 0..<bands {
            outputEnergy[b] = 0
            noiseEnergy[b] = 0
        }
        // The rows are only measured here: the frame itself gets one gain (see the type's notes).
        // With five splits, the comfort noise's split rides along in the second lane before it
        // is known to be needed; unused, it is undone (the noise generator and its splitter are
        // left as they were), so the output is the same as splitting it only when needed.
        let alongside = bands == 6
        let randomBefore = random
        if alongside {
            for i in 0..<f { noise[i] = nextRandom() }
            splitter.splitFiveAlongside(
                frame, f, into: rows, energy: outputEnergy, other: noiseSplitter, second: noise, into: noiseRows,
                energy: noiseEnergy)
        } else {
            splitter.split(frame, f, into: rows, stride: f, energy: outputEnergy)
        }
        var kept: Float = 0
        var total: Float = 0
        for b in 0..<bands {
            kept += gain[b] * gain[b] * outputEnergy[b]
            total += outputEnergy[b]
        }
        let start = appliedGain
        let end = total > 0 ? RealtimeMath.squareRoot(kept / total) : 1
        let step = 1 / Float(f)
        let delta = (end - start) * step
        var g = start
        for i in 0..<f {
            g += delta
            frame[i] *= g
        }
        appliedGain = end
        lastRamp = (start, end)
        // Switched off and open again: from the next frame on, as if never on.
        if !isSet, end >= 1 { isOn = false }
        // Comfort noise makes up the power the gain removed from each band's floor:
        // c² = floor · (1 − G²), on noise normalised to unit power per band.
        for b in 0..<bands {
            let power = outputEnergy[b] / Float(f)
            outputFloor[b] = power < outputFloor[b] ? max(power, 1e-14) : outputFloor[b] * floorRise
        }
        // An open gain took nothing away: no comfort noise to make (most frames with voice).
        guard min(start, end) < 0.9999 else {
            random = randomBefore
            return
        }
        if alongside {
            noiseSplitter.commitPending()
        } else {
            for i in 0..<f { noise[i] = nextRandom() }
            noiseSplitter.split(noise, f, into: noiseRows, stride: f, energy: noiseEnergy)
        }
        let keptStart = RealtimeMath.squareRoot(max(0, 1 - start * start))
        let keptEnd = RealtimeMath.squareRoot(max(0, 1 - end * end))
        for b in 0..<bands {
            let np = noiseEnergy[b] / Float(f)
            noisePower[b] = noisePower[b] == 0 ? np : noisePower[b] + 0.05 * (np - noisePower[b])
            let level = RealtimeMath.squareRoot(outputFloor[b] / max(noisePower[b], 1e-20))
            comfortLevel[b] = level * keptStart
            comfortStep[b] = (level * keptEnd - comfortLevel[b]) * step
        }
        addComfortNoise(to: frame)
    }

    /// Applies the last `apply`'s broadband gain ramp to another frame of the same time (the
    /// learned stage's input), without comfort noise. - Realtime: safe.
    @_noLocks
    func applyLastGain(to frame: UnsafeMutablePointer<Float>) {
        let (start, end) = lastRamp
        guard start < 1 || end < 1 else { return }
        let delta = (end - start) / Float(frameSize)
        var g = start
        for i in 0..<frameSize {
            g += delta
            frame[i] *= g
        }
    }

    /// Adds each band's noise row, its amplitude ramping from `comfortLevel` by `comfortStep` a
    /// sample. With six bands (every rate from 14 kHz up) all bands go in one pass, whose six
    /// ramps run side by side; each sample still gets its bands added in band order, as the
    /// band-by-band passes add them, so the numbers are the same.
    @inline(__always) @_noLocks
    private func addComfortNoise(to frame: UnsafeMutablePointer<Float>) {
        let f = frameSize
        guard bands == 6 else {
            for b in 0..<bands {
                let noiseRow = noiseRows + b * f
                var c = comfortLevel[b]
                for i in 0..<f {
                    c += comfortStep[b]
                    frame[i] += c * noiseRow[i]
                }
            }
            return
        }
        var (c0, c1, c2) = (comfortLevel[0], comfortLevel[1], comfortLevel[2])
        var (c3, c4, c5) = (comfortLevel[3], comfortLevel[4], comfortLevel[5])
        let (d0, d1, d2) = (comfortStep[0], comfortStep[1], comfortStep[2])
        let (d3, d4, d5) = (comfortStep[3], comfortStep[4], comfortStep[5])
        let (n0, n1, n2) = (noiseRows, noiseRows + f, noiseRows + 2 * f)
        let (n3, n4, n5) = (noiseRows + 3 * f, noiseRows + 4 * f, noiseRows + 5 * f)
        for i in 0..<f {
            c0 += d0
            c1 += d1
            c2 += d2
            c3 += d3
            c4 += d4
            c5 += d5
            var x = frame[i]
            x += c0 * n0[i]
            x += c1 * n1[i]
            x += c2 * n2[i]
            x += c3 * n3[i]
            x += c4 * n4[i]
            x += c5 * n5[i]
            frame[i] = x
        }
    }

    /// Uniform noise in ±√3 (unit variance), xorshift32.
    @inline(__always) @_noLocks
    private mutating func nextRandom() -> Float {
        random ^= random << 13
        random ^= random >> 17
        random ^= random << 5
        return (Float(random) * (1 / 4_294_967_296) - 0.5) * 3.4641016
    }
}
