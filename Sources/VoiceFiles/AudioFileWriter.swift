import CSndFile

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
    private var file: OpaquePointer?
    /// Frames written so far.
    public private(set) var framesWritten = 0

    /// Creates (or, when the caller has decided so, replaces) the file at `path`.
    public init(path: String, format: AudioFormat, sampleRate: Int, channels: Int) throws(AudioFileError) {
        try format.validate(channels: channels, sampleRate: sampleRate)
        var info = SF_INFO()
        info.format = format.sndfileFormat
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
    }

    deinit { if let file { sf_close(file) } }

    /// Appends `frames` interleaved frames.
    public func write(_ interleaved: UnsafePointer<Float>, frames: Int) throws(AudioFileError) {
        guard let file else { throw .writeFailed(path: path, reason: "file already closed") }
        let n = Int(sf_writef_float(file, interleaved, sf_count_t(frames)))
        framesWritten += n
        guard n == frames else {
            throw .writeFailed(path: path, reason: String(cString: sf_strerror(file)))
        }
    }

    /// Appends mono samples (the writer must have one channel).
    public func write(_ samples: [Float]) throws(AudioFileError) {
        precondition(channels == 1)
        guard !samples.isEmpty else { return }
        try samples.withUnsafeBufferPointer { (p) throws(AudioFileError) in
            try write(p.baseAddress!, frames: p.count)
        }
    }

    /// Makes libsndfile rewrite the header after every write, so the file stays readable up to
    /// the last write if the process dies. Only for uncompressed formats: codec streams (Ogg,
    /// FLAC, MP3) carry no size header to fix, and rewriting one corrupts an Ogg stream.
    public func updateHeaderAfterEveryWrite() {
        guard let file, format.bytesPerSample != nil else { return }
        sf_command(file, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, Int32(SF_TRUE))
    }

    /// Flushes libsndfile's and the operating system's buffers to the disk (fsync), so a power
    /// cut loses at most what came after.
    public func sync() {
        guard let file else { return }
        sf_write_sync(file)
    }

    /// Finishes the header and closes the file.
    public func close() throws(AudioFileError) {
        guard let f = file else { return }
        file = nil
        let err = sf_close(f)
        guard err == 0 else {
            throw .writeFailed(path: path, reason: String(cString: sf_error_number(err)))
        }
    }
}
