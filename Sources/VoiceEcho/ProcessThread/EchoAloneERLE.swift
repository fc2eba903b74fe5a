import Foundation

/// The health ERLE where the far end talks alone, told apart from double talk by how much of the
/// mic the canceller's echo estimate explains.
///
/// `ERLEMeter` counts every frame in which the far end plays and the echo path explains the mic's
/// level. A talker over the far end counts there as echo left, so a call with double talk read
/// "poor: echo audible" where its far-end-only stretches measured far better (figures in
/// docs/measurements.md). Here a frame
/// counts only while the echo estimate explains at least `leastExplained` of the mic's power in
/// 200–4000 Hz (the post-filter's coherence statistics, `EchoCoherence.explainedShare`): a talker
/// within ~8 dB of the echo pulls that share under it. Frames pool into windows of
/// `windowSeconds`; a window in which at least `leastPassing` of the samples count gives one value.
/// The statistics are smoothed over 0.8 s, so the edges of talk still get in; the figure is the
/// power mean of the last `capacity` window values, leaving out those more than 15 dB (the power
/// ratio `belowMedian`) under their median.
///
/// On the public yardstick its verdict agrees with the one the yardstick's own far-end-only ERLE
/// gives far more often than `ERLEMeter`'s (docs/measurement-history.md, "The health ERLE with
/// double talk").
/// It reads a few dB low in double talk, and high where the canceller had not yet converged or
/// followed a drift: the echo estimate explains little of the mic there either, so those
/// stretches are left out like double talk.
///
/// It needs the coherence statistics: with the post-filter's coherence gain on, the engine
/// reports this figure alone (0, "not measured", until `minimumWindows` are in); without it,
/// `ERLEMeter`'s.
///
/// - Realtime: `measure` and `ratio` are safe; `init` allocates, deinit frees.
public struct EchoAloneERLE: ~Copyable {
    /// Seconds per window.
    static let windowSeconds = 0.5
    /// Least share of the mic's power the echo estimate must explain for a frame to count.
    static let leastExplained: Float = 0.85
    /// Least share of a window's samples that must count for the window to give a value.
    static let leastPassing = 0.4
    /// Windows kept: two minutes of the far end alone, so the figure follows a changing room.
    public static let capacity = 240
    /// Windows needed before a figure is reported.
    static let minimumWindows = 4
    /// Residual power ratios above median × this (ERLE 15 dB under the median) are left out.
    static let belowMedian: Float = 31.6
    /// Seconds skipped after a (re)start while the filter converges, as `ERLEMeter` does.
    static let settleSeconds = 2

    /// Window values (output / mic power ratio), in arrival order (a ring) and sorted: the two
    /// halves of one allocation.
    private let ring: UnsafeMutablePointer<Float>
    private let sorted: UnsafeMutablePointer<Float>
    private var head = 0
    /// Window values kept (at most `capacity`).
    public private(set) var windows = 0
    private var samples = 0
    private var passing = 0
    private var micEnergy: Double = 0
    private var outputEnergy: Double = 0
    private var settleRemaining = -1
    private var resetsSeen = 0
    /// Power ratio mic / output over the kept windows; 0 until `minimumWindows` are in.
    public private(set) var ratio: Float = 0

    /// An empty meter.
    public init() {
        ring = .zeroed(2 * Self.capacity)
        sorted = ring + Self.capacity
    }

    deinit { ring.deallocate() }

    /// Counts one frame of `frames` samples: `explained` is the echo estimate's share of the
    /// mic's power (negative when unknown), `farActive` whether the far end plays, `mic` and
    /// `out` the frame's mean squares at the canceller's input and the engine's output. `resets`
    /// is the engine's canceller reset count so far (a reset restarts the settling).
    ///
    /// - Realtime: safe; O(`capacity`) once per window.
    @_noLocks
    public mutating func measure(
        explained: Float, farActive: Bool, micPower mic: Float, outputPower out: Float, frames: Int,
        sampleRate: Int, resets: Int
    ) {
        if settleRemaining < 0 || resets != resetsSeen {
            settleRemaining = Self.settleSeconds * sampleRate
            resetsSeen = resets
            samples = 0
            passing = 0
            micEnergy = 0
            outputEnergy = 0
        }
        if settleRemaining > 0 {
            settleRemaining = max(0, settleRemaining - frames)
            return
        }
        samples += frames
        if farActive && explained >= Self.leastExplained {
            passing += frames
            micEnergy += Double(mic) * Double(frames)
            outputEnergy += Double(out) * Double(frames)
        }
        guard Double(samples) >= Self.windowSeconds * Double(sampleRate) else { return }
        if Double(passing) >= Self.leastPassing * Double(samples) && micEnergy > 0 {
            add(Float(outputEnergy / micEnergy))
        }
        samples = 0
        passing = 0
        micEnergy = 0
        outputEnergy = 0
    }

    /// Keeps one window value, dropping the oldest when full, and recomputes the figure.
    @_noLocks
    private mutating func add(_ value: Float) {
        if windows == Self.capacity {
            remove(ring[head])
        } else {
            windows += 1
        }
        ring[head] = value
        head = (head + 1) % Self.capacity
        insert(value)
        guard windows >= Self.minimumWindows else { return }
        let limit = sorted[windows / 2] * Self.belowMedian
        var sum: Double = 0
        var count = 0
        for i in 0..<windows where sorted[i] <= limit {
            sum += Double(sorted[i])
            count += 1
        }
        ratio = sum > 0 ? Float(Double(count) / sum) : 0
    }

    /// Inserts into `sorted` (which holds `windows − 1` values before the call).
    @inline(__always) @_noLocks
    private func insert(_ value: Float) {
        var i = windows - 1
        while i > 0 && sorted[i - 1] > value {
            sorted[i] = sorted[i - 1]
            i -= 1
        }
        sorted[i] = value
    }

    /// Removes one occurrence of `value` from `sorted` (which holds `windows` values).
    @inline(__always) @_noLocks
    private func remove(_ value: Float) {
        var i = 0
        while i < windows - 1 && sorted[i] != value { i += 1 }
        while i < windows - 1 {
            sorted[i] = sorted[i + 1]
            i += 1
        }
    }
}
