import VoiceFiles

/// Why a file could not be measured or normalised; each message names the file.
public enum LoudnessError: Error, CustomStringConvertible {
    /// The file has more than one channel; normalisation is for the mono voice.
    case notMono(path: String, channels: Int)
    /// libebur128 cannot measure at this rate or channel count.
    case unmeasurable(path: String, sampleRate: Int, channels: Int)
    /// Reading or writing the audio failed.
    case file(AudioFileError)

    public var description: String {
        switch self {
        case .notMono(let path, let channels):
            return "\(path) has \(channels) channels; loudness normalisation is for the mono voice output"
        case .unmeasurable(let path, let rate, let channels):
            return "\(path): libebur128 cannot measure \(channels) channel(s) at \(rate) Hz"
        case .file(let error): return error.description
        }
    }

    /// True when the input is at fault (bad data, 65), false when the system is (I/O, 74).
    public var isDataError: Bool {
        switch self {
        case .notMono, .unmeasurable: return true
        case .file(let error): return error.isDataError
        }
    }
}
