import Foundation
import Testing
import VoiceTestSupport

/// WirePlumber killed and started again alone while an app plays. WirePlumber 0.4.13 then links
/// no stream until PipeWire restarts too (docs/pipewire.md); voicerack sees it and says what to
/// do, in the log and in a desktop notification, and the remedy brings the sound back.
extension LiveClientTests {
    /// The ports on `server` linked to `port` that are not voicerack's.
    static func otherPeers(of port: String, on server: PipeWireServer) -> [String] {
        peers(of: port, on: server).filter { !$0.hasPrefix("\(pipeWireClient):") }
    }

    @Test(
        "WirePlumber killed and started again alone while an app plays: when it links nothing within 5 s voicerack logs the remedy and sends one notification; PipeWire restarted with it, new playback is linked to the sound card and voicerack relinks",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable && notificationServerAvailable,
            "pipewire-pulse, pulseaudio-utils, wireplumber, python3-dbus or gdbus is missing"))
    func pipeWireSessionManagerRestart() throws {
        let folder = try TemporaryFolder()
        let scenario = try CallScenarioFiles(in: folder)
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let (notifications, bus) = try startNotificationServer(on: server)
        defer { notifications.stop(SIGTERM) }
        let (voicerack, _) = try launchVoicerack(
            on: server, linking: ["--pipewire"], ["--wait-for-server"], environment: bus)
        defer { voicerack.stop(SIGKILL) }
        try #require(Self.awaitPipeWireLinks(on: server).isEmpty, "\(voicerack.output)\(server.companionLogs)")
        // Another app plays music on the sound card, across the restart.
        let music = try server.launch(PipeWireServer.paplay!, ["-d", "system-playback", scenario.musicPath])
        defer { music.stop(SIGKILL) }
        let musicLinked = { !Self.otherPeers(of: PipeWireServer.playbackPorts[0], on: server).isEmpty }
        try #require(poll(timeout: 10) { musicLinked() }, "\((try? server.lsp(["-c"])) ?? "")\(server.companionLogs)")

        try server.restartSessionManager()
        let restarted = Date()
        let stallNote = "has not linked the desktop again"
        // Whichever comes first: the warning (at 5 s), or everything linked again.
        _ = poll(timeout: 8) {
            voicerack.output.contains(stallNote)
                || (musicLinked() && Self.awaitPipeWireLinks(on: server, timeout: 0).isEmpty)
        }
        let warnedAfter = Date().timeIntervalSince(restarted)
        if !voicerack.output.contains(stallNote), musicLinked() {
            // A WirePlumber that does not hang (0.5): no warning, no notification.
            Thread.sleep(forTimeInterval: 5)
            #expect(!voicerack.output.contains(stallNote), "\(voicerack.output)")
            #expect(Self.notices(notifications.output).isEmpty, "\(notifications.output)")
            print("wireplumber restart: relinked after \(fmt(warnedAfter)) s")
            return
        }
        #expect(voicerack.output.contains(stallNote), "no warning of the stall:\n\(voicerack.output)")
        #expect(!musicLinked(), "the music was relinked, yet voicerack warned:\n\(voicerack.output)")
        #expect(
            voicerack.output.contains("systemctl --user restart pipewire pipewire-pulse wireplumber"),
            "\(voicerack.output)")
        #expect(poll(timeout: 5) { !Self.notices(notifications.output).isEmpty }, "\(notifications.output)")
        let sent = Self.notices(notifications.output)
        #expect(sent.count == 1, "\(sent)")
        #expect(sent.first?["summary"] as? String == "Sound stalled: restart PipeWire", "\(sent)")
        music.stop(SIGKILL)

        // The remedy: PipeWire, its Pulse server and WirePlumber restarted together.
        try server.restart()
        let back = Date()
        let missing = Self.awaitPipeWireLinks(on: server, timeout: 10)
        #expect(missing.isEmpty, "voicerack did not relink after the remedy: \(missing)\n\(voicerack.output)")
        let linksAfter = Date().timeIntervalSince(back)
        let again = try server.launch(PipeWireServer.paplay!, ["-d", "system-playback", scenario.musicPath])
        defer { again.stop(SIGKILL) }
        #expect(poll(timeout: 5) { musicLinked() }, "new music not linked after the remedy:\n\(server.companionLogs)")
        print(
            "wireplumber restart: stalled; warned \(fmt(warnedAfter)) s after the restart, \(sent.count) notification; after the remedy voicerack relinked in \(fmt(linksAfter)) s"
        )
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "\(voicerack.output)")
    }
}
