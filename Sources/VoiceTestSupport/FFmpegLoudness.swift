import Foundation

/// ffmpeg's own reading of a file's EBU R128 loudness (its `ebur128` filter, an implementation
/// independent of libebur128): the reference the loudness tests compare voicerack with.
public enum FFmpegLoudness {
    /// ffmpeg as Debian installs it, when it is there.
    public static let path = ["/usr/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Integrated loudness (LUFS), loudness range (LU) and true peak (dBTP) of `file`.
    public static func read(_ file: String) throws -> (integrated: Double, range: Double, truePeak: Double) {
        guard let path else { throw Failure(description: "ffmpeg is not installed") }
        // -nostdin: ffmpeg would otherwise wait on the test's stdin. framelog=verbose keeps the
        // per-frame lines out of stderr, which would fill the pipe before the summary is read.
        let r = try CommandRunner.run(
            path,
            [
                "-nostdin", "-nostats", "-hide_banner", "-i", file, "-af", "ebur128=peak=true:framelog=verbose", "-f",
                "null", "-",
            ])
        guard r.status == 0 else { throw Failure(description: "ffmpeg: \(r.standardError)") }
        // The summary at the end: "I:  -23.0 LUFS", "LRA:  0.0 LU", "Peak:  -6.0 dBFS".
        let summary = r.standardError.components(separatedBy: "Summary:").last ?? ""
        func value(_ label: String) throws -> Double {
            for line in summary.split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.count > 1, words[0] == Substring(label), let v = Double(words[1]) { return v }
            }
            throw Failure(description: "no \(label) in ffmpeg's summary:\n\(summary)")
        }
        return (try value("I:"), try value("LRA:"), try value("Peak:"))
    }
}
