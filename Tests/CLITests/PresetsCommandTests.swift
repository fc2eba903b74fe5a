import Foundation
import Testing
import VoiceTestSupport

/// `voicerack presets`, run as the built binary.
@Suite("voicerack presets")
struct PresetsCommandTests {
    @Test("lists the shipped presets")
    func lists() throws {
        let r = try CommandRunner.voicerack(["presets", "list"])
        #expect(r.status == 0)
        for name in ["echo-cancel", "podcast", "raw"] { #expect(r.standardOutput.contains(name)) }
    }

    @Test("lists long preset names in full, descriptions aligned after the longest")
    func listsLongNamesInFull() throws {
        let folder = try TemporaryFolder()
        let long = "my-very-long-preset-name-for-the-studio"
        try "description = \"long one\"\nbase = \"raw\"\n".write(
            toFile: folder.file(long + ".toml"), atomically: true, encoding: .utf8)
        let r = try CommandRunner.voicerack(["presets", "list"], environment: ["VOICERACK_PRESETS": folder.path])
        #expect(r.status == 0)
        let lines = r.standardOutput.split(separator: "\n").map(String.init)
        let mine = try #require(lines.first { $0.hasPrefix(long) }, "\(r.standardOutput)")
        #expect(mine == long + "  long one  [$VOICERACK_PRESETS]", "\(mine)")
        let raw = try #require(lines.first { $0.hasPrefix("raw ") })
        #expect(raw.firstIndex(of: "B").map { raw.distance(from: raw.startIndex, to: $0) } == long.count + 2, "\(raw)")
    }

    @Test("a 5 MB section name is refused on its line with the limit, in a short message")
    func refusesHugeSectionName() throws {
        let folder = try TemporaryFolder()
        let file = folder.file("huge.toml")
        try ("[" + String(repeating: "a", count: 5_000_000) + "]\n").write(
            toFile: file, atomically: true, encoding: .utf8)
        let r = try CommandRunner.voicerack(["presets", "check", file])
        #expect(r.status == 65)
        #expect(
            r.standardError
                == "voicerack: error: \(file):1: line is 5000002 characters long; lines are at most 262144\n"
        )
    }

    @Test("shows a preset fully resolved, in TOML that checks clean")
    func showsAndRechecks() throws {
        let folder = try TemporaryFolder()
        let shown = try CommandRunner.voicerack(["presets", "show", "echo-cancel"])
        #expect(shown.status == 0)
        #expect(shown.standardOutput.contains("[echo_canceller]"))
        let file = folder.file("copy.toml")
        try shown.standardOutput.write(toFile: file, atomically: true, encoding: .utf8)
        let checked = try CommandRunner.voicerack(["presets", "check", file])
        #expect(checked.status == 0, "\(checked.standardError)")
    }

    @Test(
        "bad presets exit 65 with file, line, key and the allowed range",
        arguments: [
            (
                "[echo_canceller]\ntail_ms = 5000\n",
                ":2: echo_canceller.tail_ms = 5000 is out of range; allowed 20...1000 ms"
            ),
            ("[echo_canceller]\ntail = 100\n", ":2: unknown key 'echo_canceller.tail'"),
            ("[preprocessor]\nvad = \"yes\"\n", ":2: preprocessor.vad must be true or false"),
            ("base = \"nope\"\n", ":1: base preset 'nope' not found"),
            ("[input]\ngain_db 3\n", ":2: "),
        ])
    func rejectsBadPresets(text: String, message: String) throws {
        let folder = try TemporaryFolder()
        let file = folder.file("bad.toml")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try CommandRunner.voicerack(["presets", "check", file])
        #expect(r.status == 65)
        #expect(r.standardError.contains(file + message), "\(r.standardError)")
        // The same preset refused by `process` before any audio is touched.
        let p = try CommandRunner.voicerack([
            "process", "--preset", file, "--mic", "x.wav", "--out", folder.file("o.wav"),
        ])
        #expect(p.status == 65)
        #expect(!FileManager.default.fileExists(atPath: folder.file("o.wav")))
    }

    @Test("an unknown preset name lists the available ones")
    func unknownName() throws {
        let r = try CommandRunner.voicerack(["presets", "show", "nope"])
        #expect(r.status == 65)
        #expect(r.standardError.contains("preset 'nope' not found; available: echo-cancel"))
    }
}
