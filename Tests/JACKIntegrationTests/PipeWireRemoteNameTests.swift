import Foundation
import Testing
import VoiceTestSupport

/// Under PipeWire's libjack without `--server`, voicerack names the PipeWire daemon it joined
/// (`$PIPEWIRE_REMOTE`), not jackd's `default`.
extension LiveClientTests {
    @Test(
        "PipeWire's JACK without --server: the startup line names the PipeWire remote, not 'default'",
        .enabled(if: PipeWireServer.available, "pipewire, pipewire-jack or the JACK tools are missing"))
    func pipeWireRemoteIsNamed() throws {
        let server = try PipeWireServer()
        defer { server.stop() }
        let binary = try #require(Tools.voicerack)
        let voicerack = try server.launch(
            binary, ["run", "--name", Self.pipeWireClient, "--preset", "raw", "--no-auto-connect"], environment: [:])
        defer { voicerack.stop(SIGKILL) }
        #expect(poll(timeout: 20) { voicerack.output.contains("running as JACK client") }, "\(voicerack.output)")
        #expect(
            voicerack.output.contains("running as JACK client '\(Self.pipeWireClient)' on server '\(server.name)'"),
            "\(voicerack.output)")
        #expect(!voicerack.output.contains("on server 'default'"), "\(voicerack.output)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
    }
}
