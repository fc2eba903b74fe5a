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

    /// Reads every frame of the file at `path` with libsndfile.
    public static func read(_ path: String) throws(AudioFileError) -> AudioFileContents {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw .cannotOpen(path: path, reason: String(cString: sf_strerror(nil)))
        }
        defer { sf_close(file) }
        let channelCount = Int(info.channels)
        let frames = Int(info.frames)
        guard channelCount > 0, info.samplerate > 0 else {
            throw .cannotOpen(path: path, reason: "no channels or no sample rate in the header")
        }
        var interleaved = [Float](repeating: 0, count: frames * channelCount)
        let got = interleaved.withUnsafeMutableBufferPointer {
            Int(sf_readf_float(file, $0.baseAddress, sf_count_t(frames)))
        }
        guard got == frames else {
            throw .readFailed(
                path: path, reason: "got \(got) of \(frames) frames: " + String(cString: sf_strerror(file)))
        }
        var channels = [[Float]](repeating: [], count: channelCount)
        for c in 0..<channelCount {
            channels[c] = (0..<frames).map { interleaved[$0 * channelCount + c] }
        }
        return AudioFileContents(sampleRate: Int(info.samplerate), channels: channels)
    }
}
