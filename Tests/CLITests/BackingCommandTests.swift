import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack process --backing` and `run --backing`, as the built binary: what they accept and
/// what they refuse, with which exit code.
@Suite("voicerack --backing")
struct BackingCommandTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func wav(_ name: String, _ channels: [[Float]], rate: Int) throws -> String {
        try TestFiles.wav(folder.file(name), channels, rate: rate)
    }

    @Test("process --backing needs no --ref, records the karaoke tap and reports no underruns")
    func processWithBackingOnly() throws {
        let song = Signals.speechLike(count: 44_100 * 2, sampleRate: 44_100, rms: 0.1, seed: 3)
        let backing = try wav("song.wav", [song, song], rate: 44_100)
        let mic = try wav("mic.wav", [Signals.whiteNoise(count: 96_000, rms: 0.01, seed: 4)], rate: 48_000)
        let r = try CommandRunner.voicerack([
            "process", "--preset", "karaoke", "--mic", mic, "--backing", backing, "--out", folder.file("out.wav"),
            "--record", "karaoke=\(folder.file("mix.wav"))",
        ])
        #expect(r.status == 0, "\(r.standardError)")
        #expect(
            r.standardError.contains(
                "backing track \(backing) (2 ch, resampled from 44100 Hz) at -6 dB; mixed into the reference"))
        #expect(r.standardOutput.contains("stereo reference"))
        #expect(r.standardOutput.contains("backing track: 0 frames underrun"))
        #expect(r.standardOutput.contains("recorded karaoke to \(folder.file("mix.wav"))"))
        let mix = try AudioFileContents.read(folder.file("mix.wav"))
        #expect(mix.channels.count == 2 && mix.frames == 96_000)
    }

    @Test("a missing backing file exits 66 and a file that is not audio 65, naming the file")
    func refusesBadBackingFiles() throws {
        let mic = try wav("mic.wav", [[Float](repeating: 0, count: 4_800)], rate: 48_000)
        let missing = folder.file("missing.flac")
        let r = try CommandRunner.voicerack([
            "process", "--preset", "karaoke", "--mic", mic, "--backing", missing, "--out", folder.file("o.wav"),
        ])
        #expect(r.status == 66)
        #expect(r.standardError.contains("backing track \(missing) does not exist"))
        let text = folder.file("song.wav")
        try "la la la".write(toFile: text, atomically: true, encoding: .utf8)
        let bad = try CommandRunner.voicerack([
            "process", "--preset", "karaoke", "--mic", mic, "--backing", text, "--out", folder.file("o.wav"),
        ])
        #expect(bad.status == 65)
        #expect(bad.standardError.contains("backing track: cannot read audio file \(text)"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("o.wav")))
        // run checks before it opens a JACK client: 66 even with no server to talk to.
        let live = try CommandRunner.voicerack([
            "run", "--preset", "karaoke", "--backing", missing, "--server", "voicerack-none-\(getpid())",
        ])
        #expect(live.status == 66, "\(live.standardError)")
        #expect(live.standardError.contains("backing track \(missing) does not exist"))
    }

    @Test("without --ref or --backing an echo-cancelling preset still asks for --ref")
    func refStillNeededWithoutBacking() throws {
        let mic = try wav("mic.wav", [[Float](repeating: 0, count: 4_800)], rate: 48_000)
        let r = try CommandRunner.voicerack([
            "process", "--preset", "karaoke", "--mic", mic, "--out", folder.file("o.wav"),
        ])
        #expect(r.status == 64)
        #expect(r.standardError.contains("pass --ref FILE"))
    }

    @Test("--help documents --backing, SIGUSR2 and a karaoke example")
    func help() throws {
        let run = try CommandRunner.voicerack(["run", "--help"], environment: ["COLUMNS": "80"])
        #expect(run.standardOutput.contains("--backing <file>"))
        #expect(run.standardOutput.contains("\n  SIGUSR2                 Pause or resume the backing track"))
        #expect(run.standardOutput.contains("--preset karaoke --backing song.flac"))
        let process = try CommandRunner.voicerack(["process", "--help"])
        #expect(process.standardOutput.contains("--backing <file>"))
        #expect(process.standardOutput.contains("optional with --backing"))
    }
}
