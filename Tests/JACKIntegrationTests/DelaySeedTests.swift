import Foundation
import Testing

extension LiveClientTests {
    @Test("the reference delay is seeded from JACK's playback + capture latencies once the speakers are connected")
    func delaySeededFromPortLatencies() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let voicerack = try startVoicerack(on: server)
        defer { voicerack.stop(SIGKILL) }
        // Unconnected speakers: the far end's path is unknown, nothing is seeded.
        Thread.sleep(forTimeInterval: 1)
        #expect(!voicerack.output.contains("seeded from JACK latencies"))
        // The dummy driver reports one period (256) of latency on its capture and playback ports.
        _ = try runTool("/usr/bin/jack_connect", ["-s", server.name, "\(Self.client):speaker_out_L", "system:playback_1"])
        _ = try runTool("/usr/bin/jack_connect", ["-s", server.name, "system:capture_1", "\(Self.client):mic_in"])
        let seeded = poll(timeout: 10) { voicerack.output.contains("seeded from JACK latencies: 512 samples") }
        #expect(seeded, "\(voicerack.output)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0)
    }
}
