import VoiceRT

/// One channel of a tap delayed by the engine's latency into a chunk of its own, so that it lines
/// up with the processed voice: the tuning tap's mic and reference, the karaoke tap's backing.
///
/// - Realtime: `align` is safe (process thread, inside `TapRoutes.record`); `init` allocates and
///   deinit frees, main thread.
struct AlignedChannel: ~Copyable {
    /// The delayed chunk (`chunk` samples, the last `align`'s first `m` of them valid).
    let samples: UnsafeMutablePointer<Float>
    var line: DelayLine

    /// A channel delayed by up to `maximumDelay` samples, `chunk` samples at a time.
    init(maximumDelay: Int, chunk: Int) {
        samples = .zeroed(chunk)
        line = DelayLine(maximumDelay: maximumDelay, maximumBlock: chunk)
    }

    deinit { samples.deallocate() }

    /// Puts `m` samples of `input` (which may be `samples` itself), `latency` samples late, into
    /// `samples`.
    @inline(__always) @_noLocks
    mutating func align(_ input: UnsafePointer<Float>, _ m: Int, latency: Int) {
        line.setDelay(latency)
        line.process(input, samples, m)
    }
}
