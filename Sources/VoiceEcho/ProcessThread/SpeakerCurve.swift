import VoiceRT
import VoiceSpeex

/// Learns how a loudspeaker played hard soft-clips, and gives the echo canceller a reference
/// clipped the same way, so that the echo it has to model is linear again.
///
/// Small speakers played loud compress their peaks. The linear filter cannot model that: on the
/// yardstick's nonlinear scenario it leaves about twice as much echo (in dB) as in a linear room
/// (figures in docs/measurements.md), and what it leaves also blurs the post-filter's echo estimate, so double talk
/// suffers most. The curve is modelled as f(x) = tanh(a·x) / a, x in full-scale units: unit gain
/// for small signals, so the filter keeps its scale. It is learned as the `curvature` b = a²
/// (b = 0 is linear, and in b the curve's slope at 0 is −x³/3, so learning can start from a
/// linear room).
///
/// **Learning.** Every half second of learned frames (far end playing, the canceller removing at
/// least `removalRatio`), b takes a Gauss–Newton step: with the canceller's error e and
/// g = h ∗ s(x), b moves by `stepShare` · Σ e·g / Σ g², at most `largestStep`.
/// * h is the canceller's own filter (speexdsp's impulse response, looked at every second), its
///   `taps` strongest taps, scaled so that h ∗ f(x) matches the canceller's echo estimate.
/// * s(x) = ∂f/∂b, less its part that is linear in f(x) (the filter models that part
///   itself, so it never shows in e; leaving it in made steps ~2.5× too small).
/// * Near-end talk in e does not correlate with g: it adds scatter, not bias.
///
/// **Engaging.** Curvatures under `smallestApplied` leave the reference untouched, so a linear
/// room's audio stays sample-identical. Below it, each window's estimate (from a linear reference)
/// is averaged in, so that one window's scatter does not engage the curve. Changing the
/// reference's shape in a linear room costs double talk (docs/measurement-history.md).
///
/// The reference history is kept twice, as the canceller saw it (f(x)) and as the slope s at
/// the curvature of that moment, in mirrored rings, so that every tap reads one contiguous
/// stretch.
///
/// - Realtime: `shape`, `learn` and `forgetTaps` are safe; `init` allocates.
struct SpeakerCurve: ~Copyable {
    /// Strongest filter taps used to predict the echo's distortion.
    let taps: Int = 64
    /// Share of the Gauss–Newton step taken per window.
    let stepShare: Float = 0.5
    /// Largest change of the curvature per window.
    let largestStep: Float = 10
    /// Largest curvature (a = 20: peaks above −30 dBFS lose 1 dB).
    let largestCurvature: Float = 400
    /// Curvatures from which the reference is shaped (a ≈ 1.7: −9% on a −10 dBFS peak).
    let smallestApplied: Float = 3
    /// Mic over cancelled power a frame needs to be learned from (6 dB): before the canceller
    /// has converged, and in loud double talk, its error holds echo or talk the curve cannot
    /// explain.
    let removalRatio: Float = 4
    /// Per-frame decay of the slope's regression on the shaped reference (~0.4 s).
    let regressionDecay: Float = 0.98

    /// b = a², the curve's drive squared; 0 while the room is linear.
    private(set) var curvature: Float = 0
    /// True when the reference is being shaped.
    var isApplied: Bool {
        @inline(__always) @_noLocks get { curvature >= smallestApplied }
    }
    /// False when the canceller models two loudspeakers (the curve is learned for one) or is off.
    let isEnabled: Bool

    let frameSize: Int
    /// Ring capacity (a power of two of at least the filter plus a frame); the rings hold it twice.
    private let capacity: Int
    private let shaped, slope: UnsafeMutablePointer<Float>
    private var written = 0
    /// Running Σ s·f and Σ f² over the reference, for the slope's linear part.
    private var slopeDotShaped: Float = 0
    private var shapedPower: Float = 0
    private let responseLength: Int
    private let response: UnsafeMutablePointer<Int32>
    private let tapLag: UnsafeMutablePointer<Int>
    private let tapValue: UnsafeMutablePointer<Float>
    private var tapCount = 0
    /// Echo estimate and slope predicted from the taps, one frame each.
    private let predicted, predictedSlope: UnsafeMutablePointer<Float>
    /// Frames between looks at the filter (~1 s: it changes slowly, and a look costs a canceller
    /// frame), and learned frames per step (~0.5 s).
    private let lookInterval: Int
    private let window: Int
    private var framesSinceLook = 0
    private var errorDotSlope: Float = 0
    private var slopePower: Float = 0
    private var windowFrames = 0

