import CSndFile

/// The BWF `bext` chunk's time reference: where a file's first sample sits on a timeline (for
/// voicerack, the JACK transport frame), in samples since that timeline's zero.
///
/// libsndfile writes a `bext` chunk only in WAV, WAVEX and RF64, and accepts one only before the
/// first sample is written; once a file has one, it may be updated at any time (the chunk keeps
/// its size, so the header is rewritten in place). So a recording that learns its time
/// reference only when its first frame arrives reserves the chunk at open
/// (`reserveTimeReference`) and fills it in later (`setTimeReference`).
///
/// - Realtime: never (file I/O); whoever writes the file (the recorder's writer thread).
extension AudioFileWriter {
    /// True when the container has a `bext` chunk (WAV, WAVEX, RF64).
    public var hasTimeReference: Bool { format.hasTimeReference }

    /// Adds a `bext` chunk with time reference 0; call before writing any frame. Returns false
    /// for containers without one.
    @discardableResult
    public func reserveTimeReference() -> Bool { setTimeReference(0) }

    /// Sets the `bext` time reference to `samples`; the header carries it from the next header
    /// update (every write, for uncompressed files) or at close. Returns false when the container
    /// has no `bext` chunk, or when frames were written before `reserveTimeReference`.
    @discardableResult
    public func setTimeReference(_ samples: UInt64) -> Bool {
        guard hasTimeReference else { return false }
        var info = SF_BROADCAST_INFO()
        info.time_reference_low = UInt32(truncatingIfNeeded: samples)
        info.time_reference_high = UInt32(truncatingIfNeeded: samples >> 32)
        // "voicerack" as the originator (32 bytes, NUL-padded).
        withUnsafeMutableBytes(of: &info.originator) { bytes in
            for (i, byte) in "voicerack".utf8.enumerated() where i < bytes.count { bytes[i] = byte }
        }
        guard let file else { return false }
        return sf_command(file, Int32(SFC_SET_BROADCAST_INFO), &info, Int32(MemoryLayout<SF_BROADCAST_INFO>.size))
            == SF_TRUE
    }
}

extension AudioFormat {
    /// True for the containers libsndfile writes a BWF `bext` chunk into.
    public var hasTimeReference: Bool { ["wav", "wavex", "rf64"].contains(container) }
}

extension AudioFileContents {
    /// The file's BWF `bext` time reference in samples; nil when it has no `bext` chunk.
    /// - Realtime: never.
    public static func timeReference(of path: String) -> UInt64? {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else { return nil }
        defer { sf_close(file) }
        var bext = SF_BROADCAST_INFO()
        guard
            sf_command(file, Int32(SFC_GET_BROADCAST_INFO), &bext, Int32(MemoryLayout<SF_BROADCAST_INFO>.size))
                == SF_TRUE
        else { return nil }
        return UInt64(bext.time_reference_high) << 32 | UInt64(bext.time_reference_low)
    }
}
