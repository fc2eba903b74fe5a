import Foundation
import Testing
import VoiceTestSupport

/// Where to reach the control surfaces is said whatever `--log-level` hides: without the web
/// panel's address the token is never shown and the panel cannot be opened.
extension LiveClientTests {
    @Test("--log-level warning still shows the web panel's address (with its token) once, and OSC's port")
    func surfaceAddressesShownAtWarningLevel() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let binary = try #require(Tools.voicerack, "the voicerack executable was not built next to the tests")
        // Not `startVoicerack`: it waits for the start line, which this level hides.
        let voicerack = try ChildProcess(
            binary,
            [
                "run", "--server", server.name, "--name", Self.client, "--no-auto-connect", "--preset", "raw", "--web",
                "0", "--osc", "0", "--log-level", "warning",
            ], environment: Tools.environment)
        defer { voicerack.stop(SIGKILL) }
        #expect(poll(timeout: 15) { (try? server.lsp([]))?.contains("\(Self.client):voice_out") == true })
        let shown = poll(timeout: 5) {
            voicerack.output.contains("web panel: open http://127.0.0.1:")
                && voicerack.output.contains("OSC on udp 127.0.0.1:")
        }
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "output:\n\(voicerack.output)")
        #expect(shown, "output:\n\(voicerack.output)")
        #expect(voicerack.output.components(separatedBy: "/?token=").count == 2, "output:\n\(voicerack.output)")
    }
}
