import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack process`, run as the built binary: what it writes, what it refuses, and with which
/// exit code (sysexits).
@Suite("voicerack process")
struct ProcessCommandTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// Writes `channels` to a WAV file in the folder and returns its path.
    func wav(_ name: String, _ channels: [[Float]], rate: Int = 16_000) throws -> String {
        try TestFiles.wav(folder.file(name), channels, rate: rate)
    }

    /// A 4-second echo scenario at `rate`: returns (mic path, ref path).
    func scenario(rate: Int = 16_000, refRate: Int? = nil, refSeconds: Double = 4) throws -> (String, String) {
        let n = rate * 4
        let far = Signals.speechLike(count: Int(refSeconds * Double(rate)), sampleRate: rate, rms: 0.1, seed: 5)
        let echo = Signals.delayed(Array(far.prefix(n)).map { $0 * 0.4 }, by: rate / 20)
        let mic = try wav("mic.wav", [echo + [Float](repeating: 0, count: max(0, n - echo.count))], rate: rate)
        let refRate = refRate ?? rate
        let ref =
            refRate == rate
            ? far : Signals.speechLike(count: Int(refSeconds * Double(refRate)), sampleRate: refRate, rms: 0.1, seed: 5)
        return (mic, try wav("ref.wav", [ref], rate: refRate))
    }

    @Test("writes the processed voice at the mic's rate and length and reports what it did")
    func processesEchoScenario() throws {
        let (mic, ref) = try scenario()
        let out = folder.file("out.wav")
        let r = try CommandRunner.voicerack([
            "process", "--preset", "echo-cancel", "--mic", mic, "--ref", ref, "--out", out,
        ])
        #expect(r.status == 0, "\(r.standardError)")
        let written = try AudioFileContents.read(out)
        #expect(written.sampleRate == 16_000 && written.channels.count == 1 && written.frames == 64_000)
        #expect(r.standardOutput.contains("preset echo-cancel"))
        #expect(r.standardOutput.contains("reference delay: estimated 50.0 ms"))
        #expect(r.standardOutput.contains("the file is time-aligned"))
        // The echo is going: 4 s is short (the delay is found after ~1 s, then the filter
        // converges); engine tests assert the steady-state figures on longer scenarios.
        let mic16 = try AudioFileContents.read(mic).channels[0]
        #expect(Measure.ratioDB(mic16, written.channels[0], 40_000..<64_000) > 15)
    }

    @Test("a reference at another rate is resampled and said so")
    func resamplesReference() throws {
        let (mic, ref) = try scenario(rate: 16_000, refRate: 48_000)
        let r = try CommandRunner.voicerack(["process", "--mic", mic, "--ref", ref, "--out", folder.file("o.wav")])
        #expect(r.status == 0, "\(r.standardError)")
        #expect(r.standardError.contains("reference resampled from 48000 Hz to 16000 Hz"))
    }

    @Test("refuses to overwrite without --force (73), overwrites with it")
    func noSilentOverwrite() throws {
        let (mic, ref) = try scenario()
        let out = folder.file("out.wav")
        FileManager.default.createFile(atPath: out, contents: Data("keep me".utf8))
        let refused = try CommandRunner.voicerack(["process", "--mic", mic, "--ref", ref, "--out", out])
        #expect(refused.status == 73)
        #expect(refused.standardError.contains("\(out) already exists; pass --force"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep me")
        let forced = try CommandRunner.voicerack(["process", "--mic", mic, "--ref", ref, "--out", out, "--force"])
        #expect(forced.status == 0)
        #expect(try AudioFileContents.read(out).frames == 64_000)
    }

    @Test("refuses mismatched inputs with a message naming the file (65)")
    func refusesMismatchedInputs() throws {
        let (mic, _) = try scenario()
        let short = try wav("short.wav", [[Float](repeating: 0.1, count: 16_000)])
        let r = try CommandRunner.voicerack(["process", "--mic", mic, "--ref", short, "--out", folder.file("o.wav")])
        #expect(r.status == 65)
        #expect(r.standardError.contains("\(short) is 1.000 s long but \(mic) is 4.000 s"))
        #expect(r.standardError.contains("--allow-length-mismatch"))
        let padded = try CommandRunner.voicerack(
            ["process", "--mic", mic, "--ref", short, "--out", folder.file("o.wav"), "--allow-length-mismatch"])
        #expect(padded.status == 0)

        let stereoMic = try wav("stereo.wav", [[Float](repeating: 0, count: 100), [Float](repeating: 0, count: 100)])
        let s = try CommandRunner.voicerack([
            "process", "--preset", "raw", "--mic", stereoMic, "--out", folder.file("s.wav"),
        ])
        #expect(s.status == 65)
        #expect(s.standardError.contains("\(stereoMic): the microphone file has 2 channels"))

        let garbage = folder.file("garbage.wav")
        FileManager.default.createFile(atPath: garbage, contents: Data("not audio at all".utf8))
        let g = try CommandRunner.voicerack([
            "process", "--preset", "raw", "--mic", garbage, "--out", folder.file("g.wav"),
        ])
        #expect(g.status == 65)
        #expect(g.standardError.contains("cannot read audio file \(garbage)"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("g.wav")))
    }

    @Test("usage errors exit 64, missing input files 66 (EX_NOINPUT), impossible outputs 73")
    func usageAndIOErrors() throws {
        let (mic, ref) = try scenario()
        let noRef = try CommandRunner.voicerack([
            "process", "--preset", "echo-cancel", "--mic", mic, "--out", folder.file("o.wav"),
        ])
        #expect(noRef.status == 64)
        #expect(noRef.standardError.contains("needs the far-end signal: pass --ref"))
        let block = try CommandRunner.voicerack([
            "process", "--mic", mic, "--ref", ref, "--out", folder.file("o.wav"), "--block", "0",
        ])
        #expect(block.status == 64)
        #expect(block.standardError.contains("--block 0 is out of range"))
        let latency = try CommandRunner.voicerack([
            "process", "--mic", mic, "--ref", ref, "--out", folder.file("o.wav"), "--latency-ms", "5000",
        ])
        #expect(latency.status == 64)
        #expect(latency.standardError.contains("--latency-ms 5000.0 is out of range"))
        let format = try CommandRunner.voicerack([
            "process", "--mic", mic, "--ref", ref, "--out", folder.file("o.wav"), "--format", "wav:pcm12",
        ])
        #expect(format.status == 64)
        #expect(format.standardError.contains("unknown encoding; choose one of pcm16, pcm24"))
        let missing = try CommandRunner.voicerack([
            "process", "--mic", folder.file("nope.wav"), "--ref", ref, "--out", folder.file("o.wav"),
        ])
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("MIC file \(folder.file("nope.wav")) does not exist"))
        let missingRef = try CommandRunner.voicerack([
            "process", "--mic", mic, "--ref", folder.file("nope.wav"), "--out", folder.file("o.wav"),
        ])
        #expect(missingRef.status == 66)
        #expect(missingRef.standardError.contains("REF file \(folder.file("nope.wav")) does not exist"))
        let noFolder = try CommandRunner.voicerack([
            "process", "--mic", mic, "--ref", ref, "--out", folder.file("no/such/dir/o.wav"),
        ])
        #expect(noFolder.status == 73)
        #expect(noFolder.standardError.contains("folder \(folder.file("no/such/dir")) does not exist"))
    }

    @Test("taps are recorded through the recorder, aligned with the mic")
    func recordsTaps() throws {
        let (mic, ref) = try scenario()
        let r = try CommandRunner.voicerack([
            "process", "--mic", mic, "--ref", ref, "--out", folder.file("v.wav"),
            "--record", "tuning=\(folder.file("t.wav"))", "--record", "mic=\(folder.file("m.flac"))",
            "--record", "reference=\(folder.file("r.w64"))",
        ])
        #expect(r.status == 0, "\(r.standardError)")
        let tuning = try AudioFileContents.read(folder.file("t.wav"))
        let voice = try AudioFileContents.read(folder.file("v.wav")).channels[0]
        let micSamples = try AudioFileContents.read(mic).channels[0]
        #expect(tuning.channels.count == 3 && tuning.frames == 64_000)
        #expect(tuning.channels[0] == micSamples && tuning.channels[2] == voice)
        #expect(try AudioFileContents.read(folder.file("r.w64")).channels.count == 2)
        #expect(try AudioFileContents.read(folder.file("m.flac")).frames == 64_000)
        #expect(
            r.standardOutput.contains("recorded tuning to \(folder.file("t.wav")) (wavex:float, 3 ch, 64000 frames)"))
        let bad = try CommandRunner.voicerack([
            "process", "--mic", mic, "--ref", ref, "--out", folder.file("w.wav"), "--record", "ears=x.wav",
        ])
        #expect(bad.status == 64 && bad.standardError.contains("TAP one of voice, mic, reference, monitor, tuning"))
    }

    @Test("the output format follows --format or the extension, in any block size")
    func formats() throws {
        let (mic, ref) = try scenario()
        for (name, format, block) in [("a.flac", nil, "33"), ("b.wav", "wav:pcm16", "4096"), ("c.w64", nil, "1000")]
            as [(String, String?, String)]
        {
            var args = ["process", "--mic", mic, "--ref", ref, "--out", folder.file(name), "--block", block]
            if let format { args += ["--format", format] }
            let r = try CommandRunner.voicerack(args)
            #expect(r.status == 0, "\(name): \(r.standardError)")
            #expect(try AudioFileContents.read(folder.file(name)).frames == 64_000, "\(name)")
        }
    }
}
