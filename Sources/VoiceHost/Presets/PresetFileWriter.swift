import Foundation
import Glibc
import VoicePresets

/// Writes a preset file so that nothing but a preset is ever replaced.
///
/// The text goes to a new temporary file beside the target (created exclusively, never through
/// a symlink), is synced, then renamed over it: a crash leaves the old file or the new one. The
/// target, when it exists, must be a regular file (not a symlink, device, FIFO, socket or
/// folder) that reads as a voicerack preset: a save cannot turn `/dev/null` into a file or
/// replace a shell's start-up file.
///
/// - Realtime: never; main thread (file-system access).
enum PresetFileWriter {
    /// Why a write was refused or failed, in words for the user.
    struct Failure: Error, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// Writes `text` to `path` as described above.
    static func write(_ text: String, to path: String) throws(Failure) {
        try checkTarget(path)
        let url = URL(fileURLWithPath: path)
        let temporary =
            url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure("cannot write \(path): \(String(cString: strerror(errno)))") }
        let written = writeAll(fd, Array(text.utf8))
        let reason = String(cString: strerror(errno))
        let synced = written && fsync(fd) == 0
        if close(fd) != 0 || !synced {
            unlink(temporary)
            throw Failure("cannot write \(path): \(reason)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure("cannot write \(path): \(reason)")
        }
    }

    /// Writes every byte of `bytes` to `fd`; false on an error (errno says which).
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Refuses a target that exists and is not a regular file holding a voicerack preset.
    static func checkTarget(_ path: String) throws(Failure) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            guard errno == ENOENT else { throw Failure("cannot write \(path): \(String(cString: strerror(errno)))") }
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK: throw Failure("\(path) is a symbolic link; a preset is never written through one")
        case S_IFDIR: throw Failure("\(path) is a folder")
        default: throw Failure("\(path) is a device, FIFO or socket, not a file; nothing written")
        }
        guard PresetLibrary.isPresetFile(path) else {
            throw Failure("\(path) exists and is not a voicerack preset; nothing written (choose another name)")
        }
    }
}
