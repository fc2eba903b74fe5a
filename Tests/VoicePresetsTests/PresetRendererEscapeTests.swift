import Foundation
import Testing
import VoiceEngine
import VoiceTestSupport

@testable import VoicePresets

/// What a saved preset carries from a sender (the preset's name, its source path, its
/// description) is escaped: a shell that reads the file (a preset saved where `~/.bashrc` was)
/// runs nothing, and the preset still reads back the same.
@Suite struct PresetRendererEscapeTests {
    @Test("a newline in the source or name, $(...) or backticks in the description run nothing in bash")
    func nothingRunsInAShell() throws {
        let temporary = try TemporaryPresets()
        let marker = temporary.directory + "/ran"
        let preset = Preset(
            name: "x\ntouch \(marker)-name",
            description: "$(touch \(marker)-description) `touch \(marker)-backtick`",
            source: "/tmp/a\ntouch \(marker)-source\n#", base: nil, settings: PresetSettings())
        let text = PresetRenderer.toml(preset, pluginHost: lv2Host)
        let path = try temporary.write("saved", text)
        // Each line on its own, so an error on one (`description: command not found`) stops nothing.
        let shell = try CommandRunner.run(
            "/bin/bash", ["-c", "while IFS= read -r line; do eval \"$line\"; done < '\(path)'"])
        let ran = ["name", "description", "backtick", "source"].filter {
            FileManager.default.fileExists(atPath: "\(marker)-\($0)")
        }
        #expect(ran.isEmpty, "ran: \(ran)\n\(text.prefix(300))\n\(shell.standardError.prefix(300))")
        #expect(
            text.split(separator: "\n").allSatisfy {
                $0.isEmpty || $0.hasPrefix("#") || $0.contains(" = ") || $0.hasPrefix("[")
            })
        let reread = try PresetLibrary(directories: [], pluginHost: lv2Host).check(path)
        #expect(reread.description == preset.description)
    }
}
