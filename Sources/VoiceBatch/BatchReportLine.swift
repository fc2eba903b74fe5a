import Foundation
import VoiceHost

/// One job's line in a batch report (JSON lines): what was done to which files, what it cost and
/// what it measured. Fields without a value are left out.
public struct BatchReportLine: Encodable, Sendable, Equatable {
    /// The manifest line the job came from (1-based).
    public var line: Int
    public var input: String
    public var ref: String?
    public var output: String
    /// `done`, `skipped` (the output is newer than every input) or `failed`.
    public var status: String
    /// Seconds of audio processed.
    public var audioSeconds: Double?
    /// Seconds the job took, wall clock.
    public var wallSeconds: Double?
    /// Seconds of CPU the job used.
    public var cpuSeconds: Double?
    /// Echo removed where the far end talked alone, dB (absent when not measured).
    public var echoRemovedDB: Double?
    /// Integrated loudness of the processed voice before the loudness pass, LUFS.
    public var loudnessBeforeLUFS: Double?
    /// Integrated loudness of the output as written, LUFS.
    public var loudnessAfterLUFS: Double?
    /// Loudness range of the output, LU.
    public var loudnessRangeLU: Double?
    /// True peak of the output, dBTP.
    public var truePeakDBTP: Double?
    /// What the loudness pass could not do ("gain capped at +30 dB: the target was not reached").
    public var note: String?
    /// Why the job failed, naming the file or key at fault.
    public var error: String?
    /// The exit status the job alone would have ended with (sysexits), when it failed.
    public var exitStatus: Int32?

    enum CodingKeys: String, CodingKey {
        case line, input, ref, output, status, note, error
        case audioSeconds = "audio_s"
        case wallSeconds = "wall_s"
        case cpuSeconds = "cpu_s"
        case echoRemovedDB = "echo_removed_db"
        case loudnessBeforeLUFS = "loudness_before_lufs"
        case loudnessAfterLUFS = "loudness_after_lufs"
        case loudnessRangeLU = "loudness_range_lu"
        case truePeakDBTP = "true_peak_dbtp"
        case exitStatus = "exit_status"
    }

    /// The line as compact JSON with sorted keys, figures rounded to what they mean.
    public var json: String {
        var rounded = self
        func round(_ value: Double?, _ places: Double) -> Double? { value.map { ($0 * places).rounded() / places } }
        rounded.audioSeconds = round(audioSeconds, 1_000)
        rounded.wallSeconds = round(wallSeconds, 1_000)
        rounded.cpuSeconds = round(cpuSeconds, 1_000)
        rounded.echoRemovedDB = round(echoRemovedDB, 10)
        rounded.loudnessBeforeLUFS = round(loudnessBeforeLUFS, 100)
        rounded.loudnessAfterLUFS = round(loudnessAfterLUFS, 100)
        rounded.loudnessRangeLU = round(loudnessRangeLU, 100)
        rounded.truePeakDBTP = round(truePeakDBTP, 100)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail.
        return String(decoding: (try? encoder.encode(rounded)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
