import Foundation
import Testing
import VoiceTestSupport

/// `plugins show <TAB>` completes the installed plugins (Debian's, on LV2_PATH), each by the end
/// of its URI, in bash, zsh and fish.
extension CompletionAndFileTests {
    static let system = ["LV2_PATH": "/usr/lib/lv2"]

    @Test(
        "bash completes plugins show with the plugins' URI ends, each one that plugins show resolves",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/lv2/dpl.lv2"), "x42's dpl.lv2 is not installed"))
    func bashCompletesPluginNames() throws {
        let all = try bashCompletion(["voicerack", "plugins", "show", ""], environment: Self.system)
        let listed = try CommandRunner.voicerack(["plugins", "list", "--names"], environment: Self.system)
        #expect(listed.status == 0)
        let names = listed.standardOutput.split(separator: "\n").map(String.init)
        print("plugin completion: \(all.count) candidates, e.g. \(all.prefix(4).joined(separator: " "))")
        #expect(all.sorted() == names.sorted(), "completion offers what plugins list --names prints")
        #expect(all.count >= 10)
        #expect(all.contains("dpl#mono"))
        #expect(
            try bashCompletion(["voicerack", "plugins", "show", "dpl#m"], environment: Self.system) == ["dpl#mono"])
        // Each offered word names one plugin: plugins show takes it (a few, not all 200 and more).
        for name in ["dpl#mono"] + all.filter { !$0.contains(":") }.prefix(3) {
            let shown = try CommandRunner.voicerack(["plugins", "show", name], environment: Self.system)
            #expect(!shown.standardError.contains("fits several"), "\(name): \(shown.standardError)")
            #expect(shown.standardOutput.contains("http"), "\(name) resolves to a URI")
        }
    }

    @Test(
        "zsh and fish ask voicerack for the same candidates as bash (their scripts' call, made as they make it)",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/lv2/dpl.lv2"), "x42's dpl.lv2 is not installed"))
    func zshAndFishCallForPluginNames() throws {
        for shell in ["zsh", "fish"] {
            let script = try CommandRunner.voicerack(["--generate-completion-script", shell])
            #expect(script.standardOutput.contains("---completion plugins show -- positional@0"), "\(shell)")
        }
        // The call the scripts make: the words so far, the word's index and the cursor in it.
        let r = try CommandRunner.voicerack(
            [
                "---completion", "plugins", "show", "--", "positional@0", "3", "5", "voicerack", "plugins", "show",
                "dpl#m",
            ],
            environment: Self.system)
        #expect(r.standardOutput.split(separator: "\n") == ["dpl#mono"], "\(r.standardError)")
    }
}
