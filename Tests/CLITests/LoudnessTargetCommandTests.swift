import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `agc.target_lufs` offline: `voicerack process` with a preset that sets it brings spoken
/// files at different levels to the target, read by ffmpeg's `ebur128` filter; bad values and
/// `run --no-loudness-meter` beside it are refused.
@Suite(
    "agc.target_lufs (voicerack process)",
    .enabled(
        if: FFmpegLoudness.path != nil && SpokenText.available,
        "ffmpeg, espeak-ng or sox is not installed (scripts/install-deps.sh)"))
struct LoudnessTargetCommandTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// The podcast preset steered to -16 LUFS; its chain without the compressor, whose 3:1 above
    /// -26 dBFS leaves the leveller's target range (up to -6 dBFS) short of -16 LUFS
    /// (docs/measurements.md).
    static let preset = """
        base = "podcast"
        [chain]
        order = "gate, deesser, limiter"
        [agc]
        target_lufs = -16
        """

    @Test("spoken files 8 dB apart come out at -16 ± 1 LUFS after their first 10 s, read by ffmpeg")
    func settlesToTheTarget() throws {
        let preset = folder.file("loud16.toml")
        try Self.preset.write(toFile: preset, atomically: true, encoding: .utf8)
        for (name, gain) in [("middle", -5.0), ("loud", 3.0)] {
            let mic = try SpokenText.write(folder.file("\(name).wav"), repeats: 3, gain: gain)
            let out = folder.file("\(name)-out.wav")
            let r = try CommandRunner.voicerack(["process", "--preset", preset, "--mic", mic, "--out", out])
            #expect(r.status == 0, "\(r.standardError)")
            let before = try FFmpegLoudness.read(mic)
            let settled = try FFmpegLoudness.read(SpokenText.trim(out, from: 10, to: folder.file("\(name)-late.wav")))
            print(
                "target_lufs -16 offline, \(name): in \(before.integrated) LUFS, out after 10 s \(settled.integrated) LUFS"
            )
            #expect(abs(settled.integrated - -16) <= 1, "\(name): \(before) → \(settled)")
        }
    }

    @Test("out of range, without the leveller, and beside run --no-loudness-meter: refused with the key")
    func refusals() throws {
        let high = folder.file("high.toml")
        try "base = \"podcast\"\n[agc]\ntarget_lufs = -3\n".write(toFile: high, atomically: true, encoding: .utf8)
        let checked = try CommandRunner.voicerack(["presets", "check", high])
        #expect(checked.status == 65, "\(checked.standardError)")
        #expect(checked.standardError.contains("agc.target_lufs = -3 is out of range"), "\(checked.standardError)")
        let preset = folder.file("loud16.toml")
        try Self.preset.write(toFile: preset, atomically: true, encoding: .utf8)
        let run = try CommandRunner.voicerack([
            "run", "--preset", preset, "--no-loudness-meter", "--server", "vr-none-\(getpid())",
        ])
        #expect(run.status == 64, "\(run.standardError)")
        #expect(run.standardError.contains("--no-loudness-meter"), "\(run.standardError)")
        #expect(run.standardError.contains("agc.target_lufs"), "\(run.standardError)")
    }
}
