import CSndFile
import Glibc

/// Writes interleaved Float frames to a new audio file with libsndfile.
///
/// - Realtime: never (file I/O). The offline mode writes through it directly; the live recorder
///   will call it from its writer thread.
public final class AudioFileWriter {
    /// Path being written.
    public let path: String
    /// Channels per frame.
    public let channels: Int
    /// The file's format.
    public let format: AudioFormat
    /// The open file (nil once closed); internal for the `bext` extension.
    private(set) var file: OpaquePointer?
    /// Frames written so far; after a failed write and `close`, what the file holds.
    public private(set) var framesWritten = 0
    /// Device and inode of the file as opened, to notice it being deleted or replaced.
    private let identity: (device: UInt, inode: UInt)?
    /// The file itself, held open to tell a file moved away (still linked somewhere) from one
    /// deleted (-1 when it could not be held).
    private let watch: Int32
    /// A write failed: an encoder's header, written at close, would count frames that never
    /// reached the disk (`EncodedFileRepair` puts that right).
    private var writeFailed = false
    /// An encoded file's size after its last whole write: every block of it (MP3 data, Ogg
    /// page, FLAC frame) is complete. Nil for other formats, whose header is kept true as they
    /// go.
    private var intactBytes: Int?

    /// Creates (or, when the caller has decided so, replaces) the file at `path`.
    public init(path: String, format: AudioFormat, sampleRate: Int, channels: Int) throws(AudioFileError) {
        try format.validate(channels: channels, sampleRate: sampleRate)
        var info = SF_INFO()
        // A .wav of float samples or more than two channels is written as WAVEX.
        info.format = format.sndfileFormat(channels: channels)
        info.channels = Int32(channels)
        info.samplerate = Int32(sampleRate)
        guard let file = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw .cannotCreate(path: path, reason: String(cString: sf_strerror(nil)))
        }
        // Float data written to integer formats is scaled and clipped at full scale, not wrapped.
        sf_command(file, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        self.file = file
        self.path = path
        self.channels = channels
        self.format = format
        identity = Self.identity(of: path)
        // O_PATH: no read access and no wait (a FIFO), only enough to ask the file, wherever it
        // is by then, how many names it still has.
        watch = open(path, Self.openPath | O_CLOEXEC)
    }

    /// Linux's O_PATH, which Glibc's module leaves out (it sits behind _GNU_SOURCE).
    private static let openPath: Int32 = 0o10_000_000

    private static func identity(of path: String) -> (device: UInt, inode: UInt)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt(status.st_dev), UInt(status.st_ino))
    }

    /// Nil while the path still names the file being written; otherwise what became of it, as
    /// a sentence naming the path.
    public func pathChange() -> PathChange? {
        guard let identity else { return nil }
        let now = Self.identity(of: path)
        if let now, now == identity { return nil }
        // Still linked somewhere: the folder or the file was renamed, and it is whole there.
        var status = stat()
        if watch >= 0, fstat(watch, &status) == 0, status.st_nlink > 0 {
            return .moved(
                "\(path) was moved away while recording (the file or its folder renamed); the audio went on into it at its new place"
            )
        }
        guard now != nil else { return .gone("\(path) was deleted while recording; the audio written to it is gone") }
        return .gone("\(path) was replaced by another file while recording; the audio written to it is gone")
    }

    /// What became of the path of a file being written.
    public enum PathChange: Equatable, Sendable {
        /// The file lives on under another name; the sentence says so.
        case moved(String)
        /// The file was deleted (or deleted and replaced): what was written is gone.
        case gone(String)
    }

    deinit {
        if let file { sf_close(file) }
        if watch >= 0 { Glibc.close(watch) }
    }

    /// Appends `frames` interleaved frames.
    public func write(_ interleaved: UnsafePointer<Float>, frames: Int) throws(AudioFileError) {
        guard let file else { throw .writeFailed(path: path, reason: "file already closed") }
        errno = 0
        let n = Int(sf_writef_float(file, interleaved, sf_count_t(frames)))
        let systemError = errno
        framesWritten += n
        // An encoder (MP3, FLAC, Ogg) takes every frame whether or not its bytes reached the
        // disk; libsndfile notes the failed write in the file's error, reset by each call.
        guard n == frames, sf_error(file) == 0 else {
            writeFailed = true
            var reason = String(cString: sf_strerror(file))
            // Some encoders report their own "internal error" for the system's (a full disk).
            let system = String(cString: strerror(systemError))
            if systemError != 0, !reason.contains(system) { reason += " (\(system))" }
            throw .writeFailed(path: path, reason: reason)
        }
        if format.isEncoded { intactBytes = EncodedFileRepair.size(of: path) }
    }

    /// Appends mono samples (the writer must have one channel).
    public func write(_ samples: [Float]) throws(AudioFileError) {
        precondition(channels == 1)
        guard !samples.isEmpty else { return }
        try samples.withUnsafeBufferPointer { (p) throws(AudioFileError) in
            try write(p.baseAddress!, frames: p.count)
        }
    }

    /// Bounds what a SIGKILL can cost a recording; call right after opening, before any write.
    ///
    /// * Uncompressed formats: the header is rewritten after every write, so the file stays
    ///   readable up to the last write (what a SIGKILL costs each format: docs/manual.md).
    /// * Opus: an Ogg page at least every 250 ms (libsndfile's default is 1000 ms; 1 s lost).
    /// * MP3: constant bitrate. Its data is on disk as it is encoded, but a VBR file's length is
    ///   only known from the tag written at close; without it readers guess from the first
    ///   frames' bitrate (a 20 s take read as 8 s). A CBR file's length follows from its size.
    /// * FLAC: nothing to do (frames are written as encoded; readers take the length as unknown).
    /// * Ogg Vorbis: nothing libsndfile offers; it writes a page only once one is full, so up to
    ///   about 2 s are lost (the manual and `run --help` say so).
    public func limitCrashLoss() {
        guard let file else { return }
        if format.bytesPerSample != nil {
            sf_command(file, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, Int32(SF_TRUE))
        } else if format.encoding == "opus" {
            var latency = 250.0
            sf_command(file, Int32(SFC_SET_OGG_PAGE_LATENCY_MS), &latency, Int32(MemoryLayout<Double>.size))
        } else if format.encoding == "mp3" {
            var mode = Int32(SF_BITRATE_MODE_CONSTANT)
            sf_command(file, Int32(SFC_SET_BITRATE_MODE), &mode, Int32(MemoryLayout<Int32>.size))
        }
    }

    /// Flushes libsndfile's and the operating system's buffers to the disk (fsync), so a power
    /// cut loses at most what came after.
    public func sync() {
        guard let file else { return }
        sf_write_sync(file)
    }

    /// Finishes the header and closes the file; after a failed write, an encoded file is cut
    /// back to its last whole write and its header's length taken out (`EncodedFileRepair`), so
    /// it is measured by what it holds.
    public func close() throws(AudioFileError) {
        guard let f = file else { return }
        file = nil
        let err = sf_close(f)
        if writeFailed, format.isEncoded {
            EncodedFileRepair.repair(path, container: format.container, intactBytes: intactBytes ?? 0)
            // The encoder's buffers were lost with the disk: count what the file holds, where
            // its reader knows (Ogg from its last page, MP3 from its size).
            if let held = (try? AudioFileStream(path: path))?.knownFrames { framesWritten = min(framesWritten, held) }
        }
        guard err == 0 else {
            throw .writeFailed(path: path, reason: String(cString: sf_error_number(err)))
        }
    }
}
