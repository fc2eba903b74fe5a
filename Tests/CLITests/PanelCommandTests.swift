import Foundation
import Testing
import VoiceTestSupport

/// `voicerack panel url` and `rotate-token`: the lasting token in the user's config folder.
@Suite("voicerack panel: url and rotate-token")
struct PanelCommandTests {
    @Test("url prints the address with the stored token, the same each time; rotate-token changes it; 0600")
    func urlAndRotation() throws {
        let folder = NSTemporaryDirectory() + "voicerack-panel-cli-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["XDG_CONFIG_HOME": folder]
        let none = try CommandRunner.voicerack(["panel", "url"], environment: environment)
        #expect(none.status == 66, "\(none.standardError)")
        #expect(none.standardError.contains("no panel has run yet; give its port: --web PORT"))

        let first = try CommandRunner.voicerack(["panel", "url", "--web", "8080"], environment: environment)
        #expect(first.status == 0, "\(first.standardError)")
        let url = first.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            url.hasPrefix("http://127.0.0.1:8080/?token=") && url.count == "http://127.0.0.1:8080/?token=".count + 32)
        let again = try CommandRunner.voicerack(["panel", "url", "--web", "8080"], environment: environment)
        #expect(again.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == url)
        var info = stat()
        #expect(stat(folder + "/voicerack/panel-token", &info) == 0 && info.st_mode & 0o777 == 0o600)

        let rotated = try CommandRunner.voicerack(["panel", "rotate-token"], environment: environment)
        #expect(rotated.status == 0, "\(rotated.standardError)")
        #expect(!rotated.standardOutput.contains(String(url.suffix(32))), "the old token is not printed")
        let after = try CommandRunner.voicerack(["panel", "url", "--web", "8080"], environment: environment)
        let newURL = after.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(newURL.hasPrefix("http://127.0.0.1:8080/?token=") && newURL != url)
        #expect(stat(folder + "/voicerack/panel-token", &info) == 0 && info.st_mode & 0o777 == 0o600)
    }
}
