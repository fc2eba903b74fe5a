import Foundation
import Synchronization

/// The panel's lasting token: kept in `$XDG_CONFIG_HOME/voicerack/panel-token` (else
/// `~/.config/voicerack/panel-token`), mode 0600 in a 0700 folder, made on first use and reused
/// by every run, so the panel's address can be bookmarked. `voicerack panel rotate-token`
/// writes a new one; a running panel reads the file again when it changes, so the old token
/// stops opening pages at once (pages already open stay open until they reload).
///
/// - Realtime: never; any thread (file I/O).
public struct PanelTokenFile: Sendable {
    /// The file's path.
    public let path: String

    /// The file for `environment` (`XDG_CONFIG_HOME`, else `HOME`/.config).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        path = config + "/voicerack/panel-token"
    }

    /// A file at `path` (tests).
    public init(path: String) { self.path = path }

    /// The stored token; made and stored when there is none, or when the file is unreadable,
    /// malformed or readable by others (then it may have leaked: a new one replaces it).
    public func token() throws(PanelError) -> PanelToken {
        if let stored = read() { return stored }
        return try rotate()
    }

    /// Writes a new token (to a 0600 file beside it, renamed over the old one) and returns it.
    @discardableResult
    public func rotate() throws(PanelError) -> PanelToken {
        let token = PanelToken()
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw PanelError("cannot make \(folder) for the panel's token: \(error.localizedDescription)")
        }
        let temporary = path + ".new-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PanelError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array((token.text + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        // The mode is set again: a umask cannot widen it, but an inherited ACL default could.
        let closed = fchmod(fd, 0o600) == 0 && fsync(fd) == 0 && close(fd) == 0
        guard written == bytes.count, closed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw PanelError("cannot write the panel's token to \(path): \(reason)")
        }
        return token
    }

    /// The token in the file; nil when there is none fit to use (missing, not a regular file
    /// of this user's, readable by group or others, or not 32 hex digits).
    public func read() -> PanelToken? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == getuid(),
            info.st_mode & 0o077 == 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines),
            text.count == 32, text.allSatisfy({ $0.isHexDigit })
        else { return nil }
        return PanelToken(text: text)
    }

    /// What identifies the file's version: a rename gives a new inode, a rewrite a new time.
    func stamp() -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [Int(info.st_ino), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec), Int(info.st_size)]
    }
}

/// The token a running panel checks: a fixed one, or the token file's, read again when the
/// file changes (a rotation), at most one `stat` per request.
///
/// - Realtime: never; the server's tasks.
final class PanelTokens: Sendable {
    private let file: PanelTokenFile?
    private let cached: Mutex<(stamp: [Int], token: PanelToken)>

    init(_ token: PanelToken, file: PanelTokenFile? = nil) {
        self.file = file
        cached = Mutex((file?.stamp() ?? [], token))
    }

    /// The token in force now. A file that vanished or went bad keeps the last good token.
    var current: PanelToken {
        guard let file else { return cached.withLock { $0.token } }
        let stamp = file.stamp()
        return cached.withLock { entry in
            if entry.stamp != stamp, let fresh = file.read() { entry = (stamp, fresh) }
            return entry.token
        }
    }
}
