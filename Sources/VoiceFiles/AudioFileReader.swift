import CSndFile

/// A whole audio file read into memory as Float channels (±1.0 full scale).
///
/// - Realtime: never (file I/O and allocation). Used by the offline mode and tests.
public struct AudioFileContents: Sendable {
    /// Samples per second.
    public let sampleRate: Int
    /// One array per channel, all the same length.
    public let channels: [[Float]]
    /// Frames (samples per channel).
    public var frames: Int { channels.first?.count ?? 0 }

    public init(sampleRate: Int, channels: [[Float]]) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Frames read per call: 64 Ki frames, a few hundred KiB of scratch.
    static let blockFrames = 65_536

    /// Reads every frame of the file at `path` with libsndfile, block by block to its end.
    ///
    /// The header's frame count is never used to size anything: a truncated Ogg stream or a FLAC
    /// whose header was never finished reports SF_COUNT_MAX, and a WAV from a pipe a placeholder
    /// of ~2^31 bytes. Memory grows with what the file really holds.
    public static func read(_ path: String) throws(AudioFileError) -> AudioFileContents {
        let stream = try AudioFileStream(path: path)
        let channelCount = stream.channels
        var channels = [[Float]](repeating: [], count: channelCount)
        if let frames = stream.knownFrames {
            for c in 0..<channelCount { channels[c].reserveCapacity(frames) }
        }
        var block = [Float](repeating: 0, count: blockFrames * channelCount)
        while true {
            let got = try block.withUnsafeMutableBufferPointer { (p) throws(AudioFileError) in
                try stream.read(into: p.baseAddress!, frames: blockFrames)
            }
            if got == 0 { break }
            for c in 0..<channelCount {
                channels[c].append(
                    contentsOf: stride(from: c, to: got * channelCount, by: channelCount).lazy.map {
                        block[$0]
                    })
            }
        }
        return AudioFileContents(sampleRate: stream.sampleRate, channels: channels)
    }
}
