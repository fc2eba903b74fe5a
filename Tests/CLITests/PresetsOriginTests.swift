import Foundation
import Testing
import VoiceTestSupport

/// `presets list` says where each preset comes from, and where it looked when it finds none;
/// `--version` prints the version constant.
@Suite("voicerack presets origins and version")
struct PresetsOriginTests {
    @Test("each preset is listed with its origin; a user preset shadows the shipped one")
    func origins() throws {
        let environmentFolder = try TemporaryFolder()
        let config = try TemporaryFolder()
        try FileManager.default.createDirectory(
            atPath: config.file("voicerack/presets"), withIntermediateDirectories: true)
        try "description = \"from the environment\"\n".write(
            toFile: environmentFolder.file("studio.toml"), atomically: true, encoding: .utf8)
        try "description = \"my echo-cancel\"\nbase = \"echo-cancel\"\n".write(
            toFile: config.file("voicerack/presets/echo-cancel.toml"), atomically: true, encoding: .utf8)
        let r = try CommandRunner.voicerack(
            ["presets", "list"],
            environment: ["VOICERACK_PRESETS": environmentFolder.path, "XDG_CONFIG_HOME": config.path])
        #expect(r.status == 0, "\(r.standardError)")
        let lines = r.standardOutput.split(separator: "\n").map(String.init)
        let line = { (name: String) in lines.first { $0.hasPrefix(name + " ") } ?? "" }
        #expect(line("studio").hasSuffix("from the environment  [$VOICERACK_PRESETS]"), "\(lines)")
        #expect(line("echo-cancel").hasSuffix("my echo-cancel  [user folder]"), "\(lines)")
        #expect(line("podcast").hasSuffix("  [shipped]"), "\(lines)")
        #expect(lines.count == 10, "nine shipped presets, one shadowed, one added: \(lines)")
    }

    @Test("a binary that finds no presets names the folders it looked in and exits 66")
    func noneFound() throws {
        let folder = try TemporaryFolder()
        let copy = folder.file("bin/voicerack")
        try FileManager.default.createDirectory(atPath: folder.file("bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CommandRunner.voicerack, toPath: copy)
        let r = try CommandRunner.run(
            copy, ["presets", "list"],
            environment: [
                "HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config"), "VOICERACK_PRESETS": folder.file("none"),
            ])
        #expect(r.status == 66)
        #expect(r.standardOutput.isEmpty)
        #expect(
            r.standardError.contains("no presets found; looked in: \(folder.file("none")) ($VOICERACK_PRESETS)"),
            "\(r.standardError)")
        #expect(
            r.standardError.contains("\(folder.file("config"))/voicerack/presets (user folder)"), "\(r.standardError)")
        #expect(r.standardError.contains("\(folder.file("share"))/voicerack/presets (shipped)"), "\(r.standardError)")
    }

    @Test("--version prints the version constant")
    func version() throws {
        let source = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Sources/voicerack/Version.swift").path,
            encoding: .utf8)
        let constant = try #require(source.firstMatch(of: /static let string = "([0-9.]+)"/)?.1)
        let r = try CommandRunner.voicerack(["--version"])
        #expect(r.status == 0)
        #expect(r.standardOutput == "\(constant)\n")
    }
}
