import Foundation
import Testing
import VoiceTestSupport

/// What a shell user meets around the options: completion of the enumerated values as bash
/// runs it, and float WAVs with the fmt chunk's extended part (WAVE_FORMAT_EXTENSIBLE).
@Suite("completion of enumerated values; float WAVs as WAVE_FORMAT_EXTENSIBLE")
struct CompletionAndFileTests {
    /// The words bash's completion function offers for the command line `words` (the last one
    /// is the word being completed), as `complete -F` calls it, with `environment` added.
    func bashCompletion(_ words: [String], environment: [String: String] = [:]) throws -> [String] {
        let folder = try TemporaryFolder()
        let script = try CommandRunner.voicerack(["--generate-completion-script", "bash"])
        #expect(script.status == 0, "\(script.standardError)")
        try script.standardOutput.write(toFile: folder.file("voicerack.bash"), atomically: true, encoding: .utf8)
        let binaryFolder = (CommandRunner.voicerack as NSString).deletingLastPathComponent
        let r = try CommandRunner.run(
            "/bin/bash",
            [
                "-c",
                """
                source "$1"; shift
                COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
                _voicerack "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """,
                "_", folder.file("voicerack.bash"),
            ] + words, environment: environment.merging(["PATH": binaryFolder + ":/usr/bin:/bin"]) { $1 })
        #expect(r.status == 0, "\(r.standardError)")
        return r.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test("bash completes --log-level, --format, --stream-tap and --stream-format with their values")
    func enumeratedValues() throws {
        #expect(
            try bashCompletion(["voicerack", "run", "--log-level", ""]).sorted()
                == ["critical", "debug", "error", "info", "notice", "trace", "warning"])
        #expect(try bashCompletion(["voicerack", "run", "--log-level", "w"]) == ["warning"])
        let formats = try bashCompletion(["voicerack", "run", "--format", "wav"])
        #expect(
            formats.contains("wav:pcm24") && formats.contains("wav:float") && formats.contains("wavex"), "\(formats)")
        #expect(!formats.contains { !$0.hasPrefix("wav") }, "\(formats)")
        let flac = try bashCompletion(["voicerack", "process", "--format", "flac:"])
        #expect(flac.contains("flac:pcm24") && !flac.contains("flac:float"), "\(flac)")
        #expect(
            try bashCompletion(["voicerack", "run", "--stream-tap", ""]).sorted()
                == ["karaoke", "mic", "monitor", "reference", "voice"])
        #expect(try bashCompletion(["voicerack", "run", "--stream-format", ""]).sorted() == ["mp3", "opus"])
    }

    @Test("bash completes preset keys (set/get's) after presets show NAME, from the declarations")
    func keysComplete() throws {
        #expect(
            try bashCompletion(["voicerack", "presets", "show", "echo-cancel", "compressor.th"])
                == ["compressor.threshold_dbfs"])
        let output = try bashCompletion(["voicerack", "presets", "show", "raw", "output."])
        #expect(output == ["output.gain_db"], "\(output)")
        let engine = try bashCompletion(["voicerack", "presets", "show", "raw", "echo_canceller.t"])
        #expect(engine == ["echo_canceller.tail_ms"], "\(engine)")
        // Every key offered is one `get` answers (printed alone by `presets show NAME KEY...`).
        let all = try bashCompletion(["voicerack", "presets", "show", "raw", ""])
        #expect(all.count > 100 && all.contains("agc.target_dbfs") && all.contains("reverb.mix"), "\(all.count)")
        let shown = try CommandRunner.voicerack(["presets", "show", "raw"] + all)
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(shown.standardOutput.split(separator: "\n").map { String($0.prefix { $0 != " " }) } == all)
        let wrong = try CommandRunner.voicerack(["presets", "show", "raw", "compressor.treshold_dbfs"])
        #expect(wrong.status == 64 && wrong.standardError.contains("'compressor.treshold_dbfs' is not a key"))
    }

    @Test(
        "zsh's and fish's scripts ask for preset keys after presets show NAME, and the call gives them",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "zsh or fish is missing"))
    func keysCompleteInZshAndFish() throws {
        let folder = try TemporaryFolder()
        for (shell, binary) in [("zsh", "/usr/bin/zsh"), ("fish", "/usr/bin/fish")] {
            let script = try CommandRunner.voicerack(["--generate-completion-script", shell])
            #expect(script.standardOutput.contains("---completion presets show -- positional@1"), "\(shell)")
            try script.standardOutput.write(
                toFile: folder.file("voicerack.\(shell)"), atomically: true, encoding: .utf8)
            // The shell reads the script (`-n`: parse only; fish's completion needs a terminal).
            let parsed = try CommandRunner.run(binary, ["-n", folder.file("voicerack.\(shell)")])
            #expect(parsed.status == 0, "\(shell): \(parsed.standardError)")
        }
        // The call both scripts make for the key (word 4, cursor at its end), as they make it.
        let call = try CommandRunner.voicerack(
            ["---completion", "presets", "show", "--", "positional@1", "4", "13"]
                + ["voicerack", "presets", "show", "raw", "compressor.th"])
        #expect(call.standardOutput.split(separator: "\n") == ["compressor.threshold_dbfs"], "\(call.standardOutput)")
    }

    @Test(
        "a float WAV from process is WAVE_FORMAT_EXTENSIBLE (the fmt chunk's extended part), and sox reads its samples",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sox"), "sox is not installed"))
    func floatWAVIsExtensible() throws {
        let folder = try TemporaryFolder()
        let mic = folder.file("mic.wav")
        try TestFiles.wav(
            mic, [Signals.sine(count: 48_000, frequency: 440, sampleRate: 48_000, amplitude: 0.3)], rate: 48_000)
        let ref = try TestFiles.wav(folder.file("ref.wav"), [[Float](repeating: 0, count: 48_000)], rate: 48_000)
        let out = folder.file("out.wav")
        let r = try CommandRunner.voicerack(
            [
                "process", "--preset", "raw", "--mic", mic, "--ref", ref, "--out", out, "--format", "wav:float",
                "--quiet",
            ])
        try #require(r.status == 0, "\(r.standardError)")
        // WAVE_FORMAT_EXTENSIBLE (0xFFFE) with its extended part: cbSize 22, 32 valid bits, the
        // IEEE float subformat (GUID 00000003-0000-0010-8000-00aa00389b71); fmt is 40 bytes.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        let fmt = try #require(Self.chunk("fmt ", in: bytes), "no fmt chunk")
        func word(_ at: Int) -> Int { Int(bytes[fmt.data + at]) | Int(bytes[fmt.data + at + 1]) << 8 }
        #expect(fmt.size == 40, "fmt chunk of \(fmt.size) bytes")
        #expect(word(0) == 0xFFFE && word(16) == 22 && word(18) == 32)
        #expect(
            Array(bytes[fmt.data + 24..<fmt.data + 40]) == [3, 0, 0, 0, 0, 0, 16, 0, 128, 0, 0, 170, 0, 56, 155, 113])
        // sox reads the samples as written: a 0.3 peak. (sox 14.4.2 still prints "wave header
        // missing extended part of fmt chunk" for every extensible float file, ffmpeg's too:
        // its reader looks for the extension a second time; see docs/measurements.md.)
        let sox = try CommandRunner.run("/usr/bin/sox", [out, "-n", "stat"])
        #expect(sox.status == 0, "\(sox.standardError)")
        let peak = sox.standardError.firstMatch(of: /Maximum amplitude:\s+([0-9.]+)/).flatMap { Double($0.1) }
        #expect(peak.map { abs($0 - 0.3) < 0.02 } == true, "\(sox.standardError)")
        let samples = sox.standardError.firstMatch(of: /Samples read:\s+(\d+)/).flatMap { Int($0.1) }
        #expect(samples == 48_000, "\(sox.standardError)")
    }

    /// The RIFF chunk `id`: where its data starts and its size.
    static func chunk(_ id: String, in bytes: [UInt8]) -> (data: Int, size: Int)? {
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            if name == id { return (offset + 8, size) }
            offset += 8 + size + (size & 1)
        }
        return nil
    }
}
