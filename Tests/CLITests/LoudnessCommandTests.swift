import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack process --loudness`: spoken files at three levels normalised to a podcast's
/// target, read back by ffmpeg's `ebur128` filter (an implementation of its own).
@Suite(
    "voicerack process --loudness",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/sox"),
        "ffmpeg, espeak-ng or sox is not installed (scripts/install-deps.sh)"))
struct LoudnessCommandTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// espeak-ng's voice at 48 kHz, `gain` dB from espeak's own level.
    func speech(_ name: String, gain: Double) throws -> String {
        let raw = folder.file("\(name)-raw.wav")
        let spoken = try CommandRunner.run(
            "/usr/bin/espeak-ng",
            [
                "-w", raw,
                "Every episode must meet the platform's loudness target. The quiet guest and the loud host should sound alike to the listener.",
            ])
        #expect(spoken.status == 0, "\(spoken.standardError)")
        let path = folder.file("\(name).wav")
        let converted = try CommandRunner.run(
            "/usr/bin/sox", [raw, "-r", "48000", "-c", "1", "-b", "24", path, "gain", "\(gain)"])
        #expect(converted.status == 0, "\(converted.standardError)")
        return path
    }

    @Test("three spoken files 10 dB apart come out at -16.0 ± 0.3 LUFS and at most -1.0 dBTP, read by ffmpeg")
    func podcastTarget() throws {
        for (name, gain) in [("loud", -3.0), ("middle", -13.0), ("quiet", -23.0)] {
            let mic = try speech(name, gain: gain)
            let before = try FFmpegLoudness.read(mic)
            let out = folder.file("\(name)-out.wav")
            let r = try CommandRunner.voicerack([
                "process", "--preset", "raw", "--mic", mic, "--out", out, "--loudness", "-16", "--true-peak", "-1",
            ])
            #expect(r.status == 0, "\(r.standardError)")
            #expect(r.standardOutput.contains("loudness: "), "\(r.standardOutput)")
            let after = try FFmpegLoudness.read(out)
            #expect(abs(after.integrated - -16) <= 0.3, "\(name): \(before) → \(after)")
            #expect(after.truePeak <= -1.0, "\(name): \(before) → \(after)")
            // Sample-aligned and the same length: the limiter's look-ahead is compensated.
            let input = try AudioFileContents.read(mic)
            let output = try AudioFileContents.read(out)
            #expect(output.frames == input.frames)
            let lag = Measure.lag(of: output.channels[0], relativeTo: input.channels[0], maxLag: 400)
            #expect(lag == 0, "\(name): output lags by \(lag) samples")
        }
    }

    @Test("silence is left as it is and said so; --true-peak alone and a device as OUT are refused with 64")
    func refusals() throws {
        let silent = try TestFiles.wav(folder.file("silent.wav"), [[Float](repeating: 0, count: 48_000)], rate: 48_000)
        let out = folder.file("silent-out.wav")
        let r = try CommandRunner.voicerack([
            "process", "--preset", "raw", "--mic", silent, "--out", out, "--loudness", "-16",
        ])
        #expect(r.status == 0, "\(r.standardError)")
        #expect(r.standardOutput.contains("left as it was"), "\(r.standardOutput)")
        let alone = try CommandRunner.voicerack([
            "process", "--preset", "raw", "--mic", silent, "--out", folder.file("x.wav"), "--true-peak", "-1",
        ])
        #expect(alone.status == 64 && alone.standardError.contains("--true-peak goes with --loudness"))
        let device = try CommandRunner.voicerack([
            "process", "--preset", "raw", "--mic", silent, "--out", "/dev/null", "--format", "wav", "--force",
            "--loudness", "-16",
        ])
        #expect(
            device.status == 64 && device.standardError.contains("is not a regular file"), "\(device.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.wav")))
    }
}
