import VoiceSpeex

/// The echo canceller's reference delay: a whole-sample bulk delay, and, once clock drift is
/// followed, a delay that drifts with the echo, through speexdsp's resampler at a ratio a few
/// hundred ppm off 1:1.
///
/// A history ring per loudspeaker channel holds the undelayed reference. Unengaged, a block is
/// read `delay` samples behind what was written, exactly like `DelayLine`. Engaged, the
/// resampler reads the ring from `fed` on and makes one output sample per input block sample
/// while consuming 1 + ratio × 10⁻⁶ input samples each: the delay shrinks (ratio > 0) or grows
/// (ratio < 0) smoothly, as the echo's delay does when the loudspeaker's clock runs off the
/// mic's. Output sample j then stands for input `fed − latency` (the resampler's look-ahead).
///
/// Engaging and delay jumps restart the resampler on `latency` samples of history, so the
/// reference does not jump (engaging) or jumps exactly as asked (a new delay).
///
/// - Realtime: `process`, `setDelay`, `engage`, `setRatio` are safe; `init` allocates.
struct DriftingDelay: ~Copyable {
    let channels: Int
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    /// Outputs of a restart that stand for history, thrown away (`latency` samples).
    private let discard: UnsafeMutablePointer<Float>
    private let mask: Int
    /// Largest delay, in samples.
    let maximumDelay: Int
    private var resampler: DriftResampler
    /// Samples written so far (absolute index of the next input).
    private var written = 0
    /// Unengaged: absolute index of the input the next output is. Engaged: next input fed to
    /// the resampler.
    private var next = 0
    /// A restart is due before the next engaged block (after an engage or a new delay).
    private var restartDue = false
    /// Following drift through the resampler.
    private(set) var engaged = false
    /// Output samples the resampler could not make (input ran short); stays 0 in practice.
    private(set) var shortfall = 0

    init(channels: Int, sampleRate: Int, maximumDelay: Int, maximumBlock: Int) {
        self.channels = channels
        resampler = DriftResampler(channels: channels, sampleRate: sampleRate)
        self.maximumDelay = maximumDelay
        var size = 1
        while size < maximumDelay + 2 * maximumBlock + 4 * resampler.latency + 64 { size <<= 1 }
        mask = size - 1
        left = .zeroed(size)
        right = .zeroed(size)
        discard = .zeroed(resampler.latency + 1)
    }

    deinit {
        left.deallocate()
        right.deallocate()
        discard.deallocate()
    }

    /// The resampler's look-ahead, samples.
    var latency: Int {
        @_noLocks get { resampler.latency }
    }

    /// The smallest delay the resampler can follow (it needs `latency` samples of look-ahead).
    var minimumEngagedDelay: Int {
        @_noLocks get { resampler.latency + 1 }
    }

    /// The current delay in whole samples (drift moves it while engaged).
    var delay: Int {
        @_noLocks get { engaged ? written - (next - resampler.latency) : written - next }
    }

    /// The ratio in ppm: input consumed per output sample, minus one (0 unengaged).
    var ratioPPM: Double {
        @_noLocks get { engaged ? resampler.ratioPPM : 0 }
    }

    /// Sets the delay (clamped to what the ring and, engaged, the resampler allow).
    /// - Realtime: safe.
    @_noLocks
    mutating func setDelay(_ samples: Int) {
        let low = engaged ? minimumEngagedDelay : 0
        let d = min(max(samples, low), maximumDelay)
        next = written - d + (engaged ? resampler.latency : 0)
        if engaged { restartDue = true }
    }

    /// Starts following drift at `ppm` (input per output minus one) from the current delay,
    /// without a jump. Returns false when the delay is too short to engage.
    /// - Realtime: safe.
    @_noLocks
    mutating func engage(ppm: Double) -> Bool {
        guard !engaged else { return true }
        let d = delay
        guard d >= minimumEngagedDelay else { return false }
        resampler.setRatio(ppm: ppm)
        engaged = true
        setDelay(d)
        return true
    }

    /// Changes the ratio while engaged (smoothly: the resampler keeps its phase).
    /// - Realtime: safe.
    @_noLocks
    mutating func setRatio(ppm: Double) {
        guard engaged else { return }
        resampler.setRatio(ppm: ppm)
    }

    /// Writes `n` samples per channel (`inLeft`, and `inRight` with two channels) and reads `n`
    /// delayed ones into `outLeft`/`outRight`; in-place allowed.
    /// - Realtime: safe.
    @_noLocks
    mutating func process(
        _ inLeft: UnsafeMutablePointer<Float>, _ inRight: UnsafeMutablePointer<Float>,
        _ outLeft: UnsafeMutablePointer<Float>, _ outRight: UnsafeMutablePointer<Float>, _ n: Int
    ) {
        for i in 0..<n { left[(written &+ i) & mask] = inLeft[i] }
        if channels == 2 { for i in 0..<n { right[(written &+ i) & mask] = inRight[i] } }
        written &+= n
        guard engaged else {
            for i in 0..<n { outLeft[i] = left[(next &+ i) & mask] }
            if channels == 2 { for i in 0..<n { outRight[i] = right[(next &+ i) & mask] } }
            next &+= n
            return
        }
        if restartDue { restart() }
        resampler.advance(samples: n)
        let made = resample(into: outLeft, outRight, n)
        if made < n {
            shortfall += n - made
            for i in made..<n {
                outLeft[i] = 0
                outRight[i] = 0
            }
        }
    }

    /// Restarts the resampler so that its next output stands for input `next − latency`.
    ///
    /// After a restart the resampler's first output stands for the first input fed; it is fed
    /// from `2 × latency` before `next`, and the first `latency` outputs (which had zeros for
    /// history) are thrown away.
    @_noLocks
    private mutating func restart() {
        restartDue = false
        resampler.restart()
        next -= 2 * resampler.latency
        _ = resample(into: discard, discard, resampler.latency)
    }

    /// Feeds the ring from `next` to the resampler until `n` outputs are made or the written
    /// samples run out (two runs when the ring wraps). Returns the outputs made.
    @_noLocks
    private mutating func resample(
        into outLeft: UnsafeMutablePointer<Float>, _ outRight: UnsafeMutablePointer<Float>, _ n: Int
    ) -> Int {
        var made = 0
        while made < n {
            let available = written - next
            let start = next & mask
            let contiguous = min(available, mask + 1 - start)
            guard contiguous > 0 else { break }
            let (consumed, produced) = resampler.process(
                channel: 0, input: left + start, inputCount: contiguous, output: outLeft + made,
                outputCount: n - made)
            if channels == 2 {
                _ = resampler.process(
                    channel: 1, input: right + start, inputCount: contiguous, output: outRight + made,
                    outputCount: n - made)
            }
            next += consumed
            made += produced
            if consumed == 0 && produced == 0 { break }
        }
        return made
    }
}
