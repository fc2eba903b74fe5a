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
        _ = try runTool("/usr/bin/jack_connect", ["-s", server.name, "system:capture_1", "\(Self.client):mic_in"])
        _ = try runTool(
            "/usr/bin/jack_connect", ["-s", server.name, "\(Self.client):speaker_out_L", "system:playback_1"])
        // What the driver reports (the dummy driver's values depend on its mode): the seed must be
        // the playback latency of the speaker port plus the capture latency of the mic port.
        let playback = try #require(Self.latencyMinimum(try server.lsp(["-l", "system:playback_1"]), "playback"))
        let capture = try #require(Self.latencyMinimum(try server.lsp(["-l", "system:capture_1"]), "capture"))
        #expect(playback > 0 && capture > 0)
        let seeded = poll(timeout: 10) {
            voicerack.output.contains("seeded from JACK latencies: \(playback + capture) samples")
        }
        #expect(seeded, "\(voicerack.output)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0)
    }

    /// The first number of `jack_lsp -l`'s "<mode> latency = [ min max ]" line.
    static func latencyMinimum(_ text: String, _ mode: String) -> Int? {
        guard let range = text.range(of: "\(mode) latency = [ ") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }
}
