import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// `voicerack process --stream` against a real icecast2 and a real listener (ffmpeg): the mount
/// carries the file's processed voice, sent in real time; bad settings, a closed port and a wrong
/// password give 64, 69 and 77 before anything is written.
@Suite("voicerack process --stream: a file's processed voice to an Icecast mount")
struct ProcessStreamTests {
    static var toolsAvailable: Bool {
        IcecastServer.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")
    }

    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    /// Seconds of silence before the speech: the listener joins during them (the server has no
    /// burst on connect, and ffmpeg, started once the source is on the mount, took several seconds
    /// to join on a loaded machine).
    static let leadIn = 8

    /// `leadIn` s of silence, then 8 s of speech-like signal; and a silent far end.
    func inputs(rate: Int) throws -> (mic: String, ref: String) {
        let speech = Signals.speechLike(count: rate * 8, sampleRate: rate, rms: 0.08, seed: 83)
        let mic = try TestFiles.wav(
            folder.file("mic.wav"), [[Float](repeating: 0, count: rate * Self.leadIn) + speech], rate: rate)
        let ref = try TestFiles.wav(
            folder.file("far.wav"), [[Float](repeating: 0, count: rate * (Self.leadIn + 8))], rate: rate)
        return (mic, ref)
    }

    @Test(
        "ffmpeg decodes the mount; it matches the run's own --out from the listener's join on (none missing ±1 s, level within 1 dB, correlation > 0.9); nothing lost on air; the password is never printed",
        .enabled(if: toolsAvailable, "icecast2 or ffmpeg missing"))
    func streamsTheProcessedVoice() throws {
        let password = "pw-\(UInt32.random(in: 0...UInt32.max))"
        let icecast = try IcecastServer(sourcePassword: password)
        defer { icecast.stop() }
        let rate = 48_000
        let (mic, ref) = try inputs(rate: rate)
        let local = folder.file("voice.wav")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.voicerack)
        process.arguments = [
            "process", "--mic", mic, "--ref", ref, "--out", local, "--stream",
            "icecast://source@127.0.0.1:\(icecast.port)/test.ogg", "--stream-password-env", "TEST_STREAM_PASSWORD",
            "--stream-name", "process test",
        ]
        process.environment = ProcessInfo.processInfo.environment.merging(["TEST_STREAM_PASSWORD": password]) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        #expect(waitFor(15) { icecast.hasSource("/test.ogg") }, "no source on the mount")
        let listener = try Listener(url: "http://127.0.0.1:\(icecast.port)/test.ogg", output: folder.file("heard.f32"))
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(listener.waitUntilExit(timeout: IcecastServer.listenerEndBound), "ffmpeg did not end with the stream")
        #expect(stdout.contains("streamed voice to icecast://source@127.0.0.1:\(icecast.port)/test.ogg"), "\(stdout)")
        #expect(stdout.contains("lost 0.0 s"), "\(stdout)")
        #expect(!(stdout + stderr).contains(password), "the password appeared in the output")