    /// A curve for `frameSize`-sample frames and a canceller whose filter holds `responseLength`
    /// taps; `enabled` false keeps it linear and idle.
    init(frameSize: Int, responseLength: Int, sampleRate: Int, enabled: Bool) {
        self.frameSize = frameSize
        self.responseLength = max(1, responseLength)
        isEnabled = enabled && responseLength > 0
        var c = 1
        while c < self.responseLength + frameSize { c <<= 1 }
        capacity = c
        // Idle, the rings are never read: one sample each keeps them valid.
        shaped = .zeroed(isEnabled ? 2 * c : 1)
        slope = .zeroed(isEnabled ? 2 * c : 1)
        predicted = .zeroed(frameSize)
        predictedSlope = .zeroed(frameSize)
        tapValue = .zeroed(taps)
        tapLag = .allocate(capacity: taps)
        tapLag.initialize(repeating: 0, count: taps)
        response = .allocate(capacity: self.responseLength)
        response.initialize(repeating: 0, count: self.responseLength)
        let framesPerSecond = Double(sampleRate) / Double(frameSize)
        lookInterval = max(1, Int(framesPerSecond.rounded()))
        window = max(1, Int((0.5 * framesPerSecond).rounded()))
    }

    deinit {
        for p in [shaped, slope, predicted, predictedSlope, tapValue] { p.deallocate() }
        tapLag.deallocate()
        response.deallocate()
    }

    /// Shapes one frame of the canceller's reference in place, and keeps it and its slope for
    /// learning.
    ///
    /// - Realtime: safe (one rational tanh per sample while the curve is applied).
    @_noLocks
    mutating func shape(_ x: UnsafeMutablePointer<Float>, count: Int) {
        guard isEnabled else { return }
        let b = isApplied ? curvature : 0
        let a = RealtimeMath.squareRoot(b)
        let inverseA = b > 0 ? 1 / a : 0
        let inverseB = b > 0 ? 1 / b : 0
        let halfInverseA = 0.5 * inverseA
        slopeDotShaped *= regressionDecay
        shapedPower *= regressionDecay
        for i in 0..<count {
            let v = x[i]
            var f = v
            var s = -v * v * v / 3
            if b > 0 {
                let t = Self.tanh(a * v)
                f = t * inverseA
                // ∂/∂b of tanh(√b·x)/√b = (x·(1 − t²)/a − t/a²) / (2a).
                s = (v * (1 - t * t) * inverseA - t * inverseB) * halfInverseA
            }
            x[i] = f
            slopeDotShaped += s * f
            shapedPower += f * f
            let p = written & (capacity - 1)
            shaped[p] = f
            shaped[p + capacity] = f
            slope[p] = s
            slope[p + capacity] = s
            written &+= 1
        }
    }

    /// tanh x by a [7/6] Padé approximant up to |x| = 4.97 and ±1 beyond: within 10⁻⁴ of it
    /// everywhere (−80 dB, under 16-bit resolution near full scale), without libm's `tanhf`,
    /// which alone cost 2% of the chain with the curve applied.
    @inline(__always) @_noLocks
    static func tanh(_ x: Float) -> Float {
        guard abs(x) < 4.97 else { return x > 0 ? 1 : -1 }
        let x2 = x * x
        let numerator = x * (135_135 + x2 * (17_325 + x2 * (378 + x2)))
        let denominator = 135_135 + x2 * (62_370 + x2 * (3_150 + x2 * 28))
        return numerator / denominator
    }

    /// Forgets the filter's taps (after a canceller reset or a delay jump, they no longer fit).
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func forgetTaps() {
        tapCount = 0
        framesSinceLook = 0
    }

