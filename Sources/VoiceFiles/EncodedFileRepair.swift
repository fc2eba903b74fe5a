import Glibc

/// Makes an encoded file (MP3, FLAC, Ogg) true to its content after a failed write (a full
/// disk), once libsndfile has closed it.
///
/// The encoders take every frame whether or not its bytes reached the disk, and write their
/// headers at close from what they took: a 3 s MP3 claimed 10 s in its Xing tag, a FLAC's
/// STREAMINFO counted samples it does not hold and its last frame was cut (a decoder lost sync).
/// So the file is cut back to its size after the last whole write (every MP3 chunk, Ogg page
/// and FLAC frame in it complete), then:
///
/// * MP3: the Xing/Info tag's magic is blanked; the tag frame stays a silent frame, and readers
///   measure the file (constant bitrate: its length follows from its size).
/// * FLAC: STREAMINFO's total samples and MD5 are set to 0, FLAC's "unknown".
/// * Ogg (Vorbis, Opus): nothing more; the pages carry their own positions.
///
/// - Realtime: never (file I/O); the thread that closes the file.
enum EncodedFileRepair {
    /// Cuts `path` back to `intactBytes` and fixes its header for `container` (`mp3`, `flac`, ...).
    static func repair(_ path: String, container: String, intactBytes: Int) {
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_size > intactBytes { _ = ftruncate(fd, off_t(intactBytes)) }
        var head = [UInt8](repeating: 0, count: 64 * 1024)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return }
        head.removeSubrange(count...)
        switch container {
        case "mp3":
            if let offset = xingTagOffset(head) { overwrite(fd, at: offset, with: [UInt8](repeating: 0, count: 4)) }
        case "flac":
            // STREAMINFO's data starts at 8; its 36-bit total ends the 8 bytes at 18, MD5 follows.
            guard head.count >= 42, head.starts(with: Array("fLaC".utf8)) else { return }
            overwrite(fd, at: 21, with: [head[21] & 0xF0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16))
        default:
            break
        }
    }

    /// The file's size in bytes (0 when it cannot be read).
    static func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    private static func overwrite(_ fd: Int32, at offset: Int, with bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
    }

    /// Where "Xing" or "Info" sits in the first MP3 frame of `head` (after any ID3v2 tag):
    /// within the frame header (4 bytes) and the longest side info (32 bytes).
    static func xingTagOffset(_ head: [UInt8]) -> Int? {
        var start = 0
        if head.count >= 10, head.starts(with: Array("ID3".utf8)) {
            // The size is syncsafe: 7 bits a byte.
            start = 10 + head[6...9].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        }
        while start + 1 < head.count, !(head[start] == 0xFF && head[start + 1] & 0xE0 == 0xE0) { start += 1 }
        let magics: [[UInt8]] = [Array("Xing".utf8), Array("Info".utf8)]
        let end = min(head.count - 4, start + 4 + 32)
        guard start < end else { return nil }
        return (start..<end).first { i in magics.contains { Array(head[i..<i + 4]) == $0 } }
    }
}
