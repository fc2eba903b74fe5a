import Foundation
import VoiceFiles

/// Where an offline output is written, decided from what the path names.
///
/// * A new path or a regular file: a hidden temporary file next to it, renamed over it only when
///   complete, so a failed run never leaves a half file or destroys the old one.
/// * A symbolic link: followed. A regular target is replaced the same way (the link stays a
///   link); a device or FIFO target is written as such; a dangling link is refused.
/// * A character device (`/dev/null`, a terminal) or a FIFO: written straight into, never
///   replaced. Where it cannot seek (a FIFO, a terminal), only Ogg Vorbis and Opus: libsndfile
///   1.2 refuses WAV, W64, RF64, CAF and AIFF ("this file format does not support pipe
///   write"), and its FLAC and MP3 streams do not read back whole (FLAC's closing header lands
///   after the audio, MP3 lacks its length tag).
/// * Anything else (a block device, a socket): refused (73).
///
/// - Realtime: never (file system).
public struct OutputTarget: Sendable {
    /// The path as given.
    public let path: String
    /// Where the writer opens its file: the temporary, or the path itself for a device or FIFO.
    public let writePath: String
    /// For regular files: the file the temporary is renamed over (the link's target for a link).
    let finalPath: String?
    /// What the user should know about the decision (a followed link), or nil.
    public let note: String?

    /// Containers libsndfile writes into a pipe or terminal so that they read back whole.
    static let streamingContainers = ["ogg", "opus"]

    /// Decides how to write `format` to `path`; throws 73 for special files it will not touch
    /// and 64 for a format a pipe cannot take.
    public static func resolve(_ path: String, format: AudioFormat) throws(HostError) -> OutputTarget {
        var link = stat()
        guard lstat(path, &link) == 0 else {
            return OutputTarget(path: path, writePath: temporaryPath(for: path), finalPath: path, note: nil)
        }
        var note: String?
        var resolved = path
        if (link.st_mode & S_IFMT) == S_IFLNK {
            var target = stat()
            guard stat(path, &target) == 0 else {
                throw HostError(
                    .cannotCreate,
                    "output \(path) is a symbolic link to a file that does not exist; give the file itself")
            }
            if (target.st_mode & S_IFMT) == S_IFREG, let real = realpath(path, nil) {
                resolved = String(cString: real)
                free(real)
            }
            note = "output \(path) is a symbolic link; writing to its target \(resolved)"
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw HostError(.cannotCreate, "cannot create \(path): " + String(cString: strerror(errno)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            return OutputTarget(path: path, writePath: temporaryPath(for: resolved), finalPath: resolved, note: note)
        case S_IFCHR, S_IFIFO:
            let kind = (status.st_mode & S_IFMT) == S_IFIFO ? "a FIFO" : "a character device"
            if !isSeekable(path, fifo: (status.st_mode & S_IFMT) == S_IFIFO),
                !streamingContainers.contains(format.container)
            {
                throw HostError(
                    .usage,
                    "output \(path) is \(kind) that cannot seek; libsndfile streams only "
                        + streamingContainers.joined(separator: " and ") + " into it, not \(format) (give --format ogg)"
                )
            }
            return OutputTarget(path: path, writePath: path, finalPath: nil, note: note)
        default:
            throw HostError(
                .cannotCreate,
                "output \(path) is neither a regular file, a character device nor a FIFO; refusing to write to it")
        }
    }

    /// True when a character device can seek (`/dev/null` can, a terminal cannot). A FIFO never
    /// can, and is not opened here: opening it would wait for a reader.
    private static func isSeekable(_ path: String, fifo: Bool) -> Bool {
        guard !fifo else { return false }
        let fd = open(path, O_WRONLY | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return lseek(fd, 0, SEEK_CUR) >= 0
    }

    /// A hidden file next to `path`, keeping its extension (some libsndfile formats go by it).
    static func temporaryPath(for path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension
        let tmp = ".\(name).partial-\(getpid())" + (ext.isEmpty ? "" : ".\(ext)")
        return directory.isEmpty ? tmp : directory + "/" + tmp
    }

    /// Puts the finished file in place (renames the temporary); nothing to do for a device or FIFO.
    public func commit() throws(AudioFileError) {
        guard let finalPath else { return }
        guard rename(writePath, finalPath) == 0 else {
            throw .writeFailed(path: finalPath, reason: String(cString: strerror(errno)))
        }
    }

    /// Removes the temporary after a failure; leaves a device or FIFO alone.
    public func discard() {
        guard finalPath != nil else { return }
        unlink(writePath)
    }
}
