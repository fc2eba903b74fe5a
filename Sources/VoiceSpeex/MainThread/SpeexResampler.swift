import CSpeexDSP

/// Converts whole signals between sample rates with speexdsp's resampler (quality 10, the best).
///
/// Used off the process thread: offline for a reference file whose rate differs from the mic's,
/// and by the backing-track reader.
public enum SpeexResampler {
    /// Errors speexdsp's resampler reports.
    public struct Failure: Error, CustomStringConvertible {
        public let code: Int32
        public var description: String {
            "speexdsp resampler error \(code): " + String(cString: speex_resampler_strerror(code))
        }
    }

    /// Resamples `input` (mono) from `fromRate` to `toRate` Hz; the output has
    /// `round(count × toRate / fromRate)` samples and is compensated for the resampler's delay.
    /// - Realtime: never.
    public static func resample(_ input: [Float], from fromRate: Int, to toRate: Int) throws -> [Float] {
        if fromRate == toRate { return input }
        var error: Int32 = 0
        guard
            let st = speex_resampler_init(1, UInt32(fromRate), UInt32(toRate), 10, &error)
        else { throw Failure(code: error) }
        defer { speex_resampler_destroy(st) }
        speex_resampler_skip_zeros(st)
        let expected = Int((Double(input.count) * Double(toRate) / Double(fromRate)).rounded())
        let latency = Int(speex_resampler_get_input_latency(st))
        // Feed trailing zeros so the filter's delay is flushed out and `expected` samples arrive.
        let padded = input + [Float](repeating: 0, count: latency * 2 + 16)
        var output = [Float](repeating: 0, count: expected + 64)
        var consumed = 0
        var produced = 0
        try padded.withUnsafeBufferPointer { inp in
            try output.withUnsafeMutableBufferPointer { out in
                while consumed < inp.count && produced < expected {
                    var inLen = UInt32(inp.count - consumed)
                    var outLen = UInt32(out.count - produced)
                    let err = speex_resampler_process_float(
                        st, 0, inp.baseAddress! + consumed, &inLen, out.baseAddress! + produced, &outLen)
                    if err != 0 { throw Failure(code: err) }
                    if inLen == 0 && outLen == 0 { break }
                    consumed += Int(inLen)
                    produced += Int(outLen)
                }
            }
        }
        return Array(output.prefix(min(produced, expected))) + [Float](repeating: 0, count: max(0, expected - produced))
    }
}