    /// True when ~1 s has passed since the last look at the filter: the caller looks (`look`)
    /// in a cycle that carries little other work.
    var wantsLook: Bool {
        @inline(__always) @_noLocks get { isEnabled && framesSinceLook >= lookInterval }
    }

    /// Copies the canceller's filter and keeps its `taps` strongest taps.
    ///
    /// - Realtime: safe; costs about 0.8 canceller frames (the filter's inverse FFTs) and a pass
    ///   over the filter.
    @_noLocks
    mutating func look(_ processor: borrowing SpeexVoiceProcessor) {
        guard isEnabled else { return }
        framesSinceLook = 0
        takeTaps(processor)
    }

    /// Learns from one canceller frame: `mic`, the canceller's `output` (its error) and their
    /// mean squares; `farActive` when the far end plays.
    ///
    /// - Realtime: safe; a learned frame costs 2 × `taps` × frame multiply-adds.
    @_noLocks
    mutating func learn(
        mic: UnsafePointer<Int16>, output: UnsafePointer<Int16>, micPower: Float, cancelledPower: Float,
        farActive: Bool
    ) {
        guard isEnabled else { return }
        framesSinceLook += 1
        guard farActive, tapCount > 0, cancelledPower * removalRatio <= micPower else { return }
        let n = frameSize
        for i in 0..<n {
            predicted[i] = 0
            predictedSlope[i] = 0
        }
        // Sample i of this frame sits at ring position written − n + i; tap k reads k earlier.
        for t in 0..<tapCount {
            let h = tapValue[t]
            let start = (written &- n &- tapLag[t]) & (capacity - 1)
            let f = shaped + start
            let s = slope + start
            for i in 0..<n {
                predicted[i] += h * f[i]
                predictedSlope[i] += h * s[i]
            }
        }
        // Scale the taps' prediction to the canceller's echo estimate (mic − error).
        let scale: Float = 1 / 32768
        var echoDotPredicted: Float = 0
        var predictedPower: Float = 0
        for i in 0..<n {
            let y = Float(Int32(mic[i]) - Int32(output[i])) * scale
            echoDotPredicted += y * predicted[i]
            predictedPower += predicted[i] * predicted[i]
        }
        guard predictedPower > 0, echoDotPredicted > 0 else { return }
        let gain = echoDotPredicted / predictedPower
        let linear = shapedPower > 0 ? slopeDotShaped / shapedPower : 0
        var es: Float = 0
        var ss: Float = 0
        for i in 0..<n {
            let g = gain * (predictedSlope[i] - linear * predicted[i])
            es += Float(output[i]) * scale * g
            ss += g * g
        }
        errorDotSlope += es
        slopePower += ss
        windowFrames += 1
        guard windowFrames >= window else { return }
        if slopePower > 0 {
            let step = max(-largestStep, min(largestStep, stepShare * errorDotSlope / slopePower))
            // Applied, the step is from the curvature in use; otherwise it is an estimate from a
            // linear reference, averaged in.
            let next = isApplied ? curvature + step : curvature + 0.5 * (step - curvature)
            curvature = max(0, min(largestCurvature, next))
        }
        errorDotSlope = 0
        slopePower = 0
        windowFrames = 0
    }

    /// Copies the canceller's filter and keeps its `taps` largest magnitudes (unsorted, with
    /// the smallest kept one's slot tracked).
    @inline(__always) @_noLocks
    private mutating func takeTaps(_ processor: borrowing SpeexVoiceProcessor) {
        tapCount = 0
        guard processor.impulseResponseLength == responseLength, processor.impulseResponse(into: response)
        else { return }
        var count = 0
        var smallest = 0
        for k in 0..<responseLength {
            let v = Float(response[k])
            if count < taps {
                tapLag[count] = k
                tapValue[count] = v
                count += 1
                if count == taps { smallest = smallestSlot() }
            } else if abs(v) > abs(tapValue[smallest]) {
                tapLag[smallest] = k
                tapValue[smallest] = v
                smallest = smallestSlot()
            }
        }
        tapCount = count == taps ? count : 0
    }

    @inline(__always) @_noLocks
    private func smallestSlot() -> Int {
        var s = 0
        for i in 1..<taps where abs(tapValue[i]) < abs(tapValue[s]) { s = i }
        return s
    }
}
