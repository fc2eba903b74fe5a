import Foundation
import Testing
import VoiceFiles
import VoiceTestSupport

/// voicerack's mute on a PipeWire desktop: the microphone node's own mute (`pactl
/// set-source-mute`) is voicerack's mute and the other way round, and talking while muted sends
/// one desktop notification to `org.freedesktop.Notifications` on the session bus (a test server,
/// `notification-server.py`), none for far-end echo alone.
///
/// In the serialized live suite, so only one server runs at a time.
extension LiveClientTests {
    static var notificationServerAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: python)
            && (try? runTool(python, ["-c", "import dbus, dbus.service, gi.repository.GLib"]).status) == 0
            && Tools.which("gdbus") != nil
    }

    /// "Mute: yes" or "Mute: no" of the source `name`, as pactl reports it.
    static func sourceMuted(_ name: String, on server: PipeWireServer) -> Bool? {
        let answer = (try? server.pactl(["get-source-mute", name])) ?? ""
        return answer.contains("Mute: yes") ? true : answer.contains("Mute: no") ? false : nil
    }

    @Test(
        "pactl set-source-mute voicerack-mic mutes voice_out, gliding over 20 ms to silence, and unmutes it; voicerack's own mute (OSC) shows on the source",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable && Tools.jackSimpleClient != nil && oscPeerAvailable,
            "pipewire-pulse, pulseaudio-utils, wireplumber, jack_simple_client or python3-liblo is missing"))
    func pipeWireSourceMute() throws {
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let take = folder.file("voice.wav")
        let (voicerack, _) = try launchVoicerack(
            on: server, linking: ["--pipewire"], ["--osc", "0", "--record", take, "--format", "wav:float"])
        defer { voicerack.stop(SIGKILL) }
        let port = try Self.oscPort(voicerack)
        #expect(Self.awaitPipeWireLinks(on: server).isEmpty, "\(voicerack.output)")
        let sine = try feedSineToMic(on: server)
        defer { sine.stop(SIGTERM) }
        Thread.sleep(forTimeInterval: 1)
        // The desktop mutes the source: voice_out follows.
        _ = try server.pactl(["set-source-mute", "voicerack-mic", "1"])
        let muted = poll(timeout: 5) { voicerack.output.contains("voice_out muted: 'voicerack-mic' was muted") }
        #expect(muted, "\(voicerack.output)")
        Thread.sleep(forTimeInterval: 0.5)
        _ = try server.pactl(["set-source-mute", "voicerack-mic", "0"])
        let opened = poll(timeout: 5) { voicerack.output.contains("voice_out open: 'voicerack-mic' was unmuted") }
        #expect(opened, "\(voicerack.output)")
        Thread.sleep(forTimeInterval: 0.5)
        // voicerack's own mute shows on the source, and its unmute too.
        #expect(try Self.oscAsk(port, "/voicerack/voice/mute", ["T"]).isReply)
        let sourceMuted = poll(timeout: 5) { Self.sourceMuted("voicerack-mic", on: server) == true }
        #expect(sourceMuted, "the source's mute: \(String(describing: Self.sourceMuted("voicerack-mic", on: server)))")
        #expect(try Self.oscAsk(port, "/voicerack/voice/mute", ["F"]).isReply)
        let sourceOpen = poll(timeout: 5) { Self.sourceMuted("voicerack-mic", on: server) == false }
        #expect(sourceOpen, "\(voicerack.output)")
        Thread.sleep(forTimeInterval: 0.5)
        // Nothing undid either side meanwhile.
        #expect(Self.sourceMuted("voicerack-mic", on: server) == false)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
        let voice = try AudioFileContents.read(take).channels[0]
        let stretches = Self.silentStretches(voice, atLeast: 4_800)
        // Two mutes: the desktop's and voicerack's own, each opened again.
        #expect(stretches.count == 2, "silent stretches \(stretches)")
        for stretch in stretches {
            let before = Self.peak(voice, (stretch.lowerBound - 960)..<(stretch.lowerBound - 720))
            let end = Self.peak(voice, (stretch.lowerBound - 240)..<stretch.lowerBound)
            print(
                "pipewire source mute: voice_out silent for \(stretch.count) samples; peak 20-15 ms before \(fmt(Double(before))), last 5 ms \(fmt(Double(end)))"
            )
            // A 0.2 sine gliding to 0 over 960 samples: over 0.75 of it 20 ms before, under 0.25 in the last 5 ms.
            #expect(before > 0.15 && end < 0.06, "no glide: \(before) then \(end)")
        }
    }

    @Test(
        "muted on the desktop, PipeWire killed and started again: voicerack stays muted and mutes the new microphone node",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable, "pipewire-pulse, pulseaudio-utils or wireplumber is missing"))
    func pipeWireMuteSurvivesRestart() throws {
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let (voicerack, _) = try launchVoicerack(on: server, linking: ["--pipewire"], ["--wait-for-server"])
        defer { voicerack.stop(SIGKILL) }
        #expect(Self.awaitPipeWireLinks(on: server).isEmpty, "\(voicerack.output)")
        _ = try server.pactl(["set-source-mute", "voicerack-mic", "1"])
        try #require(poll(timeout: 5) { voicerack.output.contains("voice_out muted") }, "\(voicerack.output)")
        server.kill()
        try #require(
            poll(timeout: 15) { voicerack.output.contains("waiting for it to come back") }, "\(voicerack.output)")
        try server.restart()
        #expect(Self.awaitPipeWireLinks(on: server).isEmpty, "\(voicerack.output)")
        let sourceMuted = poll(timeout: 5) { Self.sourceMuted("voicerack-mic", on: server) == true }
        #expect(
            sourceMuted, "the new node's mute: \(String(describing: Self.sourceMuted("voicerack-mic", on: server)))")
        Thread.sleep(forTimeInterval: 2.5)
        #expect(!voicerack.output.contains("voice_out open"), "\(voicerack.output)")
        #expect(Self.sourceMuted("voicerack-mic", on: server) == true)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 20) == 0, "\(voicerack.output)")
    }

    /// The stretches of `samples` that are exactly 0 for at least `minimum` samples, after the
    /// first sound.
    static func silentStretches(_ samples: [Float], atLeast minimum: Int) -> [Range<Int>] {
        guard let first = samples.firstIndex(where: { $0 != 0 }) else { return [] }
        var stretches: [Range<Int>] = []
        var start: Int?
        for index in first..<samples.count {
            if samples[index] == 0 {
                if start == nil { start = index }
            } else if let from = start {
                if index - from >= minimum { stretches.append(from..<index) }
                start = nil
            }
        }
        return stretches
    }

    static func peak(_ samples: [Float], _ range: Range<Int>) -> Float {
        samples[max(0, range.lowerBound)..<min(samples.count, range.upperBound)].map(abs).max() ?? 0
    }

    @Test(
        "muted on the desktop, 30 s of far end and its echo alone send no notification; the near-end talker then sends one, in the preset's words, to org.freedesktop.Notifications on the session bus",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable && TestPeer.executable != nil && notificationServerAvailable,
            "pipewire-pulse, pulseaudio-utils, wireplumber, voicerack-testpeer, gdbus or python3-dbus is missing"))
    func pipeWireMutedTalkNotification() throws {
        let folder = try TemporaryFolder()
        let rate = CallScenarioFiles.sampleRate
        let far = Signals.speechLike(count: 30 * rate, sampleRate: rate, rms: 0.1, seed: 61)
        let room = Signals.roomImpulse(sampleRate: rate, bulkDelay: 0.06, tail: 0.15, gain: 0.5, seed: 62)
        var impulse = [Float](repeating: 0, count: (room.map(\.offset).max() ?? 0) + 1)
        for tap in room { impulse[tap.offset] += tap.gain }
        // The mic: a noise floor, and the near-end talker from 32 to 35 s on the far end's timeline.
        let n = 36 * rate
        let talker = Signals.speechLike(count: n, sampleRate: rate, rms: 0.05, seed: 63)
        let mic = Signals.mix(
            talker.indices.map { (32 * rate..<35 * rate).contains($0) ? talker[$0] : 0 },
            Signals.whiteNoise(count: n, rms: 0.003, seed: 64))
        let (farPath, micPath, roomPath) = (folder.file("far.wav"), folder.file("mic.wav"), folder.file("room.wav"))
        try EchoScenarioFiles.write(far, to: farPath)
        try EchoScenarioFiles.write(mic, to: micPath)
        try EchoScenarioFiles.write(impulse, to: roomPath)
        let preset = folder.file("notice.toml")
        try """
        base = "echo-cancel"
        [pipewire]
        muted_notice = "Test: you talk into the mute"
        muted_notice_body = "voicerack test body"
        """.write(toFile: preset, atomically: true, encoding: .utf8)

        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let (notifications, bus) = try startNotificationServer(on: server)
        defer { notifications.stop(SIGTERM) }
        let voicerack = try launchMutedOnDesktop(server, preset: preset, environment: bus)
        defer { voicerack.stop(SIGKILL) }
        let peer = try server.launch(
            try #require(TestPeer.executable),
            [
                "--server", server.name, "--target", Self.pipeWireClient, "--room", roomPath, "--mic", micPath, "--out",
                folder.file("peer.wav"), "--listen", "system-playback:monitor_FL,voice_out", "--tail", "0.5",
                "--timeout", "60",
            ])
        defer { peer.stop(SIGKILL) }
        try #require(poll(timeout: 10) { !peer.isRunning || peer.output.contains("connected") }, "\(peer.output)")
        let player = try server.launch(PipeWireServer.paplay!, ["-d", "voicerack-call", farPath])
        defer { player.stop(SIGKILL) }
        // The far end alone for 30 s: no notification.
        Thread.sleep(forTimeInterval: 31)
        let afterFarEnd = Self.notices(notifications.output)
        let farEndEvents = voicerack.output.components(separatedBy: "you are talking while muted").count - 1
        #expect(afterFarEnd.isEmpty, "notified during the far end alone: \(afterFarEnd)\n\(voicerack.output)")
        _ = TestPeer.finish(peer, timeout: 30)
        let sent = poll(timeout: 10) { !Self.notices(notifications.output).isEmpty }
        let all = Self.notices(notifications.output)
        let events = voicerack.output.components(separatedBy: "you are talking while muted").count - 1
        print(
            "pipewire muted-talk notification: detector events \(farEndEvents) in the far end alone, \(events - farEndEvents) at the talker; \(all.count) notification(s) sent; \(all.first.map { "\($0)" } ?? "none")"
        )
        #expect(sent && all.count == 1, "notifications \(all)\n\(voicerack.output)")
        #expect(all.first?["summary"] as? String == "Test: you talk into the mute", "\(all)")
        #expect(all.first?["body"] as? String == "voicerack test body", "\(all)")
        #expect(all.first?["app"] as? String == "voicerack", "\(all)")
        #expect(voicerack.output.contains("you are talking while muted"), "\(voicerack.output)")
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
    }

    @Test(
        "talking into the mute with no session bus: voicerack logs once that no notification went out, and goes on",
        .enabled(
            if: PipeWireServer.sessionManagerAvailable && TestPeer.executable != nil && Tools.which("gdbus") != nil,
            "pipewire-pulse, pulseaudio-utils, wireplumber, voicerack-testpeer or gdbus is missing"))
    func pipeWireNoticeWithoutBus() throws {
        let folder = try TemporaryFolder()
        let rate = CallScenarioFiles.sampleRate
        let n = 6 * rate
        let talker = Signals.speechLike(count: n, sampleRate: rate, rms: 0.05, seed: 71)
        let mic = Signals.mix(
            talker.indices.map { (rate..<5 * rate).contains($0) ? talker[$0] : 0 },
            Signals.whiteNoise(count: n, rms: 0.003, seed: 72))
        let (micPath, refPath) = (folder.file("mic.wav"), folder.file("ref.wav"))
        try EchoScenarioFiles.write(mic, to: micPath)
        try EchoScenarioFiles.write([Float](repeating: 0, count: n), to: refPath)
        let server = try PipeWireServer(desktop: .init())
        defer { server.stop() }
        let voicerack = try launchMutedOnDesktop(
            server, preset: "echo-cancel",
            environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder.file("no-bus"))"])
        defer { voicerack.stop(SIGKILL) }
        let peer = try server.launch(
            try #require(TestPeer.executable),
            [
                "--server", server.name, "--target", Self.pipeWireClient, "--mic", micPath, "--ref", refPath, "--out",
                folder.file("peer.wav"), "--timeout", "30",
            ])
        defer { peer.stop(SIGKILL) }
        _ = TestPeer.finish(peer, timeout: 30)
        let logged = poll(timeout: 5) { voicerack.output.contains("no desktop notification") }
        #expect(logged, "\(voicerack.output)")
        #expect(voicerack.output.components(separatedBy: "no desktop notification").count == 2, "\(voicerack.output)")
        #expect(voicerack.isRunning)
        voicerack.send(SIGINT)
        #expect(voicerack.waitForExit(timeout: 10) == 0, "\(voicerack.output)")
    }

    /// Starts `voicerack run --pipewire` on `server` with `environment` added, waits for its
    /// links, mutes the microphone node with pactl and waits until voice_out follows.
    func launchMutedOnDesktop(
        _ server: PipeWireServer, preset: String, environment: [String: String?]
    ) throws -> ChildProcess {
        let (voicerack, _) = try launchVoicerack(
            on: server, preset: preset, linking: ["--pipewire"], environment: environment)
        do {
            try #require(Self.awaitPipeWireLinks(on: server).isEmpty, "\(voicerack.output)")
            _ = try server.pactl(["set-source-mute", "voicerack-mic", "1"])
            try #require(poll(timeout: 5) { voicerack.output.contains("voice_out muted") }, "\(voicerack.output)")
        } catch {
            voicerack.stop(SIGKILL)
            throw error
        }
        return voicerack
    }

    /// Starts the test's notification server (`notification-server.py`) on `server`'s session
    /// bus and waits until it is ready; it and the environment that reaches that bus.
    func startNotificationServer(on server: PipeWireServer) throws -> (ChildProcess, [String: String?]) {
        let bus: [String: String?] = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(server.runtimeDirectory)/bus"]
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("notification-server.py").path
        let notifications = try ChildProcess(Self.python, [script], environment: bus)
        try #require(poll(timeout: 10) { notifications.output.contains("\"ready\"") }, "\(notifications.output)")
        return (notifications, bus)
    }

    /// The Notify calls the notification server recorded.
    static func notices(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }.filter { $0["summary"] != nil }
    }
}
