import Foundation
import VoiceUnits

/// Estimates the noise spectrum under the voice, and how deep to suppress it, from the way the
/// noise's level moves: steady noise (fans, hiss, traffic hum) or babble (other voices).
///
/// Both estimates update only on frames that are probably noise: frames whose 200–4000 Hz level
/// is near its running 20th percentile (a level that rises 7.5 dB/s while frames are above it and
/// falls 30 dB/s while they are below, so it sits where a fifth of the frames are quieter).
///
/// - **Steady**: each bin's log power averaged over frames within 4 dB of the percentile (2 s),
///   plus 1.5 dB, since a log mean reads under the mean. Precise, so the gain floor can be deep
///   (`steadyFloorDB`, preset key `noise_suppress_db`).
/// - **Babble**: each bin's power averaged over frames up to 8 dB above the percentile (1.5 s),
///   so the estimate reads high, with a shallow floor (`babbleFloorDB`). Babble's level swings
///   with its talkers' syllables: a precise mean leaves those swings as musical noise, and a deep
///   floor chops the voice with them.
///
/// Which estimate applies follows the spread between the 2nd and 10th percentiles of the last
/// 4 s of frame levels: steady noise (pink, fan) spreads about a decibel, babble several. Under
/// 1.5 dB it is steady, over 2.5 dB babble, blended in the log domain between. Against the true
/// noise spectrum at the same latency this raises babble's PESQ gain several-fold without giving
/// up pink or fan (docs/measurement-history.md, "A noise estimate that follows how steady the
/// noise is").
///
/// - Realtime: `update` is safe; `init` allocates, deinit frees.
struct NoiseSpectrumTracker: ~Copyable {
    /// Spread (dB) at and under which the noise counts as steady, and over which as babble.
    let steadySpread: Float = 1.5
    let babbleSpread: Float = 2.5
    /// The log mean's bias correction, as a log₂ power ratio (+1.5 dB).
    let logMeanBias: Float = 0.498_289_2

    let bins: Int
    /// The 200–4000 Hz bins whose power sets a frame's level.
    let bandStart: Int
    let bandEnd: Int
    /// Per frame: the percentile's rise and fall (dB), the two averages' smoothing factors.
    let percentileRise: Float
    let percentileFall: Float
    let logSmoothing: Float
    let linearSmoothing: Float
    /// Frames of levels before the spread is trusted (0.4 s).
    let spreadWarmUp: Int
    /// Gain floors, linear amplitude.
    let steadyFloor: Float
    let babbleFloor: Float

    /// Per bin: the log₂ power average (steady), the power average (babble), the blended estimate.
    private let logNoise: UnsafeMutablePointer<Float>
    private let linearNoise: UnsafeMutablePointer<Float>
    /// This frame's noise power per bin, after `update`.
    let noise: UnsafeMutablePointer<Float>
    /// This frame's gain floor (linear amplitude), after `update`.
    private(set) var floor: Float
    /// 0 for steady noise, 1 for babble, after `update`.
    private(set) var babble: Float = 0
    private var levels: SlidingPercentiles
    private var percentileDB: Float = 0
    /// True once a frame has set the estimates.
    private(set) var started = false
    /// Frames each average has taken in (counted up to where the time constant takes over).
    private var logUpdates = 0
    private var linearUpdates = 0

    /// A tracker for `bins` bins of an FFT of `fftSize` points at `sampleRate` Hz, one frame every
    /// `hopSeconds`.
    init(
        bins: Int, fftSize: Int, sampleRate: Int, hopSeconds: Float, steadyFloorDB: Float, babbleFloorDB: Float
    ) {
        self.bins = bins
        let binHz = Float(sampleRate) / Float(fftSize)
        bandStart = Int((200 / binHz).rounded(.up))
        bandEnd = min(bins, Int(4000 / binHz) + 1)
        percentileRise = 7.5 * hopSeconds
        percentileFall = 30 * hopSeconds
        logSmoothing = exp2f(-hopSeconds / 2 * 1.442_695)
        linearSmoothing = exp2f(-hopSeconds / 1.5 * 1.442_695)
        spreadWarmUp = Int(0.4 / hopSeconds)
        steadyFloor = exp2f(steadyFloorDB / 20 * 3.321_928)
        babbleFloor = exp2f(babbleFloorDB / 20 * 3.321_928)
        floor = steadyFloor
        logNoise = .allocate(capacity: bins)
        linearNoise = .allocate(capacity: bins)
        noise = .zeroed(bins)
        levels = SlidingPercentiles(capacity: max(1, Int(4 / hopSeconds)))
    }

    deinit {
        logNoise.deallocate()
        linearNoise.deallocate()
        noise.deallocate()
    }

    /// Takes one frame's power spectrum (`bins` values) and updates `noise`, `floor` and `babble`.
    ///
    /// Digital silence (a stream's first blocks, a muted source: under 1e-12 per bin, below a
    /// 16-bit signal's rounding noise) leaves everything as it was: started from it, the log
    /// average would take tens of seconds to climb to the real noise.
    ///
    /// - Realtime: safe.
    @_noLocks
    mutating func update(_ power: UnsafePointer<Float>) {
        var bandPower: Float = 0
        for k in bandStart..<bandEnd { bandPower += power[k] }
        guard bandPower > 1e-12 * Float(bandEnd - bandStart) else { return }
        let level = FastDecibels.fromPower(bandPower)
        if !started {
            started = true
            percentileDB = level
            for k in 0..<bins {
                logNoise[k] = FastDecibels.log2(power[k])
                linearNoise[k] = power[k]
            }
        }
        percentileDB += level > percentileDB ? percentileRise : -percentileFall
        // Until an average has seen as many frames as its time constant holds, it is the plain
        // mean of what it has seen (weight 1/n): a first frame that is half silence (a stream's
        // start) is then forgotten within a few frames instead of over seconds.
        if level < percentileDB + 4 {
            logUpdates += 1
            let w = max(1 - logSmoothing, 1 / Float(logUpdates))
            for k in 0..<bins { logNoise[k] += w * (FastDecibels.log2(power[k]) - logNoise[k]) }
        }
        if level < percentileDB + 8 {
            linearUpdates += 1
            let w = max(1 - linearSmoothing, 1 / Float(linearUpdates))
            for k in 0..<bins { linearNoise[k] += w * (power[k] - linearNoise[k]) }
        }
        levels.add(level)
        let spread = levels.count > spreadWarmUp ? levels.percentile(0.10) - levels.percentile(0.02) : 0
        babble = min(max((spread - steadySpread) / (babbleSpread - steadySpread), 0), 1)
        let steady = 1 - babble
        for k in 0..<bins {
            let logPower = steady * (logNoise[k] + logMeanBias) + babble * FastDecibels.log2(linearNoise[k])
            noise[k] = FastDecibels.exp2(logPower)
        }
        floor = FastDecibels.exp2(steady * FastDecibels.log2(steadyFloor) + babble * FastDecibels.log2(babbleFloor))
    }
}
