/// Turns a tap's interleaved frames into the stream's channel count: mono is copied to both
/// sides, several channels are averaged to mono, and a stereo stream of a tap with more than two
/// channels takes the first two.
///
/// - Realtime: never; the sender thread owns it (it grows its buffer as needed).
struct ChannelAdapter {
    let inputChannels: Int
    let outputChannels: Int
    private var buffer: [Float] = []

    init(inputChannels: Int, outputChannels: Int) {
        self.inputChannels = inputChannels
        self.outputChannels = outputChannels
    }

    /// Calls `body` with `frames` frames of `outputChannels` channels.
    mutating func adapt<R>(
        _ samples: UnsafePointer<Float>, frames: Int, _ body: (UnsafePointer<Float>) throws(StreamError) -> R
    ) throws(StreamError) -> R {
        if inputChannels == outputChannels { return try body(samples) }
        if buffer.count < frames * outputChannels { buffer = [Float](repeating: 0, count: frames * outputChannels) }
        let (inC, outC) = (inputChannels, outputChannels)
        buffer.withUnsafeMutableBufferPointer { out in
            for f in 0..<frames {
                let frame = samples + f * inC
                if outC == 1 {
                    var sum: Float = 0
                    for c in 0..<inC { sum += frame[c] }
                    out[f] = sum / Float(inC)
                } else {
                    out[2 * f] = frame[0]
                    out[2 * f + 1] = inC == 1 ? frame[0] : frame[1]
                }
            }
        }
        return try buffer.withUnsafeBufferPointer { (b) throws(StreamError) -> R in try body(b.baseAddress!) }
    }
}
