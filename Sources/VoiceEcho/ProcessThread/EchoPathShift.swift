import VoiceSpeex

/// Measures how far the echo canceller's adaptive filter moved in time between two looks, to a
/// fraction of a sample: the drift the canceller is chasing.
///
/// When the loudspeaker's clock runs off the mic's, the echo arrives a little earlier or later
/// every second, and the converged filter (speexdsp's impulse response) slides with it. The
/// shift between two looks is the lag of the largest normalised cross-correlation of the two
/// responses within ±`maximumShift` samples, refined by a parabola through the peak and its
/// neighbours. A look whose responses correlate less than `minimumCorrelation` (the filter is
/// converging, was reset, or the echo path changed) gives no shift. Full-band and taken from the
/// filter, this is far finer than the delay estimator's peak lags (2 kHz).
///
/// - Realtime: `measure` and `forget` are safe; `init` allocates.
struct EchoPathShift: ~Copyable {
    /// Samples of impulse response.
    let length: Int
    /// Largest shift searched between two looks, samples.
    let maximumShift: Int
    /// Normalised correlation two responses must reach for their shift to count.
    let minimumCorrelation: Double = 0.9
    private let raw: UnsafeMutablePointer<Int32>
    private var previous: UnsafeMutablePointer<Float>
    private var current: UnsafeMutablePointer<Float>
    private var hasPrevious = false

    init(length: Int, maximumShift: Int) {
        self.length = max(1, length)
        self.maximumShift = maximumShift
        raw = .allocate(capacity: self.length)
        raw.initialize(repeating: 0, count: self.length)
        previous = .zeroed(self.length)
        current = .zeroed(self.length)
    }

    deinit {
        raw.deallocate()
        previous.deallocate()
        current.deallocate()
    }

    /// Forgets the last look (after a canceller reset or a delay jump).
    /// - Realtime: safe.
    @_noLocks
    mutating func forget() { hasPrevious = false }

    /// Takes a look at `processor`'s filter; returns how many samples it moved later since the
    /// previous look (negative: earlier), or nil without a previous look or a clear match.
    /// - Realtime: safe (one inverse FFT per filter block, and 2 × `maximumShift` + 1 dot
    ///   products of `length`).
    @_noLocks
    mutating func measure(_ processor: borrowing SpeexVoiceProcessor) -> Double? {
        guard processor.impulseResponseLength == length, processor.impulseResponse(into: raw) else {
            return nil
        }
        swap(&previous, &current)
        for i in 0..<length { current[i] = Float(raw[i]) }
        let had = hasPrevious
        hasPrevious = true
        guard had else { return nil }
        var energyPrevious = 0.0
        var energyCurrent = 0.0
        for i in 0..<length {
            energyPrevious += Double(previous[i] * previous[i])
            energyCurrent += Double(current[i] * current[i])
        }
        let norm = energyPrevious * energyCurrent  // squared, to compare without a square root
        guard norm > 0 else { return nil }
        var best = 0
        var bestValue = -Double.infinity
        var below = 0.0
        var above = 0.0
        var last = 0.0
        for k in -maximumShift...maximumShift {
            let c = correlation(at: k)
            if c > bestValue {
                bestValue = c
                best = k
                below = last
                above = .nan
            } else if k == best + 1 {
                above = c
            }
            last = c
        }
        let values = (below, bestValue, above)  // at best − 1, best, best + 1
        guard bestValue > 0, bestValue * bestValue >= minimumCorrelation * minimumCorrelation * norm,
            best > -maximumShift, best < maximumShift, values.2.isFinite
        else { return nil }
        let curvature = values.0 - 2 * values.1 + values.2
        let offset = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (values.0 - values.2) / curvature)) : 0
        return Double(best) + offset
    }

    /// Σ previous[i] · current[i + k] over the overlap.
    @inline(__always) @_noLocks
    private func correlation(at k: Int) -> Double {
        let from = max(0, -k), to = min(length, length - k)
        var sum: Float = 0
        for i in from..<to { sum += previous[i] * current[i + k] }
        return Double(sum)
    }
}
