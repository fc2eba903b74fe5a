import Foundation
import VoiceRT

/// Watches the microphone for a monitor feedback howl while the ear return plays through
/// speakers, so the engine can mute the monitor before the loop screams.
///
/// A howl is the loop's one frequency with gain above 1: a single sinusoid whose level grows by
/// the same number of dB on every trip round the loop until something clips. Each analysis finds
/// the strongest peak in 150 Hz – 10 kHz (5 bins around it, Hann window) and the fraction of the
/// band's power it holds: ≈ 1 for a sine, less for a sung note or speech, whose harmonics share
/// the power (a 1/k harmonic series puts 65 % in the fundamental). The guard trips on any of:
///
/// * slow growth: the last 16 analyses (≈ 170 ms at 48 kHz) each hold ≥ 80 % of the power in one
///   peak at one frequency (±1 bin), at least 12 of their 15 steps grew (> 0.05 dB), and the
///   peak rose ≥ 2 dB (≥ 12 dB/s);
/// * fast growth: the last 6 analyses (≈ 64 ms) hold ≥ 50 % in one peak at one frequency and
///   every step grew ≥ 1.5 dB (≥ 140 dB/s; the howl may still share the mic with a voice);
/// * saturation: the last 24 analyses (≈ 256 ms) hold ≥ 90 % in one peak at one frequency with
///   the mic at full scale (peak ≥ −1 dBFS): a howl that already clips and cannot grow.
///
/// A steady sine (no growth, below full scale), a sine's onset (one jump, then flat), a sung
/// note with vibrato (the level wobbles both ways, the harmonics share the power) and speech (not
/// narrow, not persistent) fail every test.
///
/// Analyses: `size`-point FFTs (≈ 21 ms: 1024 points at 48 kHz) every `hop` = size/2 samples.
/// The transform is done piecewise (`FFT.forwardStep`): windowing, the permutation, each
/// butterfly stage and the peak search are separate steps, and each render cycle runs only as
/// many steps as its share of the hop, so no cycle pays for a whole analysis.
///
/// - Realtime: `analyse` and `rearm` are safe; `init` allocates, `deallocate` frees.
struct FeedbackGuard: ~Copyable {
    /// Points per analysis (a power of two, ≈ 21 ms).
    let size: Int
    /// Samples between analyses.
    let hop: Int
    /// Analyses remembered (the longest test's span).
    static let memory = 32
    /// Power ratios: 0.05 dB, 1.5 dB, 2 dB.
    static let anyGrowth: Float = 1.0116
    static let fastGrowth: Float = 1.413
    static let slowRise: Float = 1.585
    /// −1 dBFS: the mic is at full scale.
    static let fullScale: Float = 0.89
    /// Band power (sum of |X|², Hann window) below which the mic counts as silent (≈ −70 dBFS).
    let silentPower: Float

    private let fft: FFT
    private let sampleRate: Int
    private let hann: UnsafeMutablePointer<Float>
    /// The last `size` mic samples, circular.
    private let history: UnsafeMutablePointer<Float>
    private let re, im: UnsafeMutablePointer<Float>
    private let lowBin, highBin: Int
    /// Per analysis, newest at `latest` (circular, `memory` entries): peak power, peak bin,
    /// the peak's fraction of the band power, and the mic's largest |sample| in the frame.
    private let powers: UnsafeMutablePointer<Float>
    private let bins: UnsafeMutablePointer<Int>
    private let fractions: UnsafeMutablePointer<Float>
    private let levels: UnsafeMutablePointer<Float>
    private var latest = 0
    /// Analyses in a row with signal (capped at `memory`).
    private var count = 0
    /// The mic's largest |sample| in the frame being analysed.
    private var frameLevel: Float = 0
    private var written = 0
    private var sinceAnalysis = 0
    /// Next step of the running analysis; -1 when idle.
    private var step = -1
    /// Steps each cycle may run: the analysis's steps spread over a hop's worth of cycles.
    private let stepsPerCycle: Int
    /// Steps of the FFT (`FFT.stepCount`).
    private let transformSteps: Int

    /// Set when the guard tripped; the frequency of the howl in Hz. Cleared by `rearm`.
    private(set) var tripped = false
    private(set) var howlFrequency: Float = 0

    init(sampleRate: Int, blockSize: Int) {
        self.sampleRate = sampleRate
        var n = 256
        while n < sampleRate / 48 { n <<= 1 }  // ≥ 20.8 ms
        size = n
        hop = n / 2
        fft = FFT(size: n)
        hann = HannWindow.allocate(n)
        history = .zeroed(n)
        re = .zeroed(n)
        im = .zeroed(n)
        let binHz = Double(sampleRate) / Double(n)
        lowBin = max(2, Int(150 / binHz))
        highBin = min(n / 2 - 3, Int(min(10_000, 0.45 * Double(sampleRate)) / binHz))
        powers = .zeroed(Self.memory)
        bins = .allocate(capacity: Self.memory)
        bins.initialize(repeating: 0, count: Self.memory)
        fractions = .zeroed(Self.memory)
        levels = .zeroed(Self.memory)
        // Window (1) + permutation and stages (fft.stepCount) + peak search (1).
        transformSteps = fft.stepCount
        let steps = transformSteps + 2
        stepsPerCycle = max(1, (steps * min(blockSize, hop) + hop - 1) / hop)
        // A full-scale sine gives (n/4)² in its bins; −70 dBFS of band power is 1e-7 of that.
        silentPower = 1e-7 * Float(n * n) / 16
    }