        // The test server has no burst on connect: unpaced, the file would be on air before
        // ffmpeg joined, and the listener would hear next to nothing. ffmpeg joins when it has
        // started, which under load can take seconds: what it heard is compared from its join on,
        // and a join within the lead-in leaves all of the speech to hear.
        let c = StreamComparison(
            decoded: listener.samples, local: try AudioFileContents.read(local).channels[0], rate: rate)
        print("process --stream: \(c)")
        #expect(c.joinSeconds > -0.5 && c.joinSeconds < Double(Self.leadIn), "joined after the speech began")
        #expect(c.decodedSeconds > 7, "the listener heard under 7 s: not paced in real time?")
        #expect(abs(c.missingAfterJoinSeconds) < 1, "audio missing after the listener joined")
        #expect(c.correlation > 0.9)
        #expect(abs(c.decodedLevelDB - c.localLevelDB) < 1)
    }

    @Test(
        "a bad bitrate exits 64, a closed port 69, a wrong password 77: each with a message naming it, no stack trace, no output file",
        .enabled(if: toolsAvailable, "icecast2 or ffmpeg missing"))
    func refusesBeforeWriting() throws {
        let icecast = try IcecastServer(sourcePassword: "right-\(UInt32.random(in: 0...UInt32.max))")
        defer { icecast.stop() }
        let (mic, ref) = try inputs(rate: 16_000)
        let closed = try IcecastServer.freePort()
        let cases: [(arguments: [String], code: Int32, says: String)] = [
            (
                ["--stream", "icecast://source:x@127.0.0.1:\(icecast.port)/a.mp3", "--stream-bitrate", "100"], 64,
                "bitrate_kbps: 100 is not an MP3 bitrate"
            ),
            (["--stream", "icecast://source:x@127.0.0.1:\(closed)/a.ogg"], 69, "cannot reach"),
            (
                ["--stream", "icecast://source:wrong-pass@127.0.0.1:\(icecast.port)/a.ogg"], 77,
                "refused the source credentials"
            ),
        ]
        for (arguments, code, says) in cases {
            let out = folder.file("out-\(code).wav")
            let r = try CommandRunner.voicerack(["process", "--mic", mic, "--ref", ref, "--out", out] + arguments)
            #expect(r.status == code, "\(arguments): \(r.standardError)")
            #expect(r.standardError.contains(says), "\(r.standardError)")
            #expect(!r.standardError.contains("wrong-pass"))
            #expect(!r.standardError.contains("Fatal error"))
            #expect(!FileManager.default.fileExists(atPath: out), "\(out) was written")
        }
    }

    @Test("the --stream-* flags override the preset's [stream] keys, which apply where no flag is given")
    func flagsOverrideThePreset() throws {
        let (mic, ref) = try inputs(rate: 16_000)
        let preset = folder.file("show.toml")
        try """
        base = "echo-cancel"
        [stream]
        format = "mp3"
        bitrate_kbps = 128
        password_env = "VOICERACK_TEST_UNSET_VARIABLE"
        """.write(toFile: preset, atomically: true, encoding: .utf8)
        let base = ["process", "--preset", preset, "--mic", mic, "--ref", ref, "--out", folder.file("o.wav")]
        // The URL's password replaces password_env (else: "is not set"); the preset's mp3 applies.
        let mp3 = try CommandRunner.voicerack(
            base + ["--stream", "icecast://source:x@127.0.0.1:9/a.ogg", "--stream-bitrate", "999"])
        #expect(mp3.status == 64 && mp3.standardError.contains("999 is not an MP3 bitrate"), "\(mp3.standardError)")
        // --stream-format replaces the preset's format.
        let opus = try CommandRunner.voicerack(
            base + [
                "--stream", "icecast://source:x@127.0.0.1:9/a.ogg", "--stream-bitrate", "999", "--stream-format",
                "opus",
            ])
        #expect(
            opus.status == 64 && opus.standardError.contains("999 is outside opus's 6...510"), "\(opus.standardError)")
        // Without a password in the URL, the preset's password_env is used.
        let env = try CommandRunner.voicerack(base + ["--stream", "icecast://source@127.0.0.1:9/a.mp3"])
        #expect(
            env.status == 64 && env.standardError.contains("VOICERACK_TEST_UNSET_VARIABLE is not set"),
            "\(env.standardError)")
    }

    @Test(
        "presets check refuses a [stream] with a password (65, file:line) and voicerack run refuses it before any JACK work"
    )
    func refusesAPasswordInAPreset() throws {
        let preset = folder.file("leaky.toml")
        try "[stream]\nurl = \"icecast://source:hackme@127.0.0.1:8000/a.ogg\"\n".write(
            toFile: preset, atomically: true, encoding: .utf8)
        for arguments in [["presets", "check", preset], ["run", "--preset", preset]] {
            let r = try CommandRunner.voicerack(arguments)
            #expect(r.status == 65, "\(arguments): \(r.standardError)")
            #expect(
                r.standardError.contains("\(preset):2: stream.url: a preset never holds the password"),
                "\(r.standardError)")
            #expect(!(r.standardError + r.standardOutput).contains("hackme"))
        }
    }
}
