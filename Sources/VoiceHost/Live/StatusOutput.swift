import Foundation
import Glibc
import Logging

/// Where the live session's status and log lines go: standard output, the status redrawn in
/// place on a terminal, logged every few seconds otherwise. Log lines go through swift-log
/// (`ConsoleLogHandler`: levels, timestamps when standard output is not a terminal).
///
/// Writes go straight to the file descriptor and their errors are ignored: a standard output
/// that went away (piped into `head`, a terminal that hung up) must never stop voicerack or its
/// recordings (SIGPIPE is ignored, see `SignalWaiter`).
///
/// - Realtime: never; main thread.
final class StatusOutput: @unchecked Sendable {
    let isTerminal = isatty(STDOUT_FILENO) == 1
    /// Seconds between status lines.
    var interval: Double { isTerminal ? 0.5 : 5 }
    private var lineOpen = false
    private(set) var logger = Logger(label: "voicerack")

    /// Logs at `level` and above (`--log-level`).
    init(level: Logger.Level = .info) {
        logger = Logger(label: "voicerack") { [unowned self] _ in
            ConsoleLogHandler(level: level, timestamps: !self.isTerminal) { self.endLine() }
        }
    }

    /// A status line: redraws the terminal line, or logs it.
    func status(_ line: String) {
        guard isTerminal else { return log(line) }
        guard logger.logLevel <= .info else { return }
        Self.writeOut("\r\u{1B}[2K" + line)
        lineOpen = true
    }

    /// A log line at `level`, ending any status line first.
    func log(_ line: String, level: Logger.Level = .info) {
        logger.log(level: level, "\(line)")
    }

    /// Ends an open status line so the next output starts on its own line.
    func endLine() {
        guard lineOpen else { return }
        Self.writeOut("\n")
        lineOpen = false
    }

    /// Writes `text` to standard output, ignoring failures (EPIPE, EIO of a vanished terminal).
    static func writeOut(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
