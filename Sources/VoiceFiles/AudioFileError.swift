/// Errors reading or writing audio files; each names the file and what went wrong.
public enum AudioFileError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened for reading (missing, unreadable, not audio).
    case cannotOpen(path: String, reason: String)
    /// Reading stopped before the end the header promised.
    case readFailed(path: String, reason: String)
    /// The file could not be created for writing.
    case cannotCreate(path: String, reason: String)
    /// Writing failed (disk full, I/O error).
    case writeFailed(path: String, reason: String)
    /// The requested container/sample format is unknown or not writable by this libsndfile.
    case unsupportedFormat(String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot read audio file \(path): \(reason)"
        case .readFailed(let path, let reason): return "reading \(path) failed: \(reason)"
        case .cannotCreate(let path, let reason): return "cannot create \(path): \(reason)"
        case .writeFailed(let path, let reason): return "writing \(path) failed: \(reason)"
        case .unsupportedFormat(let format, let reason): return "format '\(format)': \(reason)"
        }
    }

    /// True for errors about the data itself (exit 65) rather than the file system (exit 74).
    public var isDataError: Bool {
        switch self {
        case .cannotOpen, .readFailed, .unsupportedFormat: return true
        case .cannotCreate, .writeFailed: return false
        }
    }
}
