import Foundation
import Testing

/// A set to a unit that is not in the chain is refused by the session, whichever surface sends
/// it: here OSC under echo-cancel (an empty chain), then accepted once the unit is added.
extension LiveClientTests {
    @Test(
        "OSC under echo-cancel: set compressor.threshold_dbfs -18 is refused (not in the chain); after set chain.order compressor it is applied",
        .enabled(if: oscPeerAvailable, "python3-liblo is missing"))
    func oscRefusesUnitsNotInTheChain() throws {
        let server = try JACKServer()
        defer { server.stop() }
        let folder = try Self.recordingFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (voicerack, _) = try launchRecordingClient(on: server, preset: "echo-cancel", ["--osc", "0"], in: folder)
        defer { voicerack.stop(SIGKILL) }
        let port = try Self.oscPort(voicerack)

        let refused = try Self.oscAsk(port, "/voicerack/set", ["s:compressor.threshold_dbfs", "f:-18"])
        print("OSC set outside the chain: \(refused.path) \(refused.text)")
        #expect(refused.path == "/voicerack/error", "\(refused)")
        #expect(refused.text.contains("the compressor unit is not in the chain (chain.order is empty)"), "\(refused)")
        let kept = try Self.oscAsk(port, "/voicerack/get", ["s:compressor.threshold_dbfs"])
        #expect(kept.arguments.count > 2 && kept.arguments[2] as? Double != -18, "nothing was changed: \(kept)")

        let added = try Self.oscAsk(port, "/voicerack/set", ["s:chain.order", "s:compressor"])
        #expect(added.isReply && added.text.contains("chain rebuilt"), "\(added)")
        let applied = try Self.oscAsk(port, "/voicerack/set", ["s:compressor.threshold_dbfs", "f:-18"])
        #expect(applied.isReply && applied.text == "compressor.threshold_dbfs = -18", "\(applied)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "output:\n\(voicerack.output)")
    }
}
