import CSpeexDSP

/// Converts an endless interleaved stream between sample rates with speexdsp's resampler
/// (quality 10), chunk by chunk: the backing-track reader feeds it file chunks (and, when a track
/// loops, the start again right after the end, so the loop has no gap).
///
/// The filter's delay is skipped at the start (`speex_resampler_skip_zeros`), so output sample 0
/// is input sample 0. One instance per stream; not thread-safe.
///
/// - Realtime: never (used on the backing track's reader thread).
public final class StreamingResampler {
    public let channels: Int
    public let inputRate: Int
    public let outputRate: Int
    private let state: OpaquePointer?

    /// A resampler for `channels` interleaved channels from `inputRate` to `outputRate` Hz. Equal
    /// rates copy.
    public init(channels: Int, from inputRate: Int, to outputRate: Int) throws(SpeexResampler.Failure) {
        self.channels = channels
        self.inputRate = inputRate
        self.outputRate = outputRate
        guard inputRate != outputRate else {
            state = nil
            return
        }
        var error: Int32 = 0
        guard let st = speex_resampler_init(UInt32(channels), UInt32(inputRate), UInt32(outputRate), 10, &error)
        else { throw SpeexResampler.Failure(code: error) }
        speex_resampler_skip_zeros(st)
        state = st
    }

    deinit { if let state { speex_resampler_destroy(state) } }

    /// Output frames `inputFrames` input frames make, rounded up (for sizing buffers).
    public func outputFrames(forInput inputFrames: Int) -> Int {
        (inputFrames * outputRate + inputRate - 1) / inputRate + 1
    }

    /// Resamples up to `inputFrames` frames from `input` into `output` (room for `outputCapacity`
    /// frames). Returns the frames consumed and produced; feed the unconsumed rest again.
    public func process(
        _ input: UnsafePointer<Float>, inputFrames: Int, into output: UnsafeMutablePointer<Float>,
        outputCapacity: Int
    ) throws(SpeexResampler.Failure) -> (consumed: Int, produced: Int) {
        guard let state else {
            let n = min(inputFrames, outputCapacity)
            output.update(from: input, count: n * channels)
            return (n, n)
        }
        var inLength = UInt32(inputFrames)
        var outLength = UInt32(outputCapacity)
        let err = speex_resampler_process_interleaved_float(state, input, &inLength, output, &outLength)
        if err != 0 { throw SpeexResampler.Failure(code: err) }
        return (Int(inLength), Int(outLength))
    }
}
