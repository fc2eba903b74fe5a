import Foundation
import Glibc
import Logging

/// Where the live session's status and log lines go: standard output, the status redrawn in
/// place on a terminal, logged every few seconds otherwise. Log lines go through swift-log
/// (`ConsoleLogHandler`: levels, timestamps when standard output is not a terminal).
///
/// On a terminal with `--control` the screen is split so the status never touches what the
/// user types: the bottom row is the prompt (the terminal echoes the typing there), the row
/// above it the status, and the rows above that a scrolling region the log lines scroll in.
/// Status and log writes save the cursor, draw in their row and restore it, so the cursor and
/// the half-typed command stay where they were. Without `--control` the status is one line
/// rewritten in place. Either way the status is fitted to the terminal's width (read at every
/// refresh, so a resize is followed) and never wraps.
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
    /// The status line last drawn (single-line mode), redrawn under each log line.
    private var lastLine: String?
    private(set) var logger = Logger(label: "voicerack")
    /// Split the screen for a prompt (`--control` on a terminal).
    private let prompt: Bool
    /// The terminal's rows when the screen was split (0: not split yet).
    private var splitRows = 0
    static let promptText = "> "

    /// Logs at `level` and above (`--log-level`); `prompt` splits the screen for `--control`.
    init(level: Logger.Level = .info, prompt: Bool = false) {
        self.prompt = prompt && isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1
        logger = Logger(label: "voicerack") { [unowned self] _ in
            ConsoleLogHandler(
                level: level, timestamps: !self.isTerminal, beforeWrite: { self.beforeLog() },
                afterWrite: { self.afterLog() })
        }
    }

    /// The terminal's size (columns, rows), 80 × 24 when it cannot tell.
    static func terminalSize() -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// A status line, given the terminal's width: redraws the status row, or logs `logLine`
    /// (every number, for files and journals) when standard output is not a terminal.
    func status(_ makeLine: (Int) -> String, logLine: @autoclosure () -> String) {
        guard isTerminal else { return log(logLine()) }
        guard logger.logLevel <= .info else { return }
        let size = Self.terminalSize()
        let line = makeLine(size.columns)
        guard prompt, size.rows >= 4 else {
            Self.writeOut("\r\u{1B}[2K" + line)
            lineOpen = true
            lastLine = line
            return
        }
        if splitRows != size.rows { split(rows: size.rows) }
        // Save the cursor (on the prompt row), draw the status row, restore.
        Self.writeOut("\u{1B}7\u{1B}[\(size.rows - 1);1H\u{1B}[2K" + line + "\u{1B}8")
    }

    /// Sets the log region to the rows above the status and prompt rows and draws the prompt.
    /// The two rows the status and prompt take are scrolled up first, so nothing shown is lost.
    private func split(rows: Int) {
        let wasSplit = splitRows > 0
        splitRows = rows
        if !wasSplit {
            // An exit that skips `restoreScreen` (a second Ctrl-C) must not leave the shell a
            // scrolling region; the cursor is saved around the reset, which moves it home.
            atexit { StatusOutput.writeOut("\u{1B}7\u{1B}[r\u{1B}8") }
        }
        var text = wasSplit ? "" : "\n\n"
        text += "\u{1B}[1;\(rows - 2)r"  // the scrolling region (moves the cursor home)
        text += "\u{1B}[\(rows);1H\u{1B}[2K" + Self.promptText
        Self.writeOut(text)
    }

    /// After a command line was read: the terminal echoed its newline, so the prompt row is
    /// redrawn empty.
    func commandTaken(_ command: String) {
        guard splitRows > 0 else { return }
        log(Self.promptText + Self.printable(command))
        Self.writeOut("\u{1B}[\(splitRows);1H\u{1B}[2K" + Self.promptText)
    }

    /// A log line at `level`, ending any status line first.
    func log(_ line: String, level: Logger.Level = .info) {
        logger.log(level: level, "\(line)")
        if level >= .warning { problems.append(line) }
    }

    /// A line shown whatever `--log-level` hides: where to reach a control surface (the web
    /// panel's address carries its token, which is shown nowhere else). Logged at info, or at
    /// the lowest level shown when info is hidden; not counted as a problem.
    func always(_ line: String) {
        logger.log(level: max(.info, logger.logLevel), "\(line)")
    }

    /// Warning and error lines logged and not yet taken (`takeProblems`), for the surfaces.
    private var problems: [String] = []

    /// The warning and error lines logged since the last call.
    func takeProblems() -> [String] {
        defer { problems = [] }
        return problems
    }

    /// Clears an open status line so the next output starts on a clean line (the status is
    /// drawn again under it, or at the next refresh).
    func endLine() {
        guard lineOpen else { return }
        Self.writeOut("\r\u{1B}[2K")
        lineOpen = false
    }

    /// Gives the whole screen back: the scrolling region reset, the status and prompt rows
    /// cleared (no stale status is left above the shell's prompt), the cursor on the prompt row.
    func restoreScreen() {
        lastLine = nil
        guard splitRows > 0 else { return endLine() }
        Self.writeOut("\u{1B}[r\u{1B}[\(splitRows - 1);1H\u{1B}[2K\u{1B}[\(splitRows);1H\u{1B}[2K")
        splitRows = 0
    }

    /// Before a log line: into the log region's last row (kept empty: every line ends with a
    /// newline that scrolls the region), the prompt's cursor saved.
    private func beforeLog() {
        guard splitRows > 0 else { return endLine() }
        Self.writeOut("\u{1B}7\u{1B}[\(splitRows - 2);1H")
    }

    /// After a log line: the cursor back on the prompt row where the user was typing, or the
    /// status line drawn again below the log line (no stale status lines are left above it).
    private func afterLog() {
        if splitRows > 0 {
            Self.writeOut("\u{1B}8")
        } else if let lastLine, isTerminal {
            Self.writeOut(lastLine)
            lineOpen = true
        }
    }

    /// `text` with control characters shown as `^X`, so an echoed command cannot move the
    /// cursor or change the terminal.
    static func printable(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                shown += "^" + String(UnicodeScalar(UInt8(scalar.value ^ 0x40)))
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// Writes `text` to standard output, ignoring failures (EPIPE, EIO of a vanished terminal).
    static func writeOut(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes {
                Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
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
