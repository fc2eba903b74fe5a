import Foundation
import VoiceFiles

/// What to record and how: file, format, channels, and the buffer between the process thread
/// and the disk.
///
/// - Realtime: never (a value built on the main thread).
public struct RecordingSpec: Sendable {
    /// Path of the (first) file.
    public var path: String
    public var format: AudioFormat
    public var sampleRate: Int
    /// Channels per frame (1 for the voice, 3 for the tuning tap...).
    public var channels: Int
    /// Seconds of audio the buffer holds while the disk is slow. Ten seconds outlasts any
    /// ordinary disk stall; memory is 4 bytes × channels × rate × seconds (1.9 MB mono at 48 kHz).
    public var bufferSeconds: Double = 10
    /// Frames per block moved to the writer (about 85 ms at 48 kHz).
    public var blockFrames = 4096
    /// Start a new file (`name-0002.wav`, ...) before one grows past this many bytes; nil = never.
    /// Defaults to just under 4 GiB for containers with 32-bit sizes (WAV, AIFF).
    public var maximumFileBytes: Int?
    /// Seconds between forced flushes to the disk (fsync), bounding what a power cut loses.
    public var syncInterval: Double = 1
    /// Reserve a BWF `bext` chunk and fill its time reference with the position the producer
    /// stamps (`RecorderInput.stampTimeReference`), where the container has one (WAV, WAVEX,
    /// RF64); other containers ignore it.
    public var timeReference = false

    public init(path: String, format: AudioFormat, sampleRate: Int, channels: Int) {
        self.path = path
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        maximumFileBytes = format.hasFourGigabyteLimit ? Self.fourGigabyteRollover : nil
    }

    /// Bytes after which a WAV or AIFF file rolls over: just under 4 GiB, or what
    /// `VOICERACK_ROLLOVER_BYTES` says (for tests of the rollover, which cannot write 4 GiB).
    static var fourGigabyteRollover: Int {
        ProcessInfo.processInfo.environment["VOICERACK_ROLLOVER_BYTES"].flatMap(Int.init) ?? (1 << 32) - (1 << 24)
    }

    /// Number of blocks the buffer is made of (at least 4).
    var blockCount: Int {
        BlockBuffer.blockCount(holding: bufferSeconds, sampleRate: sampleRate, blockFrames: blockFrames)
    }

    /// Path of the `index`-th file (0 is `path` itself): `voice.wav`, `voice-0002.wav`, ...
    public func rotatedPath(_ index: Int) -> String {
        guard index > 0 else { return path }
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let stem = url.deletingPathExtension().path
        return stem + String(format: "-%04d", index + 1) + (ext.isEmpty ? "" : "." + ext)
    }
}

/// File names from a template: `{date}` (YYYY-MM-DD), `{time}` (HHMMSS), `{ms}` (the
/// milliseconds of that second, 000-999), `{n}` (the take: 1 for the first of a run, counted up
/// by every start), `{client}`, `{tap}`.
public enum RecordingName {
    /// Expands `template` for `tap` of `client` at `date` (local time), take number `take`.
    public static func expand(
        _ template: String, client: String, tap: String, date: Date = Date(), take: Int = 1
    ) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        let day = formatter.string(from: date)
        formatter.dateFormat = "HHmmss"
        let time = formatter.string(from: date)
        formatter.dateFormat = "SSS"
        let milliseconds = formatter.string(from: date)
        return template.replacingOccurrences(of: "{date}", with: day)
            .replacingOccurrences(of: "{time}", with: time)
            .replacingOccurrences(of: "{ms}", with: milliseconds)
            .replacingOccurrences(of: "{n}", with: String(take))
            .replacingOccurrences(of: "{client}", with: client)
            .replacingOccurrences(of: "{tap}", with: tap)
    }

    /// The placeholders `expand` fills, in the order the help gives them.
    public static let placeholders = ["{date}", "{time}", "{ms}", "{n}", "{client}", "{tap}"]

    /// The first `{word}` in `template` that is not a placeholder (`{foo}`, `{Date}`): kept
    /// literally it would name files the user did not mean. Braces around anything but a
    /// word (`{}`, `{ c}`) are plain text.
    public static func unknownPlaceholder(in template: String) -> String? {
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            let word = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            let end = word.endIndex
            if !word.isEmpty, end < rest.endIndex, rest[end] == "}" {
                let candidate = "{\(word)}"
                if !placeholders.contains(candidate) { return candidate }
            }
            rest = after
        }
        return nil
    }

    /// `path` with `-2`, `-3`, ... before its extension, the first not in `taken`.
    public static func unused(_ path: String, taken: Set<String>) -> String {
        guard taken.contains(path) else { return path }
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let stem = String(path.dropLast(ext.isEmpty ? 0 : ext.count + 1))
        var index = 2
        while taken.contains(stem + "-\(index)" + (ext.isEmpty ? "" : "." + ext)) { index += 1 }
        return stem + "-\(index)" + (ext.isEmpty ? "" : "." + ext)
    }
}
