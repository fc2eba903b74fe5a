import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack process` where data could be lost: two outputs to one file, a WAV past 4 GiB, and
/// Ctrl-C half way.
@Suite("voicerack process: nothing lost, nothing clobbered")
struct ProcessFaultTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func input(seconds: Double, rate: Int = 16_000) throws -> String {
        try TestFiles.wav(
            folder.file("mic.wav"),
            [Signals.speechLike(count: Int(seconds * Double(rate)), sampleRate: rate, rms: 0.1, seed: 3)],
            rate: rate)
    }

    @Test("--out X with --record mic=X, or two taps to one file, is refused before anything is written (64)")
    func oneFileOneOutput() throws {
        let mic = try input(seconds: 1)
        let out = folder.file("out.wav")
        for extra in [
            ["--record", "mic=\(out)"],
            ["--record", "mic=\(folder.file("t.wav"))", "--record", "voice=\(folder.path)/./t.wav"],
        ] {
            let r = try CommandRunner.voicerack(["process", "--preset", "raw", "--mic", mic, "--out", out] + extra)
            #expect(r.status == 64, "\(extra): \(r.standardError)")
            #expect(r.standardError.contains("already writes"), "\(r.standardError)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test("--out X with --record mic=LINK, a symlink to X (there or not yet), is refused the same way (64)")
    func aLinkToTheOutputIsTheOutput() throws {
        let mic = try input(seconds: 1)
        let out = folder.file("out.wav")
        let link = folder.file("link.wav")
        #expect(symlink("out.wav", link) == 0)
        for existing in [false, true] {
            if existing { try Data("not audio".utf8).write(to: URL(fileURLWithPath: out)) }
            let r = try CommandRunner.voicerack(
                ["process", "--preset", "raw", "--mic", mic, "--out", out, "--record", "mic=\(link)", "--force"])
            #expect(r.status == 64, "existing \(existing): \(r.standardError)")
            #expect(r.standardError.contains("--out already writes \(link) (a link to \(out))"), "\(r.standardError)")
            #expect(FileManager.default.fileExists(atPath: out) == existing)
        }
    }

    @Test("a WAV output past the 4 GiB limit rolls over into numbered files, says so, and keeps every frame")
    func wavRollsOver() throws {
        let mic = try input(seconds: 4)
        let out = folder.file("out.wav")
        // 100 kB per file (float mono at 16 kHz: 64 kB/s) instead of 4 GiB.
        let r = try CommandRunner.voicerack(
            ["process", "--preset", "raw", "--mic", mic, "--out", out],
            environment: ["VOICERACK_ROLLOVER_BYTES": "100000"])
        #expect(r.status == 0, "\(r.standardError)")
        #expect(
            r.standardOutput.contains("the output passed 4 GiB: continued in \(folder.file("out-0002.wav"))"),
            "\(r.standardOutput)")
        var frames = 0
        var index = 1
        while true {
            let path = index == 1 ? out : folder.file(String(format: "out-%04d.wav", index))
            guard FileManager.default.fileExists(atPath: path) else { break }
            frames += try AudioFileContents.read(path).frames
            index += 1
        }
        #expect(index > 3, "\(index - 1) files")
        #expect(frames == 64_000, "every frame of the 4 s mic, across the files")
        // No hidden temporary left behind.
        let hidden = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "\(hidden)")
    }

    @Test("Ctrl-C half way: exit 130, the partial output removed, an existing file kept")
    func interruptedRunLeavesNothing() throws {
        let rate = 48_000
        let long = try TestFiles.wav(
            folder.file("long.wav"), [Signals.whiteNoise(count: rate * 120, rms: 0.1, seed: 4)], rate: rate)
        let far = try TestFiles.wav(
            folder.file("far.wav"), [Signals.whiteNoise(count: rate * 120, rms: 0.1, seed: 5)], rate: rate)
        let out = folder.file("out.wav")
        try "keep me".write(toFile: out, atomically: true, encoding: .utf8)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandRunner.voicerack)
        child.arguments = [
            "process", "--preset", "echo-cancel", "--mic", long, "--ref", far, "--out", out, "--force", "-q",
        ]
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        // Wait until the hidden partial output exists, then interrupt.
        let deadline = Date().addingTimeInterval(30)
        func partials() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
                $0.hasPrefix(".out.wav")
            }
        }
        while partials().isEmpty && Date() < deadline && child.isRunning { usleep(20_000) }
        try #require(!partials().isEmpty && child.isRunning, "no partial output appeared")
        kill(child.processIdentifier, SIGINT)
        child.waitUntilExit()
        #expect(child.terminationStatus == 130)
        #expect(partials().isEmpty, "left: \(partials())")
        #expect((try? String(contentsOfFile: out, encoding: .utf8)) == "keep me")
    }
}