    /// Frees the buffers. - Realtime: never.
    func deallocate() {
        hann.deallocate()
        history.deallocate()
        re.deallocate()
        im.deallocate()
        powers.deallocate()
        bins.deallocate()
        fractions.deallocate()
        levels.deallocate()
    }

    /// Takes `frames` mic samples and runs this cycle's share of the analysis; returns true on the
    /// cycle the guard trips. - Realtime: safe.
    @_noLocks
    mutating func analyse(_ mic: UnsafePointer<Float>, _ frames: Int) -> Bool {
        guard !tripped else { return false }
        for i in 0..<frames {
            history[written] = mic[i]
            written = written + 1 == size ? 0 : written + 1
        }
        sinceAnalysis += frames
        if step < 0, sinceAnalysis >= hop {
            sinceAnalysis = 0
            step = 0
        }
        var budget = stepsPerCycle
        while step >= 0, budget > 0, !tripped {
            runStep()
            budget -= 1
        }
        return tripped
    }

    /// Unmutes: forgets the howl and starts watching afresh. - Realtime: safe.
    @_noLocks
    mutating func rearm() {
        tripped = false
        howlFrequency = 0
        count = 0
        step = -1
        sinceAnalysis = 0
    }

    /// One step of the analysis: 0 windows the history, then the FFT's steps, then the decision.
    @inline(__always) @_noLocks
    private mutating func runStep() {
        if step == 0 {
            // Oldest sample first: `written` is where the next (= oldest) sample sits.
            var level: Float = 0
            for i in 0..<size {
                let j = written + i < size ? written + i : written + i - size
                level = max(level, abs(history[j]))
                re[i] = history[j] * hann[i]
                im[i] = 0
            }
            frameLevel = level
        } else if step <= transformSteps {
            fft.forwardStep(re, im, step: step - 1)
        } else {
            decide()
            step = -1
            return
        }
        step += 1
    }

    /// Finds the spectrum's peak and updates the run of howl-like analyses.
    @inline(__always) @_noLocks
    private mutating func decide() {
        var total: Float = 0
        var best: Float = 0
        var bestBin = lowBin
        for k in lowBin...highBin {
            let p = re[k] * re[k] + im[k] * im[k]
            total += p
            if p > best {
                best = p
                bestBin = k
            }
        }
        var peak: Float = 0
        for k in (bestBin - 2)...(bestBin + 2) { peak += re[k] * re[k] + im[k] * im[k] }
        guard total > silentPower else {
            count = 0
            return
        }
        latest = latest + 1 == Self.memory ? 0 : latest + 1
        powers[latest] = peak
        bins[latest] = bestBin
        fractions[latest] = peak / total
        levels[latest] = frameLevel
        count = min(count + 1, Self.memory)
        if slowGrowth() || fastGrowth() || saturated() {
            tripped = true
            howlFrequency = Float(bestBin) * Float(sampleRate) / Float(size)
        }
    }

    /// Position of the analysis `age` analyses before the latest.
    @inline(__always) @_noLocks
    private func slot(_ age: Int) -> Int { latest - age >= 0 ? latest - age : latest - age + Self.memory }

    /// True when the last `span` analyses each hold `fraction` of the power in one peak, at one
    /// frequency (±1 bin from one to the next).
    @inline(__always) @_noLocks
    private func persistentPeak(_ span: Int, fraction: Float) -> Bool {
        guard count >= span else { return false }
        for age in 0..<span {
            guard fractions[slot(age)] >= fraction else { return false }
            if age > 0, abs(bins[slot(age)] - bins[slot(age - 1)]) > 1 { return false }
        }
        return true
    }

    /// Steps among the last `span` analyses whose peak grew by more than `ratio` (power).
    @inline(__always) @_noLocks
    private func growingSteps(_ span: Int, by ratio: Float) -> Int {
        var growing = 0
        for age in 0..<(span - 1) where powers[slot(age)] > powers[slot(age + 1)] * ratio { growing += 1 }
        return growing
    }

    @inline(__always) @_noLocks
    private func slowGrowth() -> Bool {
        let span = 16
        return persistentPeak(span, fraction: 0.8) && growingSteps(span, by: Self.anyGrowth) >= 12
            && powers[slot(0)] >= powers[slot(span - 1)] * Self.slowRise
    }

    @inline(__always) @_noLocks
    private func fastGrowth() -> Bool {
        let span = 6
        return persistentPeak(span, fraction: 0.5) && growingSteps(span, by: Self.fastGrowth) == span - 1
    }

    @inline(__always) @_noLocks
    private func saturated() -> Bool {
        let span = 24
        guard persistentPeak(span, fraction: 0.9) else { return false }
        for age in 0..<span where levels[slot(age)] < Self.fullScale { return false }
        return true
    }
}

extension EngineState {
    /// Runs the feedback guard on the cycle's mic while the monitor plays; on a howl, glides the
    /// monitor to silence and raises the health flag. - Realtime: safe.
    @inline(__always) @_noLocks
    mutating func guardMonitor(_ frames: Int) {
        guard feedbackGuardOn, feedbackGuard.analyse(buffers.mic, min(frames, plan.blockSize)) else { return }
        monitorGains.mute.setTarget(0)
        figures.monitorMuted = true
        figures.feedbackFrequency = feedbackGuard.howlFrequency
        figures.feedbackEvents += 1
    }
}
