import CSndFile
import Glibc

/// An audio file read chunk by chunk (for files too long to hold in memory, like backing tracks).
///
/// Frames come interleaved as Float (±1.0 full scale); `rewind` starts over, for loops. One
/// owner thread; closed on deinit.
///
/// - Realtime: never (file I/O).
public final class AudioFileStream {
    public let path: String
    /// Samples per second.
    public let sampleRate: Int
    /// Channels per frame.
    public let channels: Int
    /// Frames in the file as the header states them (0 for some streamed formats that do not know).
    public let frames: Int
    /// `frames` when it can be believed: the input is seekable (a pipe's WAV header carries a
    /// placeholder) and the count is not libsndfile's "unknown" (SF_COUNT_MAX, as for a
    /// truncated Ogg stream or an unfinished FLAC header) nor more than the file could hold.
    /// nil otherwise: read to the end of the file instead.
    public let knownFrames: Int?
    private let file: OpaquePointer

    /// Opens `path` with libsndfile; throws `cannotOpen` naming the file when it is missing or not
    /// audio libsndfile reads.
    public init(path: String) throws(AudioFileError) {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            throw .cannotOpen(path: path, reason: String(cString: sf_strerror(nil)))
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(file)
            throw .cannotOpen(path: path, reason: "no channels or no sample rate in the header")
        }
        self.path = path
        self.file = file
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        frames = Int(info.frames)
        knownFrames = Self.believable(info, path: path)
    }

    /// The header's frame count when it is plausible (see `knownFrames`).
    private static func believable(_ info: SF_INFO, path: String) -> Int? {
        guard info.seekable != 0, info.frames >= 0, info.frames < Int64(Int32.max) * 64 else {
            return nil
        }
        // No codec packs a frame into less than 1/64 byte per channel (FLAC of digital silence
        // comes closest); a larger count than that is a damaged header.
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let bound = Int64(status.st_size) * 64 / Int64(max(1, info.channels)) + 65_536
        return info.frames <= bound ? Int(info.frames) : nil
    }

    deinit { sf_close(file) }

    /// Reads up to `frames` frames into `buffer` (room for `frames × channels` samples); returns
    /// the frames read, 0 at the end of the file.
    public func read(
        into buffer: UnsafeMutablePointer<Float>, frames: Int
    ) throws(AudioFileError)
        -> Int
    {
        let got = Int(sf_readf_float(file, buffer, sf_count_t(frames)))
        if got < frames, sf_error(file) != 0 {
            throw .readFailed(path: path, reason: String(cString: sf_strerror(file)))
        }
        return got
    }

    /// Goes back to the first frame; throws when the file cannot seek.
    public func rewind() throws(AudioFileError) { try seek(toFrame: 0) }

    /// Goes to frame `frame` (from the start); throws when the file cannot seek there.
    public func seek(toFrame frame: Int) throws(AudioFileError) {
        guard sf_seek(file, sf_count_t(frame), SEEK_SET) == sf_count_t(frame) else {
            throw .readFailed(
                path: path, reason: "cannot seek to frame \(frame): " + String(cString: sf_strerror(file)))
        }
    }
}
