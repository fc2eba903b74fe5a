import VoiceFiles

/// Audio files for tests.
public enum TestFiles {
    /// Writes `channels` (equal lengths) to `path` as float WAV at `rate`; returns the path.
    @discardableResult
    public static func wav(_ path: String, _ channels: [[Float]], rate: Int) throws -> String {
        let writer = try AudioFileWriter(
            path: path, format: AudioFormat(parsing: "wav:float"), sampleRate: rate, channels: channels.count)
        let frames = channels[0].count
        var interleaved = [Float](repeating: 0, count: frames * channels.count)
        for (c, channel) in channels.enumerated() {
            for i in 0..<frames { interleaved[i * channels.count + c] = channel[i] }
        }
        try interleaved.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: frames) }
        try writer.close()
        return path
    }
}
