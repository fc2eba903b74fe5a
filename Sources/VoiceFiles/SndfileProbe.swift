import CSndFile

/// Opens a libsndfile encoder on a virtual file in memory (writes are counted, then dropped), to
/// learn whether a format really opens for a channel count and rate without touching the disk.
///
/// - Realtime: never (the encoder allocates).
enum SndfileProbe {
    /// Position and length of the virtual file, in bytes.
    private struct VirtualFile {
        var position: sf_count_t = 0
        var length: sf_count_t = 0
    }

    /// True when `sf_open_virtual` in write mode accepts `info`.
    static func opens(_ info: SF_INFO) -> Bool {
        var info = info
        var file = VirtualFile()
        var io = SF_VIRTUAL_IO(
            get_filelen: { user in user!.assumingMemoryBound(to: VirtualFile.self).pointee.length },
            seek: { offset, whence, user in
                let f = user!.assumingMemoryBound(to: VirtualFile.self)
                switch whence {
                case SEEK_CUR: f.pointee.position += offset
                case SEEK_END: f.pointee.position = f.pointee.length + offset
                default: f.pointee.position = offset
                }
                return f.pointee.position
            },
            read: { _, _, _ in 0 },
            write: { _, count, user in
                let f = user!.assumingMemoryBound(to: VirtualFile.self)
                f.pointee.position += count
                f.pointee.length = max(f.pointee.length, f.pointee.position)
                return count
            },
            tell: { user in user!.assumingMemoryBound(to: VirtualFile.self).pointee.position })
        return withUnsafeMutablePointer(to: &file) { user in
            guard let handle = sf_open_virtual(&io, Int32(SFM_WRITE), &info, user) else { return false }
            sf_close(handle)
            return true
        }
    }
}
