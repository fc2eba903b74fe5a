import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack process` with a format that cannot hold the mic's rate (Opus is 8–48 kHz in five
/// steps, MP3 at most 48 kHz): refused up front (64) naming the file, the format and the rates
/// it takes, leaving no file (not even a hidden temporary) behind.
@Suite("voicerack process: format and rate")
struct FormatRateTests {
    @Test(
        "refused with 64 before any file is opened",
        arguments: [
            (44_100, "out.opus", "--out", "opus:opus takes 8000, 12000, 16000, 24000, 48000 Hz"),
            (96_000, "out.opus", "--out", "opus:opus takes 8000, 12000, 16000, 24000, 48000 Hz"),
            (
                96_000, "out.mp3", "--out",
                "mp3:mp3 takes 8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000 Hz"
            ),
            (44_100, "tap.opus", "--record", "opus:opus takes 8000, 12000, 16000, 24000, 48000 Hz"),
        ])
    func refused(rate: Int, name: String, option: String, rates: String) throws {
        let folder = try TemporaryFolder()
        let mic = try TestFiles.wav(
            folder.file("mic.wav"), [Signals.speechLike(count: rate, sampleRate: rate, rms: 0.1, seed: 3)], rate: rate)
        let target = folder.file(name)
        let out = option == "--out" ? target : folder.file("out.wav")
        var arguments = ["process", "--preset", "raw", "--mic", mic, "--out", out]
        if option == "--record" { arguments += ["--record", "mic=" + target] }
        let r = try CommandRunner.voicerack(arguments)
        #expect(r.status == 64, "\(r.status): \(r.standardError)")
        let named = option == "--out" ? "--out \(target): " : "--record mic=\(target): "
        #expect(r.standardError.contains(named + "format '"), "\(r.standardError)")
        #expect(r.standardError.contains("at \(rate) Hz; " + rates), "\(r.standardError)")
        #expect(!r.standardError.contains("/."), "a hidden file is named: \(r.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["mic.wav"])
    }

    @Test("the rates it names really work")
    func namedRatesWork() throws {
        let folder = try TemporaryFolder()
        let mic = try TestFiles.wav(
            folder.file("mic.wav"), [Signals.speechLike(count: 24_000, sampleRate: 24_000, rms: 0.1, seed: 3)],
            rate: 24_000)
        let r = try CommandRunner.voicerack([
            "process", "--preset", "raw", "--mic", mic, "--out", folder.file("out.opus"),
        ])
        #expect(r.status == 0, "\(r.standardError)")
        #expect(try AudioFileContents.read(folder.file("out.opus")).sampleRate == 24_000)
    }
}
