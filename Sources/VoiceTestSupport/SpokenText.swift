import Foundation

/// Spoken words for the loudness tests: espeak-ng's voice, resampled to 48 kHz mono by sox at
/// a chosen gain. Real pauses between words and sentences, as a podcast has.
public enum SpokenText {
    /// espeak-ng and sox as Debian installs them, when both are there.
    public static let available =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/sox")

    /// A paragraph of a podcast's opening, about 12 s spoken.
    public static let paragraph =
        "Every episode must meet the platform's loudness target. The quiet guest and the loud host should sound alike to the listener. We talk about the news of the week, the weather, and a few letters from listeners who wrote in."

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `paragraph` spoken `repeats` times to `path` (48 kHz mono, 24-bit WAV), `gain` dB
    /// from espeak-ng's own level (about -20 LUFS); returns `path`.
    @discardableResult
    public static func write(_ path: String, repeats: Int, gain: Double) throws -> String {
        let raw = path + ".espeak.wav"
        defer { unlink(raw) }
        let text = Array(repeating: paragraph, count: repeats).joined(separator: " ")
        let spoken = try CommandRunner.run("/usr/bin/espeak-ng", ["-w", raw, text])
        guard spoken.status == 0 else { throw Failure(description: "espeak-ng: \(spoken.standardError)") }
        let converted = try CommandRunner.run(
            "/usr/bin/sox", ["-V1", raw, "-r", "48000", "-c", "1", "-b", "24", path, "gain", "\(gain)"])
        guard converted.status == 0 else { throw Failure(description: "sox: \(converted.standardError)") }
        return path
    }

    /// `path`'s audio from `seconds` on, as a 32-bit float WAV at `output`; returns `output`.
    @discardableResult
    public static func trim(_ path: String, from seconds: Double, to output: String) throws -> String {
        let trimmed = try CommandRunner.run(
            "/usr/bin/sox", ["-V1", path, "-e", "floating-point", output, "trim", "\(seconds)"])
        guard trimmed.status == 0 else { throw Failure(description: "sox trim: \(trimmed.standardError)") }
        return output
    }
}
