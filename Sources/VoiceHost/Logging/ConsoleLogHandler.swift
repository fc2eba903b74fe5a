import Foundation
import Logging

/// voicerack's swift-log handler: one line per message on standard output, `voicerack: ` first;
/// on a terminal nothing more (a person reads it next to the status line), otherwise an ISO 8601
/// UTC timestamp with milliseconds and the level first, for log files and journals.
///
/// Writes never fail the program: they go straight to the file descriptor and a vanished
/// standard output (a closed pipe, a terminal that hung up) is ignored (`StatusOutput.writeOut`).
/// Nothing logs from the process thread: the engine and the cycle publish figures and counters,
/// which the main thread turns into log lines.
///
/// - Realtime: never; any thread but the process thread.
public struct ConsoleLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    /// Prefix lines with a timestamp and the level (standard output is not a terminal).
    let timestamps: Bool
    /// Called before a line is written (the status line ends its redrawn line first, or the
    /// cursor moves into the log region).
    let beforeWrite: @Sendable () -> Void
    /// Called after a line is written (the cursor goes back to the prompt).
    let afterWrite: @Sendable () -> Void

    public init(
        level: Logger.Level, timestamps: Bool, beforeWrite: @escaping @Sendable () -> Void = {},
        afterWrite: @escaping @Sendable () -> Void = {}
    ) {
        logLevel = level
        self.timestamps = timestamps
        self.beforeWrite = beforeWrite
        self.afterWrite = afterWrite
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        beforeWrite()
        var line = ""
        if timestamps { line += Self.timestamp() + " " + event.level.rawValue.uppercased() + " " }
        line += "voicerack: \(event.message)\n"
        StatusOutput.writeOut(line)
        afterWrite()
    }

    /// Now, in UTC, as `2026-11-23T15:30:00.123Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), now.tv_nsec / 1_000_000)
    }
}

/// The log levels `--log-level` takes, in swift-log's names.
public enum LogLevelChoice {
    public static let names = Logger.Level.allCases.map(\.rawValue)

    /// The level called `name`, or nil.
    public static func parse(_ name: String) -> Logger.Level? { Logger.Level(rawValue: name.lowercased()) }
}
